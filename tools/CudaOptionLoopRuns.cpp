// CudaOptionLoopRuns.cpp - an option loop run over the program's
// arguments, pass by pass; see CudaOptionLoops.h.
#include "CudaOptionLoops.h"

#include "CudaCommandLine.h"
#include "CudaExpression.h"
#include "CudaSource.h"
#include "CudaStatements.h"

#include <charconv>
#include <map>

namespace ptxdvfs::tools {

namespace {

/// `written` without what does not change a string's text: parentheses or `std::string(...)` around it, `.c_str()`
/// after it.
std::string unwrapped(std::string_view written) {
  std::string read = trimmed(written);
  while (read.size() > 2 && read[0] == '(' && pastClosing(read, 0) == read.size())
    read = trimmed(std::string_view(read).substr(1, read.size() - 2));
  for (std::string_view wrapper : {"std::string(", "string(", "std::string_view("})
    if (read.size() > wrapper.size() && read.compare(0, wrapper.size(), wrapper) == 0 && read.back() == ')')
      read = trimmed(std::string_view(read).substr(wrapper.size(), read.size() - wrapper.size() - 1));
  if (read.size() > 8 && read.compare(read.size() - 8, 8, ".c_str()") == 0)
    read.resize(read.size() - 8);
  return read;
}

/// Where a `switch` inside an option loop's branch jumps in one pass: its body, and the label taken
/// (labels.size() for none).
struct SwitchJump {
  SwitchBody body;
  std::size_t label = 0;
};

/// Whether the `break` at `at`, in `branch`, leaves a `switch` inside the branch rather than a loop.
bool breaksSwitchIn(const CudaCode &source, const OptionBranch &branch, std::size_t at) {
  for (const LoopHeader &header : headersAround(source, statementStartAround(source.code(), at)))
    if (header.keyword == "case" || !isBranch(header))
      return header.keyword == "case" && header.at >= branch.start;
  return false;
}

/// What the switch of `header` (a `case` inside `branch`) tests, as written, and where the counter is read for
/// it: its condition, or, where that is a name the branch sets once before it in a statement that runs
/// (`flag = argv[i][1];`), what that sets it to, where it does.
template <typename Runs>
std::optional<std::pair<std::string, std::size_t>> switchTested(const CudaCode &source, const OptionBranch &branch,
                                                                const LoopHeader &header, const std::string &counter,
                                                                const Runs &runs) {
  const std::string &code = source.code();
  const std::string condition = trimmed(header.inside(source.text()));
  const std::vector<std::string> words = wordsIn(condition);
  if (words.size() != 1 || words[0] != condition || condition == counter)
    return std::pair{condition, header.open};
  std::size_t set = std::string::npos, changes = 0;
  for (std::size_t use = code.find(condition, branch.start); use < header.at; use = code.find(condition, use + 1))
    if (isWholeWord(code, use, condition.size()) && !afterMemberAccess(code, use) &&
        changesAt(code, use, condition.size()) && ++changes == 1)
      set = use;
  if (changes == 0)
    return std::pair{condition, header.open}; // what it holds is the folder's to tell
  const std::optional<std::string> assigned = changes == 1 ? assignedText(code, set, condition) : std::nullopt;
  const std::size_t statement = statementStartAround(code, set), end = statementEndFrom(code, statement);
  const bool literal = end == std::string::npos ||
                       source.text().find_first_of("\"'", statement) < end; // which code() blanks
  const std::optional<bool> running = assigned && !literal ? runs(statement) : std::nullopt;
  if (!running || !*running || readsName(*assigned, condition))
    return std::nullopt; // set twice, by another statement, from a literal, maybe not, or from itself
  return std::pair{*assigned, statement};
}

/// Where the switch of `header` jumps in a pass: the first label whose comparison with what it tests holds by
/// `holds`, the counter as `valueAt` gives it where that is read, else its `default:`; nullopt where one
/// comparison does not fold.
template <typename ValueAt, typename Runs>
std::optional<SwitchJump> switchJump(const CudaCode &source, const OptionBranch &branch, const LoopHeader &header,
                                     const std::string &counter, const ValueAt &valueAt, const Runs &runs,
                                     const ConditionHolds &holds) {
  const auto tested = switchTested(source, branch, header, counter, runs);
  const std::optional<LoopPlace> there = tested ? valueAt(tested->second) : std::nullopt;
  if (!there)
    return std::nullopt;
  SwitchJump jump{switchBodyOf(source.code(), header), 0};
  const std::optional<std::size_t> label = jump.body.jumpTo([&](const SwitchBody::Label &label) {
    // A character's comparison is read as written (withStringComparisons()); anything else is folded whole.
    const std::optional<char> character =
        labelCharacter(std::string_view(source.text()).substr(label.at, label.end - label.at));
    const std::optional<std::string> value = labelValue(label, source.text());
    return character ? holds(tested->first + " == '" + std::string(1, *character) + "'", *there)
           : value   ? holds("(" + tested->first + ") == (" + *value + ")", *there)
                     : std::nullopt;
  });
  if (!label)
    return std::nullopt;
  jump.label = *label;
  return jump;
}

/// The array whose element an option loop's body reads its arguments from, and, in a loop that moves the array on,
/// the element's number.
struct ElementRead {
  std::string array;
  std::int64_t index = 0; ///< 1 of `argv[1]`, 0 of `*argv`; 0 where the counter is the index (`args[i]`)
};

/// The element an option loop's body reads first, in its names' initializers and then in its branches'
/// conditions: `args` of `args[i] == "-n"` (the counter `counter`), or in a loop that moves on the array `shifted`,
/// `argv` and 1 of `!strcmp(argv[1], "-n")`, 0 of `(*argv)[1]`; `argv` where the body reads none, at 0 where it
/// is shifted. An index past int64, which no pass reaches, is read as 0.
ElementRead elementRead(const OptionLoopBody &body, const std::string &counter, const std::string &shifted) {
  std::vector<std::string_view> written;
  for (const auto &alias : body.aliases)
    written.push_back(alias.second);
  for (const std::vector<OptionBranch> &chain : body.chains)
    for (const OptionBranch &branch : chain)
      written.push_back(branch.condition);
  for (const std::string_view text : written) {
    const std::vector<expression::Token> tokens = expression::tokensOf(text);
    for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
      const bool indexed = i + 3 < tokens.size() && tokens[i + 1].text == "[" && tokens[i + 3].text == "]";
      if (shifted.empty() && indexed && tokens[i].kind == expression::Token::Name && tokens[i + 2].text == counter)
        return {tokens[i].text, 0};
      if (!shifted.empty() && indexed && tokens[i].text == shifted && tokens[i + 2].kind == expression::Token::Number) {
        const std::string &number = tokens[i + 2].text;
        ElementRead read{shifted, 0};
        if (std::from_chars(number.data(), number.data() + number.size(), read.index).ec != std::errc())
          read.index = 0;
        return read;
      }
      if (!shifted.empty() && tokens[i].text == "*" && tokens[i + 1].text == shifted)
        return {shifted, 0};
    }
  }
  return {shifted.empty() ? std::string("argv") : shifted, 0};
}

/// The parts of `condition` (as written, literals kept) that `&&` joins at its top level, which C tests in turn
/// up to the first that fails; `condition` whole where it has a `||` or `?` at its top level, or none.
std::vector<std::string_view> conjuncts(std::string_view condition) {
  if (condition.find("&&") == std::string_view::npos)
    return {condition};
  const std::string code = codeOf(std::string(condition));
  std::vector<std::string_view> parts;
  int depth = 0;
  std::size_t from = 0;
  for (std::size_t at = 0; at < code.size(); ++at) {
    const char c = code[at];
    depth += c == '(' || c == '[' ? 1 : c == ')' || c == ']' ? -1 : 0;
    if (depth != 0)
      continue;
    if (c == '?' || code.compare(at, 2, "||") == 0)
      return {condition};
    if (code.compare(at, 2, "&&") == 0) {
      parts.push_back(condition.substr(from, at - from));
      from = at + 2;
      ++at;
    }
  }
  parts.push_back(condition.substr(from));
  return parts;
}

/// Whether a `return` statement starts at `at` of `code` (npos: none).
bool isReturnAt(const std::string &code, std::size_t at) {
  return at < code.size() && code.compare(at, 6, "return") == 0 && isWholeWord(code, at, 6);
}

/// The pass-by-pass reading of one option loop.
class LoopRun {
public:
  LoopRun(const OptionLoopHead &head, const OptionLoopBody &body, const std::vector<std::string> &arguments,
          const OptionLoopFolds &folds)
      : head_(head), body_(body), arguments_(arguments), folds_(folds),
        read_(elementRead(body, head.counted.counter, head.shifted)) {
    if (!head.shifted.empty()) // read where it has been moved to (withShiftedRead()): the array as `main` got it
      folds_.argvFrom = [outer = folds.argvFrom, shifted = head.shifted](const std::string &name) {
        return name == shifted ? std::optional<std::int64_t>(0) : outer(name);
      };
  }

