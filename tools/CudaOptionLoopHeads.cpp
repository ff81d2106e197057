// CudaOptionLoopHeads.cpp - how the head of a loop that reads options by
// hand runs it: a counted `for`, a range `for`, a `while` whose branches or
// condition step its counter, and a loop that moves `main`'s `argv` on; see
// CudaOptionLoops.h.
#include "CudaOptionLoops.h"

#include "CudaCode.h"
#include "CudaSource.h"
#include "CudaStatements.h"

#include <algorithm>
#include <functional>

namespace ptxdvfs::tools {

namespace {

/// A `while`'s condition that compares a counter with a bound (`i < argc`), read as a `for` whose branches
/// alone step it: `for (; i < argc; i += 0)`, starting from the counter's value before the loop.
std::optional<CountedFor> steppedByBranches(std::string_view condition) {
  if (condition.find("++") != std::string_view::npos || condition.find("--") != std::string_view::npos)
    return std::nullopt; // one that steps as it is tested (steppedByCondition())
  for (const std::string &name : wordsIn(condition))
    if (std::optional<CountedFor> counted = countedFor("; " + std::string(condition) + "; " + name + " += 0");
        counted && counted->counter == name)
      return counted;
  return std::nullopt;
}

/// A `while`'s condition read as a loop that tests it before each pass, the counter's value before the loop
/// its start: the counter is a name it steps as it is tested (`--argc > 0 && (*++argv)[0] == '-'`, `++i < argc`),
/// or else one it reads that the loop's body steps (`argc > 1 && argv[1][0] == '-'` with `argc--;`,
/// `bodySteps`). nullopt where there is none, other than the array the loop moves on, `shifted`.
std::optional<OptionLoopHead> steppedByCondition(std::string_view condition, const std::string &shifted,
                                                 const std::function<bool(const std::string &)> &bodySteps) {
  const std::string code = codeOf(std::string(condition));
  const auto conditionSteps = [&](const std::string &name) {
    const auto steps = counterSteps(code, name, 0, code.size());
    return steps && !steps->empty();
  };
  std::vector<std::string> names = wordsIn(code);
  names.erase(std::remove_if(names.begin(), names.end(),
                             [&](const std::string &name) { return name == shifted || !isName(name); }),
              names.end());
  for (const auto &counts : {std::function<bool(const std::string &)>(conditionSteps), bodySteps})
    for (const std::string &name : names)
      if (counts(name))
        return OptionLoopHead{CountedFor{name, name, "", "", "0", CountedFor::Scaling::None}, std::string(condition),
                              shifted};
  return std::nullopt;
}

/// A `for` whose head moves `shifted` on (`for (argc--, argv++; argc > 0; argc--, argv++)`), read as a loop that
/// tests its condition before each pass (steppedByCondition(); `code` and `text` the head as code and as written),
/// its first part's steps taken before the first test and its last part's after each pass; nullopt where a part
/// holds anything but steps of the counter and of `shifted`.
std::optional<OptionLoopHead> shiftingFor(std::string_view code, std::string_view text, const std::string &shifted,
                                          const std::function<bool(const std::string &)> &bodySteps) {
  const std::vector<std::string> parts = topLevelParts(code, ';'), written = topLevelParts(text, ';');
  if (parts.size() != 3 || written.size() != 3 || trimmed(parts[1]).empty())
    return std::nullopt;
  const auto headSteps = [&](const std::string &name) {
    for (const std::size_t part : {0, 2}) {
      const auto steps = counterSteps(parts[part], name, 0, parts[part].size());
      if (steps && !steps->empty())
        return true;
    }
    return bodySteps(name);
  };
  std::optional<OptionLoopHead> head = steppedByCondition(written[1], shifted, headSteps);
  if (!head)
    return std::nullopt;
  std::int64_t counterFrom = 0, counterStep = 0;
  for (const std::size_t part : {0, 2})
    for (const std::string &statement : topLevelParts(parts[part])) {
      if (trimmed(statement).empty())
        continue;
      const std::optional<std::string> name = steppedName(statement);
      const auto steps = name ? counterSteps(statement, *name, 0, statement.size()) : std::nullopt;
      if (!steps || (*name != head->counted.counter && *name != shifted))
        return std::nullopt; // `i = 1`, or another name's step
      for (const auto &step : *steps)
        (*name == shifted ? (part == 0 ? head->shiftedFrom : head->shiftStep)
                          : (part == 0 ? counterFrom : counterStep)) += step.second;
    }
  head->counted.start = "(" + head->counted.counter + ") + (" + std::to_string(counterFrom) + ")";
  head->counted.step = std::to_string(counterStep);
  return head;
}

/// A range `for` over a name (`for (const std::string &arg : args)`), read as the loop over its positions that
/// it runs: `for (range_position = 0; range_position < args.size(); range_position += 1)`, with `arg` the element
/// there; nullopt over anything else.
std::optional<CountedFor> overElements(const RangeFor &range) {
  if (!isName(range.range))
    return std::nullopt;
  return CountedFor{"range_position", "0", "<", range.range + ".size()", "1", CountedFor::Scaling::None};
}

/// The array of arguments a loop moves on (`argv`), and how far statements before it have moved it.
struct MovedArray {
  std::string array;
  std::int64_t from = 0;
};

/// The array of arguments that the `while` or `for` at `loop`, its body ending at `bodyEnd`, moves on: `main`'s `argv`
/// (its second parameter), stepped there (`argv++`, `*++argv`), and elsewhere in `main` only by statements before it in
/// `main`'s own block that step it alone (`argc--; argv++;` to skip the program's name); nullopt where none is.
std::optional<MovedArray> shiftedArray(const CudaCode &source, const LoopHeader &loop, std::size_t bodyEnd) {
  const std::string &code = source.code();
  const int body = source.functionBodyAt(loop.at);
  if ((loop.keyword != "while" && loop.keyword != "for") || body < 0 || source.functionNameOf(body) != "main")
    return std::nullopt;
  const std::vector<std::string> parameters = source.parametersOf(body);
  const std::vector<std::string> words = parameters.size() >= 2 ? wordsIn(parameters[1]) : std::vector<std::string>();
  if (words.empty())
    return std::nullopt;
  const std::string &array = words.back();
  const std::size_t open = source.openBraceOf(body);
  MovedArray shifted{array, 0};
  bool inLoop = false;
  for (const std::size_t at : changesWithin(code, array, open, source.pastBlockOpenedAt(open))) {
    const std::size_t next = code.find_first_not_of(" \t\r\n", at + array.size());
    if (next != std::string::npos && code[next] == '[')
      return std::nullopt; // `++argv[1]` steps an element
    if (at > loop.at && at < bodyEnd) {
      inLoop = true;
      continue;
    }
    const std::size_t start = statementStartAround(code, at), end = statementEndFrom(code, start);
    const auto steps = end == std::string::npos ? std::nullopt : counterSteps(code, array, start, end);
    if (at > loop.at || source.blockAt(at) != body || !headersAround(source, start).empty() || !steps ||
        steppedName(std::string_view(code).substr(start, end - 1 - start)) != array)
      return std::nullopt; // after the loop, under a branch, or not a statement of its own
    for (const auto &step : *steps)
      shifted.from += step.second;
  }
  return inLoop ? std::optional<MovedArray>(shifted) : std::nullopt;
}

} // namespace

std::optional<OptionLoopHead> optionLoopHead(const CudaCode &source, const LoopHeader &loop, bool outermost) {
  const std::string &code = source.code(), &text = source.text();
  const std::optional<RangeFor> range = loop.keyword == "for" ? rangeFor(loop.inside(code)) : std::nullopt;
  const std::size_t bodyEnd = bodyEndAfter(source, loop.headEnd);
  const std::optional<MovedArray> moved = outermost && !range ? shiftedArray(source, loop, bodyEnd) : std::nullopt;
  const std::string shifted = moved ? moved->array : "";
  const std::optional<CountedFor> counted = range                   ? overElements(*range)
                                            : loop.keyword == "for" ? countedFor(loop.inside(code))
                                                                    : steppedByBranches(loop.inside(code));
  const std::size_t open = code.find_first_not_of(" \t\r\n", loop.headEnd + 1);
  const auto bodySteps = [&](const std::string &name) {
    const auto steps = counterSteps(code, name, open, bodyEnd);
    return steps && !steps->empty();
  };
  std::optional<OptionLoopHead> head =
      loop.keyword == "for" && !shifted.empty() ? shiftingFor(loop.inside(code), loop.inside(text), shifted, bodySteps)
      : counted                                 ? OptionLoopHead{*counted, "", shifted}
      : loop.keyword == "while"                 ? steppedByCondition(loop.inside(text), shifted, bodySteps)
                                                : std::nullopt;
  if (head && moved)
    head->shiftedFrom += moved->from;
  return head;
}

} // namespace ptxdvfs::tools
