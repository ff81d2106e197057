// TrainCommand.cpp - `ptxdvfs train --dataset DIR --out MODEL_DIR`.
#include "TrainCommand.h"

#include "DiagnosticPrinter.h"
#include "ExitCodes.h"

#include "ptxdvfs/embeddings/Dataset.h"
#include "ptxdvfs/embeddings/EncodingScheme.h"
#include "ptxdvfs/embeddings/Vocabulary.h"
#include "ptxdvfs/model/ModelFolder.h"
#include "ptxdvfs/model/Splits.h"
#include "ptxdvfs/model/Training.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <unistd.h>

namespace ptxdvfs::tools {

namespace {

/// Every tunable, with its default; a --config file sets any subset and
/// command-line flags override both.
struct Settings {
  int64_t epochs = 200;
  int64_t batchSize = 8;
  int64_t patience = 40;
  uint64_t seed = 1;
  double encoderLr = 0.005;
  double headLr = 0.01;
  double validationFraction = 0.1;
  std::string schedule = "interleaved";
  std::string kernels = "concatenate";
  std::string reference = "default";
  int64_t hiddenSize = 50;
  int64_t numLayers = 2;
  std::vector<int64_t> headHidden = {100, 70};
  int64_t threads = 0; ///< not a model setting: never read from or written to JSON

  /// Calls `visit(key, member)` for every setting a config file may hold:
  /// the one list both JSON directions use.
  template <typename Self, typename Visit> static void forEach(Self &self, Visit &&visit) {
    visit("epochs", self.epochs);
    visit("batch_size", self.batchSize);
    visit("patience", self.patience);
    visit("seed", self.seed);
    visit("encoder_lr", self.encoderLr);
    visit("head_lr", self.headLr);
    visit("validation_fraction", self.validationFraction);
    visit("schedule", self.schedule);
    visit("kernels", self.kernels);
    visit("reference", self.reference);
    visit("hidden_size", self.hiddenSize);
    visit("num_layers", self.numLayers);
    visit("head_hidden", self.headHidden);
  }

  nlohmann::json toJson() const {
    nlohmann::json json;
    forEach(*this, [&](const char *key, const auto &value) { json[key] = value; });
    return json;
  }
};

/// Reads the settings of a JSON file; unknown keys are errors.
std::string applyConfigFile(const std::string &path, Settings &settings) {
  std::ifstream in(path);
  try {
    nlohmann::json config = nlohmann::json::parse(in);
    nlohmann::json known = settings.toJson();
    for (const auto &[key, value] : config.items()) {
      if (known.contains(key))
        continue;
      std::string list;
      for (const auto &[name, unused] : known.items())
        list += (list.empty() ? "" : ", ") + name;
      return path + ": unknown setting '" + key + "' (known: " + list + ")";
    }
    Settings::forEach(settings, [&](const char *key, auto &member) {
      if (config.contains(key))
        member = config[key].get<std::decay_t<decltype(member)>>();
    });
  } catch (const std::exception &e) {
    return path + ": " + e.what();
  }
  return "";
}

std::string duration(double seconds) {
  char text[32];
  if (seconds < 90)
    std::snprintf(text, sizeof text, "%.0fs", seconds);
  else
    std::snprintf(text, sizeof text, "%dm%02ds", int(seconds) / 60, int(seconds) % 60);
  return text;
}

/// One status line per epoch on stderr, rewritten in place on a terminal.
class ProgressLine {
public:
  ProgressLine() : terminal_(::isatty(STDERR_FILENO)) {}
  ~ProgressLine() {
    if (terminal_ && printed_)
      std::fputc('\n', stderr);
  }