  /// Whether `condition` holds with the loop at `place`, the pass having begun at `entry`; nullopt where it does
  /// not fold, or moves the loop on.
  std::optional<bool> holds(std::string_view condition, LoopPlace place, LoopPlace entry) const {
    LoopPlace there = place;
    const std::optional<bool> holding = steps(condition, there, entry);
    return there.counter == place.counter && there.shift == place.shift ? holding : std::nullopt;
  }

  /// Whether `condition` holds with the loop at `place`, which it moves on as its parts run.
  std::optional<bool> steps(std::string_view condition, LoopPlace &place, LoopPlace entry) const {
    for (const std::string_view part : conjuncts(condition)) {
      std::optional<std::string> read(part);
      if (!head_.shifted.empty())
        read = withShiftedRead(*read, head_.shifted, place.shift);
      const LoopPlace there = place;
      if (read && folds_.literal) // `strcmp(argv[i], name)`, `name` a parameter every call passes "-n" for
        read = withStringNamesRead(*read, folds_.literal);
      read = read ? withStringComparisons(*read,
                                          [&](std::string_view written) { return text(written, there, entry, true); })
                  : std::nullopt;
      read = read ? withCounterRead(*read, head_.counted.counter, place.counter) : std::nullopt;
      const std::optional<std::int64_t> result = read ? folds_.whole(*read) : std::nullopt;
      if (!result || *result == 0)
        return result ? std::optional<bool>(false) : std::nullopt;
    }
    return true;
  }

