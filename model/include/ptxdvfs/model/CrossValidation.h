// CrossValidation.h - grouped k-fold estimates for the LSTM and the baselines on the same folds.
#pragma once

#include "ptxdvfs/model/Ensemble.h"
#include "ptxdvfs/model/Evaluation.h"
#include "ptxdvfs/model/SurfacePredictor.h"
#include "ptxdvfs/model/Training.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ptxdvfs::model {

struct CrossValidationOptions {
  TORCH_ARG(int, folds) = 5;
  /// Seeds per ensemble (members of one fold differ only in seed).
  TORCH_ARG(int, ensemble) = 1;
  /// Members trained at the same time.
  TORCH_ARG(int, parallel) = 1;
  /// Share of each fold's training families held out for early stopping.
  TORCH_ARG(double, validation_fraction) = 0.1;
  /// How the reported "lstm" entry predicts; variants are reported beside it.
  TORCH_ARG(PredictionOptions, prediction) = PredictionOptions();
};

/// Metrics of one predictor over the held-out applications of all folds,
/// overall and for each class of prefersHighMemoryClock().
struct ClassedEvaluation {
  EvaluationResult all, highMemory, lowMemory;
};

/// Scores `predicted[i]` (with minimum-energy choice `chosen[i]`) against
/// the measurements of application `items[i]` of `data`, overall and per class.
ClassedEvaluation evaluateByClass(const TensorDataset &data, const std::vector<Surface> &predicted,
                                  const std::vector<std::size_t> &chosen,
                                  const std::vector<std::size_t> &items);

/// One application's scores: where a predictor goes wrong, not only how much.
struct BenchmarkScore {
  std::string name;
  bool highMemory = false;      ///< prefersHighMemoryClock()
  double timeMape = 0, powerMape = 0, energyMape = 0; ///< percent, over its V-F points
  embeddings::VfPoint chosen;   ///< the chosen minimum-energy point
  embeddings::VfPoint oracle;   ///< the measured minimum-energy point
  double excessVsOracle = 0;    ///< percent of energy above the measured minimum
};

/// evaluateByClass(), one application at a time; element i scores items[i].
std::vector<BenchmarkScore> scoreBenchmarks(const TensorDataset &data,
                                            const std::vector<Surface> &predicted,
                                            const std::vector<std::size_t> &chosen,
                                            const std::vector<std::size_t> &items);

/// Adds to `predictors` (keyed by name, all for the same applications in
/// the same order) every blend variant whose two inputs, "lstm" and the
/// baseline, are present.
void addBlendVariants(std::map<std::string, PredictedChoices> &predictors);

struct CrossValidationResult {
  /// "lstm" (as configured), its variants ("lstm_single_model",
  /// "lstm_energy_head", "lstm_energy_time_x_power", "lstm_risk_0",
  /// "lstm_risk_0.5", "lstm_risk_1", and kBlendVariants) and every
  /// baseline, all on the same folds.
  std::map<std::string, ClassedEvaluation> predictors;
  std::vector<std::string> names; ///< applications, in dataset order
  std::vector<int> fold;          ///< fold of each application
  std::vector<int64_t> bestEpochs; ///< of every trained member
  /// "lstm", the default predictor (chooseDefaultPredictor), the
  /// nearest-neighbour baselines and the blend variants per held-out
  /// application.
  std::map<std::string, std::vector<BenchmarkScore>> perBenchmark;
};

/// Grouped k-fold over `data` (families kept whole, the rare
/// high-memory-clock class dealt out evenly, see groupedFolds): for each
/// fold, trains an ensemble on the other folds (early-stopping on a held-out
/// share of their families), fits the baselines on the same applications,
/// and predicts the fold.
ptx::Expected<CrossValidationResult>
crossValidate(const TensorDataset &data, const DvfsModelOptions &modelOptions,
              const TrainOptions &trainOptions, const CrossValidationOptions &options,
              const std::function<void(int fold, int member, const EpochReport &)> &progress = {});

/// The predictor a model folder should default to: of `predictors` (CV
/// results, same folds), those a folder can compute (the LSTM, the
/// baselines, the blend variants; not the risk read-outs), the one with the
/// lowest energy MAPE + minimum-energy excess over the true optimum, both in
/// percent (the accuracy of the surface and the cost of the clock it
/// picks), averaged over the two classes of best memory clock, high and
/// low (a class without benchmarks is left out of the average).
///
/// Why per class: how many bandwidth-bound programs a training suite holds
/// is its authors' choice (16 of 140 microbenchmarks), not the users'; an
/// overall mean lets a predictor that takes every bandwidth-bound program
/// for a compute-bound one (76% excess on them, the LSTM) look good, and
/// on such a program the wrong memory clock costs more than anything the
/// other class can save. Ties go to the first in name order; "lstm" when
/// none qualifies.
std::string chooseDefaultPredictor(const std::map<std::string, ClassedEvaluation> &predictors);

nlohmann::json toJson(const EvaluationResult &result);
nlohmann::json toJson(const ClassedEvaluation &result);
/// [{"name", "best_memory_clock": "high"|"low", "time_mape", "power_mape",
/// "energy_mape", "excess_vs_oracle", "chosen": {"memory_mhz", "core_mhz"},
/// "oracle": {...}}]
nlohmann::json toJson(const std::vector<BenchmarkScore> &scores);
/// {"folds", "grouping", "predictors": {name: {...}}, "best_epochs",
/// "fold_of_benchmark": {name: fold}, "per_benchmark": {predictor: [...]}}
nlohmann::json toJson(const CrossValidationResult &result);

} // namespace ptxdvfs::model
