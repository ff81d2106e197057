// Ensemble.h - predictions of several models, their spread, and the minimum-energy choice.
#pragma once

#include "ptxdvfs/model/DvfsModel.h"
#include "ptxdvfs/model/Evaluation.h"
#include "ptxdvfs/model/TensorDataset.h"

#include <string>
#include <vector>

namespace ptxdvfs::model {

/// Where the energy scaling factor comes from.
enum class EnergySource {
  Head,           ///< the energy head
  TimeTimesPower, ///< the product of the time and power heads (energy = time x power)
};
const char *toString(EnergySource source);
/// Accepts "head" and "time_x_power"; false for anything else.
bool parseEnergySource(const std::string &text, EnergySource &source);

/// How an ensemble's output becomes answers; saved with the model.
struct PredictionOptions {
  TORCH_ARG(EnergySource, energy) = EnergySource::Head;
  /// Risk aversion of the minimum-energy choice, see chooseMinEnergyPoint().
  TORCH_ARG(double, risk) = 0.0;
};


/// Runs every member on the applications `subset` of `data` (eval mode, no
/// gradients); element i belongs to subset[i].
std::vector<SurfacePrediction> predictEnsemble(std::vector<DvfsModel> &members,
                                               const TensorDataset &data,
                                               const std::vector<std::size_t> &subset,
                                               EnergySource energy, int64_t batchSize = 8);


/// One predictor's surfaces for a list of applications and the V-F point
/// it chose for each: what evaluateByClass() scores.
struct PredictedChoices {
  std::vector<Surface> surfaces;
  std::vector<std::size_t> chosen;

  /// Appends each prediction's mean and its chooseMinEnergyPoint(risk).
  void add(const std::vector<SurfacePrediction> &predictions, double risk);
  /// Appends the surface and its plain argmin (minEnergyPoint()).
  void add(Surface surface);
  void add(const PredictedChoices &more);
};

/// Element-wise (1 - weight) a + weight b of two predictors' surfaces for
/// the same applications (same order and size), each with the blend's
/// plain argmin: the LSTM blended with a baseline, as a read-out variant.
PredictedChoices blendSurfaces(const PredictedChoices &a, const PredictedChoices &b, double weight);

/// The measured surface of one application.
Surface measuredSurface(const BenchmarkTensors &item);

} // namespace ptxdvfs::model
