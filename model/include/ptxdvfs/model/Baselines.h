// Baselines.h - what the LSTM must beat: predictions that read no instruction order.
#pragma once

#include "ptxdvfs/model/BaselineData.h"
#include "ptxdvfs/model/Ensemble.h"
#include "ptxdvfs/model/Evaluation.h"
#include "ptxdvfs/model/TensorDataset.h"

#include <nlohmann/json.hpp>
#include <torch/types.h>

#include <map>
#include <string>
#include <vector>

namespace ptxdvfs::model {

/// The mix of a fields tensor [L, kFieldCount] (see TensorDataset.h).
InstructionHistogram histogramOf(const torch::Tensor &fields);

/// The mix the baselines read of one application: its `mix` where the
/// dataset was made with the whole sequence's mixes, else that of `fields`.
InstructionHistogram baselineMix(const BenchmarkTensors &item);

/// The mixes (baselineMix()) and measured surfaces of applications `items`
/// of `data`.
BaselineData baselineDataOf(const TensorDataset &data, const std::vector<std::size_t> &items);

/// The baselines fitted on one training set:
/// - `training_mean`: the mean training surface, the same for every input;
/// - `histogram_mlp`: an MLP on [instruction mix, normalised clocks], the
///   static approach that predates sequence models;
/// - `nearest_histogram`: the surface of the training application whose
///   mix is closest;
/// - `knn_log_histogram`: the geometric mean of the surfaces of the k
///   training applications closest on the log-scaled mix, k fitted by
///   leave-one-family-out (NearestNeighbours);
/// - `knn_toward_mean`: the same, pulled towards the geometric mean of the
///   training surfaces by the distance to the neighbours, the pull fitted
///   with k;
/// - `knn_unit_mix`: as `knn_log_histogram`, with neighbours found by the
///   log-scaled execution-unit mix alone (absent where the mixes lack it).
/// Fitting is deterministic (seeded), so evaluating a folder twice gives
/// the same numbers. The MLP is fitted on its first prediction (a second
/// or so), so predicting with the others costs none of it.
class Baselines {
public:
  /// `clocks` is [P, 2] as in TensorDataset.
  Baselines(BaselineData data, torch::Tensor clocks);
  ~Baselines();
  Baselines(Baselines &&) noexcept;
  Baselines &operator=(Baselines &&) noexcept;

  /// The k that each offered nearest-neighbour baseline (`knn_log_histogram`,
  /// `knn_toward_mean`, `knn_unit_mix`) fitted on the training applications,
  /// by name.
  std::map<std::string, int> neighbourCounts() const;

  /// Whether `baseline` can be predicted (offersBaseline() on the training data).
  bool offers(const std::string &baseline) const;

  /// Predicts `baseline` (one of baselineNames() it offers()) for an application.
  Surface predict(const std::string &baseline, const InstructionHistogram &histogram) const;

private:
  struct Fitted;
  BaselineData data_;
  torch::Tensor clocks_;
  Surface mean_;
  std::unique_ptr<Fitted> fitted_;

  void fitMlp() const;
};

/// Every offered baseline's predictions for applications `items` of `data`, keyed
/// by name (each choosing its surface's plain argmin); each application's
/// mix is computed once for all of them.
std::map<std::string, PredictedChoices> predictBaselines(const Baselines &baselines,
                                                         const TensorDataset &data,
                                                         const std::vector<std::size_t> &items);

} // namespace ptxdvfs::model
