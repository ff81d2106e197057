// Diagnostic.h - source locations and the file:line:col messages every layer reports.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace ptxdvfs::ptx {

/// A position in a source file. Lines and columns are 1-based; columns count
/// bytes (a tab is one column), as gcc and clang do. 0 means "unknown".
struct SourceLocation {
  std::uint32_t line = 0;
  std::uint32_t column = 0;

  bool isKnown() const { return line != 0; }
  friend bool operator==(const SourceLocation &a, const SourceLocation &b) {
    return a.line == b.line && a.column == b.column;
  }
};

enum class Severity { Error, Warning, Note };

const char *toString(Severity severity);

/// One message about one place in one file, printed as
/// `path:line:col: error: message` (message lower-case, no trailing period).
struct Diagnostic {
  std::string path;
  SourceLocation location;
  Severity severity = Severity::Error;
  std::string message;

  /// `path:line:col`, the parts that are known (`path` alone without a line).
  std::string where() const;
  std::string format() const;
};

using Diagnostics = std::vector<Diagnostic>;

bool hasErrors(const Diagnostics &diagnostics);

std::ostream &operator<<(std::ostream &os, const Diagnostic &diagnostic);

} // namespace ptxdvfs::ptx
