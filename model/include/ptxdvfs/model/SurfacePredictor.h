// SurfacePredictor.h - an application's predicted surfaces by a named predictor; the card-only ones need no LibTorch.
#pragma once

#include "ptxdvfs/embeddings/InstructionRecord.h"
#include "ptxdvfs/model/Evaluation.h"
#include "ptxdvfs/model/ModelCard.h"

#include <memory>
#include <string>
#include <vector>

namespace ptxdvfs::model {

/// What a predictor says of one application (one kernel, or several read
/// as the model combines them).
struct ApplicationPrediction {
  /// Time, power and energy scaling factors at every V-F point
  /// (GpuClocks::grid() order), relative to the model's reference point,
  /// and their spread in the same units.
  SurfacePrediction surface;
  /// Whether `surface.spread` measures the predictor's uncertainty: the
  /// ensemble members' disagreement (`lstm`, blends), the neighbours'
  /// (`knn_log_histogram`) or the training applications' (`training_mean`).
  /// False for `nearest_histogram` and `histogram_mlp`, whose spread is zero.
  bool hasSpread = false;
  /// The V-F point of least energy by the predictor's own rule, the one
  /// `evaluate` scores: chooseMinEnergyPoint() with the model's risk for
  /// `lstm`, the plain argmin for the others.
  std::size_t minEnergyPoint = 0;
  /// The training applications a neighbour predictor copied, nearest first,
  /// and their log-mix L1 distances (the `knn_*` predictors only; 0 is the
  /// same mix, 6 shares nothing).
  std::vector<std::string> neighbours;
  std::vector<double> neighbourDistances;
  /// The weight of the training mean in a `knn_toward_mean` surface, in
  /// [0, 1): how far the program is from every measured one (0 otherwise).
  double trainingMeanWeight = 0;
};

class SurfacePredictor {
public:
  virtual ~SurfacePredictor() = default;
  /// `kernels`: the application's kernels, encoded by the model's scheme
  /// and reading (ModelCard::scheme), in file order.
  virtual ApplicationPrediction predict(const std::vector<embeddings::EncodedKernel> &kernels) const = 0;
  /// The risk aversion of its own minimum-energy choice (0 but for `lstm`).
  virtual double risk() const { return 0; }
};

/// Read-out variants that average the LSTM's surfaces with a baseline's,
/// in CV, `evaluate` and the prediction commands: each variant's name and
/// its baseline. The weight (of the baseline) was fixed beforehand, not
/// tuned on the folds.
struct BlendVariant {
  const char *name;
  const char *baseline;
};
inline constexpr BlendVariant kBlendVariants[] = {{"lstm_blend_nearest", "nearest_histogram"},
                                                  {"lstm_blend_knn", "knn_log_histogram"}};
inline constexpr double kBlendWeight = 0.5;

/// Every predictor a model folder can compute, in report order: `lstm`,
/// baselineNames(), then the blend variants.
std::vector<std::string> predictorNames();

/// Empty when `name` is one of predictorNames(), else a message listing them.
std::string checkPredictorName(const std::string &name);

/// Empty when `card`'s folder can compute `name`, else why not: an unknown
/// name, or `knn_unit_mix` from a folder written before the execution-unit
/// mix (its baselines.json has none; retraining writes it).
std::string checkPredictorName(const std::string &name, const ModelCard &card);

/// The predictors computed from the card alone, without LibTorch:
/// `training_mean`, `nearest_histogram`, `knn_log_histogram`,
/// `knn_toward_mean`, `knn_unit_mix`. nullptr for any other name, and for
/// one the card cannot compute (checkPredictorName()). `card` must outlive
/// the predictor.
std::unique_ptr<SurfacePredictor> makeCardPredictor(const ModelCard &card, const std::string &name);

} // namespace ptxdvfs::model
