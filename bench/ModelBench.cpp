// ModelBench.cpp - one training epoch over the shared dataset; inference latency per kernel length.
#include "ptxdvfs/model/Training.h"

#include <benchmark/benchmark.h>
#include <torch/torch.h>

#include <filesystem>

namespace {

using namespace ptxdvfs;

const std::string kSharedDataset = PTXDVFS_SHARED_DIR "/datasets/gpuptxmodel-gtxtitanx/microbenchmarks";

/// The paper's sizes: LSTM 2 x 50, heads 100 and 70, batches of 8.
void BM_TrainEpoch(benchmark::State &state) {
  if (!std::filesystem::is_directory(kSharedDataset)) {
    state.SkipWithError("the shared dataset is not beside the checkout");
    return;
  }
  auto dataset = embeddings::importDataset(kSharedDataset);
  model::TensorDataset data =
      model::makeTensorDataset(*dataset, model::KernelCombination::Concatenate);
  std::vector<std::size_t> all(data.items.size());
  for (std::size_t i = 0; i < all.size(); ++i)
    all[i] = i;
  for (auto _ : state) {
    auto result = model::train(data, all, {}, model::DvfsModelOptions(),
                               model::TrainOptions().epochs(1).patience(0));
    benchmark::DoNotOptimize(result->bestLoss);
  }
  state.counters["benchmarks"] = static_cast<double>(all.size());
}

/// Predicting all 32 V-F points of one kernel of `range(0)` instructions.
void BM_InferenceLatency(benchmark::State &state) {
  torch::manual_seed(0);
  model::DvfsModel dvfs(model::DvfsModelOptions{});
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

BENCHMARK(BM_TrainEpoch)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();
BENCHMARK(BM_InferenceLatency)->Arg(1000)->Arg(10000)->Arg(50000)->Unit(benchmark::kMillisecond)->UseRealTime();
