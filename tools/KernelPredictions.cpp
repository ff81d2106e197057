// KernelPredictions.cpp - loading the model, encoding the inputs as it reads, predicting every kernel.
#include "KernelPredictions.h"

#include "CountText.h"
#include "DiagnosticPrinter.h"
#include "ExitCodes.h"
#include "PredictorSource.h"
#include "ShippedModel.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>

namespace ptxdvfs::tools {

void addPredictionFlags(CLI::App &command, PredictionFlags &flags, bool files) {
  addInputFlags(command, flags.inputs, files);
  const char *group = "Model";
  command.add_option("--model", flags.model.model,
                     "Model folder (default: $PTXDVFS_MODEL, else the shipped GTX Titan X model)")
      ->check(CLI::ExistingDirectory)
      ->group(group);
  std::string names;
  for (const std::string &name : model::predictorNames())
    names += (names.empty() ? "" : ", ") + name;
  command.add_option("--predictor", flags.model.predictor,
                     "Which of the folder's predictors answers: " + names +
                         ". Default: the one the folder names, chosen by its cross-validation "
                         "(knn_log_histogram for the shipped model)")
      ->group(group);
  addLaunchFlags(command, flags.launch, /*readingFlags=*/false);
}

nlohmann::json pointJson(const embeddings::VfPoint &point) {
  return {{"memory_mhz", point.memoryMHz}, {"core_mhz", point.coreMHz}};
}

nlohmann::json ratiosJson(const model::Ratios &ratios) {
  return {{"time", ratios.time}, {"power", ratios.power}, {"energy", ratios.energy}};
}

std::string pointText(const embeddings::VfPoint &point) {
  return std::to_string(point.memoryMHz) + "/" + std::to_string(point.coreMHz);
}

std::string percentChange(double ratio) {
  long percent = std::lround(100 * (ratio - 1));
  return (percent > 0 ? "+" : "") + std::to_string(percent) + "%";
}

DefaultedLoops defaultedLoops(const embeddings::EncodedKernel &kernel) {
  DefaultedLoops found;
  found.loops = kernel.loops.size();
  for (const ptx::analysis::LoopReport &loop : kernel.loops) {
    if (!loop.usedDefault && loop.origin != ptx::analysis::ValueOrigin::Defaulted)
      continue;
    ++found.defaulted;
    for (const std::string &reason : loop.why)
      if (!ptx::analysis::saysWhyNotRun(reason) &&
          std::find(found.reasons.begin(), found.reasons.end(), reason) == found.reasons.end())
        found.reasons.push_back(reason);
  }
  return found;
}

std::string defaultedLoopsLine(const embeddings::EncodedKernel &kernel) {
  constexpr std::size_t kShown = 4;
  DefaultedLoops found = defaultedLoops(kernel);
  if (found.defaulted == 0)
    return "";
  std::string line = "  loops: " + std::to_string(found.defaulted) + " of " + std::to_string(found.loops) +
                     (found.defaulted == 1 ? " rests" : " rest") + " on defaults";
  for (std::size_t r = 0; r < found.reasons.size() && r < kShown; ++r)
    line += (r == 0 ? ": " : ", ") + found.reasons[r];
  if (found.reasons.size() > kShown)
    line += ", and " + std::to_string(found.reasons.size() - kShown) + " more ('ptxdvfs loops' lists them)";
  return line;
}

std::string notLaunchedReason(const embeddings::EncodedKernel &kernel) {
  if (!kernel.launch || kernel.launch->launches != 0)
    return "";
  for (const std::string &why : kernel.launch->why)
    if (why.rfind("not launched", 0) == 0)
      return why;
  return "not launched";
}

std::string kernelReadingLines(const embeddings::EncodedKernel &kernel) {
  std::string lines = defaultedLoopsLine(kernel);
  if (std::string reason = notLaunchedReason(kernel); !reason.empty())
    lines += (lines.empty() ? "  " : "\n  ") + reason;
  return lines;
}

std::string kernelSharesLine(const ModulePrediction &module) {
  if (std::all_of(module.shares.begin(), module.shares.end(), [](double share) { return share == 1; }))
    return "";
  constexpr std::size_t kShown = 6;
  std::string line = "  kernels weigh by their threads per launch:";
  std::string notLaunched;
  std::size_t named = 0, left = 0;
  for (std::size_t k = 0; k < module.kernels.size() && k < module.shares.size(); ++k) {
    const embeddings::EncodedKernel &kernel = module.kernels[k].encoded;
    std::string name = demangledWithoutParameters(kernel.name);
    if (name.rfind("void ", 0) == 0) // a template instance's return type
      name.erase(0, 5);
    if (!notLaunchedReason(kernel).empty())
      notLaunched += (notLaunched.empty() ? "; not launched, so not counted: " : ", ") + name;
    if (module.shares[k] == 0 || !kernel.launch)
      continue;
    if (named == kShown) {
      ++left;
      continue;
    }
    line += (named++ ? ", " : " ") + name + " " + wholeCountText(kernel.launch->threads()) +
            (kernel.launch->launches == 1 ? "" : " x " + std::to_string(kernel.launch->launches) + " launches") +
            " (" + std::string(toString(std::max(kernel.launch->origin, kernel.launch->launchesOrigin))) + ")";
  }
  if (left)
    line += ", and " + std::to_string(left) + " more ('ptxdvfs loops' lists them)";
  return line + notLaunched;
}

nlohmann::json kernelReadingJson(const KernelPrediction &kernel) {
  return {{"name", kernel.name},
          {"demangled", demangle(kernel.name)},
          {"loop_counts", defaultedLoopsJson(kernel.encoded)},
          {"launch", kernel.encoded.launch ? launchSizeJson(*kernel.encoded.launch) : nlohmann::json()}};
}

nlohmann::json defaultedLoopsJson(const embeddings::EncodedKernel &kernel) {
  DefaultedLoops found = defaultedLoops(kernel);
  return {{"loops", found.loops}, {"resting_on_defaults", found.defaulted}, {"reasons", found.reasons}};
}

namespace {

embeddings::EncodeOptions readingOf(const model::ModelCard &description,
                                    const LaunchFlags &launch) {
  embeddings::EncodeOptions options = embeddings::readingOptions(description.scheme);
  options.expansion.defaultTripCount =
      launch.defaultTripCount > 0 ? launch.defaultTripCount : description.defaultTripCount();
  if (description.maxLength > 0)
    options.expansion.budget = static_cast<std::size_t>(description.maxLength);
  return options;
}

} // namespace

int loadPredictionModel(const ModelFlags &modelFlags, std::shared_ptr<const PredictionModel> &model) {
  auto loaded = std::make_shared<PredictionModel>();
  loaded->modelDir = modelFlags.model.empty() ? shippedModelDir() : modelFlags.model;
  auto folder = model::readModelFolder(loaded->modelDir);
  if (!folder) {
    printDiagnostics(folder.diagnostics(), std::cerr);
    return kExitInputError;
  }
  loaded->folder = std::move(*folder);
  const model::ModelCard &description = loaded->folder.card;
  loaded->predictor = modelFlags.predictor.empty() ? description.defaultPredictor : modelFlags.predictor;
  if (std::string error = model::checkPredictorName(loaded->predictor, description); !error.empty()) {
    spdlog::error("{}: {}", loaded->modelDir, error);
    return kExitUsageError;
  }
  loaded->surfaces = openPredictor(loaded->modelDir, loaded->folder, loaded->predictor);
  if (!loaded->surfaces)
    return kExitInputError;
  loaded->risk = loaded->surfaces->risk();
  loaded->points = model::gridPointsOf(description.clocks);
  auto scheme = embeddings::makeScheme(description.scheme, description.vocabulary);
  if (!scheme) {
    printDiagnostics(scheme.diagnostics(), std::cerr);
    return kExitInputError;
  }
  loaded->scheme = std::move(*scheme);
  model = std::move(loaded);
  return kExitSuccess;
}

int predictInputs(const PredictionFlags &flags, PredictionRun &run) {
  const InputFlags &inputFlags = flags.inputs;
  const PredictionModel &loaded = *run.model;
  const model::ModelCard &description = loaded.folder.card;
  run.modules.clear();
  // Inputs that share --launch's file each use their own kernels' entries.
  std::optional<LaunchFileApplication> sharedLaunches;
  if (!flags.launch.launchFile.empty())
    sharedLaunches.emplace(flags.launch.launchFile);
  std::vector<std::string> inputPaths;
  LaunchFlags launchFlags = flags.launch;
  if (launchFlags.device.empty()) // the host code runs on the GPU the model predicts (none where the table lacks it)
    launchFlags.device = targetDeviceNamed(description.clocks.gpu) ? description.clocks.gpu : "none";
  for (const InputModule &input : run.inputs.modules) {
    embeddings::EncodeOptions reading = readingOf(description, flags.launch);
    std::vector<CudaSourceFile> sources = sourcesOf(input);
    if (std::string error = toAssumptions(launchFlags, input.module, sources, reading.launch,
                                          sharedLaunches ? &*sharedLaunches : nullptr);
        !error.empty()) {
      spdlog::error("{}", error);
      return kExitUsageError;
    }
    inputPaths.push_back(input.module.path);
    ModulePrediction module;
    module.input = &input;
    module.sources = std::move(sources);
    std::vector<embeddings::EncodedKernel> encoded = loaded.scheme->encode(input.module, reading);
    std::vector<const ptx::Function *> functions = input.module.kernels();
    std::vector<embeddings::EncodedKernel> selected;
    for (std::size_t k = 0; k < encoded.size() && k < functions.size(); ++k) {
      if (!kernelSelected(encoded[k].name, inputFlags.kernels))
        continue;
      printDiagnostics(encoded[k].warnings, std::cerr);
      selected.push_back(encoded[k]);
      model::ApplicationPrediction prediction = loaded.surfaces->predict({encoded[k]});
      module.kernels.push_back({encoded[k].name, functions[k], std::move(encoded[k]), std::move(prediction)});
    }
    if (selected.size() > 1) {
      module.whole = loaded.surfaces->predict(selected);
      module.shares.assign(selected.size(), 0.0);
      for (const model::KernelRead &read : model::kernelsRead(selected, description.combination))
        module.shares[static_cast<std::size_t>(read.kernel - selected.data())] = read.share;
    }
    if (!module.kernels.empty())
      run.modules.push_back(std::move(module));
  }
  if (sharedLaunches)
    warnOfUnusedLaunches(*sharedLaunches, inputPaths);
  return kExitSuccess;
}

int runPredictions(const PredictionFlags &flags, PredictionRun &run) {
  if (int status = loadPredictionModel(flags.model, run.model); status != kExitSuccess)
    return status;
  run.inputs = readInputs(flags.inputs);
  if (int status = predictInputs(flags, run); status != kExitSuccess)
    return status;
  if (!run.inputs.allRead)
    return kExitInputError;
  if (run.modules.empty()) {
    std::string inputs;
    for (const std::string &file : flags.inputs.files)
      inputs += (inputs.empty() ? "" : ", ") + file;
    spdlog::error("{}: {}", inputs, noKernelSelected(flags.inputs.kernels, "to predict"));
    return kExitInputError;
  }
  return kExitSuccess;
}

} // namespace ptxdvfs::tools
