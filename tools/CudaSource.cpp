// CudaSource.cpp - reading the CUDA files a PTX module names, and finding kernel declarations in them.
#include "CudaSource.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace ptxdvfs::tools {

namespace fs = std::filesystem;

bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool isName(std::string_view text) {
  return !text.empty() && !std::isdigit(static_cast<unsigned char>(text[0])) &&
         std::all_of(text.begin(), text.end(), isIdentifierChar);
}

bool isWholeWord(std::string_view text, std::size_t at, std::size_t length) {
  const std::size_t end = at + length;
  return (at == 0 || !isIdentifierChar(text[at - 1])) && (end >= text.size() || !isIdentifierChar(text[end]));
}

std::string trimmed(std::string_view text) {
  const auto begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos)
    return {};
  return std::string(text.substr(begin, text.find_last_not_of(" \t\r\n") - begin + 1));
}

std::string firstWordOf(std::string_view text) {
  const std::size_t start = text.find_first_not_of(" \t\r\n");
  std::size_t end = start;
  while (end < text.size() && isIdentifierChar(text[end]))
    ++end;
  return start == std::string_view::npos ? std::string() : std::string(text.substr(start, end - start));
}

std::vector<std::string> wordsIn(std::string_view text) {
  std::vector<std::string> words;
  for (std::size_t at = 0; at < text.size();) {
    if (!isIdentifierChar(text[at])) {
      ++at;
      continue;
    }
    std::size_t end = at;
    while (end < text.size() && isIdentifierChar(text[end]))
      ++end;
    words.emplace_back(text.substr(at, end - at));
    at = end;
  }
  return words;
}

bool inKernelDeclaration(const std::string &code, std::size_t at) {
  const std::size_t end = at == 0 ? std::string::npos : code.find_last_of(";{}", at - 1);
  const std::size_t from = end == std::string::npos ? 0 : end + 1;
  return std::string_view(code).substr(from, at - from).find("__global__") != std::string_view::npos;
}

std::size_t pastClosing(const std::string &code, std::size_t open) {
  int depth = 0;
  for (std::size_t at = open; at < code.size(); ++at) {
    const char c = code[at];
    depth += (c == '(' || c == '[' || c == '{') ? 1 : (c == ')' || c == ']' || c == '}') ? -1 : 0;
    if (depth == 0)
      return at + 1;
  }
  return std::string::npos;
}

std::optional<int> characterCode(std::string_view literal) {
  if (literal.size() < 3 || literal.front() != '\'' || literal.back() != '\'')
    return std::nullopt;
  const std::string_view inside = literal.substr(1, literal.size() - 2);
  if (inside.size() == 1 && inside[0] != '\\' && inside[0] != '\'')
    return static_cast<unsigned char>(inside[0]) < 128 ? std::optional<int>(inside[0]) : std::nullopt;
  if (inside.size() < 2 || inside[0] != '\\')
    return std::nullopt;
  constexpr std::string_view kEscaped = "ntr\\'\"abfv?";
  constexpr int kCodes[] = {'\n', '\t', '\r', '\\', '\'', '"', '\a', '\b', '\f', '\v', '?'};
  static_assert(std::size(kCodes) == kEscaped.size());
  if (const std::size_t escape = inside.size() == 2 ? kEscaped.find(inside[1]) : std::string_view::npos;
      escape != std::string_view::npos)
    return kCodes[escape];
  // A code written in octal (`'\0'`, `'\101'`, up to three digits) or in hexadecimal (`'\x41'`).
  const bool hexadecimal = inside[1] == 'x';
  const std::string_view digits = inside.substr(hexadecimal ? 2 : 1);
  const auto isDigit = [&](char c) {
    return hexadecimal ? std::isxdigit(static_cast<unsigned char>(c)) != 0 : c >= '0' && c <= '7';
  };
  if (digits.empty() || (!hexadecimal && digits.size() > 3) || !std::all_of(digits.begin(), digits.end(), isDigit))
    return std::nullopt;
  const unsigned long code = std::stoul(std::string(digits.substr(0, 8)), nullptr, hexadecimal ? 16 : 8);
  return digits.size() <= 8 && code < 128 ? std::optional<int>(static_cast<int>(code)) : std::nullopt;
}

