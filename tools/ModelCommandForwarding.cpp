// ModelCommandForwarding.cpp - the model subcommands in the light `ptxdvfs`: exec `ptxdvfs-model`.
//
// LibTorch costs about 0.6 s and 160 MB at start-up, paid by every process
// that links it, whatever it runs. Keeping it out of `ptxdvfs` keeps parse,
// encode, loops, dataset, and predict/recommend/lint with the predictors a
// model card computes (the shipped default among them) fast; train,
// evaluate and the LSTM's predictions run in `ptxdvfs-model`, found beside
// this binary or in ../libexec/ptxdvfs.
#include "ModelCommands.h"

#include "ExitCodes.h"
#include "PredictorSource.h"

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace ptxdvfs::tools {

namespace fs = std::filesystem;

namespace {

struct Forwarded {
  const char *name;
  const char *description;
};

// The descriptions the real commands register, for `ptxdvfs --help`.
constexpr Forwarded kModelCommands[] = {
    {"train", "Train a model on a measurement dataset and write a model folder"},
    {"evaluate", "Score a model and its baselines against a measured dataset"},
};

std::string modelProgram() {
  std::error_code error;
  fs::path self = fs::read_symlink("/proc/self/exe", error);
  if (error)
    return "";
  for (const fs::path &candidate :
       {self.parent_path() / "ptxdvfs-model", self.parent_path().parent_path() / "libexec/ptxdvfs/ptxdvfs-model"})
    if (access(candidate.c_str(), X_OK) == 0)
      return candidate.string();
  return "";
}

char **commandLine = nullptr; // main's argv, for re-execution

int forward(char **argv) {
  std::string program = modelProgram();
  if (program.empty()) {
    spdlog::error("this command needs ptxdvfs-model (ptxdvfs with LibTorch), which is not beside "
                  "this program nor in ../libexec/ptxdvfs: build or install it with ptxdvfs");
    return kExitInputError;
  }
  execv(program.c_str(), argv); // argv[0] kept: help and errors name `ptxdvfs` as the user typed it
  spdlog::error("{}: cannot run: {}", program, std::strerror(errno));
  return kExitInputError;
}

} // namespace

void setupModelCommands(CLI::App &app, int, char **argv, int &exitCode) {
  commandLine = argv;
  for (const Forwarded &command : kModelCommands) {
    CLI::App *stub = app.add_subcommand(command.name, command.description);
    // Everything after the name, --help included, is for ptxdvfs-model to read.
    stub->prefix_command();
    stub->allow_extras();
    stub->fallthrough(false);
    stub->set_help_flag();
    stub->callback([&exitCode] { exitCode = forward(commandLine); });
  }
}

std::unique_ptr<model::SurfacePredictor> openPredictor(const std::string &,
                                                       const model::ModelFolderContents &folder,
                                                       const std::string &name) {
  if (auto predictor = model::makeCardPredictor(folder.card, name))
    return predictor;
  forward(commandLine); // the LSTM, its blends and the MLP need LibTorch
  return nullptr;
}

} // namespace ptxdvfs::tools
