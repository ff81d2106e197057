// TrainCommand.cpp - `ptxdvfs train --dataset DIR --out MODEL_DIR`.
#include "TrainCommand.h"

#include "DiagnosticPrinter.h"
#include "EvaluationReport.h"
#include "DatasetLoading.h"
#include "ExitCodes.h"
#include "ShippedModel.h"
#include "TrainSettings.h"

#include "ptxdvfs/embeddings/Dataset.h"
#include "ptxdvfs/embeddings/EncodingScheme.h"
#include "ptxdvfs/embeddings/Vocabulary.h"
#include "ptxdvfs/model/CrossValidation.h"
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
#include <map>
#include <unistd.h>

namespace ptxdvfs::tools {

namespace {

std::string duration(double seconds) {
  char text[32];
  if (seconds < 90)
    std::snprintf(text, sizeof text, "%.0fs", seconds);
  else
    std::snprintf(text, sizeof text, "%dm%02ds", int(seconds) / 60, int(seconds) % 60);
  return text;
}

/// One status line per epoch on stderr, rewritten in place on a terminal.
/// Each run (a fold, a member) has its own speed and ETA.
class ProgressLine {
public:
  ProgressLine() : terminal_(::isatty(STDERR_FILENO)) {}
  ~ProgressLine() {
    if (terminal_ && printed_)
      std::fputc('\n', stderr);
  }

