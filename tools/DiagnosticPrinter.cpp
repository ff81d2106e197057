// DiagnosticPrinter.cpp - text and JSON forms of diagnostics.
#include "DiagnosticPrinter.h"

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <ostream>

namespace ptxdvfs::tools {

void printDiagnostics(const ptx::Diagnostics &diagnostics, std::ostream &out) {
  for (const ptx::Diagnostic &diagnostic : diagnostics)
    out << diagnostic.format() << '\n';
}

void warnIfDebugBuild(const ptx::Module &module, const std::string &input) {
  if (module.targetsDebug())
    spdlog::warn("{}: compiled with nvcc -G (.target ..., debug): unoptimised device code, which runs "
                 "differently from a release build and from the optimised code the model was trained on; for "
                 "the release build give PTX compiled without -G (-lineinfo keeps source lines)",
                 input);
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
