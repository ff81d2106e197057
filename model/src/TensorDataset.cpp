// TensorDataset.cpp - from embeddings' plain records to padded tensor batches.
#include "ptxdvfs/model/TensorDataset.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ptxdvfs::model {

torch::Tensor fieldsTensor(const std::vector<embeddings::EncodedKernel> &kernels,
                           KernelCombination combination, int64_t maxLength) {
  std::vector<KernelRead> used = kernelsRead(kernels, combination);
  int64_t length = 0;
  for (const KernelRead &read : used)
    length += static_cast<int64_t>(read.kernel->instructions.size());
  torch::Tensor fields = torch::zeros({std::max<int64_t>(length, 1), kFieldCount}, torch::kInt64);
  auto rows = fields.accessor<int64_t, 2>();
  int64_t row = 0;
  for (const KernelRead &read : used) {
    for (const auto &record : read.kernel->instructions) {
      rows[row][kOpcodeColumn] = std::min<int64_t>(record.opcode + 1, kOpcodeRows - 1);
      rows[row][kSpaceColumn] = std::min<int64_t>(record.stateSpace, kSpaceRows - 1);
      rows[row][kTypeColumn] = std::min<int64_t>(record.type, kTypeRows - 1);
      rows[row][kOperandsColumn] = std::min<int64_t>(record.operandCount, kOperandRows - 1);
      rows[row][kDistanceColumn] = std::min<int64_t>(record.dependencyDistance, kDistanceRows - 1);
      rows[row][kKindColumn] = static_cast<int64_t>(record.dependencyKind);
      rows[row][kWeightColumn] = storedWeight(record, read.share);
      rows[row][kUnitColumn] = static_cast<int64_t>(record.unit);
      ++row;
    }
  }
  if (maxLength > 0 && length > maxLength) {
    int64_t head = maxLength / 2;
    return torch::cat({fields.narrow(0, 0, head),
                       fields.narrow(0, length - (maxLength - head), maxLength - head)});
  }
  return fields;
}

torch::Tensor normalizedClocks(const embeddings::GpuClocks &clocks) {
  std::vector<embeddings::VfPoint> grid = clocks.grid();
  double memoryMax = 0, coreMax = 0;
  for (auto point : grid) {
    memoryMax = std::max<double>(memoryMax, point.memoryMHz);
    coreMax = std::max<double>(coreMax, point.coreMHz);
  }
  torch::Tensor normalized = torch::zeros({static_cast<int64_t>(grid.size()), 2});
  auto rows = normalized.accessor<float, 2>();
  for (std::size_t i = 0; i < grid.size(); ++i) {
    rows[static_cast<int64_t>(i)][0] = static_cast<float>(grid[i].memoryMHz / memoryMax);
    rows[static_cast<int64_t>(i)][1] = static_cast<float>(grid[i].coreMHz / coreMax);
  }
  return normalized;
}

TensorDataset makeTensorDataset(const embeddings::Dataset &dataset,
                                KernelCombination combination, int64_t maxLength,
                                bool wholeSequenceMix) {
  TensorDataset tensors;
  tensors.grid = dataset.clocks.grid();
  tensors.clocks = normalizedClocks(dataset.clocks);
  tensors.fmax = dataset.clocks.fmax;
  tensors.reference = dataset.reference;
  for (const auto &benchmark : dataset.benchmarks) {
    auto points = static_cast<int64_t>(benchmark.scaling.size());
    torch::Tensor targets = torch::zeros({points, 3});
    auto rows = targets.accessor<float, 2>();
    for (int64_t p = 0; p < points; ++p) {
      const auto &factor = benchmark.scaling[static_cast<std::size_t>(p)];
      rows[p][0] = static_cast<float>(factor.time);
      rows[p][1] = static_cast<float>(factor.power);
      rows[p][2] = static_cast<float>(factor.energy);
    }
    tensors.items.push_back({benchmark.name, fieldsTensor(benchmark.kernels, combination, maxLength),
                             targets,
                             wholeSequenceMix ? mixOf(benchmark.kernels, combination) : InstructionHistogram{}});
  }
  return tensors;
}

