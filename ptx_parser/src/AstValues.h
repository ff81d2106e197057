// AstValues.h - the meaning of single tokens and short token runs: literals,
// operand shapes, mnemonics. What the syntax parser needs once it knows
// which grammar rule a token run matched.
#pragma once

#include "Lexer.h"

#include "ptxdvfs/ptx/Instruction.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxdvfs::ptx {

/// An INTEGER token's value: decimal, 0x hex, 0b binary, leading-0 octal
/// (PTX ISA 4.5.1), optional U suffix. nullopt when it exceeds 64 bits.
std::optional<std::uint64_t> parseIntegerLiteral(std::string_view text);

/// A STRING token without its quotes and escapes.
std::string unquote(std::string_view quoted);

/// Splits a mnemonic at its dots: `ld.global.v4.f32` -> `ld` + {global, v4, f32}.
/// `::` scopes stay inside their modifier (`shared::cta`).
void splitMnemonic(std::string_view mnemonic, std::string_view &opcode,
                   std::vector<std::string_view> &modifiers);

/// The typed reading of a modifier list (state space, types, vector width).
InstructionDetails readDetails(const std::vector<std::string_view> &modifiers);

/// Reads tokens of one file as values, reporting literals that do not fit.
class TokenReader {
public:
  TokenReader(std::string_view source, const std::string &path, Diagnostics &diagnostics)
      : source_(source), path_(path), diagnostics_(diagnostics) {}

  std::string_view text(const LexedToken &token) const {
    return source_.substr(token.offset, token.length);
  }
  static SourceLocation locationOf(const LexedToken &token) { return {token.line, token.column}; }
  /// The text from the start of `first` to the end of `last`, as written.
  std::string_view textBetween(const LexedToken &first, const LexedToken &last) const;
  /// The whole line holding `token`, without its newline.
  std::string_view lineOf(const LexedToken &token) const;

  /// An INTEGER token's value; 0, and an error, when it exceeds 64 bits.
  std::uint64_t integerValue(const LexedToken &token);
  /// An INTEGER, FLOAT or HEX_FLOAT token as an immediate operand.
  Immediate immediate(const LexedToken &token, bool negative);
  /// The value of a scalar operand made of `count` tokens (`%r1`, `-4`,
  /// `!%p`, `%p|%q`, `%rd1+8`); an Expression for any other shape.
  OperandValue scalar(const LexedToken *tokens, std::size_t count);

  void error(SourceLocation location, std::string message);

private:
  std::string_view source_;
  const std::string &path_;
  Diagnostics &diagnostics_;
};

} // namespace ptxdvfs::ptx
