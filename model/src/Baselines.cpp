// Baselines.cpp - instruction mixes, the mean surface, the histogram MLP and nearest neighbour.
#include "ptxdvfs/model/Baselines.h"

#include "Seeding.h"

#include "ptxdvfs/model/Ensemble.h"
#include "ptxdvfs/model/Neighbours.h"

#include <torch/torch.h>

#include <map>
#include <mutex>

namespace ptxdvfs::model {

namespace {

torch::Tensor denseFeatures(const InstructionHistogram &histogram) {
  torch::Tensor row = torch::zeros({histogramWidth()});
  auto values = row.accessor<float, 1>();
  for (const auto &[feature, share] : histogram)
    if (feature < histogramWidth()) // the unit block repeats what the three blocks hold
      values[feature] = share;
  return row;
}

torch::nn::Sequential makeMlp() {
  return torch::nn::Sequential(torch::nn::Linear(histogramWidth() + 2, 64), torch::nn::ReLU(),
                               torch::nn::Linear(64, 32), torch::nn::ReLU(),
                               torch::nn::Linear(32, 3));
}

/// Full-batch Adam steps; the data are small (applications x V-F points rows).
constexpr int kMlpSteps = 400;
constexpr double kMlpLearningRate = 0.005;
constexpr std::uint64_t kMlpSeed = 7;

} // namespace

InstructionHistogram histogramOf(const torch::Tensor &fields) {
  InstructionHistogram histogram;
  if (fields.size(0) == 0)
    return histogram;
  torch::Tensor mix =
      instructionMix(fields.unsqueeze(0), torch::tensor({fields.size(0)}), /*withUnits=*/true)[0];
  torch::Tensor present = mix.nonzero().view(-1);
  auto features = present.accessor<int64_t, 1>();
  auto shares = mix.accessor<float, 1>();
  for (int64_t i = 0; i < present.size(0); ++i)
    histogram[features[i]] = shares[features[i]];
  return histogram;
}

InstructionHistogram baselineMix(const BenchmarkTensors &item) {
  return item.mix.empty() ? histogramOf(item.fields) : item.mix;
}

BaselineData baselineDataOf(const TensorDataset &data, const std::vector<std::size_t> &items) {
  BaselineData baselines;
  for (std::size_t i : items) {
    baselines.names.push_back(data.items[i].name);
    baselines.histograms.push_back(baselineMix(data.items[i]));
    baselines.surfaces.push_back(measuredSurface(data.items[i]));
  }
  return baselines;
}

struct Baselines::Fitted {
  std::once_flag mlpFitted;
  torch::nn::Sequential mlp{nullptr};
  std::map<std::string, std::unique_ptr<NearestNeighbours>> neighbours; // by baseline name
};

Baselines::Baselines(BaselineData data, torch::Tensor clocks)
    : data_(std::move(data)), clocks_(std::move(clocks)), fitted_(std::make_unique<Fitted>()) {
  mean_ = trainingMean(data_).mean;
  for (const std::string &name : baselineNames())
    if (auto fitted = fitNeighbourBaseline(data_, name))
      fitted_->neighbours[name] = std::move(fitted);
}

void Baselines::fitMlp() const {
  // Rows: every application at every V-F point.
  auto applications = static_cast<int64_t>(data_.names.size());
  auto pointCount = static_cast<int64_t>(mean_.size());
  std::vector<torch::Tensor> mixes;
  for (const auto &histogram : data_.histograms)
    mixes.push_back(denseFeatures(histogram));
  torch::Tensor input = torch::cat(
      {torch::stack(mixes).unsqueeze(1).expand({applications, pointCount, histogramWidth()}),
       clocks_.unsqueeze(0).expand({applications, pointCount, 2})},
      2).reshape({-1, histogramWidth() + 2});
  torch::Tensor targets = torch::zeros({applications, pointCount, 3});
  for (int64_t a = 0; a < applications; ++a)
    for (int64_t p = 0; p < pointCount; ++p)
      for (int64_t m = 0; m < 3; ++m)
        targets[a][p][m] = data_.surfaces[static_cast<std::size_t>(a)][static_cast<std::size_t>(p)]
                                         [static_cast<std::size_t>(m)];
  targets = targets.reshape({-1, 3});
  torch::nn::Sequential mlp = seeded(kMlpSeed, [] { return makeMlp(); });
  torch::optim::Adam optimizer(mlp->parameters(), kMlpLearningRate);
  for (int step = 0; step < kMlpSteps; ++step) {
    optimizer.zero_grad();
    torch::Tensor loss = torch::smooth_l1_loss(mlp->forward(input), targets);
    loss.backward();
    optimizer.step();
  }
  mlp->eval();
  fitted_->mlp = mlp;
}

bool Baselines::offers(const std::string &baseline) const {
  return offersBaseline(data_, baseline);
}

std::map<std::string, int> Baselines::neighbourCounts() const {
  std::map<std::string, int> counts;
  for (const auto &[name, neighbours] : fitted_->neighbours)
    counts[name] = neighbours->k();
  return counts;
}

Baselines::~Baselines() = default;
Baselines::Baselines(Baselines &&) noexcept = default;
Baselines &Baselines::operator=(Baselines &&) noexcept = default;

Surface Baselines::predict(const std::string &baseline,
                           const InstructionHistogram &histogram) const {
  if (baseline == "training_mean")
    return mean_;
  if (auto fitted = fitted_->neighbours.find(baseline); fitted != fitted_->neighbours.end())
    return fitted->second->predict(histogram);
  if (baseline == "nearest_histogram")
    return data_.surfaces[nearestApplication(data_, histogram)];
  if (baseline == "histogram_mlp") {
    std::call_once(fitted_->mlpFitted, [this] { fitMlp(); });
    torch::NoGradGuard noGrad;
    auto points = clocks_.size(0);
    torch::Tensor input = torch::cat(
        {denseFeatures(histogram).unsqueeze(0).expand({points, histogramWidth()}), clocks_}, 1);
    torch::Tensor output = fitted_->mlp->forward(input).contiguous();
    auto rows = output.accessor<float, 2>();
    Surface surface(static_cast<std::size_t>(points));
    for (int64_t p = 0; p < points; ++p)
      for (int64_t m = 0; m < 3; ++m)
        surface[static_cast<std::size_t>(p)][static_cast<std::size_t>(m)] = rows[p][m];
    return surface;
  }
  throw std::invalid_argument("unknown baseline '" + baseline + "'");
}

std::map<std::string, PredictedChoices> predictBaselines(const Baselines &baselines,
                                                         const TensorDataset &data,
                                                         const std::vector<std::size_t> &items) {
  std::map<std::string, PredictedChoices> predictions;
  std::vector<std::string> offered;
  for (const std::string &name : baselineNames())
    if (baselines.offers(name))
      offered.push_back(name);
  for (std::size_t i : items) {
    InstructionHistogram mix = baselineMix(data.items[i]);
    for (const std::string &name : offered)
      predictions[name].add(baselines.predict(name, mix));
  }
  return predictions;
}

} // namespace ptxdvfs::model
