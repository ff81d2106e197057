// CudaHostLoops.cpp - finding the loops around a statement of host code,
// and counting the ones written as a counted `for`.
#include "CudaHostLoops.h"

#include "CudaCode.h"
#include "CudaSource.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string_view>

namespace ptxdvfs::tools {

namespace {

/// What heads the statement that starts at `statement`: `for (...)`,
/// `while (...)`, `if (...)` or `do`, with the offset of its keyword and
/// of its parentheses (npos for `do`).
struct Header {
  std::string keyword;
  std::size_t at = 0;
  std::size_t open = std::string::npos, close = std::string::npos;
};

std::optional<Header> headerBefore(const std::string &code, std::size_t statement) {
  std::size_t end = statement;
  while (end > 0 && isSpace(code[end - 1]))
    --end;
  if (end == 0)
    return std::nullopt;
  if (code[end - 1] != ')') {
    std::size_t at = end;
    if (wordBefore(code, at) == "do")
      return Header{"do", at};
    return std::nullopt;
  }
  const std::size_t open = openingOf(code, end - 1);
  if (code[open] != '(')
    return std::nullopt;
  std::size_t at = open;
  std::string keyword = wordBefore(code, at);
  if (keyword != "for" && keyword != "while" && keyword != "if")
    return std::nullopt;
  return Header{std::move(keyword), at, open, end - 1};
}

bool isName(const std::string &text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), isIdentifierChar) &&
         !std::isdigit(static_cast<unsigned char>(text[0]));
}

/// The counter, its start and how it is compared and stepped, as written.
struct CountedFor {
  std::string counter, start, comparison, bound;
  std::string step; ///< what one iteration adds, negated for `--`, `-=` and `i = i - s`
};

/// Where `text` assigns with a plain `=` (not `==`, `<=`, `>=`, `!=`, `+=`...); npos if it does not.
std::size_t plainAssignment(std::string_view text) {
  for (std::size_t at = text.find('='); at != std::string_view::npos; at = text.find('=', at + 1)) {
    const bool doubled = at + 1 < text.size() && text[at + 1] == '=';
    const bool compound = at > 0 && std::string_view("=<>!+-*/%&|^").find(text[at - 1]) != std::string_view::npos;
    if (doubled) {
      ++at;
      continue;
    }
    if (!compound)
      return at;
  }
  return std::string_view::npos;
}

std::optional<CountedFor> countedFor(const std::string &header) {
  const std::vector<std::string> parts = topLevelParts(header, ';');
  if (parts.size() != 3)
    return std::nullopt; // a range `for`, or not C
  CountedFor loop;
  // The comparison: `i < n` or `n > i`.
  const std::string condition = trimmed(parts[1]);
  if (condition.find("&&") != std::string::npos || condition.find("||") != std::string::npos)
    return std::nullopt;
  static const char *const kComparisons[] = {"<=", ">=", "!=", "<", ">"};
  static const auto mirrored = [](std::string_view op) -> std::string {
    return op == "<" ? ">" : op == ">" ? "<" : op == "<=" ? ">=" : op == ">=" ? "<=" : std::string(op);
  };
  for (const char *op : kComparisons) {
    const std::size_t at = condition.find(op);
    if (at == std::string::npos)
      continue;
    const std::string_view symbol(op);
    const std::size_t after = at + symbol.size();
    // Not a shift, and not the first character of a longer comparison.
    if ((after < condition.size() && (condition[after] == '<' || condition[after] == '>' || condition[after] == '=')) ||
        (at > 0 && (condition[at - 1] == '<' || condition[at - 1] == '>')))
      continue;
    const std::string left = trimmed(std::string_view(condition).substr(0, at));
    const std::string right = trimmed(std::string_view(condition).substr(after));
    if (isName(left)) {
      loop.counter = left;
      loop.comparison = std::string(symbol);
      loop.bound = right;
    } else if (isName(right)) {
      loop.counter = right;
      loop.comparison = mirrored(symbol);
      loop.bound = left;
    }
    break;
  }
  if (loop.counter.empty() || loop.bound.empty())
    return std::nullopt;
  // The start: the declarator or assignment of the counter in the init.
  for (const std::string &declarator : topLevelParts(parts[0])) {
    const std::size_t equals = plainAssignment(declarator);
    if (equals == std::string::npos)
      continue;
    std::size_t nameAt = equals;
    if (wordBefore(declarator, nameAt) == loop.counter)
      loop.start = trimmed(std::string_view(declarator).substr(equals + 1));
  }
  // The step: `i++`, `--i`, `i += s`, `i = i - s`.
  const std::string step = trimmed(parts[2]);
  std::string compact;
  for (char c : step)
    if (!isSpace(c))
      compact += c;
  const std::string &i = loop.counter;
  if (compact == i + "++" || compact == "++" + i)
    loop.step = "1";
  else if (compact == i + "--" || compact == "--" + i)
    loop.step = "-1";
  else if (compact.rfind(i + "+=", 0) == 0)
    loop.step = compact.substr(i.size() + 2);
  else if (compact.rfind(i + "-=", 0) == 0)
    loop.step = "-(" + compact.substr(i.size() + 2) + ")";
  else if (compact.rfind(i + "=" + i + "+", 0) == 0)
    loop.step = compact.substr(2 * i.size() + 2);
  else if (compact.rfind(i + "=" + i + "-", 0) == 0)
    loop.step = "-(" + compact.substr(2 * i.size() + 2) + ")";
  if (loop.start.empty() || loop.step.empty())
    return std::nullopt;
  return loop;
}

