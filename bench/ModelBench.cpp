// ModelBench.cpp - one training epoch over the shared dataset; inference latency per kernel length.
#include "ptxdvfs/model/Training.h"

#include <benchmark/benchmark.h>
#include <torch/torch.h>

#include <filesystem>

namespace {

using namespace ptxdvfs;

const std::string kSharedDataset = PTXDVFS_SHARED_DIR "/datasets/gpuptxmodel-gtxtitanx/microbenchmarks";

/// The two configurations worth timing: the paper's (free heads, whole
/// sequences) and the shipped one (trained_weights/gtxtitanx/train.json).
struct Configuration {
  model::DvfsModelOptions architecture;
  model::TrainOptions training;
  int64_t maxLength;
};

Configuration configuration(int64_t which) {
  if (which == 0)
    return {model::DvfsModelOptions(), model::TrainOptions(), 0};
  return {model::DvfsModelOptions().head_shape(model::HeadShape::Physical).mix_dim(16),
          model::TrainOptions().loss(model::TargetLoss::Relative).clip_norm(1.0), 2000};
}

/// One epoch over all 140 benchmarks, LSTM 2 x 50, batches of 8;
/// argument 0: the paper's configuration, 1: the shipped one.
void BM_TrainEpoch(benchmark::State &state) {
  if (!std::filesystem::is_directory(kSharedDataset)) {
    state.SkipWithError("the shared dataset is not beside the checkout");
    return;
  }
  Configuration config = configuration(state.range(0));
  auto dataset = embeddings::importDataset(kSharedDataset);
  model::TensorDataset data = model::makeTensorDataset(
      *dataset, model::KernelCombination::Concatenate, config.maxLength);
  std::vector<std::size_t> all = model::allItems(data);
  for (auto _ : state) {
    auto result = model::train(data, all, {}, config.architecture,
                               model::TrainOptions(config.training).epochs(1).patience(0));
    benchmark::DoNotOptimize(result->bestLoss);
  }
  state.counters["benchmarks"] = static_cast<double>(all.size());
}

/// Predicting all 32 V-F points of one kernel of `range(0)` instructions
/// with one model; argument 1: 0 the paper's architecture, 1 the shipped
/// one (which `predict` feeds at most 2000 instructions).
void BM_InferenceLatency(benchmark::State &state) {
  torch::manual_seed(0);
  model::DvfsModel dvfs(configuration(state.range(1)).architecture);
  dvfs->eval();
  int64_t length = state.range(0);
  // Values 0..2 fit every embedding table (the dependency kind has 3 rows).
  torch::Tensor fields = torch::randint(0, 3, {1, length, model::kFieldCount}, torch::kInt64);
  torch::Tensor lengths = torch::full({1}, length, torch::kInt64);
  torch::Tensor clocks = torch::rand({32, 2});
  torch::NoGradGuard noGrad;
  for (auto _ : state) {
    auto prediction = dvfs->forward(fields, lengths, clocks);
    benchmark::DoNotOptimize(prediction.energy.data_ptr<float>());
  }
  state.counters["instructions"] = static_cast<double>(length);
}

} // namespace

BENCHMARK(BM_TrainEpoch)->Arg(0)->Arg(1)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();
BENCHMARK(BM_InferenceLatency)
    ->ArgsProduct({{1000, 2000, 10000, 50000}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
