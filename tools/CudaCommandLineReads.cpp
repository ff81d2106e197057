// CudaCommandLineReads.cpp - what the host code reads from the command
// line it is run with (--program-args); see CudaCommandLineReads.h.
#include "CudaCommandLineReads.h"

#include "CudaFolderNotes.h"
#include "CudaStatements.h"

#include <algorithm>

namespace ptxdvfs::tools {

using namespace expression;
using namespace constants;

namespace {

/// The first of `found` whose label in a `getopt` loop's switch `body` (in `source`), or its `default:`, leads
/// or may lead to a statement that may end the program: one that holds `return`, `exit`, `abort` or `throw`
/// (`case '?': usage(); return 1;`); null where none does.
const OptionFound *endingOption(const SwitchBody &body, const CudaCode &source, const std::vector<OptionFound> &found) {
  const std::string &code = source.code();
  for (const OptionFound &option : found) {
    const std::size_t label = *body.jumpTo([&](const SwitchBody::Label &written) -> std::optional<bool> {
      return labelCharacter(std::string_view(source.text()).substr(written.at, written.end - written.at)) ==
             option.option;
    });
    for (const SwitchBody::Statement &statement : body.statements) {
      if (label == body.labels.size() || body.leads(label, statement.start) == SwitchBody::Leads::No)
        continue;
      const std::string_view written = std::string_view(code).substr(statement.start, statement.end - statement.start);
      for (const std::string &word : wordsIn(written))
        if (endsProgram(word))
          return &option;
    }
  }
  return nullptr;
}

/// `written` without a cast to a pointer type around it, as a call passes `argv` to a helper that takes `const
/// char **`: `(const char **)argv` and `const_cast<const char **>(argv)` are `argv`; anything else as written.
std::string withoutPointerCast(const std::string &written) {
  if (!written.empty() && written[0] == '(') {
    const std::size_t close = pastClosing(written, 0);
    const std::string_view type = std::string_view(written).substr(1, close == std::string::npos ? 0 : close - 2);
    const bool pointerType =
        type.find('*') != std::string_view::npos && std::all_of(type.begin(), type.end(), [](char c) {
          return isIdentifierChar(c) || c == '*' || c == ' ' || c == ':';
        });
    return pointerType && close < written.size() ? trimmed(std::string_view(written).substr(close)) : written;
  }
  for (const std::string_view cast : {"const_cast<", "reinterpret_cast<", "static_cast<"})
    if (written.compare(0, cast.size(), cast) == 0) {
      const std::size_t open = written.find('(', cast.size());
      if (open != std::string::npos && written.find('*', cast.size()) < open && written.back() == ')' &&
          pastClosing(written, open) == written.size())
        return trimmed(std::string_view(written).substr(open + 1, written.size() - open - 2));
    }
  return written;
}

} // namespace

ConstantFolder::Impl::CommandLine ConstantFolder::Impl::commandLine() const { return CommandLine(*this); }

std::optional<ConstantFolder::Impl::CommandLine::ArgvRead>
ConstantFolder::Impl::CommandLine::argvRead(std::size_t file, std::size_t offset, const std::string &name,
                                            int depth) const {
  const CudaCode &code = folder_.files_[file];
  int body = code.functionBodyAt(offset);
  if (body < 0)
    body = code.functionHeadAt(offset); // a constructor's member initializers, `n(atoi(argv[1]))`
  const std::string function = body < 0 ? std::string() : code.functionNameOf(body);
  const std::vector<std::string> declared = function.empty() ? std::vector<std::string>() : code.parametersOf(body);
  const auto declares = [&](const std::string &parameter) {
    const std::vector<std::string> words = wordsIn(parameter);
    return !words.empty() && words.back() == name;
  };
  const std::size_t index =
      static_cast<std::size_t>(std::find_if(declared.begin(), declared.end(), declares) - declared.begin());
  if (const auto *shifted = folder_.shiftedArray_;
      shifted && shifted->array == name && shifted->file == file && shifted->offset == offset)
    return ArgvRead{0, file, offset}; // an option loop's read, rewritten to where it moved `argv`
  if (index == declared.size() && body >= 0 && depth < kMaxDepth && code.insideFunction(code.parentOf(body)))
    return argvRead(file, code.openBraceOf(body) - 1, name, depth + 1); // a lambda's: it sees the function's around
  if (index == declared.size() || depth >= kMaxDepth || folder_.changedAnywhere(name, depth))
    return std::nullopt; // not a parameter, or shifted (`argv++`) before it is read
  if (function == "main")
    return index == 1 ? std::optional<ArgvRead>(ArgvRead{0, file, offset}) : std::nullopt;
  // A helper's: what every call passes there is `argv`, or a part of it, where the call is.
  std::optional<ArgvRead> read;
  const std::vector<std::pair<std::size_t, std::size_t>> calls = folder_.callsOf(function, file);
  for (const auto &[callFile, call] : calls) {
    const std::optional<std::vector<std::string>> arguments = folder_.callArguments(callFile, call, function);
    std::string passed = arguments && index < arguments->size() ? withoutPointerCast(trimmed((*arguments)[index])) : "";
    std::string part = "0";
    if (const std::size_t plus = passed.find('+'); plus != std::string::npos) {
      part = passed.substr(plus + 1); // `argv + 1`
      passed = trimmed(std::string_view(passed).substr(0, plus));
    }
    const std::vector<std::string> words = wordsIn(passed);
    const std::optional<ArgvRead> outer = words.size() == 1 && words[0] == passed
                                              ? argvRead(callFile, call, passed, depth + 1)
                                              : std::nullopt;
    const std::optional<Number> shift = outer ? folder_.number(callFile, call, part, depth + 1) : std::nullopt;
    if (!shift || shift->real || shift->whole < 0 || (read && read->shift != outer->shift + shift->whole))
      return std::nullopt;
    if (read && getoptBefore(read->file, read->offset, depth + 1).has_value() !=
                    getoptBefore(outer->file, outer->offset, depth + 1).has_value())
      return std::nullopt; // calls from before and after a `getopt` loop, which moves the options first
    read = read ? read : ArgvRead{outer->shift + shift->whole, outer->file, outer->offset};
  }
  return read;
}

bool ConstantFolder::Impl::CommandLine::isArgv(std::size_t file, std::size_t offset, const std::string &name,
                                               int depth) const {
  const std::optional<ArgvRead> read = argvRead(file, offset, name, depth);
  return read && read->shift == 0;
}

std::optional<ConstantFolder::Impl::CommandLine::ArgvRead>
ConstantFolder::Impl::CommandLine::argvFrom(std::size_t file, std::size_t offset, const std::string &name,
                                            int depth) const {
  if (const std::optional<ArgvRead> read = argvRead(file, offset, name, depth))
    return read;
  if (depth >= kMaxDepth)
    return std::nullopt;
  const CudaCode &source = folder_.files_[file];
  const std::string &code = source.code();
  for (const std::size_t at : source.wordsBefore(name, offset)) {
    if (afterMemberAccess(code, at))
      continue;
    const std::size_t next = code.find_first_not_of(" \t\r\n", at + name.size());
    const std::size_t statement = statementStartAround(code, at);
    const std::vector<std::string> type = wordsIn(std::string_view(code).substr(statement, at - statement));
    if (next != std::string::npos && (code[next] == '(' || code[next] == '{') &&
        std::count(type.begin(), type.end(), "vector") && std::count(type.begin(), type.end(), "string")) {
      const std::size_t close = pastClosing(code, next);
      const std::vector<std::string> parts =
          close == std::string::npos ? std::vector<std::string>()
                                     : topLevelParts(std::string_view(code).substr(next + 1, close - next - 2));
      const std::optional<PointerRange> range = parts.size() == 2 ? pointerRange(parts[0], parts[1]) : std::nullopt;
      const std::optional<Number> first = range ? folder_.number(file, at, range->from, depth + 1) : std::nullopt;
      const std::optional<Number> last = range ? folder_.number(file, at, range->to, depth + 1) : std::nullopt;
      const bool whole = last && !last->real && last->whole == static_cast<std::int64_t>(folder_.arguments_.size()) + 1;
      if (!first || first->real || first->whole < 0 || !whole || !isArgv(file, at, range->base, depth + 1) ||
          !source.encloses(source.blockAt(at), source.blockAt(offset)))
        return std::nullopt; // not `(argv + K, argv + argc)`, or another scope's
      return ArgvRead{first->whole, file, at};
    }
    if (!readsElementOnly(code, at, name.size()))
      return std::nullopt; // it may hold other texts by now (`args[1] = "64"`, `std::sort(args.begin(), ...)`)
  }
  return std::nullopt;
}

std::optional<std::string>
ConstantFolder::Impl::CommandLine::argument(std::size_t file, std::size_t offset, const std::string &name,
                                            const std::function<std::optional<Number>()> &index, int depth) const {
  if (name == "optarg" && folder_.optarg_) // a `getopt` case's (optionAssignment())
    return *folder_.optarg_;
  const std::optional<ArgvRead> from = argvFrom(file, offset, name, depth);
  if (!from)
    return std::nullopt;
  if (folder_.arguments_.empty()) { // `argv[1]` is null: a program run bare does not read it
    folder_.leftOpen("`" + name + "[...]` is read from the command line (--program-args)");
    return std::nullopt;
  }
  // After a `getopt` loop, `argv` holds the options first (GNU's permutes it).
  const std::optional<std::optional<GetoptEnd>> getopt = getoptBefore(from->file, from->offset, depth);
  if (getopt && !*getopt)
    return std::nullopt;
  const std::vector<std::string> &arguments = getopt ? (*getopt)->permuted : folder_.arguments_;
  const std::optional<Number> at = index();
  const std::int64_t position = at && !at->real && at->whole >= 0 ? at->whole + from->shift : 0;
  if (position < 1 || static_cast<std::size_t>(position) > arguments.size())
    return std::nullopt;
  const std::string &text = arguments[static_cast<std::size_t>(position) - 1];
  folder_.note({"`" + name + "[" + std::to_string(at->whole) + "]` = " + shownArguments({text}) + ", " +
                programRun(folder_.arguments_)});
  return text;
}

std::optional<OptionCase> ConstantFolder::Impl::CommandLine::optionAssignment(std::size_t file, std::size_t at,
                                                                              const std::string &name,
                                                                              int depth) const {
  const CudaCode &source = folder_.files_[file];
  const std::string &code = source.code();
  if (folder_.arguments_.empty())
    return std::nullopt; // run bare, the loop never runs (untaken())
  const std::vector<LoopHeader> headers = headersAround(source, statementStartAround(code, at));
  if (headers.size() < 2 || headers[0].keyword != "case" || headers[1].keyword != "while")
    return std::nullopt;
  const std::optional<GetoptLoop> loop = getoptLoopOf(headers[1].inside(source.text()));
  const std::size_t switchOpen = code.find('(', headers[0].at);
  const std::size_t switchClose = switchOpen == std::string::npos ? switchOpen : pastClosing(code, switchOpen);
  if (!loop || switchClose == std::string::npos ||
      trimmed(std::string_view(code).substr(switchOpen + 1, switchClose - switchOpen - 2)) != loop->result)
    return std::nullopt; // not `while ((opt = getopt(...)) != -1) switch (opt) {...}`
  const OptionCase open{true, std::nullopt};
  const SwitchBody &body = folder_.switchOf(file, headers[0], depth).body;
  std::string options; // the characters of the labels that lead to the change
  for (std::size_t label = 0; label < body.labels.size(); ++label) {
    const SwitchBody::Leads leads = body.leads(label, at);
    const std::optional<char> option = labelCharacter(
        std::string_view(source.text()).substr(body.labels[label].at, body.labels[label].end - body.labels[label].at));
    if (leads == SwitchBody::Leads::Maybe || (leads == SwitchBody::Leads::Yes && !option))
      return open; // a `default:`, or a case that may leave first
    if (leads == SwitchBody::Leads::Yes)
      options += *option;
  }
  const std::size_t bodyEnd = body.labels.empty() ? at : source.pastBlockOpenedAt(code.find('{', switchClose));
  const std::optional<std::string> assigned = assignedText(code, at, name);
  if (options.empty() || changesWithin(code, name, switchClose, bodyEnd).size() != 1 || !assigned ||
      readsName(*assigned, name))
    return open; // another case's change may come last, or the statement reads what it changes
  const std::optional<GetoptEnd> end = getoptEnd(file, *loop);
  if (!end)
    return open; // long options given, their table not read
  const std::vector<OptionFound> &found = end->options;
  if (const OptionFound *ending = endingOption(body, source, found)) {
    const std::string shown = ending->option == '?' || ending->option == ':'
                                  ? "an option it does not know, or one without its argument,"
                                  : "the option -" + std::string(1, ending->option);
    folder_.leftOpen("`" + name + "` is set in the `getopt` loop at " + source.where(headers[1].at) + ", where " +
                     shown + " goes to a case that may end the program, " + programRun(folder_.arguments_));
    return open;
  }
  const auto last = std::find_if(found.rbegin(), found.rend(), [&](const OptionFound &option) {
    return options.find(option.option) != std::string::npos;
  });
  if (last == found.rend())
    return OptionCase{false, std::nullopt}; // no argument gives the option
  const std::string *const outer = folder_.optarg_;
  folder_.optarg_ = &last->argument;
  const std::optional<Number> value = depth < kMaxDepth ? folder_.number(file, at, *assigned, depth + 1) : std::nullopt;
  folder_.optarg_ = outer;
  folder_.note({"`" + name + "` set at " + source.where(at) + " for the option -" + std::string(1, last->option) +
                (last->argument.empty() ? "" : " " + shownArguments({last->argument})) + " that `getopt` finds, " +
                programRun(folder_.arguments_)});
  return OptionCase{true, value};
}

OptionLoopFolds ConstantFolder::Impl::CommandLine::foldsAt(std::size_t file, std::size_t at, int depth) const {
  // The folds outlive this reader, which the folder makes for each question: they hold the folder.
  const Impl &folder = folder_;
  OptionLoopFolds folds{[&folder, file, at, depth](const std::string &written) {
                          const std::optional<Number> value = folder.number(file, at, written, depth + 1);
                          return value && !value->real ? std::optional<std::int64_t>(value->whole) : std::nullopt;
                        },
                        [&folder, file, at, depth](const std::string &array) {
                          const std::optional<ArgvRead> read = CommandLine(folder).argvFrom(file, at, array, depth + 1);
                          return read ? std::optional<std::int64_t>(read->shift) : std::nullopt;
                        },
                        nullptr};
  // Most loops are `main`'s, whose names stand for no literal a call passes: only a helper's are asked.
  if (std::vector<std::pair<std::size_t, std::string>> strings = stringParameters(file, at); !strings.empty())
    folds.literal = [&folder, file, at, strings = std::move(strings)](const std::string &name) {
      const auto parameter =
          std::find_if(strings.begin(), strings.end(), [&](const auto &p) { return p.second == name; });
      return parameter == strings.end() ? std::nullopt : CommandLine(folder).stringPassed(file, at, parameter->first);
    };
  return folds;
}

std::vector<std::pair<std::size_t, std::string>>
ConstantFolder::Impl::CommandLine::stringParameters(std::size_t file, std::size_t offset) const {
  const CudaCode &source = folder_.files_[file];
  const int body = source.functionBodyAt(offset);
  if (body < 0 || source.functionNameOf(body).empty() || source.functionNameOf(body) == "main")
    return {};
  const std::size_t open = source.openBraceOf(body);
  std::vector<std::pair<std::size_t, std::string>> strings;
  const std::vector<std::string> declared = source.parametersOf(body);
  for (std::size_t index = 0; index < declared.size(); ++index) {
    const std::string &written = declared[index];
    const std::vector<std::string> type = wordsIn(written);
    const bool pointer = written.find('*') != std::string::npos && written.find('*') == written.rfind('*') &&
                         std::count(type.begin(), type.end(), "char") == 1;
    const bool string = written.find('*') == std::string::npos && type.size() >= 2 && type[type.size() - 2] == "string";
    if ((pointer || string) && written.find_first_of("[=") == std::string::npos &&
        changesWithin(source.code(), type.back(), open, source.pastBlockOpenedAt(open)).empty())
      strings.emplace_back(index, type.back());
  }
  return strings;
}

std::optional<std::string> ConstantFolder::Impl::CommandLine::stringPassed(std::size_t file, std::size_t offset,
                                                                           std::size_t index) const {
  const std::string function = folder_.files_[file].functionNameOf(folder_.files_[file].functionBodyAt(offset));
  std::optional<std::string> agreed;
  for (const auto &[callFile, call] : folder_.callsOf(function, file)) {
    const CudaCode &caller = folder_.files_[callFile];
    const std::size_t parenthesis = callArgumentsAt(caller.code(), call, function.size());
    const std::size_t close = parenthesis == std::string::npos ? parenthesis : pastClosing(caller.code(), parenthesis);
    if (close == std::string::npos)
      return std::nullopt;
    const std::vector<std::string> arguments =
        topLevelPartsAsWritten(std::string_view(caller.code()).substr(parenthesis + 1, close - parenthesis - 2),
                               std::string_view(caller.text()).substr(parenthesis + 1, close - parenthesis - 2));
    const std::optional<std::string> passed =
        index < arguments.size() ? plainStringLiteral(arguments[index]) : std::nullopt;
    if (!passed || (agreed && *agreed != *passed))
      return std::nullopt;
    agreed = passed;
  }
  return agreed;
}

std::optional<std::optional<GetoptEnd>>
ConstantFolder::Impl::CommandLine::getoptBefore(std::size_t file, std::size_t offset, int depth) const {
  const CudaCode &source = folder_.files_[file];
  const std::string &code = source.code();
  const int body = source.functionBodyAt(offset);
  std::optional<std::optional<GetoptEnd>> found;
  for (std::size_t call = body < 0 ? std::string::npos : code.find("getopt", source.openBraceOf(body)); call < offset;
       call = code.find("getopt", call + 1)) {
    if (getoptCallAt(code, call) == 0)
      continue;
    found = std::optional<GetoptEnd>(); // one is called: read below, else open
    std::size_t open = parenthesisAround(code, call), keyword = open;
    while (open != std::string::npos && parenthesisAround(code, open) != std::string::npos)
      open = parenthesisAround(code, open);
    const bool inWhile = open != std::string::npos && (keyword = open, wordBefore(code, keyword) == "while");
    const std::size_t close = inWhile ? pastClosing(code, open) : std::string::npos;
    const std::optional<GetoptLoop> loop =
        close == std::string::npos ? std::nullopt
                                   : getoptLoopOf(std::string_view(source.text()).substr(open + 1, close - open - 2));
    if (!loop || bodyEndAfter(source, close - 1) > offset || depth >= kMaxDepth ||
        !folder_.runsBeforeEachUse(file, keyword, offset, false, depth + 1))
      return found; // not one `while ((opt = getopt(...)) != -1)` loop that runs once before `offset`
    if (code.find("getopt", call + 1) < offset)
      return found; // several loops
    found = getoptEnd(file, *loop);
  }
  return found;
}

std::optional<GetoptEnd> ConstantFolder::Impl::CommandLine::getoptEnd(std::size_t file, const GetoptLoop &loop) const {
  const std::vector<std::string> &arguments = folder_.arguments_;
  if (loop.longOptions.empty())
    return getoptRun(loop.optstring, arguments);
  std::optional<std::vector<LongOption>> table;
  for (std::size_t other = 0; other < folder_.files_.size() && !table; ++other)
    if (other == file || folder_.sees(file, other))
      table = longOptionsIn(folder_.files_[other].code(), folder_.files_[other].text(), loop.longOptions);
  const bool longGiven = std::any_of(arguments.begin(), arguments.end(), [&](const std::string &argument) {
    return argument.size() > 1 && argument[0] == '-' && argument != "--" && (argument[1] == '-' || loop.longOnly);
  });
  if (!table && longGiven)
    return std::nullopt;
  return getoptRun(loop.optstring, arguments, table ? &*table : nullptr, loop.longOnly);
}

Lookup ConstantFolder::Impl::CommandLine::optionIndex(std::size_t file, std::size_t offset, int depth,
                                                      Definition &found) const {
  const std::optional<std::optional<GetoptEnd>> end = getoptBefore(file, offset, depth);
  if (!end)
    return Lookup::Absent;
  if (!*end || folder_.changedAnywhere("optind", depth))
    return Lookup::Unknown;
  found = Definition("", file, offset, false);
  found.number = Number{false, static_cast<std::int64_t>((*end)->optind), 0};
  folder_.note({"`optind` = " + std::to_string((*end)->optind) +
                ", the first operand's index once the `getopt` loop ends, " + programRun(folder_.arguments_)});
  return Lookup::Found;
}

std::optional<Lookup> ConstantFolder::Impl::CommandLine::change(std::size_t file, std::size_t at,
                                                                const std::string &name, std::size_t before, int depth,
                                                                Definition &found) const {
  std::optional<Number> value;
  std::optional<OptionCase> option = optionAssignment(file, at, name, depth);
  option = option ? option : handReadOption(file, at, name, before, depth);
  if (option) {
    if (!option->runs)
      return Lookup::Absent; // a `getopt` case whose option no argument gives
    value = option->value;
  } else if (std::optional<std::optional<Number>> scanned = scannedArgument(file, at, name, depth);
             scanned || (scanned = streamedArgument(file, at, name, depth))) {
    value = folder_.runsBeforeEachUse(file, at, before, false, depth) ? *scanned : std::nullopt;
  } else {
    return std::nullopt;
  }
  if (!value)
    return Lookup::Unknown;
  found = Definition("", file, at, false);
  found.number = value;
  return Lookup::Found;
}

} // namespace ptxdvfs::tools
