// CudaCountedFor.cpp - the parts of a counted `for`, and its iterations;
// see CudaCountedFor.h.
#include "CudaCountedFor.h"

#include "CudaCode.h"
#include "CudaSource.h"
#include "CudaStatements.h"

#include <algorithm>
#include <vector>

namespace ptxdvfs::tools {

namespace {

/// The counter and bound of a comparison whose side `side` is a name with a sum or difference after it, `other`
/// being the other side: the name, and the sum moved to the other side (`i + 1 < n`: `i` and `(n) - (0 + 1)`);
/// nullopt for any other side.
std::optional<std::pair<std::string, std::string>> offsetCounter(const std::string &side, const std::string &other) {
  const std::string name = firstWordOf(side);
  if (!isName(name) || side.compare(0, name.size(), name) != 0)
    return std::nullopt;
  // Nothing after the `+` or `-` binds more loosely than it (a shift, `&`, `?:`), so the rest adds to the name.
  const std::string rest = trimmed(std::string_view(side).substr(name.size()));
  if (rest.size() < 2 || (rest[0] != '+' && rest[0] != '-') || rest[1] == rest[0] || rest[1] == '=' ||
      rest.find_first_of("<>=!&|^?,") != std::string::npos || readsName(rest, name))
    return std::nullopt;
  return std::pair{name, "(" + other + ") - (0 " + rest + ")"};
}

/// `loop`, whose counter, comparison and bound are read from the condition of the `for` with the parts
/// `parts`, with its start and step read from the other two; nullopt where they do not give them.
std::optional<CountedFor> steppedFor(const std::vector<std::string> &parts, CountedFor loop) {
  if (loop.bound.empty())
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
  // Without one (`for (; log2N > 11; log2N -= 2)`), it starts from its value before the loop.
  if (loop.start.empty() && trimmed(parts[0]).empty())
    loop.start = loop.counter;
  // The step: `i++`, `--i`, `i += s`, `i = i - s`; of several (`log2N -= 2, N >>= 2`), the counter's.
  std::string step;
  for (const std::string &each : topLevelParts(parts[2])) {
    const std::string part = trimmed(each);
    const std::string first = firstWordOf(part.rfind("++", 0) == 0 || part.rfind("--", 0) == 0 ? part.substr(2) : part);
    if (first != loop.counter)
      continue;
    if (!step.empty())
      return std::nullopt; // stepped twice
    step = part;
  }
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
  else if (compact.rfind(i + "*=", 0) == 0 || compact.rfind(i + "=" + i + "*", 0) == 0 ||
           compact.rfind(i + "/=", 0) == 0 || compact.rfind(i + "=" + i + "/", 0) == 0) {
    const bool assigned = compact[i.size()] == '=';
    loop.step = compact.substr(assigned ? 2 * i.size() + 2 : i.size() + 2);
    if (assigned && loop.step.find_first_of("+-?") != std::string::npos)
      loop.step.clear(); // `i = i * 2 + 1` scales and adds
    loop.scaling = compact[assigned ? 2 * i.size() + 1 : i.size()] == '*' ? CountedFor::Scaling::Multiply
                                                                          : CountedFor::Scaling::Divide;
  } else if (compact.rfind(i + "<<=", 0) == 0 || compact.rfind(i + ">>=", 0) == 0) {
    loop.step = "(1<<(" + compact.substr(i.size() + 3) + "))"; // a shift scales by a power of 2
    loop.scaling = compact[i.size()] == '<' ? CountedFor::Scaling::Multiply : CountedFor::Scaling::Divide;
  }
  if (loop.start.empty() || loop.step.empty())
    return std::nullopt;
  return loop;
}

} // namespace

std::optional<RangeFor> rangeFor(std::string_view header) {
  int depth = 0;
  for (std::size_t at = 0; at < header.size(); ++at) {
    const char c = header[at];
    const bool opens = c == '(' || c == '[' || c == '{' || c == '<';
    const bool closes = c == ')' || c == ']' || c == '}' || c == '>';
    depth += opens ? 1 : closes ? -1 : 0; // `std::pair<int, int> p : pairs`
    if (c == ';')
      return std::nullopt;
    if (c != ':' || depth != 0)
      continue;
    if (at + 1 < header.size() && header[at + 1] == ':') {
      ++at; // `std::vector<int>`'s `::`
      continue;
    }
    const std::vector<std::string> words = wordsIn(header.substr(0, at));
    const std::string range = trimmed(header.substr(at + 1));
    if (words.size() < 2 || !isName(words.back()) || range.empty())
      return std::nullopt; // `for (n : sizes)` declares nothing
    return RangeFor{words.back(), range, header.find_first_not_of(" \t\r\n", at + 1)};
  }
  return std::nullopt;
}

std::optional<CountedFor> countedFor(std::string_view header) {
  const std::vector<std::string> parts = topLevelParts(header, ';');
  if (parts.size() != 3)
    return std::nullopt; // a range `for`, or not C
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
    // Either side may hold the counter, alone or with a sum (`i + 1 < n`, `n > i`): the one the loop steps.
    std::vector<CountedFor> sides;
    for (const bool onRight : {false, true}) {
      const std::string &side = onRight ? right : left, &other = onRight ? left : right;
      const std::string comparison = onRight ? mirrored(symbol) : std::string(symbol);
      if (isName(side))
        sides.push_back(CountedFor{side, "", comparison, other, "", CountedFor::Scaling::None});
      else if (const auto offset = offsetCounter(side, other))
        sides.push_back(CountedFor{offset->first, "", comparison, offset->second, "", CountedFor::Scaling::None});
    }
    for (const CountedFor &side : sides)
      if (std::optional<CountedFor> counted = steppedFor(parts, side))
        return counted;
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::pair<std::uint64_t, std::int64_t>> scaledIterations(std::int64_t start,
                                                                       const std::string &comparison,
                                                                       std::int64_t bound, std::int64_t factor,
                                                                       bool divides) {
  constexpr std::uint64_t kMostScaledIterations = 64;
  __extension__ using Int128 = __int128;
  const auto holds = [&](Int128 value) { return comparisonHolds<Int128>(value, comparison, bound); };
  Int128 value = start, sum = 0;
  std::uint64_t count = 0;
  for (; holds(value); ++count) {
    if (count == kMostScaledIterations || factor == 0 || (!divides && (factor == 1 || value == 0)) ||
        (divides && (factor == 1 || factor == -1 || value == 0)))
      return std::nullopt; // scaling never leaves the range, or leaves it past every whole number
    sum += value;
    value = divides ? value / factor : value * factor;
    if (value > INT64_MAX || value < INT64_MIN)
      return std::nullopt;
  }
  return std::make_pair(count, count == 0 ? start : static_cast<std::int64_t>(sum / static_cast<Int128>(count)));
}

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

} // namespace ptxdvfs::tools
