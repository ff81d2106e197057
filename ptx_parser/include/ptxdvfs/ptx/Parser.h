// Parser.h - entry points that turn PTX text into a Module.
#pragma once

#include "ptxdvfs/ptx/Expected.h"
#include "ptxdvfs/ptx/Module.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace ptxdvfs::ptx {

/// What the parser refuses, so that hostile or broken input cannot take
/// unbounded time, memory or stack. Each exceeded limit is one error
/// naming the limit and the command-line flag that raises it.
struct ParseLimits {
  /// Bytes of PTX text (`--max-input-mb`); never more than 4 GiB.
  std::uint64_t maxInputBytes = std::uint64_t(1) << 30;
  /// Nesting of (), [] and {} (`--max-nesting`); at most kNestingCeiling.
  std::size_t maxNesting = 256;
  /// Tokens in one statement or directive, from one `;`, `{` or `}` to
  /// the next (`--max-statement-tokens`): a million-operand instruction.
  std::size_t maxStatementTokens = std::size_t(1) << 16;
  /// Statements in one function body (`--max-function-statements`).
  std::size_t maxFunctionStatements = std::size_t(1) << 22;
};

/// Deeper nesting would exhaust the parser's stack whatever is asked.
inline constexpr std::size_t kNestingCeiling = 4096;

/// The limits every ParseOptions starts from; a command line sets them
/// once, before parsing (not thread-safe to change while parsing).
ParseLimits &defaultParseLimits();

struct ParseOptions {
  /// Threads that parse top-level chunks of one file concurrently.
  /// 0 picks the hardware concurrency; 1 parses on the calling thread.
  unsigned threads = 1;
  /// Stop after this many errors; a binary or badly damaged file would
  /// otherwise produce one per token.
  std::size_t maxErrors = 50;
  ParseLimits limits = defaultParseLimits();
};

/// Everything a parse produced, even when it failed: the module holds what
/// could be recovered, `diagnostics` every error and warning in file order.
struct ParseResult {
  Module module;
  Diagnostics diagnostics;
};

/// Parses PTX text. `path` only names the text in diagnostics.
/// Fails with one diagnostic per syntax error (up to `maxErrors`), never
/// throws, never asserts on malformed input. An empty text is a valid,
/// empty module.
Expected<Module> parseModule(std::string_view text, const std::string &path,
                             const ParseOptions &options = {});

/// Like parseModule but keeps the best-effort module alongside the errors,
/// for editors that show every diagnostic of a half-typed file.
ParseResult parseForDiagnostics(std::string_view text, const std::string &path,
                                const ParseOptions &options = {});

/// Reads and parses a file. A file that cannot be read fails with a
/// diagnostic at line 0 naming the reason.
Expected<Module> parseFile(const std::string &path, const ParseOptions &options = {});

/// Receives a file's module a piece at a time (parseFileInPieces).
using PieceConsumer = std::function<void(Module &piece)>;

/// Parses a file a piece at a time, for work that looks at one function at
/// a time: memory then stays bounded by a piece (about 32k tokens of
/// consecutive top-level items) however large the file.
///
/// Each piece holds the functions, module-scope variables and directives of
/// its items, plus the file's `path`, `source` and the header directives
/// seen so far (`.version`, `.target`, `.address_size`, `.file`). Pieces
/// arrive in file order, one call at a time, from the calling thread or a
/// parsing thread (ParseOptions::threads), so `consume` must not throw. A
/// piece is freed when `consume` returns; what it moves out stays valid
/// while `source` is shared.
///
/// Returns the header (a Module without functions) and every diagnostic,
/// as parseForDiagnostics does. Pieces before a syntax error have been
/// handed over by the time it is reported: check the diagnostics before
/// trusting what was consumed.
ParseResult parseFileInPieces(const std::string &path, const ParseOptions &options,
                              const PieceConsumer &consume);

} // namespace ptxdvfs::ptx
