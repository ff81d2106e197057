// DiagnosticPrinter.cpp - text and JSON forms of diagnostics.
#include "DiagnosticPrinter.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace ptxdvfs::tools {

void printDiagnostics(const ptx::Diagnostics &diagnostics, std::ostream &out) {
  for (const ptx::Diagnostic &diagnostic : diagnostics)
    out << diagnostic.format() << '\n';
}

nlohmann::json diagnosticsToJson(const ptx::Diagnostics &diagnostics) {
  nlohmann::json list = nlohmann::json::array();
  for (const ptx::Diagnostic &diagnostic : diagnostics)
    list.push_back({{"path", diagnostic.path},
                    {"line", diagnostic.location.line},
                    {"column", diagnostic.location.column},
                    {"severity", ptx::toString(diagnostic.severity)},
                    {"message", diagnostic.message}});
  return list;
}

} // namespace ptxdvfs::tools