std::vector<std::size_t> allItems(const TensorDataset &data) {
  std::vector<std::size_t> items(data.items.size());
  std::iota(items.begin(), items.end(), std::size_t{0});
  return items;
}

std::size_t gridIndex(const TensorDataset &data, embeddings::VfPoint point) {
  for (std::size_t p = 0; p < data.grid.size(); ++p)
    if (data.grid[p].memoryMHz == point.memoryMHz && data.grid[p].coreMHz == point.coreMHz)
      return p;
  return 0;
}

bool prefersHighMemoryClock(const TensorDataset &data, std::size_t item) {
  torch::Tensor energy = data.items[item].targets.select(1, 2);
  int64_t best = energy.argmin().item<int64_t>();
  return data.clocks[best][0].item<float>() >= data.clocks.select(1, 0).max().item<float>();
}

torch::Tensor instructionMix(const torch::Tensor &fields, const torch::Tensor &lengths,
                             bool withUnits) {
  int64_t batch = fields.size(0), longest = fields.size(1);
  torch::Tensor real = (torch::arange(longest, lengths.options()).unsqueeze(0) < lengths.unsqueeze(1))
                           .to(torch::kFloat);
  torch::Tensor stored = fields.select(2, kWeightColumn).to(torch::kFloat) / kWeightScale;
  torch::Tensor weights = real * torch::where(stored > 0, stored, torch::ones_like(stored));
  torch::Tensor counts = torch::zeros({batch, withUnits ? kHistogramFeatures : kMixWidth});
  for (auto [column, offset] : {std::pair{kOpcodeColumn, int64_t{0}}, {kSpaceColumn, kOpcodeRows},
                                {kTypeColumn, kOpcodeRows + kSpaceRows}})
    counts.scatter_add_(1, fields.select(2, column) + offset, weights);
  if (withUnits)
    counts.scatter_add_(1, fields.select(2, kUnitColumn) + kMixWidth, weights);
  return counts / weights.sum(1).clamp_min(1e-6).unsqueeze(1);
}

Batch collate(const TensorDataset &dataset, const std::vector<std::size_t> &indices) {
  int64_t longest = 1;
  for (std::size_t index : indices)
    longest = std::max(longest, dataset.items[index].fields.size(0));
  auto size = static_cast<int64_t>(indices.size());
  Batch batch;
  batch.indices = indices;
  batch.fields = torch::zeros({size, longest, kFieldCount}, torch::kInt64);
  batch.lengths = torch::zeros({size}, torch::kInt64);
  std::vector<torch::Tensor> targets;
  for (int64_t b = 0; b < size; ++b) {
    const BenchmarkTensors &item = dataset.items[indices[static_cast<std::size_t>(b)]];
    int64_t length = item.fields.size(0);
    batch.fields[b].narrow(0, 0, length).copy_(item.fields);
    batch.lengths[b] = length;
    targets.push_back(item.targets);
  }
  batch.targets = torch::stack(targets);
  return batch;
}

std::vector<std::vector<std::size_t>> batchesByLength(const TensorDataset &dataset,
                                                      std::vector<std::size_t> subset,
                                                      std::size_t batchSize) {
  std::stable_sort(subset.begin(), subset.end(), [&](std::size_t a, std::size_t b) {
    return dataset.items[a].fields.size(0) < dataset.items[b].fields.size(0);
  });
  std::vector<std::vector<std::size_t>> batches;
  for (std::size_t start = 0; start < subset.size(); start += batchSize)
    batches.emplace_back(subset.begin() + static_cast<std::ptrdiff_t>(start),
                         subset.begin() + static_cast<std::ptrdiff_t>(
                                              std::min(start + batchSize, subset.size())));
  return batches;
}

} // namespace ptxdvfs::model