  /// The argument of the pass begun at `entry`, as reasons show it: `argv[3]` = -n, or, where the body reads the
  /// arguments from a copy (`args[i] == "-n"`), `args[2]` = -n, or where it moves them on, `argv[1]` = -n, `argv`
  /// moved on by 2.
  std::string over(LoopPlace entry) const {
    const std::optional<std::int64_t> from = folds_.argvFrom(read_.array);
    const std::int64_t index = head_.shifted.empty() ? entry.counter : read_.index;
    const std::int64_t position = from ? index + entry.shift + *from : 0;
    return "`" + read_.array + "[" + std::to_string(index) + "]`" +
           (position >= 1 && static_cast<std::size_t>(position) <= arguments_.size()
                ? " = " + shownArguments({arguments_[static_cast<std::size_t>(position) - 1]})
                : "") +
           (head_.shifted.empty() ? "" : ", `" + head_.shifted + "` moved on by " + std::to_string(entry.shift));
  }

private:
  /// The text of a string a condition compares, with the loop at `place`: `argv[i + 1]`, or one of the body's
  /// names (`aliases`), given `argv[i]` as the pass began (`entry`).
  std::optional<std::string> text(std::string_view written, LoopPlace place, LoopPlace entry, bool aliases) const {
    const std::string read = unwrapped(written);
    for (const auto &[alias, initializer] : body_.aliases)
      if (aliases && alias == read) {
        std::int64_t shift = entry.shift;
        const std::optional<std::string> given =
            head_.shifted.empty() ? initializer : withShiftedRead(initializer, head_.shifted, shift);
        return given && shift == entry.shift ? text(*given, entry, entry, false) : std::nullopt;
      }
    const std::optional<std::string> argument =
        argumentText(read, arguments_, folds_, [&](const std::string &index) -> std::optional<std::string> {
          std::int64_t after = place.counter;
          const std::optional<std::string> counted = withCounterRead(index, head_.counted.counter, after);
          return counted && after == place.counter ? counted : std::nullopt;
        });
    if (argument || read.empty() || (read[0] != '*' && read.back() != ']'))
      return argument;
    return characterText(read, [&](std::string_view string) { return text(string, place, entry, aliases); });
  }

  const OptionLoopHead &head_;
  const OptionLoopBody &body_;
  const std::vector<std::string> &arguments_;
  OptionLoopFolds folds_;
  const ElementRead read_; ///< the array the body reads its arguments from, and where
};
} // namespace

std::optional<std::string>
argumentText(std::string_view written, const std::vector<std::string> &arguments, const OptionLoopFolds &folds,
             const std::function<std::optional<std::string>(const std::string &index)> &index) {
  const std::string read = unwrapped(written);
  const auto array = subscripted(expression::tokensOf(read));
  const std::optional<std::int64_t> from = array ? folds.argvFrom(array->first) : std::nullopt;
  if (!from)
    return std::nullopt;
  const std::size_t open = read.find('['), close = read.rfind(']');
  const std::string inside = read.substr(open + 1, close - open - 1);
  const std::optional<std::string> rewritten = index ? index(inside) : std::optional<std::string>(inside);
  const std::optional<std::int64_t> folded = rewritten ? folds.whole(*rewritten) : std::nullopt;
  const std::int64_t position = folded && *folded >= 0 ? *folded + *from : 0;
  return position >= 1 && static_cast<std::size_t>(position) <= arguments.size()
             ? std::optional<std::string>(arguments[static_cast<std::size_t>(position) - 1])
             : std::nullopt;
}

