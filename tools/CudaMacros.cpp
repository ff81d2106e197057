// CudaMacros.cpp - the `#define`s the folder reads: object-like ones
// (`#define N 4096`) and function-like ones (`#define DIV_UP(a, b) ...`),
// each taken where the files a program sees agree on it.
#include "CudaConstantsImpl.h"

#include "CudaExpression.h"

#include <algorithm>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ptxdvfs::tools {

using namespace expression;
using namespace constants;

namespace {

/// The definition that those of `definitions` in the files `seen` marks
/// agree on; Unknown where two of them differ (under `#if` branches the
/// reader cannot take, or in two files of one program), Absent where
/// there is none.
template <typename T, typename Same>
Lookup agreedAmong(const std::vector<std::pair<std::size_t, T>> &definitions, const std::vector<bool> &seen, Same same,
                   T &found) {
  const T *first = nullptr;
  for (const auto &[file, definition] : definitions)
    if (seen[file] && !first)
      first = &definition;
    else if (seen[file] && !same(*first, definition))
      return Lookup::Unknown;
  if (!first)
    return Lookup::Absent;
  found = *first;
  return Lookup::Found;
}

} // namespace

void ConstantFolder::Impl::indexMacros(std::size_t file) {
  const std::string &code = files_[file].code();
  for (std::size_t at = code.find('#'); at != std::string::npos; at = code.find('#', at + 1)) {
    const std::size_t directive = code.find_first_not_of(" \t", at + 1);
    if (directive == std::string::npos || code.compare(directive, 6, "define") != 0)
      continue;
    const std::size_t nameAt = code.find_first_not_of(" \t", directive + 6);
    std::size_t after = nameAt;
    while (after < code.size() && isIdentifierChar(code[after]))
      ++after;
    if (after == nameAt)
      continue;
    std::size_t end = code.find('\n', after);
    while (end != std::string::npos && end > 0 && code[end - 1] == '\\')
      end = code.find('\n', end + 1);
    std::string text = code.substr(after, end == std::string::npos ? std::string::npos : end - after);
    std::replace(text.begin(), text.end(), '\\', ' ');
    std::string name = code.substr(nameAt, after - nameAt);
    if (text.empty() || text[0] != '(') {
      objectLike_[name].emplace_back(file, Definition{text, file, after, false});
      continue;
    }
    // `NAME(a, b) body`: the parentheses follow the name at once.
    const std::size_t close = text.find(')');
    if (close == std::string::npos)
      continue;
    FunctionMacro macro{{}, tokensOf(std::string_view(text).substr(close + 1))};
    for (const Token &token : tokensOf(std::string_view(text).substr(1, close - 1)))
      if (token.kind == Token::Name)
        macro.parameters.push_back(token.text);
      else if (token.text != ",")
        macro.parameters.push_back("..."); // variadic or malformed: never expanded
    functionLike_[name].emplace_back(file, std::move(macro));
  }
}

Lookup ConstantFolder::Impl::macro(std::size_t file, const std::string &name, Definition &found) const {
  const auto definitions = objectLike_.find(name);
  if (definitions == objectLike_.end())
    return Lookup::Absent;
  const auto same = [](const Definition &a, const Definition &b) {
    return a.text == b.text || tokensOf(a.text) == tokensOf(b.text);
  };
  if (definitions->second.size() == 1)
    return agreedAmong(definitions->second, seen_[file], same, found);
  // Agreement among many definitions is worked out once per set of files seen.
  auto cached = remembered_.agreedMacros.find({unitOf_[file], name});
  if (cached == remembered_.agreedMacros.end()) {
    Definition agreed;
    const Lookup lookup = agreedAmong(definitions->second, seen_[file], same, agreed);
    cached =
        remembered_.agreedMacros.emplace(std::pair{unitOf_[file], name}, std::pair{lookup, std::move(agreed)}).first;
  }
  if (cached->second.first == Lookup::Found)
    found = cached->second.second;
  return cached->second.first;
}

Lookup ConstantFolder::Impl::functionMacro(std::size_t file, const std::string &name, FunctionMacro &found) const {
  const auto definitions = functionLike_.find(name);
  if (definitions == functionLike_.end())
    return Lookup::Absent;
  const Lookup lookup = agreedAmong(definitions->second, seen_[file], std::equal_to<FunctionMacro>(), found);
  const bool variadic = std::find(found.parameters.begin(), found.parameters.end(), "...") != found.parameters.end();
  if (lookup == Lookup::Found &&
      (variadic || std::find(found.body.begin(), found.body.end(), Token{Token::Punct, "#"}) != found.body.end()))
    return Lookup::Unknown; // `#x` and `a ## b` are not expanded
  return lookup;
}

} // namespace ptxdvfs::tools
