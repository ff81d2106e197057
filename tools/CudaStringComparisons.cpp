// CudaStringComparisons.cpp - comparisons of a string with a literal in
// a condition, replaced by their results; see CudaStringComparisons.h.
#include "CudaStringComparisons.h"

#include "CudaCode.h"
#include "CudaSource.h"
#include "CudaStatements.h"

#include <algorithm>
#include <cctype>

namespace ptxdvfs::tools {

namespace {

constexpr std::string_view kSpaces = " \t\r\n";

/// The first character at or after `at` that is not a space (npos where none is).
std::size_t skipSpaces(const std::string &code, std::size_t at) { return code.find_first_not_of(kSpaces, at); }

/// Where the string or character literal that opens at `at` of `text` closes (past it); npos where it has an
/// escape or does not close.
std::size_t literalEnd(std::string_view text, std::size_t at) {
  const std::size_t close = text.find_first_of(std::string{text[at], '\\', '\n'}, at + 1);
  return close == std::string_view::npos || text[close] != text[at] ? std::string_view::npos : close + 1;
}

/// The operand of `==` or `!=` in `code` that ends at `from` (`leftward`) or starts there: as far as a
/// top-level `(`, `)`, `,`, `;`, `?`, `:`, `&&`, `||`, or a `!` not of `!=`; its [start, end).
std::pair<std::size_t, std::size_t> operandAround(std::string_view code, std::size_t from, bool leftward) {
  int depth = 0;
  std::size_t at = from;
  const auto boundary = [&](std::size_t i) {
    const char c = code[i];
    if (c == ',' || c == ';' || c == '?')
      return true;
    if (c == ':')
      return !((i > 0 && code[i - 1] == ':') || (i + 1 < code.size() && code[i + 1] == ':'));
    if (c == '!')
      return i + 1 >= code.size() || code[i + 1] != '=';
    return (c == '&' || c == '|') && ((i > 0 && code[i - 1] == c) || (i + 1 < code.size() && code[i + 1] == c));
  };
  if (leftward) {
    for (; at > 0; --at) {
      const char c = code[at - 1];
      if (c == ')' || c == ']')
        ++depth;
      else if ((c == '(' || c == '[') && depth-- == 0)
        break;
      else if (depth == 0 && boundary(at - 1))
        break;
    }
    return {at, from};
  }
  for (; at < code.size(); ++at) {
    const char c = code[at];
    if (c == '(' || c == '[')
      ++depth;
    else if ((c == ')' || c == ']') && depth-- == 0)
      break;
    else if (depth == 0 && boundary(at))
      break;
  }
  return {from, at};
}

int sign(int compared) { return compared < 0 ? -1 : compared > 0 ? 1 : 0; }

/// A count of characters written as at most 4 digits (`strncmp(a, "-n", 2)`'s 2); nullopt for anything else.
std::optional<std::size_t> writtenCount(const std::string &written) {
  const auto digit = [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; };
  return written.empty() || written.size() > 4 || !std::all_of(written.begin(), written.end(), digit)
             ? std::nullopt
             : std::optional<std::size_t>(std::stoul(written));
}

/// C's `strncmp(a, b, limit)` (or `strncasecmp` with `foldCase`), unsigned characters compared.
int compared(std::string_view a, std::string_view b, std::size_t limit, bool foldCase) {
  for (std::size_t i = 0; i < limit; ++i) {
    int x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    int y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    if (foldCase) {
      x = std::tolower(x);
      y = std::tolower(y);
    }
    if (x != y || x == 0)
      return sign(x - y);
  }
  return 0;
}

/// The call of a std::string's method `method` whose `(` is at `open` and its name at `nameAt` in `text` (`code`
/// its codeOf()), `literal` its string argument: `s.find("-n")` (the position or -1, for npos),
/// `s.rfind("--n=", 0)` (0 or -1: whether it starts so), `s.compare("-n")` and `s.compare(0, 4, "--n=")` (the sign
/// C's `strcmp` gives), `s.starts_with("-")` (1 or 0); the range it takes and its result. nullopt for any other
/// call, or where `s`'s text is not known.
std::optional<std::pair<std::pair<std::size_t, std::size_t>, int>>
methodComparisonAt(const std::string &text, const std::string &code, std::size_t open, std::size_t nameAt,
                   const std::string &method, const std::string &literal, bool character, const StringValue &value) {
  const std::size_t dot = codeEndBefore(code, nameAt), close = pastClosing(code, open);
  if (character || dot == 0 || code[dot - 1] != '.' || close == std::string::npos)
    return std::nullopt;
  const std::size_t objectStart = operandAround(code, dot - 1, true).first;
  const std::vector<std::string> parts =
      topLevelPartsAsWritten(std::string_view(code).substr(open + 1, close - open - 2),
                             std::string_view(text).substr(open + 1, close - open - 2));
  const std::string quoted = "\"" + literal + "\"";
  const std::optional<std::string> object =
      value(trimmed(std::string_view(text).substr(objectStart, dot - 1 - objectStart)));
  if (!object)
    return std::nullopt;
  const bool startsWith = object->compare(0, literal.size(), literal) == 0;
  const std::size_t found = object->find(literal);
  std::optional<int> result;
  if (method == "starts_with" && parts == std::vector<std::string>{quoted})
    result = startsWith ? 1 : 0;
  else if (method == "find" && parts == std::vector<std::string>{quoted})
    result = found == std::string::npos ? std::optional<int>(-1)
             : found < 1024             ? std::optional<int>(static_cast<int>(found))
                                        : std::nullopt;
  else if (method == "rfind" && parts == std::vector<std::string>{quoted, "0"})
    result = startsWith ? 0 : -1;
  else if (method == "compare" && parts == std::vector<std::string>{quoted})
    result = sign(object->compare(literal));
  else if (method == "compare" && parts.size() == 3 && parts[0] == "0" && parts[2] == quoted && writtenCount(parts[1]))
    result = sign(object->substr(0, *writtenCount(parts[1])).compare(literal));
  if (!result)
    return std::nullopt;
  return std::pair{std::pair{objectStart, close}, *result};
}

/// The comparison the literal at [`at`, `end`) of `text` (`code` its codeOf()) is in: the range it takes and
/// its result; nullopt where it is in none that withStringComparisons() reads.
std::optional<std::pair<std::pair<std::size_t, std::size_t>, int>> comparisonAt(const std::string &text,
                                                                                const std::string &code, std::size_t at,
                                                                                std::size_t end,
                                                                                const StringValue &value) {
  const std::string literal = text.substr(at + 1, end - at - 2);
  const bool character = text[at] == '\'';
  const std::size_t before = codeEndBefore(code, at), after = skipSpaces(code, end);
  const std::size_t open = before > 0 && (code[before - 1] == ',' || code[before - 1] == '(')
                               ? parenthesisAround(code, at)
                               : std::string::npos;
  std::size_t nameAt = open;
  const std::string callee = open == std::string::npos ? "" : wordBefore(code, nameAt);
  const bool bounded = callee == "strncmp" || callee == "strncasecmp";
  const bool folded = callee == "strcasecmp" || callee == "strncasecmp";
  if (bounded || folded || callee == "strcmp") { // an argument of `strcmp(...)`
    if (character)
      return std::nullopt;
    const std::size_t close = pastClosing(code, open);
    if (close == std::string::npos)
      return std::nullopt;
    const std::vector<std::string> parts =
        topLevelPartsAsWritten(std::string_view(code).substr(open + 1, close - open - 2),
                               std::string_view(text).substr(open + 1, close - open - 2));
    const std::string quoted = "\"" + literal + "\"";
    if (parts.size() != (bounded ? 3u : 2u) || (parts[0] == quoted) == (parts[1] == quoted))
      return std::nullopt; // the literal alone, in one of the first two
    const bool literalFirst = parts[0] == quoted;
    const std::optional<std::string> other = value(parts[literalFirst ? 1 : 0]);
    const std::optional<std::size_t> written = bounded ? writtenCount(parts[2]) : std::nullopt;
    if (!other || (bounded && !written))
      return std::nullopt;
    const std::size_t limit = bounded ? *written : std::max(other->size(), literal.size()) + 1;
    const int result =
        literalFirst ? compared(literal, *other, limit, folded) : compared(*other, literal, limit, folded);
    return std::pair{std::pair{nameAt, close}, result};
  }
  if (callee == "find" || callee == "rfind" || callee == "compare" || callee == "starts_with")
    return methodComparisonAt(text, code, open, nameAt, callee, literal, character, value);
  std::size_t operatorAt = std::string::npos, from = 0, to = 0;
  if (before > 1 && (code.compare(before - 2, 2, "==") == 0 || code.compare(before - 2, 2, "!=") == 0)) {
    operatorAt = before - 2;
    from = operandAround(code, operatorAt, true).first;
    to = end;
    if (code.find_first_not_of(kSpaces, end) < operandAround(code, operatorAt + 2, false).second)
      return std::nullopt; // the literal is part of its operand: `c == 'a' + 1`
  } else if (after != std::string::npos && (code.compare(after, 2, "==") == 0 || code.compare(after, 2, "!=") == 0)) {
    operatorAt = after;
    from = at;
    to = operandAround(code, after + 2, false).second;
    const std::size_t left = operandAround(code, after, true).first;
    const std::size_t previous = at > left ? code.find_last_not_of(kSpaces, at - 1) : std::string::npos;
    if (previous != std::string::npos && previous >= left)
      return std::nullopt; // `'a' + 1 == c`
  } else {
    return std::nullopt;
  }
  const std::string operand = operatorAt < at ? trimmed(std::string_view(text).substr(from, operatorAt - from))
                                              : trimmed(std::string_view(text).substr(after + 2, to - after - 2));
  const std::optional<std::string> other = operand.empty() ? std::nullopt
                                           : character     ? characterText(operand, value)
                                                           : value(operand);
  if (!other)
    return std::nullopt;
  return std::pair{std::pair{from, to}, (*other == literal) == (code[operatorAt] == '=') ? 1 : 0};
}

} // namespace

std::optional<std::string> withStringComparisons(std::string_view condition, const StringValue &value) {
  std::string text(condition);
  std::vector<std::pair<std::size_t, std::size_t>> literals;
  for (std::size_t at = 0; at < text.size(); ++at)
    if (text[at] == '"' || text[at] == '\'') {
      const std::size_t end = literalEnd(text, at);
      if (end == std::string::npos || (text[at] == '\'' && end != at + 3))
        return std::nullopt; // an escape, or not one character: not a plain comparison
      literals.emplace_back(at, end);
      at = end - 1;
    }
  for (auto literal = literals.rbegin(); literal != literals.rend(); ++literal) {
    const std::string code = codeOf(text);
    const auto comparison = comparisonAt(text, code, literal->first, literal->second, value);
    if (!comparison || (literal + 1 != literals.rend() && (literal + 1)->second > comparison->first.first))
      return std::nullopt; // in no comparison read, or one that holds another literal
    const auto [from, to] = comparison->first;
    text.replace(from, to - from, "(" + std::to_string(comparison->second) + ")");
  }
  // What a method's -1 stands for (methodComparisonAt()): `arg.find("-n") != std::string::npos`, longest
  // spelling first, so that `::std::string::npos` is not read as `::` before `std::string::npos`.
  for (const std::string npos : {"::std::string::npos", "::std::string_view::npos", "std::string::npos",
                                 "std::string_view::npos", "string::npos", "string_view::npos"})
    for (std::size_t at = text.find(npos); !literals.empty() && at != std::string::npos; at = text.find(npos, at))
      if (isWholeWord(text, at, npos.size()))
        text.replace(at, npos.size(), "(-1)");
      else
        at += npos.size();
  return text;
}

std::string withStringNamesRead(std::string_view condition,
                                const std::function<std::optional<std::string>(const std::string &name)> &literal) {
  std::string text(condition);
  const std::string code = codeOf(text);
  std::vector<std::pair<std::pair<std::size_t, std::size_t>, std::string>> replaced;
  for (std::size_t at = 0; at < code.size(); ++at) {
    if (!isIdentifierChar(code[at]) || std::isdigit(static_cast<unsigned char>(code[at])) ||
        (at > 0 && isIdentifierChar(code[at - 1])))
      continue;
    std::size_t end = at;
    while (end < code.size() && isIdentifierChar(code[end]))
      ++end;
    const std::size_t before = codeEndBefore(code, at), after = skipSpaces(code, end);
    const bool member = before > 0 && (code[before - 1] == '.' || code[before - 1] == ':' ||
                                       (before > 1 && code.compare(before - 2, 2, "->") == 0));
    const bool called = after != std::string::npos && (code[after] == '(' || code[after] == ':');
    if (!member && !called)
      if (const std::optional<std::string> value = literal(code.substr(at, end - at)))
        replaced.push_back({{at, end}, "\"" + *value + "\""});
    at = end - 1;
  }
  for (auto each = replaced.rbegin(); each != replaced.rend(); ++each)
    text.replace(each->first.first, each->first.second - each->first.first, each->second);
  return text;
}

std::optional<std::string> characterText(std::string_view written, const StringValue &value) {
  const std::string read = trimmed(written);
  std::string string;
  std::size_t index = 0;
  if (!read.empty() && read[0] == '*') {
    string = read.substr(1);
  } else if (const std::size_t open = read.rfind('[');
             !read.empty() && read.back() == ']' && open != std::string::npos) {
    const std::string digits = trimmed(std::string_view(read).substr(open + 1, read.size() - open - 2));
    if (digits.empty() || digits.size() > 4 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      return std::nullopt;
    string = read.substr(0, open);
    index = std::stoul(digits);
  } else {
    const std::optional<std::string> known = value(read); // a `char` given one
    return known && known->size() <= 1 ? known : std::nullopt;
  }
  const std::optional<std::string> known = value(string);
  if (!known || index > known->size())
    return std::nullopt; // past the terminating NUL
  return index == known->size() ? std::string() : known->substr(index, 1);
}

} // namespace ptxdvfs::tools
