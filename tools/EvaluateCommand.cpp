// EvaluateCommand.cpp - `ptxdvfs evaluate --model DIR --dataset DIR [--json]`.
#include "EvaluateCommand.h"

#include "DiagnosticPrinter.h"
#include "EvaluationReport.h"
#include "DatasetLoading.h"
#include "ExitCodes.h"

#include "ptxdvfs/embeddings/Dataset.h"
#include "ptxdvfs/model/Baselines.h"
#include "ptxdvfs/model/ComputeThreads.h"
#include "ptxdvfs/model/CrossValidation.h"
#include "ptxdvfs/model/ModelFolder.h"

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <iostream>

namespace ptxdvfs::tools {

namespace {

bool samePoint(embeddings::VfPoint a, embeddings::VfPoint b) {
  return a.memoryMHz == b.memoryMHz && a.coreMHz == b.coreMHz;
}

/// Why the dataset's GPU cannot be scored by the model ("" if it can).
std::string gridMismatch(const embeddings::GpuClocks &model, const embeddings::GpuClocks &data) {
  if (model.memoryMHz != data.memoryMHz || model.coreMHz != data.coreMHz)
    return "its V-F grid differs from the model's (" + model.gpu + ")";
  if (!samePoint(model.defaultPoint, data.defaultPoint) || !samePoint(model.fmax, data.fmax))
    return "its default or Fmax point differs from the model's";
  return "";
}

} // namespace

int runEvaluateCommand(const EvaluateCommandOptions &options) {
  // Small matrices: a second thread only spins (OpenBLAS) and adds nothing.
  model::setComputeThreads(1);
  auto loaded = model::loadModel(options.model);
  if (!loaded) {
    printDiagnostics(loaded.diagnostics(), std::cerr);
    return kExitInputError;
  }
  const model::ModelDescription &description = loaded->description;
  // PTX is read the way the model was trained to read it (its scheme name says).
  // ... and with the default trip count it was trained with, unless told.
  std::uint64_t defaultTripCount =
      options.defaultTripCount > 0 ? options.defaultTripCount : description.defaultTripCount();
  DatasetSource source{options.dataset, options.gpuInfo, options.ptxDir,
                       embeddings::readsAsExecuted(description.scheme), defaultTripCount,
                       embeddings::readsBroadcastLoadsAsConstant(description.scheme)};
  if (source.asExecuted && source.ptxDir.empty()) {
    spdlog::error("{}: the model reads kernels as executed ({}): give the benchmarks' PTX with --ptx DIR",
                  options.model, description.scheme);
    return kExitUsageError;
  }
  auto dataset = loadDataset(source,
                             withReference(samePoint(description.reference, description.clocks.fmax)
                                               ? embeddings::ReferenceKind::Fmax
                                               : embeddings::ReferenceKind::Default),
                             // The model's own vocabulary: PTX is encoded as it was for training.
                             (std::filesystem::path(options.model) / "vocabulary").string(),
                             description.maxLength);
  printDiagnostics(dataset.diagnostics(), std::cerr);
  if (!dataset)
    return kExitInputError;
  if (dataset->scheme != description.scheme) {
    spdlog::error("{}: encoded with scheme '{}', but the model reads '{}'", options.dataset,
                  dataset->scheme, description.scheme);
    return kExitInputError;
  }
  if (std::string why = gridMismatch(description.clocks, dataset->clocks); !why.empty()) {
    spdlog::error("{}: {}", options.dataset, why);
    return kExitInputError;
  }
  if (dataset->benchmarks.empty()) {
    spdlog::error("{}: no benchmark with measurements to evaluate", options.dataset);
    return kExitInputError;
  }
  if (model::datasetFingerprint(*dataset) == description.trainingDataHash)
    spdlog::warn("{} is the model's training data: these numbers measure fit, not prediction "
                 "(see the cross-validation in {}/manifest.json)",
                 options.dataset, options.model);

  model::TensorDataset data =
      model::makeTensorDataset(*dataset, description.combination, description.maxLength,
                               description.wholeSequenceMix());
  std::vector<std::size_t> all = model::allItems(data);

  std::map<std::string, model::PredictedChoices> predictions;
  model::PredictedChoices &lstm = predictions["lstm"];
  lstm.add(model::predictEnsemble(loaded->members, data, all, description.prediction.energy()),
           description.prediction.risk());
  model::Baselines baselines(description.baselines, data.clocks);
  for (auto &[name, baseline] : model::predictBaselines(baselines, data, all))
    predictions[name] = std::move(baseline);
  model::addBlendVariants(predictions);
  PredictorResults results;
  for (const auto &[name, predicted] : predictions)
    results[name] = model::evaluateByClass(data, predicted.surfaces, predicted.chosen, all);

  std::vector<model::BenchmarkScore> scores;
  if (options.perBenchmark)
    scores = model::scoreBenchmarks(data, lstm.surfaces, lstm.chosen, all);
  if (options.json) {
    nlohmann::json json = evaluationJson(results);
    for (const auto &[name, k] : baselines.neighbourCounts())
      json["baselines"][name]["neighbours"] = k;
    json["default_predictor"] = description.defaultPredictor;
    json["reading"] = {{"scheme", description.scheme},
                       {"whole_sequence_mix", description.wholeSequenceMix()}};
    if (source.asExecuted)
      json["reading"]["default_trip_count"] = source.defaultTripCount;
    if (options.perBenchmark)
      json["per_benchmark"] = model::toJson(scores);
    std::cout << json.dump(2) << '\n';
  } else {
    printEvaluationTable(std::cout, results);
    for (const auto &[name, k] : baselines.neighbourCounts())
      std::cout << name << " averages the " << k << " nearest training applications\n";
    std::cout << "(each k fitted leaving out each family with its twins).\n"
              << "The model's default predictor (chosen by its cross-validation): "
              << description.defaultPredictor << '\n';
    if (source.asExecuted)
      std::cout << "PTX read as executed; a loop of unknown count runs " << source.defaultTripCount
                << " times.\n";
    if (options.perBenchmark)
      printBenchmarkTable(std::cout, scores);
  }
  return kExitSuccess;
}

void setupEvaluateCommand(CLI::App &app, int &exitCode) {
  auto options = std::make_shared<EvaluateCommandOptions>();
  CLI::App *command = app.add_subcommand(
      "evaluate", "Score a model and its baselines against a measured dataset");
  command->footer(
      "Example:\n"
      "  ptxdvfs evaluate --model trained_weights/gtxtitanx --dataset my-apps --json\n"
      "Reports, over all benchmarks x V-F points, the MAPE and the share within 10% of\n"
      "time, power and energy; the energy at the predicted minimum-energy point against\n"
      "the true minimum, Fmax and the reference point; Pareto-set precision and recall;\n"
      "the same for the baselines stored in the model folder (training_mean,\n"
      "histogram_mlp, nearest_histogram, knn_log_histogram, knn_toward_mean, knn_unit_mix;\n"
      "knn_unit_mix only from folders trained since it exists) and the LSTM blended with\n"
      "the nearest-neighbour ones; and all of it per class of the measured best\n"
      "memory clock. The dataset must use the model's encoding scheme and V-F grid.");
  command->add_option("--model", options->model, "Model folder (see `train`)")->required();
  command->add_option("--dataset", options->dataset, "Dataset folder (see `dataset info`)")
      ->required()
      ->check(CLI::ExistingDirectory);
  command->add_option("--gpu-info", options->gpuInfo, "Folder with the clock tables")
      ->check(CLI::ExistingDirectory);
  addPtxFlag(*command, options->ptxDir);
  command->add_option("--default-trip-count", options->defaultTripCount,
                      "For a model that reads kernels as executed: iterations of a loop whose "
                      "count cannot be found (default: the count the model was trained with)")
      ->check(CLI::PositiveNumber);
  command->add_flag("--json", options->json, "Print the results as JSON on stdout");
  command->add_flag("--per-benchmark", options->perBenchmark,
                    "Also score the model on each application: its MAPEs, chosen and true "
                    "minimum-energy points (JSON key `per_benchmark`)");
  command->callback([=, &exitCode] { exitCode = runEvaluateCommand(*options); });
}

} // namespace ptxdvfs::tools
