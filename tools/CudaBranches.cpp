// CudaBranches.cpp - which changes of host code reach a use: the branches
// the program run without command-line arguments takes (`if`s, `else`s,
// `switch` cases, `while`s and `for`s false on entry, `for (int i = 1; i <
// argc; ++i)`), whether an assignment runs once before each use, and
// whether any function changes a global.
#include "CudaConstantsImpl.h"

#include "CudaCommandLineReads.h"
#include "CudaFolderNotes.h"
#include "CudaLoopHeaders.h"
#include "CudaStatements.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>

namespace ptxdvfs::tools {

using namespace expression;
using namespace constants;

namespace {

/// Why the calls passed `argv` in a condition gave what they did (withoutCommandLineCalls(),
/// withCommandLineHelpers()).
std::string optionsFound(const std::vector<std::string> &arguments) {
  return arguments.empty() ? " without command-line arguments" : ", " + programRun(arguments);
}

} // namespace

std::optional<Number> ConstantFolder::Impl::headCondition(std::size_t file, const LoopHeader &header, int depth,
                                                          bool &withoutArguments) const {
  std::string written(header.inside(files_[file].code()));
  std::string_view writtenText = header.inside(files_[file].text()); // literals kept, offsets shared
  std::size_t foldAt = header.at;
  std::string nonEmpty;
  if (const std::optional<RangeFor> range = header.keyword == "for" ? rangeFor(written) : std::nullopt) {
    // A range `for` over a container runs where it holds anything.
    if (!isName(range->range))
      return std::nullopt;
    written = nonEmpty = range->range + ".size() != 0";
    writtenText = nonEmpty;
  } else if (header.keyword == "for") {
    // Its condition, folded where its counter is declared: `int i = 1; i < argc; ++i`.
    const std::vector<std::string> parts = topLevelParts(written, ';');
    if (parts.size() != 3 || trimmed(parts[1]).empty())
      return std::nullopt; // one without a condition
    foldAt = header.open + 1 + parts[0].size() + 1;
    written = parts[1];
    writtenText = writtenText.substr(parts[0].size() + 1, parts[1].size());
  }
  // Or the samples' helpers, read in the code already (withCommandLineHelpers()): the text as written differs.
  bool argumentsRead = !arguments_.empty() && codeOf(std::string(header.inside(files_[file].text()))) !=
                                                  header.inside(files_[file].code());
  // `strcmp(argv[2], "large") == 0`; not in a loop, whose counter an option loop's `argv[i]` reads
  // (CommandLine::handReadOption() runs those), and which would fold the loop's other branches to read it.
  if (!arguments_.empty() && writtenText != written && depth < kMaxDepth &&
      loopsAround(files_[file], header.at).empty()) {
    const OptionLoopFolds folds = commandLine().foldsAt(file, foldAt, depth);
    const std::optional<std::string> compared = withStringComparisons(
        writtenText, [&](std::string_view string) { return argumentText(string, arguments_, folds); });
    argumentsRead = argumentsRead || compared;
    written = compared ? *compared : written;
  }
  const std::string withoutCalls = withoutCommandLineCalls(written, arguments_);
  withoutArguments = withoutCalls != written || argumentsRead;
  const std::size_t middles = middles_;
  // Noted aside: a fold that reads a loop's middle iteration is dropped, and so is what it read.
  std::vector<std::string> notes, openNotes;
  std::vector<std::string> *const outerNotes = notes_, *const outerOpen = openNotes_;
  notes_ = outerNotes ? &notes : nullptr;
  openNotes_ = outerOpen ? &openNotes : nullptr;
  const std::optional<Number> condition =
      depth < kMaxDepth ? number(file, foldAt, withoutAssignments(withoutCalls), depth + 1) : std::nullopt;
  notes_ = outerNotes;
  openNotes_ = outerOpen;
  if (middles_ != middles)
    return std::nullopt; // a loop's middle iteration does not say which way the others go
  note(std::move(notes));
  for (std::string &why : openNotes)
    leftOpen(std::move(why));
  return condition;
}

std::optional<bool> ConstantFolder::Impl::taken(std::size_t file, const LoopHeader &header, int depth) const {
  if (header.keyword == "case")
    return caseTaken(file, header, depth);
  const bool branch = header.keyword == "if" || header.keyword == "else",
             loop = header.keyword == "while" || header.keyword == "for";
  bool withoutArguments = false;
  const std::optional<Number> condition =
      branch || loop ? headCondition(file, header, depth, withoutArguments) : std::nullopt;
  if (!condition)
    return std::nullopt;
  const bool holds = condition->asReal() != 0;
  if (loop && holds)
    return std::nullopt; // entered: how many times is the loop counts' business
  note({quotedCode(header.text(files_[file].text())) + " at " + files_[file].where(header.at) + " is " +
        (holds ? "true" : "false") + (loop ? " on entry" : "") +
        (withoutArguments ? optionsFound(arguments_) : "")});
  return header.keyword == "else" ? !holds : holds;
}

const constants::Switch &ConstantFolder::Impl::switchOf(std::size_t file, const LoopHeader &header, int depth) const {
  const auto key = std::make_pair(file, header.at);
  if (auto read = remembered_.switches.find(key); read != remembered_.switches.end())
    return read->second;
  constants::Switch cases;
  cases.body = switchBodyOf(files_[file].code(), header);
  const Notes silenced(*this, nullptr); // a reason names the label taken, not every label folded
  const std::vector<SwitchBody::Label> &labels = cases.body.labels;
  cases.fallback = labels.size();
  for (std::size_t i = 0; i < labels.size() && cases.folds; ++i) {
    if (labels[i].fallback) {
      cases.fallback = i;
      continue;
    }
    const std::optional<std::string> compared = labelValue(labels[i], files_[file].text());
    const std::optional<Number> value = compared ? number(file, labels[i].at, *compared, depth + 1) : std::nullopt;
    cases.folds = value && !value->real;
    if (cases.folds)
      cases.jumps.emplace(value->whole, i);
  }
  return remembered_.switches.emplace(key, std::move(cases)).first->second;
}

std::optional<bool> ConstantFolder::Impl::caseTaken(std::size_t file, const LoopHeader &header, int depth) const {
  const constants::Switch &cases = switchOf(file, header, depth);
  const std::vector<SwitchBody::Label> &labels = cases.body.labels;
  bool withoutArguments = false;
  const std::optional<Number> value =
      labels.empty() || !cases.folds ? std::nullopt : headCondition(file, header, depth, withoutArguments);
  if (!value || value->real)
    return std::nullopt; // where the switch jumps is not known
  const auto jump = cases.jumps.find(value->whole);
  const std::size_t chosen = jump != cases.jumps.end() ? jump->second : cases.fallback;
  const SwitchBody::Leads leads =
      chosen < labels.size() ? cases.body.leads(chosen, header.reached) : SwitchBody::Leads::No;
  if (leads == SwitchBody::Leads::Maybe)
    return std::nullopt;
  const CudaCode &source = files_[file];
  note({quotedCode(header.text(source.text())) + " at " + source.where(header.at) + " goes to " +
        (chosen < labels.size()
             ? quotedCode(source.text().substr(labels[chosen].at, labels[chosen].end - labels[chosen].at))
             : std::string("no label")) +
        (withoutArguments ? optionsFound(arguments_) : "")});
  return leads == SwitchBody::Leads::Yes;
}

bool ConstantFolder::Impl::untaken(std::size_t file, std::size_t at, std::size_t before, int depth) const {
  // Outermost first: a branch inside a loop that never runs is not read, nor named in the reasons. A head's
  // condition runs where its statement does.
  const std::string &code = files_[file].code();
  const std::size_t head = headKeywordAround(code, at);
  const std::vector<LoopHeader> headers =
      headersAround(files_[file], statementStartAround(code, head == std::string::npos ? at : head));
  for (auto header = headers.rbegin(); header != headers.rend(); ++header) {
    const std::size_t bodyEnd = bodyEndAfter(files_[file], header->headEnd);
    if (bodyEnd == std::string::npos || (before > header->headEnd && before < bodyEnd))
      continue; // one that holds the use too
    if (taken(file, *header, depth) == false)
      return true;
  }
  return false;
}

std::optional<std::string> ConstantFolder::Impl::conditionAssigned(std::size_t file, std::size_t at,
                                                                   const std::string &name, int depth) const {
  const std::optional<ConditionAssignment> assignment = conditionAssignment(files_[file].code(), at, name);
  if (!assignment || depth >= kMaxDepth)
    return std::nullopt;
  for (const std::string &operand : assignment->before) { // C reaches it past operands that do not decide
    const std::optional<Number> value = number(
        file, assignment->condition, withoutAssignments(withoutCommandLineCalls(operand, arguments_)), depth + 1);
    if (!value || (value->asReal() != 0) == assignment->orBefore)
      return std::nullopt;
  }
  return assignment->value;
}

bool ConstantFolder::Impl::runsBeforeEachUse(std::size_t file, std::size_t at, std::size_t before, bool readsItself,
                                             int depth) const {
  const CudaCode &source = files_[file];
  const std::string &code = source.code();
  if (conditionallyCompiledBefore(code, at, before))
    return false;
  // In a head's parentheses it runs as that statement does: an `if`'s or a `switch`'s once, a loop's on each
  // pass, which only a use in the same loop sees once (`if (sscanf(argv[i], "-n=%d", &n) == 1)` in a `for`'s
  // body was read as run once, its counter at its middle).
  if (const std::size_t keyword = headKeywordAround(code, at); keyword != std::string::npos) {
    const std::string word = firstWordOf(std::string_view(code).substr(keyword));
    if (word == "if" || word == "switch")
      return runsBeforeEachUse(file, keyword, before, readsItself, depth);
    const std::size_t open = code.find('(', keyword), close = pastClosing(code, open);
    const std::size_t bodyEnd = close == std::string::npos ? close : bodyEndAfter(source, close - 1);
    if (bodyEnd == std::string::npos || before < open || before >= bodyEnd)
      return false;
    // `while ((opt = getopt(...)) != -1) switch (opt) {...}`: the use is in the loop too
  }
  std::vector<std::size_t> takenBodies; // where the bodies of the branches around `at` alone open
  for (const LoopHeader &header : headersAround(source, statementStartAround(code, at))) {
    const std::size_t bodyEnd = bodyEndAfter(source, header.headEnd);
    const bool branch = isBranch(header);
    if (bodyEnd == std::string::npos)
      return false;
    if (before > header.headEnd && before < bodyEnd) {
      if (!branch && readsItself)
        return false; // `n *= 2` in a loop around the use too: each iteration sees another value
      if (header.keyword == "case") {
        const std::vector<SwitchBody::Label> &labels = switchOf(file, header, depth).body.labels;
        if (std::any_of(labels.begin(), labels.end(),
                        [&](const SwitchBody::Label &label) { return label.at > at && label.at < before; }))
          return false; // the switch may jump past it to the use
      }
      continue;
    }
    if (!branch || taken(file, header, depth) != true)
      return false; // a loop may run it any number of times, a branch may not run it
    takenBodies.push_back(code.find_first_not_of(" \t\r\n", header.headEnd + 1));
  }
  const int useBlock = source.blockAt(before);
  for (int block = source.blockAt(at); !source.encloses(block, useBlock); block = source.parentOf(block)) {
    const std::size_t open = source.openBraceOf(block), previous = codeEndBefore(code, open);
    const bool plain = previous == 0 || std::string_view(";{}:").find(code[previous - 1]) != std::string_view::npos;
    if (!plain && std::find(takenBodies.begin(), takenBodies.end(), open) == takenBodies.end())
      return false; // a `switch` whose jump there is not known, a lambda, another function
  }
  return true;
}

namespace {

/// Steps a `while` loop is followed through before its value is left open.
constexpr int kMaxLoopSteps = 64;

/// Statements of a loop body that are followed together.
constexpr std::size_t kMaxLoopStatements = 8;

/// `text` with each whole-word `name` replaced by `(value)`.
std::string withValue(std::string text, const std::string &name, const std::string &value) {
  for (std::size_t at = text.find(name); at != std::string::npos; at = text.find(name, at)) {
    if (!isWholeWord(text, at, name.size()) || afterMemberAccess(text, at)) {
      at += name.size();
      continue;
    }
    text.replace(at, name.size(), "(" + value + ")");
    at += value.size() + 2;
  }
  return text;
}

/// One statement of a loop body, `name op= e;`: what it gives `name` (assignedText()).
struct LoopStep {
  std::size_t at = 0; ///< where the statement starts
  std::string name;
  std::string value;
};

/// The statements of a loop body from `first` to `bodyEnd` (past its `}`
/// where it is braced), where each assigns a plain name and changes
/// nothing else (`blocks /= 2; threads *= 2;`); nullopt for any other body.
std::optional<std::vector<LoopStep>> stepsOfBody(const std::string &code, std::size_t first, std::size_t bodyEnd) {
  std::vector<LoopStep> steps;
  for (std::size_t at = first; at < bodyEnd && code[at] != '}';) {
    const std::string name = firstWordOf(std::string_view(code).substr(at));
    std::optional<std::string> value = name.empty() ? std::nullopt : assignedText(code, at, name);
    const std::size_t end = value ? statementEndFrom(code, at) : std::string::npos;
    if (!value || end > bodyEnd || steps.size() == kMaxLoopStatements)
      return std::nullopt; // a declaration, a call, a nested block, ...
    for (const std::string &read : wordsIn(std::string_view(code).substr(at + name.size(), end - at - name.size())))
      if (changedWithin(code, read, at + name.size(), end))
        return std::nullopt; // `n = (m += 1) * n;`
    steps.push_back({at, name, std::move(*value)});
    at = code.find_first_not_of(" \t\r\n", end);
  }
  return steps.empty() ? std::nullopt : std::optional(std::move(steps));
}

/// The names of `steps` whose values `name`'s steps, and `condition`, need,
/// from one pass to the next: `name` itself, and each stepped name either reads.
std::set<std::string> namesNeeded(const std::vector<LoopStep> &steps, const std::string &name,
                                  const std::string &condition) {
  std::set<std::string> needed{name};
  for (const LoopStep &step : steps)
    if (readsName(condition, step.name))
      needed.insert(step.name);
  for (std::size_t before = 0; before != needed.size();) {
    before = needed.size();
    for (const LoopStep &step : steps)
      if (needed.count(step.name))
        for (const LoopStep &read : steps)
          if (readsName(step.value, read.name))
            needed.insert(read.name);
  }
  return needed;
}

} // namespace

std::optional<Number> ConstantFolder::Impl::valueAfterLoop(std::size_t file, std::size_t at, std::size_t before,
                                                           const std::string &name, int depth) const {
  const CudaCode &source = files_[file];
  const std::string &code = source.code();
  const std::vector<LoopHeader> headers = headersAround(source, statementStartAround(code, at));
  if (headers.empty() || depth >= kMaxDepth)
    return std::nullopt;
  const LoopHeader &loop = headers.front();
  const std::optional<CountedFor> counted = loop.keyword == "for" ? countedFor(loop.inside(code)) : std::nullopt;
  if (loop.keyword != "while" && !counted)
    return std::nullopt;
  // Its body is assignments of plain names, braced or not, `at` is one of them, and the use is past it.
  const std::size_t bodyEnd = bodyEndAfter(source, loop.headEnd);
  const std::size_t bodyStart = code.find_first_not_of(" \t\r\n", loop.headEnd + 1);
  if (bodyEnd == std::string::npos || before < bodyEnd || bodyStart == std::string::npos)
    return std::nullopt;
  const std::size_t first = code[bodyStart] == '{' ? code.find_first_not_of(" \t\r\n", bodyStart + 1) : bodyStart;
  const std::optional<std::vector<LoopStep>> steps = stepsOfBody(code, first, bodyEnd);
  if (!steps || std::none_of(steps->begin(), steps->end(), [&](const LoopStep &step) { return step.at == at; }))
    return std::nullopt;
  for (const LoopStep &step : *steps)
    if (changedWithin(code, step.name, loop.open, loop.close) ||
        (counted && (step.name == counted->counter || readsName(step.value, counted->counter))))
      return std::nullopt; // `while ((t *= 2) < n)`, or a step that reads the counter
  if (!runsBeforeEachUse(file, loop.at, before, false, depth))
    return std::nullopt;
  const std::string condition = counted ? std::string() : std::string(loop.inside(code));
  std::map<std::string, Number> values;
  for (const std::string &needed : namesNeeded(*steps, name, condition)) {
    const std::optional<Number> initial = number(file, loop.at, needed, depth + 1);
    if (!initial)
      return std::nullopt;
    values.emplace(needed, *initial);
  }
  const auto withValues = [&](std::string text) {
    for (const auto &[stepped, value] : values)
      text = withValue(std::move(text), stepped, shownNumber(value));
    return text;
  };
  const auto pass = [&] { // each statement reads what those before it left
    for (const LoopStep &step : *steps) {
      if (!values.count(step.name))
        continue; // nothing needed reads it
      const std::optional<Number> stepped = number(file, step.at, withValues(step.value), depth + 1);
      if (!stepped)
        return false;
      values.at(step.name) = *stepped;
    }
    return true;
  };
  const auto ended = [&](int passes) {
    const Number &value = values.at(name);
    note({"`" + name + "` = " + shownNumber(value) + " after " + quotedCode(loop.text(source.text())) + " at " +
          source.where(loop.at) + " (" + std::to_string(passes) + (passes == 1 ? " step)" : " steps)")});
    return std::optional(value);
  };
  if (counted) { // as many passes as the counter counts: `for (int i = 0; i < levels; ++i) size /= 2;`
    const std::optional<CountedRange> range = countedRange(*counted, [&](const std::string &text) {
      const std::optional<Number> folded = number(file, loop.at, text, depth + 1);
      return folded && !folded->real ? std::optional<std::int64_t>(folded->whole) : std::nullopt;
    });
    if (!range || range->count > static_cast<std::uint64_t>(kMaxLoopSteps))
      return std::nullopt;
    for (std::uint64_t passes = 0; passes < range->count; ++passes)
      if (!pass())
        return std::nullopt;
    return ended(static_cast<int>(range->count));
  }
  for (int passes = 0; passes <= kMaxLoopSteps; ++passes) {
    const std::optional<Number> holds = number(file, loop.at, withValues(condition), depth + 1);
    if (!holds)
      return std::nullopt;
    if (holds->asReal() == 0)
      return ended(passes);
    if (!pass())
      return std::nullopt;
  }
  return std::nullopt; // open, or more steps than are followed
}

bool ConstantFolder::Impl::changedAnywhere(const std::string &name, int depth) const {
  if (auto known = remembered_.globalsChanged.find(name); known != remembered_.globalsChanged.end())
    return known->second;
  const bool changed = depth >= kMaxDepth || !eachChangeAnywhere(name, [](std::size_t, std::size_t) { return false; });
  remembered_.globalsChanged.emplace(name, changed);
  return changed;
}

bool ConstantFolder::Impl::eachChangeAnywhere(
    const std::string &name, const std::function<bool(std::size_t file, std::size_t at)> &change) const {
  for (std::size_t file = 0; file < files_.size(); ++file) {
    const CudaCode &source = files_[file];
    const std::string &code = source.code();
    for (const std::size_t at : source.wordsNamed(name)) {
      if (++examined_ > kMaxNamesExamined)
        return false; // not read to the end: not known to be unchanged
      if (afterMemberAccess(code, at))
        continue; // another struct's member (`cfg::n`, which may be it, counts)
      if (!afterScopeOperator(code, at) &&
          (declaresName(declaredTypeBefore(code, at)) || listedDeclarationType(code, at).has_value()))
        continue; // a declaration (`int cols = 3, rows = 8;` too): its own (or `extern`), or a local's of that name
      // Any other change counts, a local's of that name too: which one a name means is not read.
      const bool changed = (changesAt(code, at, name.size()) && !onlyRead(file, at, name.size())) ||
                           outArgument(file, at, name.size()).has_value();
      if (changed && !change(file, at))
        return false;
    }
  }
  return true;
}

Lookup ConstantFolder::Impl::globalSetOnce(const std::string &name, std::size_t useFile, std::size_t use, int depth,
                                           Definition &found) const {
  std::optional<std::pair<std::size_t, int>> setter; // the file and body of the one function that changes it
  std::vector<std::size_t> changes;
  const bool plain = eachChangeAnywhere(name, [&](std::size_t file, std::size_t at) {
    const int body = files_[file].functionBodyAt(at);
    const std::optional<std::string> assigned = assignedText(files_[file].code(), at, name);
    if (body < 0 || !assigned || readsName(*assigned, name) || (setter && *setter != std::pair{file, body}))
      return false; // changed in two functions, or by anything but `name = value;`
    setter = {file, body};
    changes.push_back(at);
    return true;
  });
  const int useBody = files_[useFile].functionBodyAt(use);
  if (!plain || !setter || depth >= kMaxDepth || useBody < 0)
    return Lookup::Unknown;                                  // read by a global's initializer
  if (setter->first == useFile && useBody == setter->second) // `if (argc > 1) n = atoi(argv[1]);` in `main`, run bare
    // Read in the function that sets it: each change before the read was passed by (variable()), and those after
    // it run later, unless a loop holds the read.
    return loopsAround(files_[useFile], use).empty() ? Lookup::Absent : Lookup::Unknown;
  const CudaCode &source = files_[setter->first];
  const std::string function = source.functionNameOf(setter->second);
  const std::optional<std::size_t> exit = bodyLeftAt(setter->first, setter->second, depth);
  if (!exit || (function != "main" && callsOf(function, setter->first).empty()))
    return Lookup::Unknown;      // a set-up nothing calls, or one that may return early or not
  const std::size_t end = *exit; // where the body is left: before its `}`, or at the `return` that runs
  // Of the changes that run whenever the function reaches its end, in the order they are written, the last.
  std::optional<std::size_t> runs;
  Definition value;
  for (const std::size_t at : changes) {
    if (at >= end)
      continue; // past the `return` that leaves the body
    Definition read;
    if (const std::optional<Lookup> option = commandLine().change(setter->first, at, name, end, depth, read)) {
      if (*option == Lookup::Absent)
        continue; // an option loop's branch, or a `getopt` case, that no argument leads to (or not last)
      if (*option != Lookup::Found)
        return Lookup::Unknown;
      runs = at; // `n = atoi(argv[++i]);` in an option loop: the pass that sets it last
      value = read;
      continue;
    }
    if (untaken(setter->first, at, end, depth))
      continue;
    if (!runsBeforeEachUse(setter->first, at, end, false, depth))
      return Lookup::Unknown;
    runs = at;
    value = Definition(*assignedText(source.code(), at, name), setter->first, at, false);
  }
  if (!runs)
    return Lookup::Absent; // every change is in a branch the program does not take: the declared value holds
  if (function == "main") { // read in a function `main` calls: before the change, or after it
    const std::string reader = files_[useFile].functionNameOf(useBody);
    bool before = false, after = false;
    for (const auto &[callFile, call] : callsOf(reader, useFile)) {
      const bool inMain = callFile == setter->first && source.functionBodyAt(call) == setter->second;
      if (inMain && !loopsAround(source, call).empty())
        return Lookup::Unknown; // a loop may run it before the change and after it
      (inMain && call < changes.front() ? before : after) = true;
      if (inMain && call > changes.front() && call < *runs)
        return Lookup::Unknown; // between two changes
    }
    if (before && after)
      return Lookup::Unknown; // `int a = sized(1024); scale = 4; int b = sized(1024);`, both calls read
    if (before)
      return Lookup::Absent; // every call runs before `main` changes it: the declared value holds
  }
  found = value;
  note({"global `" + name + "` set at " + source.where(*runs) + " in `" + function +
        "`, the only function that changes it, taken to run before it is read"});
  return Lookup::Found;
}

} // namespace ptxdvfs::tools
