// CudaLoopHeaders.cpp - finding the loops around a statement of host
// code, and reading the parts of a counted `for`.
#include "CudaLoopHeaders.h"

#include "CudaSource.h"

#include <algorithm>
#include <cctype>

namespace ptxdvfs::tools {

namespace {

std::optional<LoopHeader> headerBefore(const std::string &code, std::size_t statement);

/// The `if` whose branch ends just before the `else` at `elseAt`: `if
/// (c) { ... }` or `if (c) a(b);` (not one whose branch is itself a loop
/// or an `if`).
std::optional<LoopHeader> branchBefore(const std::string &code, std::size_t elseAt) {
  const std::size_t end = codeEndBefore(code, elseAt);
  if (end == 0)
    return std::nullopt;
  if (code[end - 1] == '}') {
    std::optional<LoopHeader> branching = headerBefore(code, openingOf(code, end - 1));
    return branching && branching->keyword == "if" ? branching : std::nullopt;
  }
  if (code[end - 1] != ';')
    return std::nullopt;
  // Back over the one statement, past its brackets, to the `)` that ends the `if`'s head.
  for (std::size_t at = end - 1; at > 0; --at) {
    const char c = code[at - 1];
    if (c == ';' || c == '{' || c == '}')
      return std::nullopt;
    if (c != ')' && c != ']')
      continue;
    const std::size_t open = openingOf(code, at - 1);
    std::size_t keyword = open;
    const std::string word = c == ')' ? wordBefore(code, keyword) : std::string();
    if (word == "if")
      return LoopHeader{"if", keyword, open, at - 1, at - 1};
    if (word == "for" || word == "while")
      return std::nullopt;
    at = open + 1;
  }
  return std::nullopt;
}

/// What heads the statement that starts at `statement`: `for (...)`,
/// `while (...)`, `if (...)`, `do`, or an `else`.
std::optional<LoopHeader> headerBefore(const std::string &code, std::size_t statement) {
  const std::size_t end = codeEndBefore(code, statement);
  if (end == 0)
    return std::nullopt;
  if (code[end - 1] != ')') {
    std::size_t at = end;
    const std::string word = wordBefore(code, at);
    if (word == "do")
      return LoopHeader{"do", at, std::string::npos, std::string::npos, end - 1};
    if (word != "else")
      return std::nullopt;
    // `if (...) { ... } else` or `if (...) a(); else`: the `else` of that
    // `if`, whose statement starts at the `if`.
    std::optional<LoopHeader> branching = branchBefore(code, at);
    if (!branching)
      return std::nullopt;
    branching->keyword = "else";
    branching->headEnd = end - 1;
    return branching;
  }
  const std::size_t open = openingOf(code, end - 1);
  if (code[open] != '(')
    return std::nullopt;
  std::size_t at = open;
  std::string keyword = wordBefore(code, at);
  if (keyword != "for" && keyword != "while" && keyword != "if")
    return std::nullopt;
  return LoopHeader{std::move(keyword), at, open, end - 1, end - 1};
}

bool isName(const std::string &text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), isIdentifierChar) &&
         !std::isdigit(static_cast<unsigned char>(text[0]));
}

} // namespace

std::optional<CountedFor> countedFor(std::string_view header) {
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


std::vector<LoopHeader> headersAround(const CudaCode &code, std::size_t statement) {
  std::vector<LoopHeader> headers;
  // The heads of a statement without braces (`for (...) if (...) k<<<...>>>(...);`).
  auto addHeading = [&](std::size_t at) {
    for (std::optional<LoopHeader> header = headerBefore(code.code(), at); header;
         header = headerBefore(code.code(), header->at))
      headers.push_back(*header);
  };
  addHeading(statement);
  for (int block = code.blockAt(statement); block >= 0 && !code.isFunctionBody(block); block = code.parentOf(block))
    addHeading(code.openBraceOf(block));
  return headers;
}

std::vector<LoopHeader> loopsAround(const CudaCode &code, std::size_t statement) {
  std::vector<LoopHeader> loops = headersAround(code, statement);
  loops.erase(std::remove_if(loops.begin(), loops.end(),
                             [](const LoopHeader &header) { return header.keyword == "if" || header.keyword == "else"; }),
              loops.end());
  return loops;
}

std::size_t bodyEndAfter(const std::string &code, std::size_t close) {
  const std::size_t start = code.find_first_not_of(" \t\r\n", close + 1);
  if (start == std::string::npos || code[start] == '{')
    return start == std::string::npos ? start : pastClosing(code, start);
  return statementEndFrom(code, start);
}

} // namespace ptxdvfs::tools
