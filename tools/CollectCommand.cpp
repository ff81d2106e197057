// CollectCommand.cpp - `ptxdvfs collect --suite FILE.ptx -o DIR`.
#include "CollectCommand.h"

#include "DiagnosticPrinter.h"
#include "ExitCodes.h"
#include "LaunchFile.h"
#include "collect/Collector.h"
#include "collect/DatasetWriter.h"
#include "collect/NvidiaDevice.h"

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <memory>

namespace ptxdvfs::tools {

namespace {

std::atomic<bool> stopRequested{false};

extern "C" void onStopSignal(int) { stopRequested = true; }

/// SIGINT and SIGTERM ask the loop to stop after the current run, so that
/// the clocks are reset and the log is whole; restored on destruction.
class StopOnSignals {
public:
  StopOnSignals() {
    struct sigaction action {};
    action.sa_handler = onStopSignal;
    sigaction(SIGINT, &action, &previousInt_);
    sigaction(SIGTERM, &action, &previousTerm_);
  }
  ~StopOnSignals() {
    sigaction(SIGINT, &previousInt_, nullptr);
    sigaction(SIGTERM, &previousTerm_, nullptr);
  }

private:
  struct sigaction previousInt_ {}, previousTerm_ {};
};

std::string progressPath(const std::string &output) { return output + "/collect_progress.csv"; }

/// A benchmark's launch.json: the shape every run had and the arguments of
/// the suite's one signature, (out, in, bytes, repeats), by their PTX
/// names, which read without the suite's sources.
collect::LaunchFileText launchFiles(collect::LaunchShape shape, unsigned long long bytes) {
  return [shape, bytes](const collect::PlannedBenchmark &benchmark, int repeats) {
    KernelLaunch launch;
    launch.kernel = benchmark.name;
    launch.grid = ptx::analysis::Dim3{shape.blocks, 1, 1};
    launch.block = ptx::analysis::Dim3{shape.threadsPerBlock, 1, 1};
    if (benchmark.parameters.size() == 4) // readSuite's kernels; run() passes these four
      launch.arguments = {{benchmark.parameters[2], ptx::analysis::AssumedValue(bytes)},
                          {benchmark.parameters[3], ptx::analysis::AssumedValue(repeats)}};
    return launchFileText({launch});
  };
}

} // namespace

void setupCollectCommand(CLI::App &app, int &exitCode) {
  auto options = std::make_shared<CollectOptions>();
  CLI::App *command = app.add_subcommand(
      "collect", "Measure the microbenchmark suite at this GPU's clocks and write a training dataset");
  command->footer(
      "Builds a dataset for `ptxdvfs train --dataset DIR --ptx DIR` on a new GPU. The suite\n"
      "is bench/microbenchmarks, built with `cmake --build build --target microbenchmarks`\n"
      "into suite_sm<arch>.ptx: pick the GPU's own architecture (or the newest below it).\n"
      "Needs the NVIDIA driver (libcuda.so.1, libnvidia-ml.so.1, opened at run time) and, to\n"
      "change clocks, root. Locked clocks where the GPU has them, else application clocks;\n"
      "they are reset when collect ends, also on Ctrl-C or an error.\n"
      "Results are appended to DIR/collect_progress.csv as they come: run the same command\n"
      "again to resume after an interruption.\n\n"
      "Examples:\n"
      "  ptxdvfs collect --suite build/microbenchmarks/suite_sm90.ptx -o h100-data --dry-run\n"
      "  sudo ptxdvfs collect --suite build/microbenchmarks/suite_sm90.ptx -o h100-data\n"
      "  ptxdvfs collect --suite suite_sm90.ptx -o data --current-clocks   never changes clocks\n"
      "  ptxdvfs collect --suite suite_sm52.ptx -o data --dry-run \\\n"
      "      --clock-table ../shared/datasets/gpuptxmodel-gtxtitanx/gpu_info --gpu gtxtitanx\n"
      "Exit status: 0 the dataset is complete, 1 an error or an interruption, 2 usage error.");
  command->add_option("--suite", options->suite, "PTX of the microbenchmark suite")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_option("-o,--output", options->output, "Dataset folder (created; resumed if it has a progress log)")
      ->required();
  command->add_option("--gpu", options->gpu, "GPU name for the dataset's files (default: from the device)");
  command->add_option("--device", options->device, "CUDA device ordinal")->capture_default_str();
  command->add_flag("--dry-run", options->dryRun, "Print the plan (clocks, benchmarks, duration) and stop");
  command->add_flag("--current-clocks", options->currentClocks,
                    "Measure only at the clocks the GPU runs now and never change them (shared machines)");
  command->add_option("--clock-table", options->clockTable,
                      "With --dry-run: plan from the clock tables in this gpu_info folder (needs --gpu), "
                      "without a GPU")
      ->check(CLI::ExistingDirectory);
  command->add_option("--max-core-clocks", options->maxCoreClocks,
                      "Core clocks measured per memory clock, spread evenly (lowest, highest and default kept)")
      ->capture_default_str()
      ->check(CLI::Range(2, 1000));
  command->add_option("--seconds-per-run", options->settings.secondsPerRun,
                      "A run repeats the kernel's work until it lasts this long at the highest clocks")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  command->add_option("--runs", options->settings.runs, "Measured runs per benchmark and point")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  command->add_option("--warmups", options->settings.warmups, "Unrecorded runs first")
      ->capture_default_str()
      ->check(CLI::Range(0, 100));
  command->callback([options, &exitCode] { exitCode = runCollectCommand(*options); });
}

int runCollectCommand(const CollectOptions &options) {
  auto suite = collect::readSuite(options.suite);
  if (!suite) {
    printDiagnostics(suite.diagnostics(), std::cerr);
    return kExitInputError;
  }
  collect::CollectPlan plan;
  plan.benchmarks = std::move(suite->benchmarks);
  plan.settings = options.settings;

  std::unique_ptr<collect::GpuDevice> device;
  if (!options.clockTable.empty()) {
    if (!options.dryRun || options.gpu.empty()) {
      spdlog::error("--clock-table plans without a GPU: it needs --dry-run and --gpu");
      return kExitUsageError;
    }
    auto clocks = embeddings::loadGpuClocks(options.clockTable, options.gpu);
    if (!clocks) {
      printDiagnostics(clocks.diagnostics(), std::cerr);
      return kExitInputError;
    }
    plan.gpu = options.gpu;
    plan.clocks = options.currentClocks ? collect::currentClocksOnly(clocks->defaultPoint, options.gpu)
                                        : collect::thinClocks(*clocks, options.maxCoreClocks);
  } else {
    auto opened = collect::openNvidiaDevice(options.device);
    if (!opened) {
      printDiagnostics(opened.diagnostics(), std::cerr);
      return kExitInputError;
    }
    device = std::move(*opened);
    try {
      // Before any plan: the driver's own error for PTX newer than the GPU is a bare "invalid PTX".
      if (std::string mismatch = collect::targetMismatch(suite->target, device->computeCapability());
          !mismatch.empty()) {
        spdlog::error("{}: {}", options.suite, mismatch);
        return kExitInputError;
      }
      plan.gpu = options.gpu.empty() ? collect::fileNameOfGpu(device->name()) : options.gpu;
      plan.clocks = options.currentClocks
                        ? collect::currentClocksOnly(device->currentClocks(), plan.gpu)
                        : collect::thinClocks(device->clockTable(), options.maxCoreClocks);
    } catch (const collect::DeviceError &error) {
      spdlog::error("{}", error.what());
      return kExitInputError;
    }
  }
  plan.clocks.gpu = plan.gpu;
  // Highest clocks first: each benchmark's run length is calibrated there.
  plan.points = plan.clocks.grid();
  std::reverse(plan.points.begin(), plan.points.end());

  auto log = collect::ProgressLog::read(progressPath(options.output));
  printDiagnostics(log.diagnostics(), std::cerr);
  if (!log)
    return kExitInputError;
  collect::printPlan(plan, collect::measuredPairs(plan, *log), std::cout);
  std::cout.flush(); // the plan before the progress lines (stderr), also into a pipe
  if (options.dryRun)
    return kExitSuccess;

  std::error_code error;
  std::filesystem::create_directories(options.output, error);
  if (error) {
    spdlog::error("{}: cannot create: {}", options.output, error.message());
    return kExitInputError;
  }
  collect::CollectOutcome outcome;
  {
    StopOnSignals signals;
    try {
      spdlog::info("{}: loading {} kernel(s); the driver compiles their PTX first, which can take a while", options.suite,
                   plan.benchmarks.size());
      device->loadModule(*suite->text);
    } catch (const collect::DeviceError &failure) {
      spdlog::error("{}: {}", options.suite, failure.what());
      return kExitInputError;
    }
    outcome = collect::runCollection(
        *device, plan, *log, !options.currentClocks, stopRequested,
        [](const collect::MeasuredPoint &row, std::size_t remaining) {
          spdlog::info("{} at {}/{} MHz: {:.3f} ms, {:.1f} W ({} left)", row.benchmark, row.point.memoryMHz,
                       row.point.coreMHz, row.milliseconds, row.watts, remaining);
        });
  }
  std::size_t complete = 0;
  if (std::string failure = collect::writeDataset(options.output, plan, *log, complete,
                                                  launchFiles(device->launchShape(), plan.settings.bufferBytes));
      !failure.empty()) {
    spdlog::error("{}", failure);
    return kExitInputError;
  }
  spdlog::info("{}: {} of {} benchmark(s) measured at every point", options.output, complete,
               plan.benchmarks.size());
  if (!outcome.error.empty()) {
    spdlog::error("{}; clocks were reset; run the same command to resume", outcome.error);
    return kExitInputError;
  }
  if (outcome.stopped) {
    spdlog::warn("stopped; clocks were reset; run the same command to resume");
    return kExitInputError;
  }
  return kExitSuccess;
}

} // namespace ptxdvfs::tools
