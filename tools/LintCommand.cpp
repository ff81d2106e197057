// LintCommand.cpp - `ptxdvfs lint FILE...`: GCC-style or SARIF hints, --werror for builds that fail.
#include "LintCommand.h"

#include "AtomicFile.h"
#include "ExitCodes.h"
#include "KernelPredictions.h"
#include "LintHints.h"
#include "Version.h"

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <iostream>
#include <memory>

namespace ptxdvfs::tools {

namespace {

struct LintOptions {
  PredictionFlags prediction;
  LintSettings settings;
  std::string format = "gcc";
  std::string sourceRoot = ".";
  std::string output;
  bool werror = false;
};

int runLint(const LintOptions &options) {
  PredictionRun run;
  int status = runPredictions(options.prediction, run);
  if (run.modules.empty())
    return status;
  std::vector<LintHint> hints = lintHints(run, options.settings);
  if (options.format == "sarif") {
    std::string log = sarifLog(hints, options.sourceRoot, kVersion).dump(2) + "\n";
    if (options.output.empty()) {
      std::cout << log;
    } else if (status != kExitSuccess) {
      // A log without the inputs that failed would read as "no hints there".
      spdlog::error("{}: not written, since some input could not be read", options.output);
    } else if (std::string failure = writeFileAtomically(options.output, log); !failure.empty()) {
      spdlog::error("{}", failure);
      return kExitInputError;
    }
  } else {
    printGcc(hints, std::cout);
  }
  bool warned = std::any_of(hints.begin(), hints.end(), [](const LintHint &hint) { return hint.isWarning; });
  if (status == kExitSuccess && options.werror && warned)
    return kExitInputError;
  return status;
}

} // namespace

void setupLintCommand(CLI::App &app, int &exitCode) {
  auto options = std::make_shared<LintOptions>();
  CLI::App *command = app.add_subcommand(
      "lint", "Hint where a kernel's clocks could save energy, at the kernel's source line");
  command->footer(
      "Examples:\n"
      "  ptxdvfs lint examples/saxpy.ptx\n"
      "  ptxdvfs lint --format sarif --source-root . -o ptxdvfs.sarif build/*.ptx\n"
      "  ptxdvfs lint --werror --min-saving 10 --max-slowdown 3 kernels.cu\n"
      "One line per kernel that deserves a hint, as compilers print them:\n"
      "  saxpy.cu:3:17: warning: kernel 'saxpy' is memory-bound: core clock 709 MHz (from 975)\n"
      "  saves 18% energy for 2% more time [dvfs-core-insensitive]\n"
      "Rules: dvfs-core-insensitive (memory-bound: lower the core clock), dvfs-memory-insensitive\n"
      "(compute-bound: lower the memory clock), dvfs-race-to-idle (higher clocks save energy),\n"
      "dvfs-balanced (a note, with --all). A hint takes the least-energy point within\n"
      "--max-slowdown of the default clocks' time and needs --min-saving of energy. Hints whose\n"
      "saving is within the predictor's spread, and those of a kernel the host code read never\n"
      "launches (see 'ptxdvfs loops'), are held back (shown as notes with --all).\n"
      "The location is the kernel's declaration in the CUDA source when the PTX has -lineinfo\n"
      "and the .cu is readable, else the .entry line of the PTX; notes point at the loops\n"
      "that hold most of the executed instructions.\n"
      "Exit status: 0 success (hints or not), 1 an input or the model could not be read, or\n"
      "--werror and some warning, 2 usage error.");
  addPredictionFlags(*command, options->prediction);
  const char *group = "Hints";
  command->add_option("--format", options->format, "gcc (file:line:col: warning: ...) or sarif (SARIF 2.1.0)")
      ->check(CLI::IsMember({"gcc", "sarif"}))
      ->capture_default_str()
      ->group(group);
  addHintFlags(*command, options->settings, group);
  command->add_option("--source-root", options->sourceRoot,
                      "SARIF: paths are written relative to this folder (SRCROOT)")
      ->check(CLI::ExistingDirectory)
      ->capture_default_str()
      ->group(group);
  command->add_option("-o,--output", options->output,
                      "SARIF: write the log to this file (atomically) instead of stdout")
      ->group(group);
  command->add_flag("--werror", options->werror, "Exit with status 1 when any warning is printed")
      ->group(group);
  command->callback([options, &exitCode] { exitCode = runLint(*options); });
}

} // namespace ptxdvfs::tools
