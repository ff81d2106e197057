// Predictor.h - an application's predicted surfaces from a model folder, by any predictor it holds.
#pragma once

#include "ptxdvfs/embeddings/InstructionRecord.h"
#include "ptxdvfs/model/Baselines.h"
#include "ptxdvfs/model/Ensemble.h"
#include "ptxdvfs/model/ModelFolder.h"

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
  /// The training applications a neighbour predictor copied, nearest first.
  std::vector<std::string> neighbours;
};

/// Every predictor a model folder can compute, in report order: `lstm`,
/// baselineNames(), then the blend variants (kBlendVariants).
std::vector<std::string> predictorNames();

/// Predicts applications with one named predictor of a loaded model.
/// Cheap to create: the LSTM runs only when asked for (`lstm`, blends)
/// and the histogram MLP is fitted only when it is the predictor.
class FolderPredictor {
public:
  /// Fails, listing predictorNames(), for any other name. `model` must
  /// outlive the predictor.
  static ptx::Expected<FolderPredictor> create(LoadedModel &model, const std::string &name);

  const std::string &name() const { return name_; }

  /// `kernels`: the application's kernels, encoded by the model's scheme
  /// (and reading, see ModelDescription::scheme), in file order.
  ApplicationPrediction predict(const std::vector<embeddings::EncodedKernel> &kernels) const;

private:
  FolderPredictor(LoadedModel &model, std::string name);
  ApplicationPrediction predictLstm(const torch::Tensor &fields) const;
  ApplicationPrediction predictBaseline(const std::string &baseline, const torch::Tensor &fields) const;

  LoadedModel *model_;
  std::string name_;
  torch::Tensor clocks_;
  std::shared_ptr<Baselines> baselines_;
};

} // namespace ptxdvfs::model
