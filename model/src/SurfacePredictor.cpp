// SurfacePredictor.cpp - the predictors a model card computes by itself: mean, nearest, k nearest.
#include "ptxdvfs/model/SurfacePredictor.h"

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

std::string checkPredictorName(const std::string &name) {
  std::vector<std::string> names = predictorNames();
  if (std::find(names.begin(), names.end(), name) != names.end())
    return "";
  std::string choices;
  for (const std::string &known : names)
    choices += (choices.empty() ? "" : ", ") + known;
  return "unknown predictor '" + name + "' (the model folder holds: " + choices + ")";
}

std::string checkPredictorName(const std::string &name, const ModelCard &card) {
  if (std::string error = checkPredictorName(name); !error.empty())
    return error;
  if (!offersBaseline(card.baselines, name))
    return "predictor '" + name + "' needs the execution-unit mix, which this model folder's "
           "baselines.json predates: retrain the model (ptxdvfs train) or choose another predictor";
  return "";
}

namespace {

class CardPredictor : public SurfacePredictor {
public:
  /// `neighbours`: fitted when `name` is a neighbour baseline, else null.
  CardPredictor(const ModelCard &card, std::string name, std::unique_ptr<NearestNeighbours> neighbours)
      : card_(card), name_(std::move(name)), neighbours_(std::move(neighbours)) {
    if (name_ == "training_mean")
      mean_ = trainingMean(card.baselines);
  }

  ApplicationPrediction predict(const std::vector<embeddings::EncodedKernel> &kernels) const override {
    InstructionHistogram mix = mixOf(kernels, card_.combination, card_.mixLength());
    ApplicationPrediction result;
    if (neighbours_) {
      NearestNeighbours::Neighbourhood around = neighbours_->neighbourhood(mix);
      result.surface = {around.mean, around.spread};
      result.hasSpread = true;
      for (std::size_t application : around.applications)
        result.neighbours.push_back(card_.baselines.names[application]);
      result.neighbourDistances = around.distances;
      result.trainingMeanWeight = around.pull;
    } else if (name_ == "training_mean") {
      result.surface = mean_;
      result.hasSpread = true;
    } else {
      std::size_t nearest = nearestApplication(card_.baselines, mix);
      result.surface.mean = card_.baselines.surfaces[nearest];
      result.surface.spread.assign(result.surface.mean.size(), {0, 0, 0});
      result.neighbours = {card_.baselines.names[nearest]};
    }
    result.minEnergyPoint = minEnergyPoint(result.surface.mean);
    return result;
  }

private:
  const ModelCard &card_;
  std::string name_;
  std::unique_ptr<NearestNeighbours> neighbours_;
  SurfacePrediction mean_;
};

} // namespace

std::unique_ptr<SurfacePredictor> makeCardPredictor(const ModelCard &card, const std::string &name) {
  if (name == "training_mean" || name == "nearest_histogram")
    return std::make_unique<CardPredictor>(card, name, nullptr);
  if (auto neighbours = fitNeighbourBaseline(card.baselines, name))
    return std::make_unique<CardPredictor>(card, name, std::move(neighbours));
  return nullptr;
}

} // namespace ptxdvfs::model