  /// `where` names the run (fold, member) when there are several.
  void show(const model::EpochReport &report, const std::string &where = "") {
    if (spdlog::get_level() > spdlog::level::info)
      return;
    Run &run = runs_[where];
    if (report.epoch <= run.lastEpoch) // the same label again: a new run (next fold)
      run = Run();
    if (run.firstEpoch < 0)
      run.firstEpoch = report.epoch - 1;
    run.lastEpoch = report.epoch;
    run.elapsed += report.seconds;
    double perEpoch = run.elapsed / double(report.epoch - run.firstEpoch);
    double remaining = perEpoch * double(report.epochs - report.epoch);
    std::fprintf(stderr, "%s%sepoch %lld/%lld  loss %.4f  val %.4f%s  %.1fs/epoch  ETA %s%s",
                 terminal_ ? "\r" : "", where.c_str(), static_cast<long long>(report.epoch),
                 static_cast<long long>(report.epochs), report.trainLoss, report.validationLoss,
                 report.improved ? " *" : "  ", perEpoch, duration(remaining).c_str(),
                 terminal_ ? "   " : "\n");
    std::fflush(stderr);
    printed_ = true;
  }

private:
  struct Run {
    double elapsed = 0;
    int64_t firstEpoch = -1; ///< epochs before the first one shown (a resumed run)
    int64_t lastEpoch = 0;
  };
  bool terminal_;
  bool printed_ = false;
  std::map<std::string, Run> runs_;
};

/// Runs of one training phase: an epoch line per member, ETA per member.
std::string runLabel(int fold, int folds, int member, int members) {
  std::string label;
  if (folds > 0)
    label += "fold " + std::to_string(fold + 1) + "/" + std::to_string(folds) + "  ";
  if (members > 1)
    label += "member " + std::to_string(member + 1) + "/" + std::to_string(members) + "  ";
  return label;
}

int runTrain(const TrainCommandOptions &options, const TrainSettings &settings) {
  if (settings.asExecuted && options.ptxDir.empty()) {
    spdlog::error("reading as executed needs the benchmarks' PTX: add --ptx DIR");
    return kExitUsageError;
  }
  DatasetSource source{options.dataset, options.gpuInfo, options.ptxDir, settings.asExecuted,
                       static_cast<std::uint64_t>(settings.defaultTripCount), settings.broadcastLoads};
  auto dataset = loadDataset(source,
                             withReference(settings.reference == "fmax" ? embeddings::ReferenceKind::Fmax
                                                                        : embeddings::ReferenceKind::Default),
                             shippedVocabularyDir(), settings.maxLength);
  printDiagnostics(dataset.diagnostics(), std::cerr);
  if (!dataset)
    return kExitInputError;
  auto vocabulary = embeddings::loadVocabulary(shippedVocabularyDir());
  if (!vocabulary) {
    printDiagnostics(vocabulary.diagnostics(), std::cerr);
    return kExitInputError;
  }
  model::TensorDataset data =
      model::makeTensorDataset(*dataset, settings.combination(), settings.maxLength,
                                settings.wholeSequenceMix);
  model::TrainOptions trainOptions = settings.trainOptions();
  trainOptions.checkpoint_dir(options.checkpointDir).resume(options.resume);
  int members = static_cast<int>(settings.ensemble);
  int parallel = settings.parallelMembers();

  nlohmann::json summary = {{"model", options.out}, {"settings", settings.toJson()}};
  std::string defaultPredictor = "lstm"; // without cross-validation, nothing to choose by
  if (settings.folds > 0) {
    int folds = static_cast<int>(settings.folds);
    spdlog::info("cross-validating: {} folds of whole benchmark families (with their twins), {} member(s) each",
                 folds, members);
    ProgressLine progress;
    auto cvOptions = model::CrossValidationOptions()
                         .folds(folds)
                         .ensemble(members)
                         .parallel(parallel)
                         .validation_fraction(settings.validationFraction)
                         .prediction(settings.prediction());
    // Checkpoints belong to the final model; folds are cheap to redo.
    model::TrainOptions foldOptions = trainOptions;
    foldOptions.checkpoint_dir("").resume(false);
    auto result = model::crossValidate(
        data, settings.architecture(), foldOptions, cvOptions,
        [&](int fold, int member, const model::EpochReport &report) {
          progress.show(report, runLabel(fold, folds, member, members));
        });
    if (!result) {
      ptx::Diagnostics errors = result.takeDiagnostics();
      for (ptx::Diagnostic &error : errors)
        if (error.path.empty()) // a property of the dataset as a whole
          error.path = options.dataset;
      printDiagnostics(errors, std::cerr);
      return kExitInputError;
    }
    const auto &predictors = result->predictors;
    defaultPredictor = model::chooseDefaultPredictor(predictors);
    summary["default_predictor"] = defaultPredictor;
    summary["cross_validation"] = evaluationJson(predictors);
    summary["cross_validation"]["folds"] = folds;
    for (const auto &[name, scores] : result->perBenchmark)
      summary["cross_validation"]["per_benchmark"][name] = model::toJson(scores);
    if (!options.json) {
      std::cout << "Cross-validation (" << folds << " folds, whole families held out with their twins):\n";
      printEvaluationTable(std::cout, predictors);
      std::cout << "Default predictor (lowest energy MAPE + min-energy excess, mean of the two memory classes): "
                << defaultPredictor << '\n';
    }
  }
  if (options.cvOnly) {
    if (options.json)
      std::cout << summary.dump(2) << '\n';
    return kExitSuccess;
  }

  std::vector<std::string> names;
  for (const auto &item : data.items)
    names.push_back(item.name);
  model::Split split = model::groupedSplit(names, settings.validationFraction, settings.seed);
  spdlog::info("training on {} benchmarks, validating on {} (whole families held out), {} member(s)",
               split.train.size(), split.validation.size(), members);
  ProgressLine progress;
  auto trained = model::trainEnsemble(
      data, split.train, split.validation, settings.architecture(), trainOptions, members, parallel,
      [&](int member, const model::EpochReport &report) {
        progress.show(report, runLabel(0, 0, member, members));
      });
  if (!trained) {
    printDiagnostics(trained.diagnostics(), std::cerr);
    return kExitInputError;
  }

  model::ModelDescription description;
  description.scheme = dataset->scheme;
  description.vocabulary = std::move(*vocabulary);
  description.clocks = dataset->clocks;
  description.reference = dataset->reference;
  description.combination = settings.combination();
  description.maxLength = settings.maxLength;
  description.architecture = settings.architecture();
  description.prediction = settings.prediction();
  description.baselines = model::baselineDataOf(data, model::allItems(data));
  description.training = settings.toJson();
  description.training["dataset"] = options.dataset;
  description.trainingDataHash = model::datasetFingerprint(*dataset);
  nlohmann::json validationNames = nlohmann::json::array(), bestEpochs = nlohmann::json::array(),
                 losses = nlohmann::json::array(), epochsRun = nlohmann::json::array();
  for (std::size_t i : split.validation)
    validationNames.push_back(names[i]);
  std::vector<model::DvfsModel> weights;
  double seconds = 0;
  for (const auto &member : *trained) {
    weights.push_back(member.model);
    bestEpochs.push_back(member.bestEpoch);
    losses.push_back(member.bestLoss);
    epochsRun.push_back(member.history.size());
    for (const auto &report : member.history)
      seconds += report.seconds;
  }
  description.metrics = {{"validation_loss", losses},
                         {"best_epoch", bestEpochs},
                         {"train_benchmarks", split.train.size()},
                         {"validation_benchmarks", validationNames}};
  if (summary.contains("cross_validation"))
    description.metrics["cross_validation"] = summary["cross_validation"];
  description.defaultPredictor = defaultPredictor;
  ptx::Diagnostics errors = model::saveModel(options.out, weights, description);
  if (!errors.empty()) {
    printDiagnostics(errors, std::cerr);
    return kExitInputError;
  }
  summary["best_epoch"] = bestEpochs;
  summary["epochs_run"] = epochsRun;
  summary["validation_loss"] = losses;
  summary["training_seconds"] = seconds;
  if (options.json) {
    std::cout << summary.dump(2) << '\n';
  } else {
    std::cout << "model written to " << options.out << ": " << members
              << " member(s), best epochs " << bestEpochs.dump() << ", validation loss "
              << losses.dump() << ", " << duration(seconds) << " of training\n";
  }
  return kExitSuccess;
}

} // namespace

void setupTrainCommand(CLI::App &app, int &exitCode) {
  auto options = std::make_shared<TrainCommandOptions>();
  auto flags = std::make_shared<TrainSettings>();
  // Applied after the config file: a flag given on the command line wins.
  auto overrides = std::make_shared<std::vector<std::function<void(TrainSettings &)>>>();
  CLI::App *command = app.add_subcommand(
      "train", "Train a model on a measurement dataset and write a model folder");
  command->footer(
      "Examples:\n"
      "  ptxdvfs train --dataset ../shared/datasets/gpuptxmodel-gtxtitanx/microbenchmarks \\\n"
      "                --out my-model --epochs 100 --seed 3\n"
      "  ptxdvfs train --dataset ../shared/datasets/gpuptxmodel-gtxtitanx/microbenchmarks \\\n"
      "                --ptx ../shared/datasets/gpuptxmodel-gtxtitanx/ptx --as-executed --out my-model\n"
      "  ptxdvfs train --dataset DIR --folds 5 --cv-only --head-shape physical --json\n"
      "With --folds K the benchmarks are first split into K folds of whole families\n"
      "(family: the name up to its first numeric part, e.g. fadd_dram_10_90 -> fadd_dram),\n"
      "each held out with its twins (benchmarks of other families whose instruction mix\n"
      "is near-identical, which real programs never have; fewer groups than K is an error);\n"
      "each fold is predicted by models trained on the others, and the LSTM and the\n"
      "baselines are scored on the same folds. The final model, trained on everything,\n"
      "records those numbers in its manifest.\n"
      "A --config JSON file may set any setting by its JSON name (" +
      flags->keyList() +
      "); flags given on the command line win. The model folder is written only when "
      "training succeeds.");
  auto flag = [&](const std::string &name, auto member, const std::string &help) {
    CLI::Option *option = nullptr;
    if constexpr (std::is_same_v<std::decay_t<decltype((*flags).*member)>, bool>)
      option = command->add_flag(name, (*flags).*member, help);
    else
      option = command->add_option(name, (*flags).*member, help);
    overrides->push_back([option, member, flags](TrainSettings &into) {
      if (option->count())
        into.*member = (*flags).*member;
    });
    return option;
  };
  command->add_option("--dataset", options->dataset, "Dataset folder (see `dataset info`)")
      ->required()
      ->check(CLI::ExistingDirectory);
  addPtxFlag(*command, options->ptxDir);
  command->add_option("--out", options->out,
                      "Model folder to write (replaced whole; README/LICENSE files kept)");
  command->add_option("--config", options->config, "JSON file of settings")
      ->check(CLI::ExistingFile);
  flag("--epochs", &TrainSettings::epochs, "Most epochs to train");
  flag("--seed", &TrainSettings::seed, "Random seed (initialisation, order, folds)");
  flag("--patience", &TrainSettings::patience,
       "Stop after this many epochs without improvement (0: never)");
  flag("--schedule", &TrainSettings::schedule,
       "interleaved (one head per batch, rotating) or joint")
      ->check(CLI::IsMember({"interleaved", "joint"}));
  flag("--kernels", &TrainSettings::kernels, "Multi-kernel applications: concatenate or last")
      ->check(CLI::IsMember({"concatenate", "last"}));
  flag("--reference", &TrainSettings::reference, "Scaling factors relative to default or fmax")
      ->check(CLI::IsMember({"default", "fmax"}));
  flag("--embedding", &TrainSettings::embedding,
       "per_field (a table per field) or joint (one table per whole code)")
      ->check(CLI::IsMember({"per_field", "joint"}));
  flag("--readout", &TrainSettings::readout,
       "z is the LSTM's output at the last step (the paper) or the mean over all steps (default)")
      ->check(CLI::IsMember({"last", "mean"}));
  flag("--head-shape", &TrainSettings::headShape,
       "free (FNN per V-F point) or physical (coefficients of an analytical surface)")
      ->check(CLI::IsMember({"free", "physical"}));
  flag("--encoder-lr", &TrainSettings::encoderLr, "Adam learning rate of the encoder")
      ->check(CLI::PositiveNumber);
  flag("--head-lr", &TrainSettings::headLr, "Adam learning rate of the heads")
      ->check(CLI::PositiveNumber);
  flag("--loss", &TrainSettings::loss,
       "absolute (SmoothL1 of the factors, the paper) or relative (of predicted/true)")
      ->check(CLI::IsMember({"absolute", "relative"}));
  flag("--clip-norm", &TrainSettings::clipNorm,
       "Limit each step's gradient to this L2 norm (0: no limit)")
      ->check(CLI::NonNegativeNumber);
  flag("--length-feature", &TrainSettings::lengthFeature,
       "Heads also see log(sequence length) (operations per load)");
  flag("--mix-dim", &TrainSettings::mixDim,
       "Heads also see the instruction mix, projected to this width (0: z alone)")
      ->check(CLI::NonNegativeNumber);
  flag("--log-mix,!--no-log-mix", &TrainSettings::logMix,
       "Project the mix's shares on a log scale, so small shares (loads per operation) count "
       "(default on)");
  flag("--time-max-overlap", &TrainSettings::timeMaxOverlap,
       "Physical time surface: largest overlap exponent (1: core and memory parts add)")
      ->check(CLI::Range(1.0, 100.0));
  flag("--signed-power-interaction,!--no-signed-power-interaction",
       &TrainSettings::signedPowerInteraction,
       "Physical power surface: the u v term may be negative (still monotonic in each clock)");
  flag("--max-length", &TrainSettings::maxLength,
       "Instructions read per application, first and last halves (0: all)")
      ->check(CLI::NonNegativeNumber);
  flag("--whole-sequence-mix,!--no-whole-sequence-mix", &TrainSettings::wholeSequenceMix,
       "Baselines and neighbours read the mix of every written instruction, not only the "
       "--max-length the LSTM reads (every kernel of a long multi-kernel application counts)");
  flag("--as-executed", &TrainSettings::asExecuted,
       "With --ptx: read each kernel as one thread executes it (loops repeated, calls inlined)");
  flag("--broadcast-loads-as-constant,!--no-broadcast-loads-as-constant", &TrainSettings::broadcastLoads,
       "As executed: read a global load whose address is the same in every lane of a warp as .const "
       "(a broadcast, not DRAM traffic)");
  flag("--default-trip-count", &TrainSettings::defaultTripCount,
       "As executed: iterations of a loop whose count cannot be found")
      ->check(CLI::PositiveNumber);
  flag("--ensemble", &TrainSettings::ensemble, "Models per ensemble, differing in seed")
      ->check(CLI::PositiveNumber);
  flag("--balance-classes", &TrainSettings::balanceClasses,
       "Weigh benchmarks whose best memory clock is high and low equally");
  flag("--energy", &TrainSettings::energy, "Energy from its head, or time_x_power")
      ->check(CLI::IsMember({"head", "time_x_power"}));
  flag("--risk", &TrainSettings::risk,
       "Min-energy choice minimises mean + RISK x ensemble spread (0: plain argmin)")
      ->check(CLI::NonNegativeNumber);
  flag("--folds", &TrainSettings::folds, "Cross-validate over K grouped folds first (0: none)");
  command->add_flag("--cv-only", options->cvOnly, "Stop after cross-validation (no --out needed)");
  command->add_option("--threads", flags->threads,
                      "Models trained at once, one core each (default: all cores)");
  command->add_option("--gpu-info", options->gpuInfo, "Folder with the clock tables")
      ->check(CLI::ExistingDirectory);
  command->add_option("--checkpoint-dir", options->checkpointDir,
                      "Write checkpoints here after every epoch (final model only)");
  command->add_flag("--resume", options->resume, "Continue from --checkpoint-dir's checkpoints");
  command->add_flag("--json", options->json, "Print the summary as JSON on stdout");
  command->callback([=, &exitCode] {
    auto usage = [&](const std::string &message) {
      spdlog::error("{}", message);
      exitCode = kExitUsageError;
    };
    TrainSettings effective;
    if (!options->config.empty()) {
      if (std::string failure = effective.applyConfigFile(options->config); !failure.empty())
        return usage(failure);
    }
    for (const auto &apply : *overrides)
      apply(effective);
    effective.threads = flags->threads;
    if (std::string problem = effective.check(); !problem.empty())
      return usage(problem);
    if (options->resume && options->checkpointDir.empty())
      return usage("--resume needs --checkpoint-dir");
    if (options->cvOnly && effective.folds == 0)
      return usage("--cv-only needs --folds K (or folds in --config)");
    if (!options->cvOnly && options->out.empty())
      return usage("--out is required (unless --cv-only)");
    exitCode = runTrain(*options, effective);
  });
}

} // namespace ptxdvfs::tools
