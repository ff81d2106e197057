// Logging.cpp - stderr logger, level from flags and SPDLOG_LEVEL.
#include "Logging.h"

#include <CLI/CLI.hpp>
#include <spdlog/cfg/env.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace ptxdvfs::tools {

void addLoggingFlags(CLI::App &app, LoggingOptions &options) {
  app.add_flag("-v,--verbose", options.verbose, "Print debug messages on stderr");
  app.add_flag("-q,--quiet", options.quiet, "Print only errors on stderr");
  app.add_option("--log-level", options.level,
                 "Log level: trace, debug, info, warn, error, critical, off "
                 "(SPDLOG_LEVEL in the environment also works)")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}));
}

void initLogging(const LoggingOptions &options) {
  auto logger = spdlog::stderr_color_mt("ptxdvfs");
  logger->set_pattern("ptxdvfs: %^%l%$: %v");
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::info);
  if (options.verbose)
    spdlog::set_level(spdlog::level::debug);
  if (options.quiet)
    spdlog::set_level(spdlog::level::err);
  if (!options.level.empty())
    spdlog::set_level(spdlog::level::from_str(options.level));
  spdlog::cfg::load_env_levels();
}

} // namespace ptxdvfs::tools
