// DvfsModel.h - the encoder plus three heads: time, power and energy scaling at each V-F point.
#pragma once

#include "ptxdvfs/model/LstmEncoder.h"

#include <torch/nn/modules/container/sequential.h>

#include <string>
#include <vector>

namespace ptxdvfs::model {

/// A feed-forward head on [z, f_mem/f_mem_max, f_core/f_core_max].
/// `FeedForwardHeadOptions(52).hidden({100, 70})`.
struct FeedForwardHeadOptions {
  explicit FeedForwardHeadOptions(int64_t input_size) : input_size_(input_size) {}
  /// z plus the two normalised clocks.
  TORCH_ARG(int64_t, input_size);
  /// Hidden layer widths, each followed by ReLU (paper: 100, 70).
  TORCH_ARG(std::vector<int64_t>, hidden) = std::vector<int64_t>{100, 70};
};

struct FeedForwardHeadImpl : torch::nn::Module {
  explicit FeedForwardHeadImpl(const FeedForwardHeadOptions &options);
  /// [..., input_size] -> [...]: one scaling factor per row.
  torch::Tensor forward(const torch::Tensor &input);

  torch::nn::Sequential layers{nullptr};
};
TORCH_MODULE(FeedForwardHead);

/// Everything that fixes an architecture; saved next to the weights.
struct DvfsModelOptions {
  TORCH_ARG(LstmEncoderOptions, encoder) = LstmEncoderOptions();
  TORCH_ARG(std::vector<int64_t>, head_hidden) = std::vector<int64_t>{100, 70};
};

/// Scaling factors relative to the reference V-F point, each [B, P].
struct DvfsPrediction {
  torch::Tensor time;
  torch::Tensor power;
  torch::Tensor energy;
};

enum class HeadKind { Time = 0, Power = 1, Energy = 2 };
inline constexpr int kHeadCount = 3;

struct DvfsModelImpl : torch::nn::Module {
  explicit DvfsModelImpl(const DvfsModelOptions &options = {});

  /// fields [B, L, 6], lengths [B], clocks [P, 2] -> predictions [B, P].
  DvfsPrediction forward(const torch::Tensor &fields, const torch::Tensor &lengths,
                         const torch::Tensor &clocks);
  /// One head only, for training that updates the encoder and one head.
  torch::Tensor forwardHead(HeadKind head, const torch::Tensor &fields,
                            const torch::Tensor &lengths, const torch::Tensor &clocks);
  /// z [B, hidden] and clocks [P, 2] -> one head's predictions [B, P].
  torch::Tensor applyHead(HeadKind head, const torch::Tensor &z, const torch::Tensor &clocks);

  DvfsModelOptions options;
  LstmEncoder encoder{nullptr};
  FeedForwardHead timeHead{nullptr}, powerHead{nullptr}, energyHead{nullptr};
};
TORCH_MODULE(DvfsModel);

} // namespace ptxdvfs::model
