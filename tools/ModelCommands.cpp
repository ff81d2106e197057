// ModelCommands.cpp - the model subcommands as they are registered in `ptxdvfs-model`.
#include "ModelCommands.h"

#include "EvaluateCommand.h"
#include "LintCommand.h"
#include "PredictCommand.h"
#include "RecommendCommand.h"
#include "TrainCommand.h"

namespace ptxdvfs::tools {

void setupModelCommands(CLI::App &app, int, char **, int &exitCode) {
  setupPredictCommand(app, exitCode);
  setupRecommendCommand(app, exitCode);
  setupLintCommand(app, exitCode);
  setupTrainCommand(app, exitCode);
  setupEvaluateCommand(app, exitCode);
}

} // namespace ptxdvfs::tools