/// Iterations of `for (i = start; i OP bound; i += step)`; nullopt where
/// it does not end by counting.
std::optional<std::uint64_t> iterations(std::int64_t start, const std::string &comparison, std::int64_t bound,
                                        std::int64_t step) {
  __extension__ using Int128 = __int128; // no int64 difference or quotient overflows it
  const Int128 s = start, b = bound, d = step;
  Int128 count = 0;
  if ((comparison == "<" || comparison == "<=") && d > 0)
    count = comparison == "<" ? (b > s ? (b - s + d - 1) / d : 0) : (b >= s ? (b - s) / d + 1 : 0);
  else if ((comparison == ">" || comparison == ">=") && d < 0)
    count = comparison == ">" ? (s > b ? (s - b - d - 1) / -d : 0) : (s >= b ? (s - b) / -d + 1 : 0);
  else if (comparison == "!=" && d != 0 && (b - s) % d == 0 && (b - s) / d >= 0)
    count = (b - s) / d;
  else
    return std::nullopt;
  return count > static_cast<Int128>(UINT64_MAX) ? UINT64_MAX : static_cast<std::uint64_t>(count);
}

HostLoop loopOf(const ConstantFolder &folder, std::size_t file, const std::string &code, const Header &header) {
  HostLoop loop;
  loop.at = header.at;
  loop.header = header.keyword == "do" ? "do" : code.substr(header.at, header.close + 1 - header.at);
  if (header.keyword != "for")
    return loop;
  const std::optional<CountedFor> counted = countedFor(code.substr(header.open + 1, header.close - header.open - 1));
  if (!counted)
    return loop;
  auto whole = [&](const std::string &expression) -> std::optional<std::int64_t> {
    std::optional<ptx::analysis::AssumedValue> value = folder.value(file, header.at, expression);
    return value ? value->whole() : std::nullopt;
  };
  const std::optional<std::int64_t> start = whole(counted->start), bound = whole(counted->bound),
                                    step = whole(counted->step);
  if (start && bound && step)
    loop.count = iterations(*start, counted->comparison, *bound, *step);
  return loop;
}

/// The loops that head the statement at `statement` without braces
/// (`for (...) for (...) kernel<<<...>>>(...);`), through `if`s, innermost first.
void addLoopsHeading(const ConstantFolder &folder, std::size_t file, std::size_t statement,
                     std::vector<HostLoop> &loops) {
  const std::string &code = folder.files()[file].code();
  for (std::optional<Header> header = headerBefore(code, statement); header;
       header = headerBefore(code, header->at))
    if (header->keyword != "if")
      loops.push_back(loopOf(folder, file, code, *header));
}

