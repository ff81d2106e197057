// CudaScannedArguments.cpp - what the host code scans out of a command-line
// argument's text: `sscanf(argv[1], "%dx%d", &n, &b)` and `std::istringstream
// in(argv[1]); in >> n;`; see CudaCommandLineReads.h.
#include "CudaCommandLineReads.h"

#include "CudaStatements.h"

#include <algorithm>
#include <sstream>

namespace ptxdvfs::tools {

using namespace expression;
using namespace constants;

namespace {

/// The parts of the statement `S >> a >> b` (code, no `;`): S, then each name it extracts into, in order; empty
/// where it is no such statement.
std::vector<std::string> extractionParts(std::string_view statement) {
  std::vector<std::string> parts;
  for (std::size_t from = 0, shift = statement.find(">>");; shift = statement.find(">>", from)) {
    parts.push_back(trimmed(statement.substr(from, shift == std::string_view::npos ? shift : shift - from)));
    if (shift == std::string_view::npos)
      break;
    from = shift + 2;
  }
  const bool names = std::all_of(parts.begin() + 1, parts.end(), [](const std::string &part) { return isName(part); });
  return parts.size() >= 2 && names ? parts : std::vector<std::string>();
}

/// `E` of a string stream made as written in `written`: `std::istringstream(E)` (`named` empty), or the
/// declaration `std::istringstream named(E)` (or `std::stringstream`, braces); nullopt for anything else.
std::optional<std::string> streamMadeOf(std::string_view written, const std::string &named) {
  std::string rest = trimmed(written);
  const auto skip = [&](const std::string &word) {
    const bool there =
        rest.compare(0, word.size(), word) == 0 && (rest.size() == word.size() || !isIdentifierChar(rest[word.size()]));
    rest = there ? trimmed(std::string_view(rest).substr(word.size())) : rest;
    return there;
  };
  if (!skip("std::istringstream") && !skip("std::stringstream") && !skip("istringstream") && !skip("stringstream"))
    return std::nullopt;
  if ((!named.empty() && !skip(named)) || rest.size() < 2 || (rest[0] != '(' && rest[0] != '{') ||
      pastClosing(rest, 0) != rest.size())
    return std::nullopt;
  return rest.substr(1, rest.size() - 2);
}

} // namespace

std::optional<std::string> ConstantFolder::Impl::CommandLine::argumentWritten(std::size_t file, std::size_t at,
                                                                              const std::string &written,
                                                                              int depth) const {
  const auto array = subscripted(tokensOf(written));
  if (!array)
    return std::nullopt;
  std::string index;
  for (const Token &token : array->second)
    index += token.text + " ";
  return argument(
      file, at, array->first, [&] { return folder_.number(file, at, index, depth + 1); }, depth);
}

std::optional<std::optional<Number>> ConstantFolder::Impl::CommandLine::scannedArgument(std::size_t file,
                                                                                        std::size_t at,
                                                                                        const std::string &name,
                                                                                        int depth) const {
  const CudaCode &source = folder_.files_[file];
  const std::string &code = source.code();
  const std::size_t address = codeEndBefore(code, at), open = parenthesisAround(code, at);
  std::size_t calleeAt = open;
  if (address == 0 || code[address - 1] != '&' || open == std::string::npos || wordBefore(code, calleeAt) != "sscanf")
    return std::nullopt;
  const std::optional<std::optional<Number>> open_{std::optional<Number>()};
  const std::size_t close = pastClosing(code, open);
  const std::size_t index = argumentCountAndIndex(code, open, at).second;
  if (close == std::string::npos || index < 2 || depth >= kMaxDepth)
    return open_;
  const std::vector<std::string> parts =
      topLevelPartsAsWritten(std::string_view(code).substr(open + 1, close - open - 2),
                             std::string_view(source.text()).substr(open + 1, close - open - 2));
  const std::optional<std::string> format = plainStringLiteral(parts[1]);
  if (!subscripted(tokensOf(parts[0])) || !format)
    return open_; // not `sscanf(argv[N], "...", ...)`
  const std::optional<std::string> text = argumentWritten(file, open, parts[0], depth);
  const std::optional<std::vector<Number>> values = text ? scannedValues(*text, *format) : std::nullopt;
  if (!values || index - 2 >= values->size())
    return open_;
  return std::optional<Number>((*values)[index - 2]);
}

std::optional<std::optional<Number>> ConstantFolder::Impl::CommandLine::streamedArgument(std::size_t file,
                                                                                         std::size_t at,
                                                                                         const std::string &name,
                                                                                         int depth) const {
  const CudaCode &source = folder_.files_[file];
  const std::string &code = source.code();
  const std::size_t previous = codeEndBefore(code, at);
  const std::size_t statement = statementStartAround(code, at), end = statementEndFrom(code, statement);
  if (previous < 2 || code.compare(previous - 2, 2, ">>") != 0 || end == std::string::npos)
    return std::nullopt;
  const std::vector<std::string> parts = extractionParts(std::string_view(code).substr(statement, end - 1 - statement));
  const auto extracted = std::find(parts.begin() + (parts.empty() ? 0 : 1), parts.end(), name);
  if (extracted == parts.end())
    return std::nullopt;
  const std::optional<std::optional<Number>> open{std::optional<Number>()};
  // The stream's text: `std::istringstream(E)` written there, or the only other use of a name declared so.
  const std::string &stream = parts[0];
  std::optional<std::string> made = streamMadeOf(stream, "");
  if (!made && isName(stream)) {
    std::vector<std::size_t> uses;
    for (const std::size_t use : source.wordsNamed(stream))
      if (source.functionBodyAt(use) == source.functionBodyAt(at))
        uses.push_back(use);
    const std::size_t declared = uses.empty() ? 0 : statementStartAround(code, uses[0]);
    const std::size_t declaredEnd = uses.size() == 2 ? statementEndFrom(code, declared) : std::string::npos;
    if (declaredEnd == std::string::npos || uses[1] < statement || uses[1] >= at)
      return open; // read or changed by another statement
    made = streamMadeOf(std::string_view(code).substr(declared, declaredEnd - 1 - declared), stream);
  }
  if (!made)
    return std::nullopt;
  const std::optional<std::string> text = depth < kMaxDepth ? argumentWritten(file, at, *made, depth) : std::nullopt;
  // Its words, as `>>` takes them in turn: a whole number only, which a whole or a real name reads alike.
  std::istringstream words(text ? *text : "");
  std::string word;
  std::ptrdiff_t taken = 0;
  while (taken < extracted - parts.begin() && words >> word)
    ++taken;
  const bool whole = text && taken == extracted - parts.begin() &&
                     word.find_first_not_of("0123456789", word[0] == '-') == std::string::npos;
  const std::optional<std::vector<Number>> value =
      whole && word.size() < 19 ? scannedValues(word, "%lld") : std::nullopt;
  return value && value->size() == 1 ? std::optional<Number>(value->front()) : open;
}

} // namespace ptxdvfs::tools
