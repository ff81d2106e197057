// EvaluateCommand.h - `ptxdvfs evaluate`: a model's accuracy and decisions on a measured dataset.
#pragma once

#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace ptxdvfs::tools {

struct EvaluateCommandOptions {
  std::string model;
  std::string dataset;
  std::string gpuInfo;
  std::string ptxDir; ///< benchmark folders with .ptx; empty: stored sequences
  std::uint64_t defaultTripCount = 0; ///< 0: the count the model was trained with
  bool json = false;
  bool perBenchmark = false;
};

void setupEvaluateCommand(CLI::App &app, int &exitCode);

/// Loads the model, imports the dataset with the model's reference point,
/// predicts every benchmark and scores the model and the baselines stored
/// in the model folder. Returns an ExitCodes value.
int runEvaluateCommand(const EvaluateCommandOptions &options);

} // namespace ptxdvfs::tools
