// Logging.h - one place that sets up spdlog for the ptxdvfs binary.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace ptxdvfs::tools {

struct LoggingOptions {
  bool verbose = false;  ///< -v: debug messages
  bool quiet = false;    ///< -q: errors only
  std::string level;     ///< --log-level NAME, overrides both
};

/// Adds -v/--verbose, -q/--quiet and --log-level to `app`.
void addLoggingFlags(CLI::App &app, LoggingOptions &options);

/// Installs the default logger on stderr (stdout carries command output)
/// and applies the flags, then SPDLOG_LEVEL from the environment.
void initLogging(const LoggingOptions &options);

} // namespace ptxdvfs::tools