const OptionBranch *branchHolding(const OptionLoopBody &body, std::size_t at) {
  for (const std::vector<OptionBranch> &chain : body.chains)
    for (const OptionBranch &branch : chain)
      if (branch.start <= at && at < branch.end)
        return &branch;
  return nullptr;
}

std::optional<BranchPass> branchPass(const CudaCode &source, const OptionBranch &branch, const OptionLoopHead &head,
                                     LoopPlace place, std::size_t statement, const ConditionHolds &holds) {
  const std::string &code = source.code(), &text = source.text();
  const std::string &counter = head.counted.counter;
  using Steps = std::vector<std::pair<std::size_t, std::int64_t>>;
  const std::optional<Steps> steps = counterSteps(code, counter, branch.start, branch.end);
  const std::optional<Steps> shifts =
      head.shifted.empty() ? std::optional<Steps>(Steps()) : counterSteps(code, head.shifted, branch.start, branch.end);
  if (!steps || !shifts)
    return std::nullopt;
  // Whether the code at `at` runs, and where the loop is there: each asks the other only of what comes before.
  std::function<std::optional<bool>(std::size_t)> runs;
  const auto valueAt = [&](std::size_t at) -> std::optional<LoopPlace> {
    LoopPlace there = place;
    for (const auto &[stepped, moved] : {std::pair{&*steps, &there.counter}, std::pair{&*shifts, &there.shift}})
      for (const auto &[stepAt, added] : *stepped) {
        const std::optional<bool> stepRuns = stepAt < at ? runs(stepAt) : std::optional<bool>(false);
        if (!stepRuns)
          return std::nullopt;
        *moved += *stepRuns ? added : 0;
      }
    return there;
  };
  std::map<std::size_t, std::optional<SwitchJump>> jumps; // each `switch` in the branch, by its offset
  runs = [&](std::size_t at) -> std::optional<bool> {
    for (const LoopHeader &header : headersAround(source, statementStartAround(code, at))) {
      if (header.at < branch.start)
        return true; // the chain's own branches, and the loop
      if (header.keyword == "case") {
        auto jump = jumps.find(header.at);
        if (jump == jumps.end())
          jump = jumps.emplace(header.at, switchJump(source, branch, header, counter, valueAt, runs, holds)).first;
        if (!jump->second)
          return std::nullopt;
        const SwitchBody &body = jump->second->body;
        const SwitchBody::Leads leads = jump->second->label < body.labels.size()
                                            ? body.leads(jump->second->label, header.reached)
                                            : SwitchBody::Leads::No;
        if (leads != SwitchBody::Leads::Yes)
          return leads == SwitchBody::Leads::No ? std::optional<bool>(false) : std::nullopt;
        continue;
      }
      if (header.keyword != "if" && header.keyword != "else")
        return std::nullopt;
      const std::optional<LoopPlace> there = valueAt(header.open);
      const std::optional<bool> holding =
          there ? holds(std::string_view(text).substr(header.open + 1, header.close - header.open - 1), *there)
                : std::nullopt;
      if (!holding)
        return std::nullopt;
      if (*holding != (header.keyword == "if"))
        return false;
    }
    return true;
  };
  BranchPass pass;
  for (std::size_t at = branch.start; at < branch.end; ++at) {
    if (!isIdentifierChar(code[at]) || (at > 0 && isIdentifierChar(code[at - 1])))
      continue;
    std::size_t end = at;
    while (end < branch.end && isIdentifierChar(code[end]))
      ++end;
    const std::string_view keyword = std::string_view(code).substr(at, end - at);
    const bool leaves = keyword == "goto" || keyword == "break" || keyword == "continue";
    if ((!leaves && !endsProgram(keyword)) || (keyword == "break" && breaksSwitchIn(source, branch, at)))
      continue; // a `switch`'s own `break`: where its labels lead says what runs
    const std::optional<bool> running = runs(at);
    if (!running)
      return std::nullopt;
    const bool returns = keyword == "return";
    const std::size_t past = returns ? statementEndFrom(code, at) : end; // `return atoi(argv[i + 1]);`
    const bool last = past != std::string::npos && code.find_first_not_of(" \t\r\n;}", past) >= branch.end;
    if (*running && (!last || (keyword != "break" && keyword != "continue" && !returns)))
      return std::nullopt; // the program ends, or the pass leaves midway
    if (*running && returns)
      pass.returns = at;
    else if (*running)
      (keyword == "break" ? pass.leaves : pass.continues) = true;
  }
  if (statement != std::string::npos) {
    const std::optional<bool> running = runs(statement);
    const std::optional<LoopPlace> there = running && *running ? valueAt(statement) : std::nullopt;
    if (!running || (*running && !there))
      return std::nullopt;
    pass.reached = *running ? there : std::nullopt;
  }
  const std::optional<LoopPlace> after = valueAt(branch.end);
  if (!after)
    return std::nullopt;
  pass.after = *after;
  return pass;
}

