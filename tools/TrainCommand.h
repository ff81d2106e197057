// TrainCommand.h - `ptxdvfs train`: fit a model on a measurement dataset and write a model folder.
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace ptxdvfs::tools {

struct TrainCommandOptions {
  std::string dataset;
  std::string out;
  std::string config;
  std::string gpuInfo;
  std::string ptxDir; ///< benchmark folders with .ptx; empty: stored sequences
  std::string checkpointDir;
  bool resume = false;
  bool json = false;
  bool cvOnly = false;
};

void setupTrainCommand(CLI::App &app, int &exitCode);

} // namespace ptxdvfs::tools
