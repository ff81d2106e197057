// Parser.h - entry points that turn PTX text into a Module.
#pragma once

#include "ptxdvfs/ptx/Expected.h"
#include "ptxdvfs/ptx/Module.h"

#include <string>
#include <string_view>

namespace ptxdvfs::ptx {

struct ParseOptions {
  /// Threads that parse top-level chunks of one file concurrently.
  /// 0 picks the hardware concurrency; 1 parses on the calling thread.
  unsigned threads = 1;
  /// Stop after this many errors; a binary or badly damaged file would
  /// otherwise produce one per token.
  std::size_t maxErrors = 50;
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

} // namespace ptxdvfs::ptx
