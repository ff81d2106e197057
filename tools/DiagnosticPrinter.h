// DiagnosticPrinter.h - how diagnostics leave the program: text on stderr, or JSON.
#pragma once

#include "ptxdvfs/ptx/Diagnostic.h"

#include <nlohmann/json_fwd.hpp>

#include <iosfwd>

namespace ptxdvfs::tools {

/// One `file:line:col: severity: message` line per diagnostic.
void printDiagnostics(const ptx::Diagnostics &diagnostics, std::ostream &out);

/// [{"path", "line", "column", "severity", "message"}, ...]
nlohmann::json diagnosticsToJson(const ptx::Diagnostics &diagnostics);

} // namespace ptxdvfs::tools
