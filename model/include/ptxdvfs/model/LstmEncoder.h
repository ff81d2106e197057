// LstmEncoder.h - instruction embeddings and the LSTM that reads a kernel into a latent vector.
#pragma once

#include "ptxdvfs/model/FusedLstm.h"

#include <torch/nn/module.h>
#include <torch/nn/modules/embedding.h>
#include <torch/nn/pimpl.h>

namespace ptxdvfs::model {

/// How an instruction's six fields become the LSTM's input.
enum class EmbeddingMode {
  PerField, ///< one table per field, concatenated: unseen combinations still get known parts
  Joint,    ///< one table over the whole code (hashed into kJointRows rows), as the original tool
};

/// Which of the LSTM's outputs becomes z.
enum class Readout {
  /// The output at each sequence's last step (the paper). Every kernel ends
  /// alike (stores, `ret`), so z must carry the body across those steps.
  Last,
  /// The mean of the outputs over each sequence's own steps: every step
  /// reaches z directly, and so does the gradient.
  Mean,
};

/// Rows of the joint table; the codes of real programs are far fewer, so
/// collisions are rare.
inline constexpr int64_t kJointRows = 1 << 16;

/// Sizes of the encoder. `LstmEncoderOptions().hidden_size(50).num_layers(2)`.
struct LstmEncoderOptions {
  /// The LSTM's input width: all field embeddings side by side.
  int64_t inputSize() const {
    return opcode_dim_ + space_dim_ + type_dim_ + operands_dim_ + distance_dim_ + kind_dim_;
  }

  /// Width of each per-field embedding; their concatenation feeds the LSTM.
  TORCH_ARG(int64_t, opcode_dim) = 16;
  TORCH_ARG(int64_t, space_dim) = 4;
  TORCH_ARG(int64_t, type_dim) = 6;
  TORCH_ARG(int64_t, operands_dim) = 3;
  TORCH_ARG(int64_t, distance_dim) = 4;
  TORCH_ARG(int64_t, kind_dim) = 2;
  /// LSTM state size: the dimension of the latent vector z.
  TORCH_ARG(int64_t, hidden_size) = 50;
  TORCH_ARG(int64_t, num_layers) = 2;
  /// Joint mode uses one table of inputSize() columns.
  TORCH_ARG(EmbeddingMode, embedding) = EmbeddingMode::PerField;
  TORCH_ARG(Readout, readout) = Readout::Last;
};

/// Embeds each field of an instruction separately (so a combination never
/// seen in training still gets meaningful parts) and runs a
/// unidirectional LSTM; z is read from the last layer's outputs (see Readout).
struct LstmEncoderImpl : torch::nn::Module {
  explicit LstmEncoderImpl(const LstmEncoderOptions &options = {});

  /// fields [B, L, 6] int64 (padded), lengths [B] int64 >= 1 -> z [B, hidden].
  /// z is read from each sequence's own steps only, so padding never
  /// reaches it.
  torch::Tensor forward(const torch::Tensor &fields, const torch::Tensor &lengths);

  LstmEncoderOptions options;
  torch::nn::Embedding opcode{nullptr}, space{nullptr}, type{nullptr}, operands{nullptr},
      distance{nullptr}, kind{nullptr}, joint{nullptr};
  FusedLstm lstm{nullptr};
};
TORCH_MODULE(LstmEncoder);

} // namespace ptxdvfs::model
