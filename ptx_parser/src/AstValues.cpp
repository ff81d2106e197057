// AstValues.cpp - literals, operand shapes and mnemonics read from tokens.
#include "AstValues.h"

#include "PTXLexer.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace ptxdvfs::ptx {

std::optional<std::uint64_t> parseIntegerLiteral(std::string_view text) {
  if (!text.empty() && text.back() == 'U')
    text.remove_suffix(1);
  unsigned base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    base = 16;
    text.remove_prefix(2);
  } else if (text.size() > 2 && text[0] == '0' && (text[1] == 'b' || text[1] == 'B')) {
    base = 2;
    text.remove_prefix(2);
  } else if (text.size() > 1 && text[0] == '0') {
    base = 8;
  }
  std::uint64_t value = 0;
  for (char c : text) {
    unsigned digit = (c >= '0' && c <= '9')   ? unsigned(c - '0')
                     : (c >= 'a' && c <= 'f') ? unsigned(c - 'a' + 10)
                     : (c >= 'A' && c <= 'F') ? unsigned(c - 'A' + 10)
                                              : 99;
    if (digit >= base || value > (UINT64_MAX - digit) / base)
      return std::nullopt;
    value = value * base + digit;
  }
  return value;
}

std::string unquote(std::string_view quoted) {
  if (quoted.size() < 2)
    return std::string(quoted);
  quoted = quoted.substr(1, quoted.size() - 2);
  std::string result;
  result.reserve(quoted.size());
  for (std::size_t i = 0; i < quoted.size(); ++i) {
    if (quoted[i] == '\\' && i + 1 < quoted.size())
      ++i;
    result += quoted[i];
  }
  return result;
}

void splitMnemonic(std::string_view mnemonic, std::string_view &opcode,
                   std::vector<std::string_view> &modifiers) {
  std::size_t dot = mnemonic.find('.');
  opcode = mnemonic.substr(0, dot);
  modifiers.reserve(static_cast<std::size_t>(std::count(mnemonic.begin(), mnemonic.end(), '.')));
  while (dot != std::string_view::npos) {
    std::size_t next = mnemonic.find('.', dot + 1);
    modifiers.emplace_back(mnemonic.substr(dot + 1, next == std::string_view::npos
                                                        ? std::string_view::npos
                                                        : next - dot - 1));
    dot = next;
  }
}

InstructionDetails readDetails(const std::vector<std::string_view> &modifiers) {
  InstructionDetails details;
  for (std::string_view modifier : modifiers) {
    auto space = details.space ? std::nullopt : parseStateSpace(modifier);
    if (space) {
      details.space = space;
      continue;
    }
    if (auto type = parseScalarType(modifier)) {
      details.types.push_back(*type);
      continue;
    }
    if (modifier == "v2" || modifier == "v4" || modifier == "v8")
      details.vectorWidth = static_cast<unsigned>(modifier[1] - '0');
  }
  return details;
}

std::string_view TokenReader::textBetween(const LexedToken &first, const LexedToken &last) const {
  if (last.offset < first.offset)
    return {};
  return source_.substr(first.offset, last.offset + last.length - first.offset);
}

std::string_view TokenReader::lineOf(const LexedToken &token) const {
  std::uint32_t offset = token.offset;
  std::size_t begin = offset == 0 ? std::string_view::npos : source_.rfind('\n', offset - 1);
  begin = begin == std::string_view::npos ? 0 : begin + 1;
  std::size_t end = source_.find('\n', offset);
  if (end == std::string_view::npos)
    end = source_.size();
  if (end > begin && source_[end - 1] == '\r')
    --end;
  return source_.substr(begin, end - begin);
}

void TokenReader::error(SourceLocation location, std::string message) {
  diagnostics_.push_back({path_, location, Severity::Error, std::move(message)});
}

std::uint64_t TokenReader::integerValue(const LexedToken &token) {
  auto value = parseIntegerLiteral(text(token));
  if (!value) {
    error(locationOf(token),
          "integer literal '" + std::string(text(token)) + "' does not fit in 64 bits");
    return 0;
  }
  return *value;
}

