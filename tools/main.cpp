// main.cpp - the ptxdvfs command line: wires subcommands, maps errors to exit codes.
#include "CollectCommand.h"
#include "DatasetInfoCommand.h"
#include "EmptyOptionValues.h"
#include "EncodeCommand.h"
#include "ExitCodes.h"
#include "HeapTuning.h"
#include "LintCommand.h"
#include "Logging.h"
#include "LoopsCommand.h"
#include "LspCommand.h"
#include "ModelCommands.h"
#include "ParseCommand.h"
#include "PredictCommand.h"
#include "RecommendCommand.h"
#include "ResourceLimits.h"
#include "Version.h"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

int main(int givenCount, char **given) {
  using namespace ptxdvfs::tools;
  std::vector<std::string> words = emptyValuesApart(givenCount, given);
  std::vector<char *> wordPointers;
  for (std::string &word : words)
    wordPointers.push_back(word.data());
  wordPointers.push_back(nullptr);
  const int argc = static_cast<int>(words.size());
  char **argv = wordPointers.data();
  CLI::App app{"ptxdvfs: predict how a CUDA kernel's time, power and energy change with "
               "GPU clocks, from its PTX, without running it"};
  app.set_version_flag("--version", std::string("ptxdvfs ") + kVersion);
  app.footer("Run 'ptxdvfs SUBCOMMAND --help' for a subcommand's options and examples.\n"
             "Exit status: 0 success, 1 some input had errors, 2 usage error.");
  app.require_subcommand(1);
  app.fallthrough(); // global flags (-v, -q) also work after the subcommand
  LoggingOptions logging;
  addLoggingFlags(app, logging);
  ResourceLimitOptions limits;
  addResourceLimitFlags(app, limits);
  app.parse_complete_callback([&] {
    initLogging(logging);
    std::vector<CLI::App *> chosen = app.get_subcommands();
    std::string subcommand = chosen.empty() ? "" : chosen.front()->get_name();
    applyResourceLimits(limits, subcommand);
    // An editor's server parses small documents for hours: 2 MiB pages
    // would only raise its footprint.
    if (subcommand != "lsp")
      backHeapWithHugePages();
  });

  int exitCode = kExitSuccess;
  setupPredictCommand(app, exitCode);
  setupRecommendCommand(app, exitCode);
  setupLintCommand(app, exitCode);
  setupLspCommand(app, exitCode);
  setupModelCommands(app, argc, argv, exitCode);
  setupParseCommand(app, exitCode);
  setupEncodeCommand(app, exitCode);
  setupLoopsCommand(app, exitCode);
  setupDatasetCommands(app, exitCode);
  setupCollectCommand(app, exitCode);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &error) {
    int status = app.exit(error);
    return status == 0 ? kExitSuccess : kExitUsageError;
  }
  return exitCode;
}
