// Predictor.h - every predictor of a model folder, the LSTM and its blends included.
#pragma once

#include "ptxdvfs/model/Baselines.h"
#include "ptxdvfs/model/ModelFolder.h"
#include "ptxdvfs/model/SurfacePredictor.h"

#include <memory>
#include <string>

namespace ptxdvfs::model {

/// Predicts applications with one named predictor of a loaded model:
/// the card-only ones through makeCardPredictor() (the same numbers the
/// LibTorch-free path gives), `lstm` and the blends with the ensemble,
/// `histogram_mlp` with its MLP (fitted on creation).
class FolderPredictor : public SurfacePredictor {
public:
  /// Fails, listing predictorNames(), for any other name. `model` must
  /// outlive the predictor.
  static ptx::Expected<std::unique_ptr<FolderPredictor>> create(LoadedModel &model,
                                                                const std::string &name);

  ApplicationPrediction predict(const std::vector<embeddings::EncodedKernel> &kernels) const override;
  double risk() const override;

private:
  FolderPredictor(LoadedModel &model, std::string name);
  ApplicationPrediction predictLstm(const std::vector<embeddings::EncodedKernel> &kernels) const;

  LoadedModel *model_;
  std::string name_;
  torch::Tensor clocks_;
  std::unique_ptr<SurfacePredictor> card_;  ///< a card predictor: the name's, or a blend's baseline
  std::unique_ptr<Baselines> baselines_;    ///< for histogram_mlp only
};

} // namespace ptxdvfs::model
