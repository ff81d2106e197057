// CollectCommand.h - `ptxdvfs collect`: measure the microbenchmark suite on this machine's GPU at
// its V-F points and write a dataset `train` reads (issue 16; docs/retraining.md).
#pragma once

#include "collect/CollectPlan.h"

#include <string>

namespace CLI {
class App;
}

namespace ptxdvfs::tools {

struct CollectOptions {
  std::string suite;          ///< PTX of the suite (build/microbenchmarks/suite_smXX.ptx)
  std::string output;         ///< dataset folder; also holds the progress log
  std::string gpu;            ///< file-name form; empty: from the device's name
  int device = 0;             ///< CUDA ordinal
  bool dryRun = false;
  bool currentClocks = false; ///< measure only at the clocks in force; never change them
  std::string clockTable;     ///< with dryRun: gpu_info folder to plan from, without a GPU
  std::size_t maxCoreClocks = 8;
  collect::MeasurementSettings settings;
};

void setupCollectCommand(CLI::App &app, int &exitCode);

/// Returns an ExitCodes value: 0 when every measurement is in the dataset,
/// 1 on an error or an interruption (run the same command to resume).
int runCollectCommand(const CollectOptions &options);

} // namespace ptxdvfs::tools
