// CudaArgumentArrays.cpp - the arrays of argument addresses that
// `cudaLaunchKernel` and `cudaLaunchCooperativeKernel` take (`void *args[]
// = {&a, &n};`), as written; see CudaStatements.h.
#include "CudaStatements.h"

#include "CudaCode.h"
#include "CudaSource.h"

#include <array>

namespace ptxdvfs::tools {

namespace {

constexpr std::array<std::string_view, 2> kLaunchApis{"cudaLaunchKernel", "cudaLaunchCooperativeKernel"};

/// How many uses of `array` in [`from`, `to`) of `code` are there, each the kernel arguments of a launch API,
/// which only reads them (its fourth argument); nullopt where one is anything else.
std::optional<std::size_t> launchesOf(const std::string &code, const std::string &array, std::size_t from,
                                      std::size_t to) {
  std::size_t launches = 0;
  for (std::size_t at = code.find(array, from); at < to; at = code.find(array, at + array.size())) {
    if (!isWholeWord(code, at, array.size()))
      continue;
    const std::optional<CallArgument> passed = argumentStartingAt(code, at, at, array.size());
    if (!passed || !passed->whole || passed->index != 3 ||
        std::find(kLaunchApis.begin(), kLaunchApis.end(), passed->callee) == kLaunchApis.end())
      return std::nullopt;
    ++launches;
  }
  return launches;
}

/// Where the brace initializer of the array declaration `NAME[...] = {` whose `{` is at `brace` names the array:
/// NAME; empty where `brace` opens no such initializer.
std::string arrayInitializedAt(const std::string &code, std::size_t brace) {
  const std::size_t equals = codeEndBefore(code, brace);
  const std::size_t close = equals > 1 && code[equals - 1] == '=' ? codeEndBefore(code, equals - 1) : 0;
  if (close == 0 || code[close - 1] != ']')
    return {};
  std::size_t nameEnd = openingOf(code, close - 1); // 0 where no `[` matches
  return nameEnd == 0 ? std::string() : wordBefore(code, nameEnd);
}

/// The end of the block that holds `at`: its `}`, or the code's end.
std::size_t blockEndAfter(const std::string &code, std::size_t at) {
  int depth = 0;
  for (std::size_t i = at; i < code.size(); ++i) {
    depth += code[i] == '{' ? 1 : code[i] == '}' ? -1 : 0;
    if (depth < 0)
      return i;
  }
  return code.size();
}

/// `element` of an argument array as written without a cast to `void *` before it: `&n` of `(void *)&n`.
std::string_view uncast(std::string_view element) {
  if (!element.empty() && element[0] == '(') {
    const std::size_t close = element.find(')');
    if (close != std::string_view::npos && wordsIn(element.substr(1, close - 1)) == std::vector<std::string>{"void"})
      element.remove_prefix(close + 1);
  }
  return element.substr(std::min(element.size(), element.find_first_not_of(" \t\r\n")));
}

} // namespace

std::optional<std::vector<std::string>> argumentArrayNames(const std::string &code, const std::string &array,
                                                           std::size_t before) {
  for (std::size_t at = code.rfind(array, before); at != std::string::npos && at > 0; at = code.rfind(array, at - 1)) {
    const std::size_t open = code.find_first_not_of(" \t\r\n", at + array.size());
    const std::size_t close = open != std::string::npos && code[open] == '[' ? pastClosing(code, open) : open;
    const std::size_t equals = close == std::string::npos ? close : code.find_first_not_of(" \t\r\n", close);
    const std::size_t brace = equals == std::string::npos || code[equals] != '='
                                  ? std::string::npos
                                  : code.find_first_not_of(" \t\r\n", equals + 1);
    if (!isWholeWord(code, at, array.size()) || brace == std::string::npos || code[brace] != '{')
      continue;
    const std::size_t end = pastClosing(code, brace);
    if (end == std::string::npos || end > before || !launchesOf(code, array, end, before))
      return std::nullopt; // changed or passed elsewhere before the launch
    std::vector<std::string> names;
    for (const std::string &element : topLevelParts(std::string_view(code).substr(brace + 1, end - brace - 2))) {
      const std::string written = trimmed(element);
      const std::string_view address = uncast(written);
      const std::string name = address.size() > 1 && address[0] == '&' ? trimmed(address.substr(1)) : "";
      if (!isName(name))
        return std::nullopt; // not `&name`
      names.push_back(name);
    }
    return names;
  }
  return std::nullopt;
}

bool inLaunchArgumentArray(const std::string &code, std::size_t at, std::size_t length) {
  const std::size_t ampersand = codeEndBefore(code, at);
  const std::size_t next = code.find_first_not_of(" \t\r\n", at + length);
  if (ampersand == 0 || code[ampersand - 1] != '&' || next == std::string::npos ||
      (code[next] != ',' && code[next] != '}'))
    return false;
  int depth = 0; // the initializer's `{`: the first unmatched one before it
  std::size_t brace = ampersand - 1;
  for (; brace > 0; --brace) {
    const char c = code[brace - 1];
    depth += c == ')' || c == ']' || c == '}' ? 1 : c == '(' || c == '[' || c == '{' ? -1 : 0;
    if (depth < 0 || c == ';')
      break;
  }
  if (brace == 0 || code[brace - 1] != '{')
    return false;
  const std::string array = arrayInitializedAt(code, brace - 1);
  const std::size_t end = array.empty() ? std::string::npos : pastClosing(code, brace - 1);
  if (end == std::string::npos)
    return false;
  const std::optional<std::vector<std::string>> names = argumentArrayNames(code, array, end);
  const std::optional<std::size_t> launches = launchesOf(code, array, end, blockEndAfter(code, end));
  return names && launches && *launches > 0;
}

} // namespace ptxdvfs::tools