std::uint64_t saturatingProduct(std::uint64_t a, std::uint64_t b) {
  return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

std::uint64_t saturatingSum(std::uint64_t a, std::uint64_t b) { return b > UINT64_MAX - a ? UINT64_MAX : a + b; }

} // namespace

HostRuns HostRunCounter::runsOf(std::size_t file, std::size_t statement) {
  HostRuns runs;
  for (const HostLoop &loop : hostLoopsAround(folder_, file, statement)) {
    runs.times = saturatingProduct(runs.times, loop.count.value_or(kDefaultHostLoopCount));
    runs.defaulted = runs.defaulted || !loop.count;
    runs.why += ", in " + quotedCode(loop.header) + " at " + folder_.files()[file].where(loop.at) + " (" +
                (loop.count ? std::to_string(*loop.count) + " times)"
                            : std::to_string(kDefaultHostLoopCount) +
                                  " times: a default, the source does not fix its count)");
  }
  const CudaCode &code = folder_.files()[file];
  const HostRuns calls = callsOf(code.functionNameOf(code.functionBodyAt(statement)));
  runs.times = saturatingProduct(runs.times, calls.times);
  runs.defaulted = runs.defaulted || calls.defaulted;
  runs.why += calls.why;
  return runs;
}

HostRuns HostRunCounter::runsOfEach(const std::vector<HostStatement> &statements, std::size_t named,
                                    std::string_view rest) {
  HostRuns all;
  all.times = 0;
  for (std::size_t i = 0; i < statements.size(); ++i) {
    const HostStatement &at = statements[i];
    const HostRuns runs = runsOf(at.file, at.statement);
    all.times = saturatingSum(all.times, runs.times);
    all.defaulted = all.defaulted || runs.defaulted;
    if (i < named)
      all.why += (i ? "; " : "") + std::to_string(runs.times) + " at " + folder_.files()[at.file].where(at.shownAt) +
                 runs.why;
  }
  if (statements.size() > named)
    all.why += "; and " + std::to_string(statements.size() - named) + " more " + std::string(rest);
  return all;
}

HostRuns HostRunCounter::callsOf(const std::string &function) {
  if (function.empty() || function == "main" || callers_.size() >= kCallerDepth ||
      std::find(callers_.begin(), callers_.end(), function) != callers_.end())
    return {};
  if (auto cached = calls_.find(function); cached != calls_.end())
    return cached->second;
  std::vector<HostStatement> calls;
  for (std::size_t file = 0; file < folder_.files().size(); ++file)
    for (std::size_t at : callsIn(folder_.files()[file], function)) {
      const CudaCode &code = folder_.files()[file];
      if (code.functionNameOf(code.functionBodyAt(at)) != function) // a recursive call runs as its function does
        calls.push_back({file, at, at});
    }
  HostRuns runs;
  if (!calls.empty()) {
    constexpr std::size_t kCallsNamed = 2;
    callers_.push_back(function);
    runs = runsOfEach(calls, kCallsNamed, "calls");
    callers_.pop_back();
    runs.why = runs.times == 1 ? "" : ", in `" + function + "`, called " + std::to_string(runs.times) + " times (" +
                                          runs.why + ")";
  }
  calls_.emplace(function, runs);
  return runs;
}

std::vector<HostLoop> hostLoopsAround(const ConstantFolder &folder, std::size_t file, std::size_t statement) {
  std::vector<HostLoop> loops;
  addLoopsHeading(folder, file, statement, loops);
  const CudaCode &code = folder.files()[file];
  for (int block = code.blockAt(statement); block >= 0 && !code.isFunctionBody(block); block = code.parentOf(block))
    addLoopsHeading(folder, file, code.openBraceOf(block), loops);
  return loops;
}

} // namespace ptxdvfs::tools
