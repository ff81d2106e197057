// RecommendCommand.cpp - `ptxdvfs recommend FILE...`: one decision per kernel and per file.
#include "RecommendCommand.h"

#include "ExitCodes.h"
#include "KernelPredictions.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <cmath>
#include <iostream>
#include <memory>

namespace ptxdvfs::tools {

namespace {

struct RecommendOptions {
  PredictionFlags prediction;
  std::string objectiveText = "min-energy";
  model::Objective objective;
  bool json = false;
};

std::string applyCommand(const embeddings::VfPoint &point) {
  return "nvidia-smi --lock-memory-clocks=" + std::to_string(point.memoryMHz) + "," +
         std::to_string(point.memoryMHz) + " && nvidia-smi --lock-gpu-clocks=" +
         std::to_string(point.coreMHz) + "," + std::to_string(point.coreMHz);
}
constexpr const char *kUndoCommand = "nvidia-smi --reset-memory-clocks && nvidia-smi --reset-gpu-clocks";

std::string ratiosText(const model::Ratios &ratios) {
  return "time " + percentChange(ratios.time) + ", power " + percentChange(ratios.power) +
         ", energy " + percentChange(ratios.energy);
}

void printDecision(const PredictionRun &run, const RecommendOptions &options,
                   const std::string &title, const model::ApplicationPrediction &prediction) {
  model::Decision decision = model::decide(prediction, options.objective, run.model->points, run.model->risk);
  const embeddings::VfPoint &chosen = run.model->points.grid[decision.point];
  std::cout << title << ": run at memory " << chosen.memoryMHz << " MHz, core " << chosen.coreMHz
            << " MHz\n";
  std::cout << "  vs default (" << pointText(run.model->points.grid[run.model->points.defaultIndex])
            << "): " << ratiosText(decision.vsDefault) << '\n';
  std::cout << "  vs Fmax    (" << pointText(run.model->points.grid[run.model->points.fmaxIndex])
            << "): " << ratiosText(decision.vsFmax) << '\n';
  std::cout << "  confidence: " << model::toString(decision.confidence);
  if (decision.confidence == model::Confidence::None)
    std::cout << " needed (nothing to change: the default clocks are the choice)";
  else if (decision.energyUncertaintyPercent > 0)
    std::cout << " (energy change uncertain by +-" << std::lround(decision.energyUncertaintyPercent)
              << "% of the default's)";
  std::cout << '\n';
  if (options.objective.kind == model::ObjectiveKind::Pareto) {
    std::cout << "  Pareto set, fastest first (memory/core MHz: time, energy vs default):\n";
    for (std::size_t p : decision.pareto) {
      model::Ratios ratios = model::ratiosAt(prediction.surface.mean, p, run.model->points.defaultIndex);
      std::cout << "    " << pointText(run.model->points.grid[p]) << ": time " << percentChange(ratios.time)
                << ", energy " << percentChange(ratios.energy) << '\n';
    }
  }
  if (decision.point != run.model->points.defaultIndex) {
    std::cout << "  apply: " << applyCommand(chosen) << '\n';
    std::cout << "  undo:  " << kUndoCommand << '\n';
  }
}

nlohmann::json decisionJson(const PredictionRun &run, const RecommendOptions &options,
                            const model::ApplicationPrediction &prediction) {
  model::Decision decision = model::decide(prediction, options.objective, run.model->points, run.model->risk);
  nlohmann::json pareto = nlohmann::json::array();
  for (std::size_t p : decision.pareto) {
    nlohmann::json point = pointJson(run.model->points.grid[p]);
    point["vs_default"] = ratiosJson(model::ratiosAt(prediction.surface.mean, p, run.model->points.defaultIndex));
    pareto.push_back(std::move(point));
  }
  bool changes = decision.point != run.model->points.defaultIndex;
  return {{"chosen", pointJson(run.model->points.grid[decision.point])},
          {"vs_default", ratiosJson(decision.vsDefault)},
          {"vs_fmax", ratiosJson(decision.vsFmax)},
          {"confidence", model::toString(decision.confidence)},
          {"energy_uncertainty_percent", prediction.hasSpread ? nlohmann::json(decision.energyUncertaintyPercent)
                                                              : nlohmann::json()},
          {"pareto", pareto},
          {"apply", changes ? nlohmann::json(applyCommand(run.model->points.grid[decision.point])) : nlohmann::json()},
          {"undo", changes ? nlohmann::json(kUndoCommand) : nlohmann::json()}};
}

void printJson(const PredictionRun &run, const RecommendOptions &options) {
  nlohmann::json modules = nlohmann::json::array();
  for (const ModulePrediction &module : run.modules) {
    nlohmann::json kernels = nlohmann::json::array();
    for (const KernelPrediction &kernel : module.kernels) {
      nlohmann::json entry = decisionJson(run, options, kernel.prediction);
      entry.update(kernelReadingJson(kernel));
      kernels.push_back(std::move(entry));
    }
    nlohmann::json whole = module.whole ? decisionJson(run, options, *module.whole) : nlohmann::json();
    if (module.whole)
      whole["kernel_shares"] = module.shares;
    modules.push_back({{"input", module.input->input}, {"kernels", kernels}, {"all_kernels", whole}});
  }
  std::cout << nlohmann::json{{"model", run.model->modelDir},
                              {"gpu", run.model->folder.card.clocks.gpu},
                              {"predictor", run.model->predictor},
                              {"objective", model::toString(options.objective)},
                              {"default", pointJson(run.model->points.grid[run.model->points.defaultIndex])},
                              {"fmax", pointJson(run.model->points.grid[run.model->points.fmaxIndex])},
                              {"modules", modules}}
                   .dump(2)
            << '\n';
}

} // namespace

void setupRecommendCommand(CLI::App &app, int &exitCode) {
  auto options = std::make_shared<RecommendOptions>();
  CLI::App *command = app.add_subcommand(
      "recommend", "Recommend the clocks to run each kernel at, with what they cost and save");
  command->footer(
      "Examples:\n"
      "  ptxdvfs recommend examples/saxpy.ptx\n"
      "  ptxdvfs recommend --objective energy-under-slowdown=5% --assume n=1048576 app.ptx\n"
      "  ptxdvfs recommend --objective pareto --json kernels.cu\n"
      "Objectives:\n"
      "  min-energy                 least predicted energy at any speed (default; the choice\n"
      "                             `evaluate` scores)\n"
      "  energy-under-slowdown=P%   least energy among points at most P% slower than the\n"
      "                             GPU's default clocks\n"
      "  pareto                     also list every point no other beats in both speed and\n"
      "                             energy; chooses its least-energy end\n"
      "  max-perf-per-watt          most work per joule: least time x power\n"
      "Each kernel gets a decision; a file with several kernels also gets one for all of\n"
      "them together (clocks are set for the GPU, not per kernel). Changes are against the\n"
      "default clocks and Fmax. Confidence compares the predicted saving with the\n"
      "predictor's spread: high (saving > 2x spread), medium (> 1x), low; unknown for a\n"
      "predictor without spread; none when the default clocks are already best.\n"
      "A kernel whose loop counts rest on defaults (an unset parameter, a bound read from\n"
      "memory, the default --grid/--block) gets a 'loops:' line naming them (--json:\n"
      "loop_counts); give the values with --assume, --grid and --block (see `ptxdvfs loops`).\n"
      "The printed nvidia-smi commands need root; memory clock locking needs a GPU and\n"
      "driver that support it (older GPUs: nvidia-smi --applications-clocks=MEM,CORE).\n"
      "Exit status: 0 success, 1 an input or the model could not be read, 2 usage error.");
  addPredictionFlags(*command, options->prediction);
  command->add_option("--objective", options->objectiveText,
                      "min-energy, energy-under-slowdown=P%, pareto or max-perf-per-watt")
      ->capture_default_str();
  command->add_flag("--json", options->json, "Print JSON on stdout");
  command->callback([options, &exitCode] {
    if (std::string error = model::parseObjective(options->objectiveText, options->objective);
        !error.empty()) {
      spdlog::error("--objective {}", error);
      exitCode = kExitUsageError;
      return;
    }
    PredictionRun run;
    exitCode = runPredictions(options->prediction, run);
    if (run.modules.empty())
      return;
    if (options->json) {
      printJson(run, *options);
      return;
    }
    std::cout << "Objective " << model::toString(options->objective) << ", predictor "
              << run.model->predictor << ", GPU " << run.model->folder.card.clocks.gpu << '\n';
    for (const ModulePrediction &module : run.modules) {
      for (const KernelPrediction &kernel : module.kernels) {
        printDecision(run, *options, "\n" + module.input->input + ": kernel " + demangle(kernel.name),
                      kernel.prediction);
        if (std::string lines = kernelReadingLines(kernel.encoded); !lines.empty())
          std::cout << lines << '\n';
      }
      if (module.whole) {
        printDecision(run, *options, "\n" + module.input->input + ": all kernels together",
                      *module.whole);
        if (std::string line = kernelSharesLine(module); !line.empty())
          std::cout << line << '\n';
      }
    }
  });
}

} // namespace ptxdvfs::tools
