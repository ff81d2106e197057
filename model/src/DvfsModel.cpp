// DvfsModel.cpp - the encoder's embeddings and LSTM, the feed-forward heads, and their wiring.
#include "ptxdvfs/model/DvfsModel.h"

#include "ptxdvfs/model/TensorDataset.h"

#include <torch/torch.h>

namespace ptxdvfs::model {

LstmEncoderImpl::LstmEncoderImpl(const LstmEncoderOptions &options_) : options(options_) {
  opcode = register_module("opcode", torch::nn::Embedding(kOpcodeRows, options.opcode_dim()));
  space = register_module("space", torch::nn::Embedding(kSpaceRows, options.space_dim()));
  type = register_module("type", torch::nn::Embedding(kTypeRows, options.type_dim()));
  operands =
      register_module("operands", torch::nn::Embedding(kOperandRows, options.operands_dim()));
  distance =
      register_module("distance", torch::nn::Embedding(kDistanceRows, options.distance_dim()));
  kind = register_module("kind", torch::nn::Embedding(kKindRows, options.kind_dim()));
  lstm = register_module(
      "lstm", FusedLstm(FusedLstmOptions(options.inputSize(), options.hidden_size())
                            .num_layers(options.num_layers())));
}

torch::Tensor LstmEncoderImpl::forward(const torch::Tensor &fields, const torch::Tensor &lengths) {
  auto column = [&](FieldColumn c) { return fields.select(2, c); };
  torch::Tensor embedded = torch::cat({opcode(column(kOpcodeColumn)), space(column(kSpaceColumn)),
                                       type(column(kTypeColumn)), operands(column(kOperandsColumn)),
                                       distance(column(kDistanceColumn)), kind(column(kKindColumn))},
                                      2);
  // Not packed: a unidirectional LSTM's output at step len-1 depends on
  // steps 0..len-1 only, so gathering it keeps padding out of z. (Packing
  // also made libtorch 1.13's CPU backward grow faster than linearly.)
  torch::Tensor output = lstm(embedded); // [B, L, hidden]
  int64_t batch = output.size(0), hidden = output.size(2);
  torch::Tensor last = (lengths.to(torch::kInt64) - 1).clamp_min(0).view({batch, 1, 1});
  return output.gather(1, last.expand({batch, 1, hidden})).squeeze(1);
}

FeedForwardHeadImpl::FeedForwardHeadImpl(const FeedForwardHeadOptions &options) {
  layers = torch::nn::Sequential();
  int64_t width = options.input_size();
  for (int64_t hidden : options.hidden()) {
    layers->push_back(torch::nn::Linear(width, hidden));
    layers->push_back(torch::nn::ReLU());
    width = hidden;
  }
  layers->push_back(torch::nn::Linear(width, 1));
  register_module("layers", layers);
}

torch::Tensor FeedForwardHeadImpl::forward(const torch::Tensor &input) {
  return layers->forward(input).squeeze(-1);
}

DvfsModelImpl::DvfsModelImpl(const DvfsModelOptions &options_) : options(options_) {
  encoder = register_module("encoder", LstmEncoder(options.encoder()));
  auto head = [&] {
    return FeedForwardHead(
        FeedForwardHeadOptions(options.encoder().hidden_size() + 2).hidden(options.head_hidden()));
  };
  timeHead = register_module("time_head", head());
  powerHead = register_module("power_head", head());
  energyHead = register_module("energy_head", head());
}

torch::Tensor DvfsModelImpl::applyHead(HeadKind head, const torch::Tensor &z,
                                       const torch::Tensor &clocks) {
  int64_t batch = z.size(0), points = clocks.size(0);
  torch::Tensor input = torch::cat({z.unsqueeze(1).expand({batch, points, z.size(1)}),
                                    clocks.unsqueeze(0).expand({batch, points, 2})},
                                   2);
  switch (head) {
  case HeadKind::Time: return timeHead(input);
  case HeadKind::Power: return powerHead(input);
  case HeadKind::Energy: return energyHead(input);
  }
  return timeHead(input);
}

torch::Tensor DvfsModelImpl::forwardHead(HeadKind head, const torch::Tensor &fields,
                                         const torch::Tensor &lengths, const torch::Tensor &clocks) {
  return applyHead(head, encoder(fields, lengths), clocks);
}

DvfsPrediction DvfsModelImpl::forward(const torch::Tensor &fields, const torch::Tensor &lengths,
                                      const torch::Tensor &clocks) {
  torch::Tensor z = encoder(fields, lengths);
  return {applyHead(HeadKind::Time, z, clocks), applyHead(HeadKind::Power, z, clocks),
          applyHead(HeadKind::Energy, z, clocks)};
}

} // namespace ptxdvfs::model
