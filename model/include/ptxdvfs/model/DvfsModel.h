// DvfsModel.h - the encoder plus three heads: time, power and energy scaling at each V-F point.
#pragma once

#include "ptxdvfs/model/LstmEncoder.h"

#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/linear.h>

#include <string>
#include <vector>

namespace ptxdvfs::model {

/// A feed-forward network, ReLU after each hidden layer.
/// `FeedForwardHeadOptions(52).hidden({100, 70})`.
struct FeedForwardHeadOptions {
  explicit FeedForwardHeadOptions(int64_t input_size) : input_size_(input_size) {}
  TORCH_ARG(int64_t, input_size);
  /// Hidden layer widths, each followed by ReLU (paper: 100, 70).
  TORCH_ARG(std::vector<int64_t>, hidden) = std::vector<int64_t>{100, 70};
  TORCH_ARG(int64_t, outputs) = 1;
};

struct FeedForwardHeadImpl : torch::nn::Module {
  explicit FeedForwardHeadImpl(const FeedForwardHeadOptions &options);
  /// [..., input_size] -> [..., outputs].
  torch::Tensor forward(const torch::Tensor &input);

  torch::nn::Sequential layers{nullptr};
};
TORCH_MODULE(FeedForwardHead);

/// What a head computes from z and the clocks.
enum class HeadShape {
  /// The paper: an FNN on [z, f_mem/f_mem_max, f_core/f_core_max] per
  /// V-F point; can draw any surface, including jagged ones.
  Free,
  /// An FNN on z gives the few coefficients of an analytical surface
  /// (u = f_core/f_core_max, v = f_mem/f_mem_max, all coefficients >= 0):
  /// time t = a0 + ((ac/u)^k + (am/v)^k)^(1/k), a core-bound and a
  /// memory-bound part that overlap more as k grows from 1 (sum) towards a
  /// max; power p = s + b1 u + b3 u^3 + bm v + bcm u v, static plus
  /// dynamic parts that rise with each clock (see signed_power_interaction);
  /// energy the product of its own time-shaped and power-shaped factors.
  /// Smooth and monotonic.
  Physical,
};

/// Everything that fixes an architecture; saved next to the weights.
struct DvfsModelOptions {
  TORCH_ARG(LstmEncoderOptions, encoder) = LstmEncoderOptions();
  TORCH_ARG(std::vector<int64_t>, head_hidden) = std::vector<int64_t>{100, 70};
  TORCH_ARG(HeadShape, head_shape) = HeadShape::Free;
  /// Width of a projection of the instruction mix (see instructionMix())
  /// that joins z before the heads; 0: the heads see z alone (the paper).
  TORCH_ARG(int64_t, mix_dim) = 0;
  /// Project log(1 + 1000 share) / log(1001) instead of the shares: a
  /// 4-operations-per-load loop and a 64-operations one differ by 0.02 in
  /// load share but by a third of the range on this scale.
  TORCH_ARG(bool, log_mix) = false;
  /// Largest overlap exponent k of the physical time surface. Near a
  /// maximum (large k) the smaller part gets almost no gradient: a program
  /// the heads take for core-bound cannot learn that it is memory-bound.
  /// 1 makes the two parts add, and both always learn.
  TORCH_ARG(double, time_max_overlap) = 9.0;
  /// Let the physical power surface's u v term go negative (down to
  /// -min(b1, bm), which keeps power monotonic in each clock): measured
  /// power rises more with the core clock at the low memory clock than at
  /// the high one, which a positive interaction cannot draw.
  TORCH_ARG(bool, signed_power_interaction) = false;
  /// Also give the heads log(sequence length) / 10: operations per load,
  /// which decides whether a short arithmetic loop is bandwidth-bound.
  TORCH_ARG(bool, length_feature) = false;
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
  /// What the heads read: z [B, hidden], with the projected mix beside it
  /// when mix_dim > 0 and the log length when length_feature.
  torch::Tensor latent(const torch::Tensor &fields, const torch::Tensor &lengths);
  /// latent() [B, ...] and clocks [P, 2] -> one head's predictions [B, P].
  torch::Tensor applyHead(HeadKind head, const torch::Tensor &z, const torch::Tensor &clocks);

  FeedForwardHead &headModule(HeadKind head);

  /// The three heads' parameters (trained at the head learning rate).
  std::vector<torch::Tensor> headParameters();
  /// Every other parameter: embeddings, LSTM and the mix projection, all
  /// of which feed the latent vector (trained at the encoder learning rate).
  /// With headParameters(), every parameter exactly once.
  std::vector<torch::Tensor> latentParameters();

  DvfsModelOptions options;
  LstmEncoder encoder{nullptr};
  torch::nn::Linear mix{nullptr}; ///< only with mix_dim > 0
  FeedForwardHead timeHead{nullptr}, powerHead{nullptr}, energyHead{nullptr};
};
TORCH_MODULE(DvfsModel);

} // namespace ptxdvfs::model
