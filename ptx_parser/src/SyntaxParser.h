// SyntaxParser.h - recursive descent over lexed tokens, straight to the AST.
//
// grammar/PTXParser.g4 defines the syntax; this parser implements the same
// rules, one function per rule, and builds the AST as it goes instead of a
// parse tree (ANTLR's tree nodes were most of the parse time). Because every
// decision of the grammar is LL(1), each function looks at one token. On a
// syntax error the item is skipped and the chunk is reported as not clean;
// the caller then runs the ANTLR parser on it for the diagnostics.
// tests/ptx_parser/SyntaxParserTest.cpp holds both parsers to the same
// accept/reject verdict.
#pragma once

#include "Lexer.h"

#include "ptxdvfs/ptx/Module.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxdvfs::ptx {

struct SyntaxParseResult {
  /// Top-level items that failed the grammar; their tokens were skipped and
  /// nothing of them is in the module.
  std::size_t failedItems = 0;
  /// Where the first of them went wrong, in this parser's words.
  std::optional<Diagnostic> firstError;
};

/// Parses tokens [begin, end) of `tokens`, which must hold whole top-level
/// items (ChunkLexer cuts chunks so), appending what they declare to
/// `module`. Problems the grammar allows but the AST cannot hold (an
/// integer literal too large, a kernel with a result list) go to
/// `diagnostics`; only those of items that parse are kept.
SyntaxParseResult parseTokens(const std::vector<LexedToken> &tokens, std::size_t begin,
                              std::size_t end, std::string_view source, const std::string &path,
                              Module &module, Diagnostics &diagnostics);

} // namespace ptxdvfs::ptx
