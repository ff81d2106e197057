// CudaSource.cpp - reading the CUDA files a PTX module names, and finding kernel declarations in them.
#include "CudaSource.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ptxdvfs::tools {

namespace fs = std::filesystem;

bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

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
    blank(at, end);
    at = end - 1;
  }
  return text;
}

namespace {

/// Offset of `name` in the first `__global__ ... name(` of `source`, and
/// of its `(`; npos when there is none.
std::pair<std::size_t, std::size_t> kernelDeclaration(const std::string &source,
                                                      const std::string &name) {
  for (std::size_t at = source.find(name); at != std::string::npos; at = source.find(name, at + 1)) {
    bool wholeWord = (at == 0 || !isIdentifierChar(source[at - 1])) &&
                     at + name.size() < source.size() && !isIdentifierChar(source[at + name.size()]);
    std::size_t open = source.find_first_not_of(" \t\r\n", at + name.size());
    if (!wholeWord || open == std::string::npos || source[open] != '(')
      continue;
    std::size_t lineStart = source.rfind("__global__", at);
    if (lineStart == std::string::npos || source.find(';', lineStart) < at)
      continue;
    return {at, open};
  }
  return {std::string::npos, std::string::npos};
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

std::vector<CudaSourceFile> readCudaSources(const ptx::Module &module) {
  std::vector<CudaSourceFile> sources;
  fs::path ptxFolder = fs::path(module.path).parent_path();
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

std::string baseNameOf(const std::string &mangled) {
  if (mangled.rfind("_Z", 0) != 0)
    return mangled;
  std::size_t at = 2;
  bool nested = at < mangled.size() && mangled[at] == 'N';
  if (nested)
    ++at;
  std::string last;
  while (at < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[at]))) {
    std::size_t length = 0;
    while (at < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[at])))
      length = length * 10 + static_cast<std::size_t>(mangled[at++] - '0');
    if (at + length > mangled.size())
      return mangled;
    last = mangled.substr(at, length);
    at += length;
    if (!nested)
      break;
  }
  return last.empty() ? mangled : last;
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

std::vector<CudaDeclaration> cudaParameters(const std::string &source, const std::string &name) {
  std::size_t open = kernelDeclaration(source, name).second;
  if (open == std::string::npos)
    return {};
  std::vector<CudaDeclaration> parameters;
  int depth = 0;
  std::string current;
  auto finish = [&] {
    if (auto parameter = splitDeclaration(current))
      parameters.push_back(std::move(*parameter));
    current.clear();
  };
  for (std::size_t i = open + 1; i < source.size(); ++i) {
    char c = source[i];
    if (c == '(' || c == '<' || c == '[')
      ++depth;
    else if ((c == ')' || c == '>' || c == ']') && depth > 0)
      --depth;
    else if (c == ')' && depth == 0) {
      finish();
      return parameters;
    } else if (c == ',' && depth == 0) {
      finish();
      continue;
    }
    current += c;
  }
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
    std::size_t at = kernelDeclaration(file.text, base).first;
    if (at == std::string::npos)
      continue;
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
