// TensorDataset.h - benchmarks as tensors: instruction fields, clocks and scaling targets.
#pragma once

#include "ptxdvfs/embeddings/Dataset.h"
#include "ptxdvfs/model/InstructionMix.h"

#include <torch/types.h>

#include <string>
#include <vector>

namespace ptxdvfs::model {

/// Columns of a fields tensor, one row per instruction. Each holds the
/// record's value, which indexes the matching embedding table; the opcode
/// is shifted by one so that 0 stays free for the empty-kernel row.
enum FieldColumn : int64_t {
  kOpcodeColumn = 0,
  kSpaceColumn,
  kTypeColumn,
  kOperandsColumn,
  kDistanceColumn,
  kKindColumn,
  /// Not embedded: the executions the row stands for (InstructionRecord::
  /// weight times its kernel's share: storedWeight()) in 1/kWeightScale
  /// units, at least 1 unit for a real row; 0 on padding. Only the
  /// instruction mix reads it.
  kWeightColumn,
  /// Not embedded: the record's ExecutionUnit. Only the mix reads it.
  kUnitColumn,
  kFieldCount
};

/// One application. `fields` is [L, kFieldCount] int64 with L >= 1 (an
/// application without instructions gets one all-zero row); `targets` is
/// [P, 3] float: time, power, energy scaling factors at each V-F point.
/// `mix`, where not empty, is the instruction mix the baselines read
/// instead of that of `fields`: the mix of every written instruction, where
/// `fields` keeps only the first and last of a long sequence (see
/// makeTensorDataset()); baselineMix() chooses.
struct BenchmarkTensors {
  std::string name;
  torch::Tensor fields;
  torch::Tensor targets;
  InstructionHistogram mix = {};
};

struct TensorDataset {
  std::vector<BenchmarkTensors> items;
  /// [P, 2] float: f_mem / f_mem_max and f_core / f_core_max per V-F point.
  torch::Tensor clocks;
  std::vector<embeddings::VfPoint> grid;
  embeddings::VfPoint fmax;      ///< the GPU's highest clocks
  embeddings::VfPoint reference; ///< where every scaling factor is 1
};

/// Indices of every application of `data`: 0, 1, ..., items.size() - 1.
std::vector<std::size_t> allItems(const TensorDataset &data);

/// Position of `point` in `data.grid` (0 if absent).
std::size_t gridIndex(const TensorDataset &data, embeddings::VfPoint point);

/// The instruction fields of an application's kernels. With `maxLength`
/// > 0 a longer sequence keeps its first and last maxLength/2 instructions:
/// long microbenchmarks repeat one loop body thousands of times, and
/// reading every copy costs time without telling more.
torch::Tensor fieldsTensor(const std::vector<embeddings::EncodedKernel> &kernels,
                           KernelCombination combination, int64_t maxLength = 0);

/// Normalised clocks of every grid point, in GpuClocks::grid() order.
torch::Tensor normalizedClocks(const embeddings::GpuClocks &clocks);

/// With `wholeSequenceMix`, each item's `mix` counts every instruction of
/// its kernels (mixOf() without a length limit), not only the `maxLength`
/// that `fields` keeps: cutting a long sequence to its first and last
/// instructions drops the middle kernels of a multi-kernel application
/// from its mix, where the LSTM only reads less of them.
TensorDataset makeTensorDataset(const embeddings::Dataset &dataset,
                                KernelCombination combination, int64_t maxLength = 0,
                                bool wholeSequenceMix = false);

/// Whether an application's measured minimum-energy point is at the
/// highest memory clock (memory-bound programs). The training data are
/// skewed towards the low clock, so training and reports treat the two
/// classes separately.
bool prefersHighMemoryClock(const TensorDataset &data, std::size_t item);

/// A padded batch: fields [B, Lmax, kFieldCount], lengths [B] int64,
/// targets [B, P, 3].
struct Batch {
  torch::Tensor fields;
  torch::Tensor lengths;
  torch::Tensor targets;
  std::vector<std::size_t> indices; ///< into TensorDataset::items
};

Batch collate(const TensorDataset &dataset, const std::vector<std::size_t> &indices);

/// Instruction mix of each sequence of a padded batch: fields [B, L,
/// kFieldCount] and lengths [B] -> [B, kMixWidth] float, the share of the
/// executions (rows weighted by kWeightColumn; a row without a weight
/// counts once) of the first lengths[b] instructions with each opcode,
/// state space and type (three blocks that each sum to 1). Padding is not
/// counted. Order-free: a loop shows only through the weights. With
/// `withUnits`, [B, kHistogramFeatures]: the execution-unit block follows.
torch::Tensor instructionMix(const torch::Tensor &fields, const torch::Tensor &lengths,
                             bool withUnits = false);

/// Splits `subset` into batches of at most `batchSize` applications of
/// similar length (sorted by length), so little padding is processed.
std::vector<std::vector<std::size_t>> batchesByLength(const TensorDataset &dataset,
                                                      std::vector<std::size_t> subset,
                                                      std::size_t batchSize);

} // namespace ptxdvfs::model
