// Predictor.cpp - one predictor of a model folder applied to an application's kernels.
#include "ptxdvfs/model/Predictor.h"

#include <algorithm>

namespace ptxdvfs::model {

ptx::Expected<std::unique_ptr<FolderPredictor>> FolderPredictor::create(LoadedModel &model,
                                                                        const std::string &name) {
  if (std::string error = checkPredictorName(name, model.description); !error.empty())
    return ptx::Expected<std::unique_ptr<FolderPredictor>>::failure(
        ptx::Diagnostic{"", {}, ptx::Severity::Error, error});
  return std::unique_ptr<FolderPredictor>(new FolderPredictor(model, name));
}

FolderPredictor::FolderPredictor(LoadedModel &model, std::string name)
    : model_(&model), name_(std::move(name)), clocks_(normalizedClocks(model.description.clocks)) {
  card_ = makeCardPredictor(model.description, name_);
  for (const BlendVariant &variant : kBlendVariants)
    if (name_ == variant.name)
      card_ = makeCardPredictor(model.description, variant.baseline);
  if (name_ == "histogram_mlp")
    baselines_ = std::make_unique<Baselines>(model.description.baselines, clocks_);
}

double FolderPredictor::risk() const {
  return name_ == "lstm" ? model_->description.prediction.risk() : 0.0;
}

ApplicationPrediction FolderPredictor::predict(const std::vector<embeddings::EncodedKernel> &kernels) const {
  const ModelDescription &description = model_->description;
  if (name_ == "lstm")
    return predictLstm(kernels);
  if (baselines_) {
    ApplicationPrediction result;
    result.surface.mean = baselines_->predict(name_, mixOf(kernels, description.combination, description.mixLength()));
    result.surface.spread.assign(result.surface.mean.size(), {0, 0, 0});
    result.minEnergyPoint = minEnergyPoint(result.surface.mean);
    return result;
  }
  if (card_ && name_.rfind("lstm_blend", 0) != 0)
    return card_->predict(kernels);
  // A blend, as evaluate makes it: the mean surfaces mixed, the plain argmin chosen.
  ApplicationPrediction lstm = predictLstm(kernels);
  ApplicationPrediction baseline = card_->predict(kernels);
  ApplicationPrediction blend = lstm;
  for (std::size_t p = 0; p < blend.surface.mean.size(); ++p)
    for (std::size_t m = 0; m < 3; ++m) {
      blend.surface.mean[p][m] = (1 - kBlendWeight) * lstm.surface.mean[p][m] +
                                 kBlendWeight * baseline.surface.mean[p][m];
      blend.surface.spread[p][m] = (1 - kBlendWeight) * lstm.surface.spread[p][m] +
                                   kBlendWeight * baseline.surface.spread[p][m];
    }
  blend.neighbours = baseline.neighbours;
  blend.neighbourDistances = baseline.neighbourDistances;
  blend.minEnergyPoint = minEnergyPoint(blend.surface.mean);
  return blend;
}

ApplicationPrediction FolderPredictor::predictLstm(const std::vector<embeddings::EncodedKernel> &kernels) const {
  const ModelDescription &description = model_->description;
  TensorDataset single;
  single.clocks = clocks_;
  single.items.push_back({"application", fieldsTensor(kernels, description.combination, description.maxLength),
                          torch::zeros({clocks_.size(0), 3})});
  ApplicationPrediction result;
  result.surface = predictEnsemble(model_->members, single, {0}, description.prediction.energy()).front();
  result.hasSpread = model_->members.size() > 1;
  result.minEnergyPoint = chooseMinEnergyPoint(result.surface, description.prediction.risk());
  return result;
}

} // namespace ptxdvfs::model
