// Lexer.h - the hand-written PTX lexer that feeds the ANTLR parser.
//
// Produces the token types of grammar/PTXLexer.g4 straight from the bytes of
// the file. The generated lexer converts its input to UTF-32 and runs a DFA
// per token; this one is a byte loop and several times faster.
#pragma once

#include "ptxdvfs/ptx/Diagnostic.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ptxdvfs::ptx {

/// `LexedToken::type` of the final token. antlr4::Token::EOF is size_t(-1),
/// which does not fit the compact 32-bit field.
inline constexpr std::uint32_t kEofTokenType = UINT32_MAX;

/// One token; `type` is a PTXLexer token type (PTXLexer::IDENT, ...), or
/// kEofTokenType for the final token. Offsets index the lexed text.
struct LexedToken {
  std::uint32_t type;
  std::uint32_t offset;
  std::uint32_t length;
  std::uint32_t line;   ///< 1-based
  std::uint32_t column; ///< 1-based, in bytes
};

struct LexResult {
  std::vector<LexedToken> tokens; ///< always ends with one EOF token
  Diagnostics diagnostics;
};

/// Lexes `text` (at most 4 GiB). Bad characters are reported and skipped;
/// after `maxErrors` errors, or nesting of (), [] and {} beyond `maxNesting`
/// (ParseLimits::maxNesting: the recursive-descent parser would otherwise
/// exhaust the stack on input such as a million `{`), the token list ends
/// early with EOF.
LexResult lexPtx(std::string_view text, const std::string &path, std::size_t maxErrors,
                 std::size_t maxNesting);

} // namespace ptxdvfs::ptx