OptionLoopRun runOptionLoop(const CudaCode &source, const OptionLoopHead &head, const OptionLoopBody &body,
                            const OptionBranch *holder, std::size_t statement,
                            const std::vector<std::string> &arguments, const OptionLoopFolds &folds) {
  const LoopRun loop(head, body, arguments, folds);
  const CountedFor &counted = head.counted;
  OptionLoopRun run;
  const bool tested = !head.condition.empty(); // a condition that steps: tested as it is written
  const std::optional<std::int64_t> start = folds.whole(counted.start), bound = tested ? 0 : folds.whole(counted.bound),
                                    step = folds.whole(counted.step);
  if (!start || !bound || !step) { // a step of 0: a `while` whose branches step it (a pass that does not, below)
    run.stuck = "its counter's range does not fold";
    return run;
  }
  std::size_t passes = 0;
  for (LoopPlace place{*start, head.shiftedFrom};; place.counter += *step, place.shift += head.shiftStep) {
    if (tested) {
      const std::optional<bool> holding = loop.steps(head.condition, place, place);
      if (!holding) {
        run.stuck = "its condition does not fold after " + std::to_string(passes) + " passes";
        return run;
      }
      if (!*holding)
        break;
    } else if (!comparisonHolds(place.counter, counted.comparison, *bound)) {
      break;
    }
    run.passes = ++passes;
    if (passes > arguments.size() + 1) {
      run.stuck = "a pass does not move on";
      return run;
    }
    const LoopPlace entry = place;
    const ConditionHolds holds = [&](std::string_view condition, LoopPlace there) {
      return loop.holds(condition, there, entry);
    };
    for (const std::vector<OptionBranch> &chain : body.chains) {
      const std::string_view alone =
          std::string_view(source.code()).substr(chain[0].start, chain[0].end - 1 - chain[0].start);
      const std::optional<std::string> stepped = steppedName(alone);
      if (chain.size() == 1 && chain[0].condition.empty() && alone.compare(0, 6, "switch") != 0 &&
          stepped != counted.counter && (head.shifted.empty() || stepped != head.shifted)) {
        run.stuck = "a statement at " + source.where(chain[0].start) + " steps another name than its counter";
        return run;
      }
      const OptionBranch *taken = nullptr;
      for (auto branch = chain.begin(); branch != chain.end() && !taken; ++branch) {
        const std::optional<bool> holding =
            branch->condition.empty() ? std::optional<bool>(true) : holds(branch->condition, place);
        if (!holding) {
          run.stuck = "`" + trimmed(branch->condition) + "` does not fold in its pass over " + loop.over(entry);
          return run;
        }
        taken = *holding ? &*branch : nullptr;
      }
      if (!taken)
        continue;
      const std::optional<BranchPass> pass =
          branchPass(source, *taken, head, place, taken == holder ? statement : std::string::npos, holds);
      if (!pass) {
        run.stuck = "the branch at " + source.where(taken->start) +
                    " may end the program or leave the loop midway in its pass over " + loop.over(entry);
        return run;
      }
      // Another `return` leaves the function: one asked about is not reached; a change asked about is not read.
      if (const std::size_t left = pass->returns;
          left != std::string::npos && left != statement && !isReturnAt(source.code(), statement)) {
        run.stuck = "the branch at " + source.where(taken->start) + " returns in its pass over " + loop.over(entry);
        return run;
      }
      if (pass->reached) {
        run.reached = pass->reached;
        run.pass = entry;
        run.ordinal = passes;
        run.over = loop.over(entry);
      }
      if ((run.returned = pass->returns != std::string::npos))
        return run;
      place = pass->after;
      if (pass->leaves)
        return run;
      if (pass->continues)
        break;
    }
  }
  return run;
}

} // namespace ptxdvfs::tools