Immediate TokenReader::immediate(const LexedToken &token, bool negative) {
  Immediate immediate;
  std::string_view digits = text(token);
  immediate.negative = negative;
  immediate.text = (negative ? "-" : "") + std::string(digits);
  switch (token.type) {
  case PTXLexer::HEX_FLOAT: {
    bool isDouble = digits[1] == 'd' || digits[1] == 'D';
    std::size_t expected = isDouble ? 16 : 8;
    immediate.kind = isDouble ? ImmediateKind::Float64Bits : ImmediateKind::Float32Bits;
    if (digits.size() != expected + 2) {
      error(locationOf(token), "floating-point literal '" + std::string(digits) + "' needs " +
                                   std::to_string(expected) + " hex digits");
      return immediate;
    }
    immediate.bits = parseIntegerLiteral("0x" + std::string(digits.substr(2))).value_or(0);
    if (isDouble) {
      double value;
      std::memcpy(&value, &immediate.bits, sizeof value);
      immediate.value = value;
    } else {
      auto bits = static_cast<std::uint32_t>(immediate.bits);
      float value;
      std::memcpy(&value, &bits, sizeof value);
      immediate.value = value;
    }
    break;
  }
  case PTXLexer::FLOAT:
    immediate.kind = ImmediateKind::DecimalFloat;
    immediate.value = std::strtod(std::string(digits).c_str(), nullptr);
    break;
  default: {
    immediate.kind = ImmediateKind::Integer;
    auto value = parseIntegerLiteral(digits);
    if (!value)
      error(locationOf(token),
            "integer literal '" + std::string(digits) + "' does not fit in 64 bits");
    immediate.bits = value.value_or(0);
    immediate.value = static_cast<double>(immediate.bits);
    break;
  }
  }
  if (negative) {
    immediate.value = -immediate.value;
    if (immediate.kind == ImmediateKind::Integer)
      immediate.bits = ~immediate.bits + 1;
  }
  return immediate;
}

namespace {

OperandValue namedValue(std::string_view name) {
  if (name == "_")
    return Sink{};
  if (name.front() != '%')
    return Symbol{std::string(name)};
  std::size_t dot = name.find('.');
  if (dot != std::string_view::npos)
    return VectorElement{std::string(name.substr(0, dot)), std::string(name.substr(dot + 1))};
  return Register{std::string(name), false};
}

bool isNumber(const LexedToken &token) {
  return token.type == PTXLexer::INTEGER || token.type == PTXLexer::FLOAT ||
         token.type == PTXLexer::HEX_FLOAT;
}

} // namespace

OperandValue TokenReader::scalar(const LexedToken *tokens, std::size_t count) {
  auto typeAt = [&](std::size_t i) { return tokens[i].type; };
  if (count == 1) {
    if (typeAt(0) == PTXLexer::IDENT)
      return namedValue(text(tokens[0]));
    return immediate(tokens[0], false);
  }
  if (count == 2 && typeAt(0) == PTXLexer::MINUS && isNumber(tokens[1]))
    return immediate(tokens[1], true);
  if (count == 2 && typeAt(0) == PTXLexer::BANG && typeAt(1) == PTXLexer::IDENT)
    return Register{std::string(text(tokens[1])), true};
  if (count == 3 && typeAt(1) == PTXLexer::PIPE)
    return PredicatePair{std::string(text(tokens[0])), std::string(text(tokens[2]))};
  bool offsetShape = (count == 3 || count == 4) && typeAt(0) == PTXLexer::IDENT &&
                     (typeAt(1) == PTXLexer::PLUS || typeAt(1) == PTXLexer::MINUS) &&
                     typeAt(count - 1) == PTXLexer::INTEGER &&
                     (count == 3 || typeAt(2) == PTXLexer::MINUS);
  if (offsetShape) {
    auto magnitude = parseIntegerLiteral(text(tokens[count - 1]));
    bool negative = (typeAt(1) == PTXLexer::MINUS) != (count == 4);
    if (magnitude && *magnitude <= static_cast<std::uint64_t>(INT64_MAX)) {
      auto offset = static_cast<std::int64_t>(*magnitude);
      return RegisterOffset{std::string(text(tokens[0])), negative ? -offset : offset};
    }
  }
  return Expression{std::string(textBetween(tokens[0], tokens[count - 1]))};
}

} // namespace ptxdvfs::ptx
