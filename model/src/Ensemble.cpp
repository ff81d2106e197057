// Ensemble.cpp - batched inference over ensemble members and the risk-aware choice.
#include "ptxdvfs/model/Ensemble.h"

#include <torch/torch.h>

#include <cmath>

namespace ptxdvfs::model {

const char *toString(EnergySource source) {
  return source == EnergySource::TimeTimesPower ? "time_x_power" : "head";
}

bool parseEnergySource(const std::string &text, EnergySource &source) {
  if (text == "head")
    source = EnergySource::Head;
  else if (text == "time_x_power")
    source = EnergySource::TimeTimesPower;
  else
    return false;
  return true;
}

namespace {

Surface surfaceOf(const torch::Tensor &values) { // [P, 3]
  torch::Tensor contiguous = values.to(torch::kFloat64).contiguous();
  auto rows = contiguous.accessor<double, 2>();
  Surface surface(static_cast<std::size_t>(values.size(0)));
  for (int64_t p = 0; p < values.size(0); ++p)
    for (int64_t m = 0; m < 3; ++m)
      surface[static_cast<std::size_t>(p)][static_cast<std::size_t>(m)] = rows[p][m];
  return surface;
}

} // namespace

std::vector<SurfacePrediction> predictEnsemble(std::vector<DvfsModel> &members,
                                               const TensorDataset &data,
                                               const std::vector<std::size_t> &subset,
                                               EnergySource energy, int64_t batchSize) {
  torch::NoGradGuard noGrad;
  // [members, items, P, 3], items in subset order.
  std::vector<torch::Tensor> perMember;
  for (DvfsModel &member : members) {
    member->eval();
    torch::Tensor all = torch::zeros({static_cast<int64_t>(subset.size()), data.clocks.size(0), 3});
    std::vector<std::size_t> positions(subset.size());
    for (std::size_t i = 0; i < subset.size(); ++i)
      positions[i] = i;
    // Batches by length over positions, so each item's row is known.
    TensorDataset view;
    view.clocks = data.clocks;
    for (std::size_t index : subset)
      view.items.push_back(data.items[index]);
    for (const auto &batchPositions :
         batchesByLength(view, positions, static_cast<std::size_t>(batchSize))) {
      Batch batch = collate(view, batchPositions);
      DvfsPrediction predicted = member->forward(batch.fields, batch.lengths, data.clocks);
      torch::Tensor energyFactor =
          energy == EnergySource::TimeTimesPower ? predicted.time * predicted.power : predicted.energy;
      torch::Tensor stacked = torch::stack({predicted.time, predicted.power, energyFactor}, 2);
      for (std::size_t b = 0; b < batchPositions.size(); ++b)
        all[static_cast<int64_t>(batchPositions[b])] = stacked[static_cast<int64_t>(b)];
    }
    perMember.push_back(all);
  }
  torch::Tensor stacked = torch::stack(perMember);
  torch::Tensor mean = stacked.mean(0);
  torch::Tensor spread =
      members.size() > 1 ? stacked.std(0, /*unbiased=*/false) : torch::zeros_like(mean);
  std::vector<SurfacePrediction> predictions;
  for (std::size_t i = 0; i < subset.size(); ++i)
    predictions.push_back(
        {surfaceOf(mean[static_cast<int64_t>(i)]), surfaceOf(spread[static_cast<int64_t>(i)])});
  return predictions;
}

Surface measuredSurface(const BenchmarkTensors &item) { return surfaceOf(item.targets); }

void PredictedChoices::add(const std::vector<SurfacePrediction> &predictions, double risk) {
  for (const SurfacePrediction &prediction : predictions) {
    surfaces.push_back(prediction.mean);
    chosen.push_back(chooseMinEnergyPoint(prediction, risk));
  }
}

void PredictedChoices::add(Surface surface) {
  chosen.push_back(minEnergyPoint(surface));
  surfaces.push_back(std::move(surface));
}

void PredictedChoices::add(const PredictedChoices &more) {
  surfaces.insert(surfaces.end(), more.surfaces.begin(), more.surfaces.end());
  chosen.insert(chosen.end(), more.chosen.begin(), more.chosen.end());
}

PredictedChoices blendSurfaces(const PredictedChoices &a, const PredictedChoices &b,
                               double weight) {
  PredictedChoices blend;
  for (std::size_t i = 0; i < a.surfaces.size() && i < b.surfaces.size(); ++i) {
    Surface surface = a.surfaces[i];
    for (std::size_t p = 0; p < surface.size(); ++p)
      for (std::size_t m = 0; m < 3; ++m)
        surface[p][m] = (1 - weight) * surface[p][m] + weight * b.surfaces[i][p][m];
    blend.add(std::move(surface));
  }
  return blend;
}

} // namespace ptxdvfs::model