std::string codeOf(std::string text) {
  auto blank = [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to && i < text.size(); ++i)
      if (text[i] != '\n')
        text[i] = ' ';
  };
  for (std::size_t at = 0; at < text.size(); ++at) {
    const char c = text[at];
    std::size_t end = std::string::npos;
    if (c == '/' && at + 1 < text.size() && (text[at + 1] == '/' || text[at + 1] == '*')) {
      const bool line = text[at + 1] == '/';
      end = line ? text.find('\n', at) : text.find("*/", at + 2);
      end = end == std::string::npos ? text.size() : end + (line ? 0 : 2);
    } else if (c == '"' || (c == '\'' && (at == 0 || !std::isxdigit(static_cast<unsigned char>(text[at - 1]))))) {
      // A digit before a quote is C++14's separator (1'000), not a character literal.
      end = at + 1;
      while (end < text.size() && text[end] != c && text[end] != '\n')
        end += text[end] == '\\' ? 2 : 1;
      end = std::min(end + 1, text.size());
    } else {
      continue;
    }
    // A character literal is an integer, its code: `argv[1][0] - '0'` and `mode == 'l'` fold. The code takes the
    // literal's place, so offsets stay; a prefixed one (`L'a'`) stays blank, as `L108` would read as a name.
    const bool prefixed = at > 0 && (std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_');
    const std::optional<int> character =
        c == '\'' && !prefixed ? characterCode(std::string_view(text).substr(at, end - at)) : std::nullopt;
    blank(at, end);
    if (character)
      text.replace(at, std::to_string(*character).size(), std::to_string(*character));
    else if (c == '\'')
      // A name that nothing defines, so that an expression holding it stays open: blank, `'ab' + 1` would read 1.
      std::replace_if(
          text.begin() + static_cast<std::ptrdiff_t>(at), text.begin() + static_cast<std::ptrdiff_t>(end),
          [](char kept) { return kept == ' '; }, '_');
    at = end - 1;
  }
  return text;
}

