// DiagnosticPrinter.h - how diagnostics leave the program: text on stderr, or JSON.
#pragma once

#include "ptxdvfs/ptx/Diagnostic.h"
#include "ptxdvfs/ptx/Module.h"

#include <nlohmann/json_fwd.hpp>

#include <iosfwd>
#include <string>

namespace ptxdvfs::tools {

/// One `file:line:col: severity: message` line per diagnostic.
void printDiagnostics(const ptx::Diagnostics &diagnostics, std::ostream &out);

/// A warning (the log's, so --quiet hides it) when `module` was compiled
/// with nvcc -G: its unoptimised code is neither the release build nor
/// what the model was trained on, and nothing else in the output says so.
void warnIfDebugBuild(const ptx::Module &module, const std::string &input);

/// [{"path", "line", "column", "severity", "message"}, ...]
nlohmann::json diagnosticsToJson(const ptx::Diagnostics &diagnostics);

} // namespace ptxdvfs::tools
