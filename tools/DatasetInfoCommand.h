// DatasetInfoCommand.h - `ptxdvfs dataset info`: what a measurement dataset holds.
#pragma once

#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace ptxdvfs::tools {

struct DatasetInfoOptions {
  std::string dir;
  std::string gpuInfoDir;
  std::string reference = "default"; ///< "default" or "fmax"
  bool lastKernelOnly = false;
  bool strict = false;
  bool json = false;
  std::string ptxDir;       ///< benchmark folders with .ptx; empty: stored sequences
  bool asExecuted = false;
  bool broadcastLoads = false;
  std::uint64_t defaultTripCount = ptx::analysis::ExpansionOptions{}.defaultTripCount;
  std::int64_t maxLength = 2000; ///< as executed: the written budget per kernel
};

/// Registers `dataset info` under a `dataset` command group.
void setupDatasetCommands(CLI::App &app, int &exitCode);

/// Prints benchmark count, kernels, sequence lengths, the V-F grid and the
/// irregularities found. Irregularities are reported, not fatal, unless
/// `strict`. Returns an ExitCodes value.
int runDatasetInfoCommand(const DatasetInfoOptions &options);

} // namespace ptxdvfs::tools
