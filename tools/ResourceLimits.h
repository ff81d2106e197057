// ResourceLimits.h - global flags that bound what one run may take: input size, nesting, statement
// length, body length, wall time.
#pragma once

#include "ptxdvfs/ptx/Parser.h"

#include <string>

namespace CLI {
class App;
}

namespace ptxdvfs::tools {

struct ResourceLimitOptions {
  ptx::ParseLimits parse;  ///< copied into ptx::defaultParseLimits()
  double maxInputMb = 1024; ///< --max-input-mb (MiB)
  double timeLimitSeconds = 0; ///< --time-limit; 0: none
};

/// Adds --max-input-mb, --max-nesting, --max-statement-tokens,
/// --max-function-statements and --time-limit to `app` (every subcommand).
void addResourceLimitFlags(CLI::App &app, ResourceLimitOptions &options);

/// Makes the parse limits the process default and, unless `subcommand` is
/// a server (`lsp`, which lives as long as its editor), starts the wall
/// clock: past the time limit the process prints one error and exits with
/// status 1. Outputs are written atomically, so what an earlier run wrote
/// stays intact.
void applyResourceLimits(const ResourceLimitOptions &options, const std::string &subcommand);

} // namespace ptxdvfs::tools
