// CudaExpressionTokens.cpp - the tokens of host code and C's conversions of
// a folded number, which CudaExpression.cpp's reader works with; see
// CudaExpression.h.
#include "CudaExpression.h"

#include "CudaCode.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <set>

namespace ptxdvfs::tools::expression {

std::optional<std::int64_t> truncated(double real) {
  constexpr double kLimit = 9.2e18; // below 2^63, so the conversion is defined
  if (!(std::fabs(real) < kLimit))
    return std::nullopt;
  return static_cast<std::int64_t>(std::trunc(real));
}

std::optional<Number> converted(Number value, const std::vector<std::string> &type) {
  if (std::count(type.begin(), type.end(), "bool") || std::count(type.begin(), type.end(), "_Bool"))
    return Number{false, value.asReal() != 0 ? 1 : 0, 0}; // `return n > 0 ? n : 0;` from a `bool` function
  const bool real = std::count(type.begin(), type.end(), "float") || std::count(type.begin(), type.end(), "double");
  if (real && !value.real)
    return Number{true, 0, static_cast<double>(value.whole)};
  if (!real && value.real) {
    auto whole = truncated(value.value);
    return whole ? std::optional<Number>(Number{false, *whole, 0}) : std::nullopt;
  }
  return value;
}

std::vector<Token> tokensOf(std::string_view text) {
  std::vector<Token> tokens;
  for (std::size_t at = 0; at < text.size();) {
    const char c = text[at];
    std::size_t end = at + 1;
    if (isSpace(c)) {
      ++at;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && at + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[at + 1])))) {
      while (
          end < text.size() &&
          (isIdentifierChar(text[end]) || text[end] == '.' ||
           (text[end] == '\'' && end + 1 < text.size() && std::isxdigit(static_cast<unsigned char>(text[end + 1]))) ||
           ((text[end] == '+' || text[end] == '-') && (text[end - 1] == 'e' || text[end - 1] == 'E'))))
        ++end;
      tokens.push_back({Token::Number, std::string(text.substr(at, end - at))});
    } else if (isIdentifierChar(c) ||
               (text.substr(at, 2) == "::" && at + 2 < text.size() && isIdentifierChar(text[at + 2]))) {
      // A name keeps its qualifiers, a leading `::` (the global one) too.
      end = at;
      while (end < text.size() && (isIdentifierChar(text[end]) || text.substr(end, 2) == "::"))
        end += text.substr(end, 2) == "::" ? 2 : 1;
      tokens.push_back({Token::Name, std::string(text.substr(at, end - at))});
    } else {
      static constexpr std::string_view kPairs[] = {"<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "->"};
      if (std::find(std::begin(kPairs), std::end(kPairs), text.substr(at, 2)) != std::end(kPairs))
        end = at + 2;
      tokens.push_back({Token::Punct, std::string(text.substr(at, end - at))});
    }
    at = end;
  }
  return tokens;
}

bool isTypeWord(std::string_view word) {
  static const std::set<std::string, std::less<>> kWords{
      "const",    "constexpr", "static",   "unsigned", "signed", "int",  "long", "short", "char",   "size_t", "std",
      "uint32_t", "int32_t",   "uint64_t", "int64_t",  "uint",   "dim3", "auto", "float", "double", "bool"};
  // The C library's types as C++'s <cstddef> and <cstdint> name them too: `std::size_t`, `::std::int64_t`.
  static const std::set<std::string, std::less<>> kStandard{"size_t", "uint32_t", "int32_t", "uint64_t", "int64_t"};
  for (const std::string_view prefix : {"::std::", "std::"})
    if (word.size() > prefix.size() && word.compare(0, prefix.size(), prefix) == 0)
      return kStandard.count(word.substr(prefix.size())) > 0;
  return kWords.count(word) > 0;
}

} // namespace ptxdvfs::tools::expression
