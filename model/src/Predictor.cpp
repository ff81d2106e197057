// Predictor.cpp - one predictor of a model folder applied to an application's kernels.
#include "ptxdvfs/model/Predictor.h"

#include "ptxdvfs/model/CrossValidation.h"
#include "ptxdvfs/model/Neighbours.h"

#include <algorithm>

namespace ptxdvfs::model {

std::vector<std::string> predictorNames() {
  std::vector<std::string> names = {"lstm"};
  names.insert(names.end(), baselineNames().begin(), baselineNames().end());
  for (const BlendVariant &variant : kBlendVariants)
    names.emplace_back(variant.name);
  return names;
}

ptx::Expected<FolderPredictor> FolderPredictor::create(LoadedModel &model, const std::string &name) {
  std::vector<std::string> names = predictorNames();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    std::string choices;
    for (const std::string &known : names)
      choices += (choices.empty() ? "" : ", ") + known;
    return ptx::Expected<FolderPredictor>::failure(
        ptx::Diagnostic{"", {}, ptx::Severity::Error,
                        "unknown predictor '" + name + "' (the model folder holds: " + choices + ")"});
  }
  return FolderPredictor(model, name);
}

FolderPredictor::FolderPredictor(LoadedModel &model, std::string name)
    : model_(&model), name_(std::move(name)), clocks_(normalizedClocks(model.description.clocks)) {
  if (name_ != "lstm")
    baselines_ = std::make_shared<Baselines>(model.description.baselines, clocks_);
}

ApplicationPrediction FolderPredictor::predict(const std::vector<embeddings::EncodedKernel> &kernels) const {
  const ModelDescription &description = model_->description;
  torch::Tensor fields = fieldsTensor(kernels, description.combination, description.maxLength);
  if (name_ == "lstm")
    return predictLstm(fields);
  for (const BlendVariant &variant : kBlendVariants) {
    if (name_ != variant.name)
      continue;
    // As evaluate blends: the mean surfaces mixed, the plain argmin chosen.
    ApplicationPrediction lstm = predictLstm(fields);
    ApplicationPrediction baseline = predictBaseline(variant.baseline, fields);
    ApplicationPrediction blend = lstm;
    for (std::size_t p = 0; p < blend.surface.mean.size(); ++p)
      for (std::size_t m = 0; m < 3; ++m) {
        blend.surface.mean[p][m] = (1 - kBlendWeight) * lstm.surface.mean[p][m] +
                                   kBlendWeight * baseline.surface.mean[p][m];
        blend.surface.spread[p][m] = (1 - kBlendWeight) * lstm.surface.spread[p][m] +
                                     kBlendWeight * baseline.surface.spread[p][m];
      }
    blend.neighbours = baseline.neighbours;
    blend.minEnergyPoint = minEnergyPoint(blend.surface.mean);
    return blend;
  }
  return predictBaseline(name_, fields);
}

ApplicationPrediction FolderPredictor::predictLstm(const torch::Tensor &fields) const {
  TensorDataset single;
  single.clocks = clocks_;
  single.items.push_back({"application", fields, torch::zeros({clocks_.size(0), 3})});
  const PredictionOptions &options = model_->description.prediction;
  ApplicationPrediction result;
  result.surface = predictEnsemble(model_->members, single, {0}, options.energy()).front();
  result.hasSpread = model_->members.size() > 1;
  result.minEnergyPoint = chooseMinEnergyPoint(result.surface, options.risk());
  return result;
}

ApplicationPrediction FolderPredictor::predictBaseline(const std::string &baseline,
                                                       const torch::Tensor &fields) const {
  InstructionHistogram mix = histogramOf(fields);
  ApplicationPrediction result;
  if (baseline == "knn_log_histogram") {
    NearestNeighbours::Neighbourhood around = baselines_->neighbours().neighbourhood(mix);
    result.surface = {around.mean, around.spread};
    result.hasSpread = true;
    for (std::size_t application : around.applications)
      result.neighbours.push_back(baselines_->names()[application]);
  } else {
    Surface mean = baselines_->predict(baseline, mix);
    Surface spread(mean.size(), {0, 0, 0});
    result.hasSpread = baseline == "training_mean";
    result.surface = {std::move(mean), result.hasSpread ? baselines_->trainingSpread() : spread};
  }
  result.minEnergyPoint = model::minEnergyPoint(result.surface.mean);
  return result;
}

} // namespace ptxdvfs::model