namespace {

/// A kernel's `__global__ ... name(...)` in the code of a file (codeOf()).
struct KernelDeclaration {
  std::size_t name = std::string::npos; ///< the offset of its name
  std::size_t open = std::string::npos; ///< of the `(` of its parameters
  bool defines = false;                 ///< a `{` follows the parameters: the definition
};

/// Every declaration of kernel `name` in `code`, in file order.
std::vector<KernelDeclaration> kernelDeclarations(const std::string &code, const std::string &name) {
  std::vector<KernelDeclaration> found;
  for (std::size_t at = code.find(name); at != std::string::npos && !name.empty(); at = code.find(name, at + 1)) {
    const std::size_t open = code.find_first_not_of(" \t\r\n", at + name.size());
    if (!isWholeWord(code, at, name.size()) || open == std::string::npos || code[open] != '(' ||
        !inKernelDeclaration(code, at))
      continue;
    const std::size_t close = pastClosing(code, open);
    const std::size_t next = close == std::string::npos ? close : code.find_first_not_of(" \t\r\n", close);
    found.push_back({at, open, next != std::string::npos && code[next] == '{'});
  }
  return found;
}

/// The definition first, then the other declarations in file order.
std::vector<KernelDeclaration> definitionFirst(std::vector<KernelDeclaration> declarations) {
  std::stable_partition(declarations.begin(), declarations.end(),
                        [](const KernelDeclaration &declaration) { return declaration.defines; });
  return declarations;
}

/// The parameters declared between `open` and its `)`; nullopt where one
/// has no name (`float *`, `int`, `const Matrix &`), as in a prototype.
std::optional<std::vector<CudaDeclaration>> namedParameters(const std::string &code, std::size_t open) {
  std::vector<CudaDeclaration> parameters;
  int depth = 0;
  std::string current;
  auto finish = [&] {
    std::optional<CudaDeclaration> parameter = splitDeclaration(current);
    current.clear();
    if (!parameter)
      return false;
    // A declarator without a name ends in its type: a built-in one
    // (`float *`, `unsigned int`), or one with nothing but qualifiers
    // before it (`Matrix`, `const Matrix &`).
    static const std::set<std::string, std::less<>> kQualifiers{"const", "volatile", "__restrict__", "restrict",
                                                               "struct",  "class",  "enum"};
    std::optional<std::string> builtin = builtinTemplateArgument(parameter->name);
    std::vector<std::string> typeWords = wordsIn(parameter->type);
    bool typed = !(builtin && builtin->rfind("type:", 0) == 0) && !kQualifiers.count(parameter->name) &&
                 std::any_of(typeWords.begin(), typeWords.end(),
                             [](const std::string &word) { return !kQualifiers.count(word); });
    if (!typed)
      return false;
    parameters.push_back(std::move(*parameter));
    return true;
  };
  for (std::size_t i = open + 1; i < code.size(); ++i) {
    const char c = code[i];
    if (c == '(' || c == '<' || c == '[') {
      ++depth;
    } else if ((c == ')' || c == '>' || c == ']') && depth > 0) {
      --depth;
    } else if (c == ')' && depth == 0) {
      if (trimmed(current).empty() || trimmed(current) == "void") // `k()`, `k(void)`
        return parameters.empty() ? std::optional(parameters) : std::nullopt;
      return finish() ? std::optional(parameters) : std::nullopt;
    } else if (c == ',' && depth == 0) {
      if (!finish())
        return std::nullopt;
      continue;
    }
    current += c;
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string> fileText(const fs::path &path) {
  std::ifstream file(path);
  if (!file)
    return std::nullopt;
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

std::vector<CudaSourceFile> readCudaSources(const ptx::Module &module, WithoutLineInfo withoutLineInfo) {
  std::vector<CudaSourceFile> sources;
  fs::path ptxFolder = fs::path(module.path).parent_path();
  if (module.files.empty() && withoutLineInfo == WithoutLineInfo::ReadSameStemCu && !module.path.empty()) {
    const fs::path stem = fs::path(module.path).stem();
    for (const fs::path &candidate : {ptxFolder / stem.string().append(".cu"), ptxFolder / stem})
      if (candidate.extension() == ".cu")
        if (std::optional<std::string> text = fileText(candidate)) {
          sources.push_back({candidate.string(), candidate.string(), std::move(*text)});
          break;
        }
  }
  for (const auto &[index, path] : module.files) {
    (void)index;
    for (const fs::path &candidate : {ptxFolder / fs::path(path).filename(), fs::path(path), ptxFolder / path}) {
      if (std::optional<std::string> text = fileText(candidate)) {
        sources.push_back({path, candidate.string(), std::move(*text)});
        break;
      }
    }
  }
  return sources;
}

std::string resolvedSourcePath(const std::vector<CudaSourceFile> &sources, const std::string &declared) {
  for (const CudaSourceFile &source : sources)
    if (source.declared == declared)
      return source.path;
  return declared;
}

namespace {

/// Reads the `<length><identifier>` names of a mangled name's start
/// (`_Z6reduce...`, `_ZN2ns6reduce...`): the last of them, and the offset
/// after them. nullopt where the name is not mangled or a length runs past
/// its end.
std::optional<std::pair<std::string, std::size_t>> mangledBaseName(const std::string &mangled) {
  if (mangled.rfind("_Z", 0) != 0)
    return std::nullopt;
  std::size_t at = 2;
  const bool nested = at < mangled.size() && mangled[at] == 'N';
  if (nested)
    ++at;
  std::string last;
  while (at < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[at]))) {
    std::size_t length = 0;
    while (at < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[at])) && length <= mangled.size())
      length = length * 10 + static_cast<std::size_t>(mangled[at++] - '0');
    if (length > mangled.size() - at)
      return std::nullopt;
    last = mangled.substr(at, length);
    at += length;
    if (!nested)
      break;
  }
  if (last.empty())
    return std::nullopt;
  return std::pair{last, at};
}

/// Itanium codes of the built-in types a kernel template takes, by C name.
const std::map<std::string, char, std::less<>> &builtinTypeCodes() {
  static const std::map<std::string, char, std::less<>> codes{
      {"float", 'f'},         {"double", 'd'},
      {"int", 'i'},           {"signed", 'i'},          {"signed int", 'i'},   {"int32_t", 'i'},
      {"unsigned", 'j'},      {"unsigned int", 'j'},    {"uint32_t", 'j'},
      {"long", 'l'},          {"long int", 'l'},        {"int64_t", 'l'},
      {"unsigned long", 'm'}, {"size_t", 'm'},          {"uint64_t", 'm'},
      {"long long", 'x'},     {"unsigned long long", 'y'},
      {"short", 's'},         {"unsigned short", 't'},
      {"char", 'c'},          {"signed char", 'a'},     {"unsigned char", 'h'},
      {"bool", 'b'}};
  return codes;
}

} // namespace

std::string baseNameOf(const std::string &mangled) {
  auto name = mangledBaseName(mangled);
  return name ? name->first : mangled;
}

