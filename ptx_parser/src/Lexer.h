// Lexer.h - the hand-written PTX lexer that feeds the ANTLR parser.
//
// Produces the token types of grammar/PTXLexer.g4 straight from the bytes of
// the file. The generated lexer converts its input to UTF-32 and runs a DFA
// per token; this one is a byte loop and several times faster.
#pragma once

#include "ptxdvfs/ptx/Diagnostic.h"

#include <cstdint>
#include <memory>
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

/// Lexes a text a chunk at a time, so that a parse holds the tokens of one
/// chunk, not of the whole file. A chunk is whole top-level items (it ends
/// after a `;` or `}` at bracket depth 0 that does not close an
/// initializer), so chunks parse independently. Not thread-safe: callers
/// that share one take turns.
class ChunkLexer {
public:
  /// `text` (at most 4 GiB) must outlive the lexer; errors and nesting as
  /// for lexPtx.
  ChunkLexer(std::string_view text, const std::string &path, std::size_t maxErrors,
             std::size_t maxNesting);
  ~ChunkLexer();

  /// Replaces `tokens` with the next chunk: at least `minTokens` tokens
  /// unless the text ends first, then one kEofTokenType marker where the
  /// next chunk starts. An empty text gives one chunk holding only the
  /// marker. False when nothing is left.
  bool next(std::vector<LexedToken> &tokens, std::size_t minTokens);

  /// The lexing errors so far, in text order.
  Diagnostics takeDiagnostics();

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Lexes `text` (at most 4 GiB) in one chunk. Bad characters are reported and skipped;
/// after `maxErrors` errors, or nesting of (), [] and {} beyond `maxNesting`
/// (ParseLimits::maxNesting: the recursive-descent parser would otherwise
/// exhaust the stack on input such as a million `{`), the token list ends
/// early with EOF.
LexResult lexPtx(std::string_view text, const std::string &path, std::size_t maxErrors,
                 std::size_t maxNesting);

} // namespace ptxdvfs::ptx
