// BaselineData.h - the training programs' mixes and measured surfaces a model folder keeps; no LibTorch.
#pragma once

#include "ptxdvfs/model/Evaluation.h"
#include "ptxdvfs/model/InstructionMix.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace ptxdvfs::model {

/// What the baselines are fitted on: the training applications' mixes and
/// measured surfaces. A model folder keeps it (`baselines.json`), so the
/// baselines can be evaluated without the training data.
struct BaselineData {
  std::vector<std::string> names;
  std::vector<InstructionHistogram> histograms;
  std::vector<Surface> surfaces;
};

nlohmann::json toJson(const BaselineData &data);
/// Throws std::exception on a malformed document.
BaselineData baselineDataFrom(const nlohmann::json &json);

/// Names of the baselines, in report order.
inline const std::vector<std::string> &baselineNames() {
  static const std::vector<std::string> names = {"training_mean", "histogram_mlp",
                                                 "nearest_histogram", "knn_log_histogram",
                                                 "knn_toward_mean", "knn_unit_mix"};
  return names;
}

/// Whether every application's mix has the execution-unit block (a model
/// folder written before it has none, and cannot offer `knn_unit_mix`).
bool hasUnitBlocks(const BaselineData &data);

/// Whether baseline `name` can be fitted on `data`: every one of
/// baselineNames() but `knn_unit_mix` on mixes without the unit block.
/// The one place that says so, for fitting, evaluate and predictor checks.
bool offersBaseline(const BaselineData &data, const std::string &name);

/// Half the L1 distance of two mixes averaged over the opcode, space and
/// type blocks:
/// 0 for the same mix, 1 for disjoint ones.
double histogramDistance(const InstructionHistogram &a, const InstructionHistogram &b);

/// The mean of the training surfaces at each V-F point (`training_mean`)
/// and their standard deviation (how far it can be from any one program).
SurfacePrediction trainingMean(const BaselineData &data);

/// The training application whose mix is closest by histogramDistance()
/// (`nearest_histogram`; the first on ties).
std::size_t nearestApplication(const BaselineData &data, const InstructionHistogram &histogram);

} // namespace ptxdvfs::model
