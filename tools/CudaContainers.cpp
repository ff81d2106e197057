// CudaContainers.cpp - the size of a host container the code sizes where it
// declares it and never resizes: `std::vector<float> host(n, 1.0f)` then
// `k<<<(host.size() + 255) / 256, 256>>>(d, host.size())`, Thrust's host
// and device vectors, `std::array<float, N>`.
#include "CudaConstantsImpl.h"

#include <set>
#include <string_view>

namespace ptxdvfs::tools {

using namespace expression;
using namespace constants;

namespace {

/// What a container's declaration says of its size: the text of its
/// element count, or the number of elements its braced list holds.
struct ContainerDeclaration {
  std::string count;     ///< an expression; empty where `elements` gives the size
  std::size_t elements = 0;
};

/// The declaration of a sized container whose name starts at `at`:
/// `std::vector<T> v(n)`, `v(n, value)`, `v = {a, b}`, `v{a, b}`, `v;`,
/// Thrust's `host_vector`/`device_vector` alike, `std::array<T, N> v`;
/// nullopt where `at` declares no such container (a use, another type).
std::optional<ContainerDeclaration> containerDeclaredAt(const std::string &code, std::size_t at,
                                                        std::size_t length) {
  static const std::set<std::string, std::less<>> kVectors{"vector", "host_vector", "device_vector"};
  const std::size_t typeEnd = codeEndBefore(code, at);
  if (typeEnd == 0 || code[typeEnd - 1] != '>')
    return std::nullopt;
  std::size_t template_ = openingOf(code, typeEnd - 1);
  if (code[template_] != '<')
    return std::nullopt;
  const std::vector<std::string> arguments =
      topLevelParts(std::string_view(code).substr(template_ + 1, typeEnd - template_ - 2));
  const std::string type = wordBefore(code, template_);
  std::size_t next = code.find_first_not_of(" \t\r\n", at + length);
  if (next == std::string::npos)
    return std::nullopt;
  if (type == "array") // fixed by its type, whatever initializes it
    return arguments.size() == 2 ? std::optional(ContainerDeclaration{arguments[1], 0}) : std::nullopt;
  if (!kVectors.count(type))
    return std::nullopt;
  if (code[next] == ';' || code[next] == ',')
    return ContainerDeclaration{"", 0};
  if (code[next] == '=')
    next = code.find_first_not_of(" \t\r\n", next + 1);
  if (next == std::string::npos)
    return std::nullopt;
  if (code[next] == '(') { // `v(n)` or `v(n, value)`
    const std::optional<std::vector<std::string>> parts = partsInParentheses(code, next);
    return parts && (parts->size() == 1 || parts->size() == 2) ? std::optional(ContainerDeclaration{parts->front(), 0})
                                                               : std::nullopt;
  }
  if (code[next] == '{') { // the elements it lists
    const std::size_t end = pastClosing(code, next);
    if (end == std::string::npos)
      return std::nullopt;
    const std::string inside = trimmed(std::string_view(code).substr(next + 1, end - next - 2));
    return ContainerDeclaration{"", inside.empty() ? 0 : topLevelParts(inside).size()};
  }
  return std::nullopt; // a copy, a call's result
}

/// Whether the use of a container whose name ends at `end` only reads it,
/// leaving its size as it was: an element (`v[i]`), a member call that
/// changes no size (`v.data()`, `v.size()`, `v.begin()`), or the range of
/// a `for` (`for (float &e : v)`).
bool keepsSize(const std::string &code, std::size_t start, std::size_t end) {
  static const std::set<std::string, std::less<>> kReads{"size",   "data", "begin", "end",  "cbegin",   "cend",
                                                         "rbegin", "rend", "front", "back", "at",       "empty",
                                                         "reserve", "capacity"};
  const std::size_t next = code.find_first_not_of(" \t\r\n", end);
  if (next == std::string::npos)
    return false;
  if (code[next] == '[')
    return true;
  if (code[next] == '.') {
    const std::size_t methodAt = code.find_first_not_of(" \t\r\n", next + 1);
    const std::string method = firstWordOf(std::string_view(code).substr(next + 1));
    const std::size_t call =
        methodAt == std::string::npos ? methodAt : code.find_first_not_of(" \t\r\n", methodAt + method.size());
    return kReads.count(method) && call != std::string::npos && code[call] == '(';
  }
  const std::size_t previous = codeEndBefore(code, start);
  return code[next] == ')' && previous > 0 && code[previous - 1] == ':' &&
         (previous < 2 || code[previous - 2] != ':'); // `: v)`, not `ns::v)`
}

} // namespace

std::optional<Number> ConstantFolder::Impl::containerSize(std::size_t file, std::size_t before,
                                                          const std::string &name, int depth) const {
  const CudaCode &source = files_[file];
  const std::string &code = source.code();
  const int useBlock = source.blockAt(before);
  if (depth >= kMaxDepth || name.empty())
    return std::nullopt;
  for (std::size_t at = before == 0 ? std::string::npos : code.rfind(name, before - 1); at != std::string::npos;
       at = at == 0 ? std::string::npos : code.rfind(name, at - 1)) {
    if (++examined_ > kMaxNamesExamined)
      return std::nullopt;
    if (!isWholeWord(code, at, name.size()) || afterMemberAccess(code, at) || afterScopeOperator(code, at))
      continue; // another object's member, or a qualified name
    const std::optional<ContainerDeclaration> declared = containerDeclaredAt(code, at, name.size());
    if (!declared) {
      if (!keepsSize(code, at, at + name.size()))
        return std::nullopt; // `v.push_back(x)`, `v = w`, `fill(v)`: it may have another size now
      continue;
    }
    const int declaredIn = source.blockAt(at);
    if (!source.encloses(declaredIn, useBlock) || !source.insideFunction(declaredIn) ||
        source.parameterListAround(at))
      return std::nullopt; // another scope's, a global any function may resize, or a parameter
    const Number listed{false, static_cast<std::int64_t>(declared->elements), 0};
    const std::optional<Number> size =
        declared->count.empty() ? std::optional(listed) : number(file, at, declared->count, depth + 1);
    if (!size || size->real)
      return std::nullopt;
    note({"`" + name + ".size()` = " + shownNumber(*size) + ", as `" + name + "` is declared at " + source.where(at)});
    return size;
  }
  return std::nullopt;
}

} // namespace ptxdvfs::tools
