// VariableInitializer.cpp - the bytes a variable's initializer writes.
#include "AstValues.h"

#include "ptxdvfs/ptx/Statement.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace ptxdvfs::ptx {

namespace {

/// One element as written (`232`, `-5`, `0f3F800000`, `1.5`) in `type`'s
/// bits; nullopt for anything else.
std::optional<std::uint64_t> elementBits(std::string_view text, ScalarType type) {
  bool negative = !text.empty() && text.front() == '-';
  if (negative)
    text.remove_prefix(1);
  if (text.empty())
    return std::nullopt;
  const bool isFloat = type == ScalarType::F32 || type == ScalarType::F64;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'f' || text[1] == 'd' || text[1] == 'F' || text[1] == 'D')) {
    const bool isDouble = text[1] == 'd' || text[1] == 'D';
    if (text.size() != (isDouble ? 18u : 10u))
      return std::nullopt;
    auto bits = parseIntegerLiteral("0x" + std::string(text.substr(2)));
    if (!bits)
      return std::nullopt;
    if (negative)
      *bits ^= isDouble ? (std::uint64_t{1} << 63) : (std::uint64_t{1} << 31);
    return bits;
  }
  double real = 0;
  if (auto whole = parseIntegerLiteral(text)) {
    if (!isFloat)
      return negative ? std::uint64_t{0} - *whole : *whole;
    real = static_cast<double>(*whole);
  } else {
    if (!isFloat || !std::isdigit(static_cast<unsigned char>(text.front())))
      return std::nullopt;
    std::string copy(text);
    char *end = nullptr;
    real = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size())
      return std::nullopt;
  }
  if (negative)
    real = -real;
  std::uint64_t bits = 0;
  if (type == ScalarType::F64) {
    std::memcpy(&bits, &real, sizeof real);
  } else {
    float single = static_cast<float>(real);
    std::uint32_t narrow = 0;
    std::memcpy(&narrow, &single, sizeof single);
    bits = narrow;
  }
  return bits;
}

} // namespace

std::optional<std::vector<std::uint8_t>> initialBytes(const VariableDecl &variable) {
  if (variable.initializer.empty() || !variable.type)
    return std::nullopt;
  constexpr std::uint64_t kMaxBytes = 1u << 20;
  const unsigned size = sizeInBytes(*variable.type);
  std::vector<std::uint8_t> bytes;
  std::string_view text = variable.initializer;
  std::size_t at = 0;
  while (at < text.size()) {
    const char c = text[at];
    if (c == '{' || c == '}' || c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      ++at;
      continue;
    }
    std::size_t end = at;
    while (end < text.size() && text[end] != ',' && text[end] != '}' &&
           !std::isspace(static_cast<unsigned char>(text[end])))
      ++end;
    auto bits = elementBits(text.substr(at, end - at), *variable.type);
    if (!bits || bytes.size() + size > kMaxBytes)
      return std::nullopt;
    for (unsigned byte = 0; byte < size; ++byte)
      bytes.push_back(byte < 8 ? static_cast<std::uint8_t>(*bits >> (8 * byte)) : 0);
    at = end;
  }
  // `[]` (or `[0]`) takes its length from the initializer; else the declared size holds.
  const bool sizedByInitializer = std::any_of(variable.arrayDims.begin(), variable.arrayDims.end(),
                                              [](const std::optional<std::uint64_t> &d) { return d.value_or(0) == 0; });
  if (!sizedByInitializer) {
    const std::optional<std::int64_t> declared = declaredBytes(variable);
    if (!declared || static_cast<std::uint64_t>(*declared) > kMaxBytes ||
        static_cast<std::uint64_t>(*declared) < bytes.size())
      return std::nullopt;
    bytes.resize(static_cast<std::size_t>(*declared), 0);
  }
  return bytes;
}

std::optional<std::int64_t> declaredBytes(const VariableDecl &variable) {
  if (!variable.type)
    return std::nullopt;
  std::int64_t bytes = sizeInBytes(*variable.type);
  for (const std::optional<std::uint64_t> &dimension : variable.arrayDims) {
    if (!dimension || (bytes > 0 && *dimension > static_cast<std::uint64_t>(INT64_MAX / bytes)))
      return std::nullopt;
    bytes *= static_cast<std::int64_t>(*dimension);
  }
  return bytes;
}

} // namespace ptxdvfs::ptx
