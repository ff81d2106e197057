// GrammarCheck.h - the ANTLR parser generated from grammar/PTXParser.g4, run
// for its verdict and its error messages.
//
// SyntaxParser builds the AST; this is the reference it is held to, and the
// source of the diagnostics of input that does not parse (ANTLR's error
// recovery reports every error it can, with "expecting ..." sets taken from
// the grammar).
#pragma once

#include "Lexer.h"

#include <string>
#include <string_view>
#include <vector>

namespace ptxdvfs::ptx {

/// Parses tokens [begin, end) of `tokens` (whole top-level items) with the
/// generated parser and returns its syntax errors as file:line:col
/// diagnostics, at most `maxErrors` of them; none means the grammar accepts
/// the tokens. Never throws.
Diagnostics grammarDiagnostics(std::string_view source, const std::string &path,
                               const std::vector<LexedToken> &tokens, std::size_t begin,
                               std::size_t end, std::size_t maxErrors);

} // namespace ptxdvfs::ptx