  void show(const model::EpochReport &report) {
    if (spdlog::get_level() > spdlog::level::info)
      return;
    elapsed_ += report.seconds;
    double perEpoch = elapsed_ / double(report.epoch - firstEpoch(report));
    double remaining = perEpoch * double(report.epochs - report.epoch);
    std::fprintf(stderr, "%sepoch %lld/%lld  loss %.4f  val %.4f%s  %.1fs/epoch  ETA %s%s",
                 terminal_ ? "\r" : "", static_cast<long long>(report.epoch),
                 static_cast<long long>(report.epochs), report.trainLoss, report.validationLoss,
                 report.improved ? " *" : "  ", perEpoch, duration(remaining).c_str(),
                 terminal_ ? "   " : "\n");
    std::fflush(stderr);
    printed_ = true;
  }

private:
  int64_t firstEpoch(const model::EpochReport &report) {
    if (first_ < 0)
      first_ = report.epoch - 1;
    return first_;
  }
  bool terminal_;
  bool printed_ = false;
  double elapsed_ = 0;
  int64_t first_ = -1;
};

int runTrain(const TrainCommandOptions &options, Settings settings) {
  embeddings::ImportOptions import;
  import.gpuInfoDir = options.gpuInfo;
  import.reference = settings.reference == "fmax" ? embeddings::ReferenceKind::Fmax
                                                  : embeddings::ReferenceKind::Default;
  auto dataset = embeddings::importDataset(options.dataset, import);
  printDiagnostics(dataset.diagnostics(), std::cerr);
  if (!dataset)
    return kExitInputError;
  auto vocabulary = embeddings::loadVocabulary(PTXDVFS_DEFAULT_VOCABULARY);
  if (!vocabulary) {
    printDiagnostics(vocabulary.diagnostics(), std::cerr);
    return kExitInputError;
  }

  auto combination = settings.kernels == "last" ? model::KernelCombination::LastKernel
                                                : model::KernelCombination::Concatenate;
  model::TensorDataset data = model::makeTensorDataset(*dataset, combination);
  std::vector<std::string> names;
  for (const auto &item : data.items)
    names.push_back(item.name);
  model::Split split = model::groupedSplit(names, settings.validationFraction, settings.seed);
  spdlog::info("training on {} benchmarks, validating on {} (whole families held out)",
               split.train.size(), split.validation.size());

  auto architecture =
      model::DvfsModelOptions()
          .encoder(model::LstmEncoderOptions().hidden_size(settings.hiddenSize).num_layers(settings.numLayers))
          .head_hidden(settings.headHidden);
  auto trainOptions = model::TrainOptions()
                          .epochs(settings.epochs)
                          .batch_size(settings.batchSize)
                          .patience(settings.patience)
                          .seed(settings.seed)
                          .encoder_lr(settings.encoderLr)
                          .head_lr(settings.headLr)
                          .threads(settings.threads)
                          .schedule(settings.schedule == "joint" ? model::HeadSchedule::Joint
                                                                 : model::HeadSchedule::Interleaved)
                          .checkpoint_dir(options.checkpointDir)
                          .resume(options.resume);
  ProgressLine progress;
  auto result = model::train(data, split.train, split.validation, architecture, trainOptions,
                             [&](const model::EpochReport &report) { progress.show(report); });
  if (!result) {
    printDiagnostics(result.diagnostics(), std::cerr);
    return kExitInputError;
  }

  model::ModelDescription description;
  description.scheme = dataset->scheme;
  description.vocabulary = std::move(*vocabulary);
  description.clocks = dataset->clocks;
  description.reference = dataset->reference;
  description.combination = combination;
  description.architecture = architecture;
  description.training = settings.toJson();
  description.training["dataset"] = options.dataset;
  description.trainingDataHash = model::datasetFingerprint(*dataset);
  nlohmann::json validationNames = nlohmann::json::array();
  for (std::size_t i : split.validation)
    validationNames.push_back(names[i]);
  description.metrics = {{"validation_loss", result->bestLoss},
                         {"best_epoch", result->bestEpoch},
                         {"epochs_run", result->history.size()},
                         {"train_benchmarks", split.train.size()},
                         {"validation_benchmarks", validationNames}};
  ptx::Diagnostics errors = model::saveModel(options.out, result->model, description);
  if (!errors.empty()) {
    printDiagnostics(errors, std::cerr);
    return kExitInputError;
  }
  double seconds = 0;
  for (const auto &report : result->history)
    seconds += report.seconds;
  nlohmann::json summary = {{"model", options.out},
                            {"best_epoch", result->bestEpoch},
                            {"validation_loss", result->bestLoss},
                            {"epochs_run", result->history.size()},
                            {"stopped_early", result->stoppedEarly},
                            {"seconds", seconds}};
  if (options.json) {
    std::cout << summary.dump(2) << '\n';
  } else {
    std::cout << "model written to " << options.out << ": best epoch " << result->bestEpoch
              << " of " << result->history.size() << " (validation loss " << result->bestLoss
              << "), " << duration(seconds) << " of training\n";
  }
  return kExitSuccess;
}

} // namespace

void setupTrainCommand(CLI::App &app, int &exitCode) {
  auto options = std::make_shared<TrainCommandOptions>();
  auto settings = std::make_shared<Settings>();
  CLI::App *command = app.add_subcommand(
      "train", "Train a model on a measurement dataset and write a model folder");
  command->footer(
      "Example:\n"
      "  ptxdvfs train --dataset ../shared/datasets/gpuptxmodel-gtxtitanx/microbenchmarks \\\n"
      "                --out my-model --epochs 100 --seed 3\n"
      "A --config JSON file may set any of: epochs, batch_size, patience, seed, encoder_lr,\n"
      "head_lr, validation_fraction, schedule, kernels, reference, hidden_size, num_layers,\n"
      "head_hidden; flags given on the command line win. Validation holds out whole\n"
      "benchmark families. The model folder is written only when training succeeds.");
  command->add_option("--dataset", options->dataset, "Dataset folder (see `dataset info`)")
      ->required()
      ->check(CLI::ExistingDirectory);
  command->add_option("--out", options->out, "Model folder to write (replaced whole)")->required();
  command->add_option("--config", options->config, "JSON file of settings")
      ->check(CLI::ExistingFile);
  auto *epochs = command->add_option("--epochs", settings->epochs, "Most epochs to train");
  auto *seed = command->add_option("--seed", settings->seed, "Random seed (initialisation, order)");
  auto *patience = command->add_option("--patience", settings->patience,
                                       "Stop after this many epochs without improvement (0: never)");
  auto *schedule = command->add_option("--schedule", settings->schedule,
                                       "interleaved (one head per batch, rotating) or joint")
                       ->check(CLI::IsMember({"interleaved", "joint"}));
  auto *kernels = command->add_option("--kernels", settings->kernels,
                                      "Multi-kernel applications: concatenate or last")
                      ->check(CLI::IsMember({"concatenate", "last"}));
  auto *reference = command->add_option("--reference", settings->reference,
                                        "Scaling factors relative to default or fmax")
                        ->check(CLI::IsMember({"default", "fmax"}));
  command->add_option("--threads", settings->threads, "CPU threads (default: torch's choice)");
  command->add_option("--gpu-info", options->gpuInfo, "Folder with the clock tables")
      ->check(CLI::ExistingDirectory);
  command->add_option("--checkpoint-dir", options->checkpointDir,
                      "Write a checkpoint here after every epoch");
  command->add_flag("--resume", options->resume, "Continue from --checkpoint-dir's checkpoint");
  command->add_flag("--json", options->json, "Print the summary as JSON on stdout");
  command->callback([=, &exitCode] {
    Settings effective;
    if (!options->config.empty()) {
      if (std::string failure = applyConfigFile(options->config, effective); !failure.empty()) {
        spdlog::error("{}", failure);
        exitCode = kExitUsageError;
        return;
      }
    }
    // Flags given on the command line override the file.
    if (epochs->count())
      effective.epochs = settings->epochs;
    if (seed->count())
      effective.seed = settings->seed;
    if (patience->count())
      effective.patience = settings->patience;
    if (schedule->count())
      effective.schedule = settings->schedule;
    if (kernels->count())
      effective.kernels = settings->kernels;
    if (reference->count())
      effective.reference = settings->reference;
    effective.threads = settings->threads;
    if (options->resume && options->checkpointDir.empty()) {
      spdlog::error("--resume needs --checkpoint-dir");
      exitCode = kExitUsageError;
      return;
    }
    exitCode = runTrain(*options, effective);
  });
}

} // namespace ptxdvfs::tools
