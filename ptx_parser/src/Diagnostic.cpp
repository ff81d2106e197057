// Diagnostic.cpp - formatting of diagnostics.
#include "ptxdvfs/ptx/Diagnostic.h"

#include <algorithm>
#include <ostream>

namespace ptxdvfs::ptx {

const char *toString(Severity severity) {
  switch (severity) {
  case Severity::Error: return "error";
  case Severity::Warning: return "warning";
  case Severity::Note: return "note";
  }
  return "error";
}

std::string Diagnostic::where() const {
  std::string text = path;
  if (location.isKnown()) {
    text += ':' + std::to_string(location.line);
    if (location.column != 0)
      text += ':' + std::to_string(location.column);
  }
  return text;
}

std::string Diagnostic::format() const {
  std::string text = where();
  text += ": ";
  text += toString(severity);
  text += ": ";
  text += message;
  return text;
}

bool hasErrors(const Diagnostics &diagnostics) {
  return std::any_of(diagnostics.begin(), diagnostics.end(),
                     [](const Diagnostic &d) { return d.severity == Severity::Error; });
}

std::ostream &operator<<(std::ostream &os, const Diagnostic &diagnostic) {
  return os << diagnostic.format();
}

} // namespace ptxdvfs::ptx