std::optional<std::vector<std::string>> templateArgumentsOf(const std::string &mangled) {
  auto name = mangledBaseName(mangled);
  if (!name || name->second >= mangled.size() || mangled[name->second] != 'I')
    return std::nullopt;
  std::size_t at = name->second;
  static const std::string_view kBuiltins = "fdijlmxystcahb";
  std::vector<std::string> arguments;
  for (++at; at < mangled.size() && mangled[at] != 'E';) {
    const char code = mangled[at];
    if (kBuiltins.find(code) != std::string_view::npos) {
      arguments.push_back(std::string("type:") + code);
      ++at;
      continue;
    }
    // L<type><digits>E, `n` before the digits for a negative value.
    if (code != 'L' || at + 1 >= mangled.size() || kBuiltins.find(mangled[at + 1]) == std::string_view::npos)
      return std::nullopt;
    const std::size_t end = mangled.find('E', at + 2);
    std::string digits = mangled.substr(at + 2, end == std::string::npos ? 0 : end - at - 2);
    const bool negative = !digits.empty() && digits[0] == 'n';
    if (negative)
      digits.erase(0, 1);
    if (end == std::string::npos || digits.empty() || digits.size() > 18 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    arguments.push_back("value:" + std::string(negative ? "-" : "") + std::to_string(std::stoll(digits)));
    at = end + 1;
  }
  if (at >= mangled.size() || arguments.empty())
    return std::nullopt;
  return arguments;
}

std::optional<std::string> builtinTemplateArgument(std::string_view written) {
  // Only names: `float *` or `Vec<float>` is another kind of argument.
  if (written.find_first_not_of(" \t\r\n:_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") !=
      std::string_view::npos)
    return std::nullopt;
  std::string words; // `std::size_t` is `size_t`
  for (const std::string &word : wordsIn(written))
    if (word != "std")
      words += (words.empty() ? "" : " ") + word;
  if (words == "true" || words == "false")
    return std::string("value:") + (words == "true" ? "1" : "0");
  const auto &codes = builtinTypeCodes();
  if (auto found = codes.find(words); found != codes.end())
    return std::string("type:") + found->second;
  return std::nullopt;
}

std::optional<CudaDeclaration> splitDeclaration(std::string_view declarator) {
  declarator = declarator.substr(0, declarator.find_first_of("=["));
  std::size_t end = declarator.size();
  while (end > 0 && !isIdentifierChar(declarator[end - 1]))
    --end;
  std::size_t begin = end;
  while (begin > 0 && isIdentifierChar(declarator[begin - 1]))
    --begin;
  if (end == begin)
    return std::nullopt;
  return CudaDeclaration{std::string(declarator.substr(0, begin)), std::string(declarator.substr(begin, end - begin))};
}

std::vector<CudaDeclaration> cudaParameters(const std::string &code, const std::string &name) {
  for (const KernelDeclaration &declaration : definitionFirst(kernelDeclarations(code, name)))
    if (auto parameters = namedParameters(code, declaration.open))
      return std::move(*parameters);
  return {};
}

std::vector<CudaDeclaration> cudaConstantVariables(const std::string &source) {
  std::vector<CudaDeclaration> variables;
  const std::string keyword = "__constant__";
  for (std::size_t at = source.find(keyword); at != std::string::npos; at = source.find(keyword, at + 1)) {
    const std::size_t end = source.find_first_of(";=[{(", at);
    if (end == std::string::npos || source[end] == '[' || source[end] == '{' || source[end] == '(')
      continue;
    if (auto variable = splitDeclaration(std::string_view(source).substr(at + keyword.size(), end - at - keyword.size())))
      variables.push_back(std::move(*variable));
  }
  return variables;
}

std::optional<SourcePosition> findKernelDeclaration(const std::vector<CudaSourceFile> &sources,
                                                    const std::string &name) {
  std::string base = baseNameOf(name);
  for (const CudaSourceFile &file : sources) {
    if (file.text.find(base) == std::string::npos)
      continue; // not named there: no need to blank its comments
    std::vector<KernelDeclaration> declarations = definitionFirst(kernelDeclarations(codeOf(file.text), base));
    if (declarations.empty())
      continue;
    const std::size_t at = declarations.front().name;
    SourcePosition position{file.path, 1, 1};
    for (std::size_t i = 0; i < at; ++i) {
      if (file.text[i] == '\n') {
        ++position.line;
        position.column = 1;
      } else {
        ++position.column;
      }
    }
    return position;
  }
  return std::nullopt;
}

} // namespace ptxdvfs::tools
