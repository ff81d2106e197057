// DvfsModel.cpp - the encoder's embeddings and LSTM, the feed-forward heads, and their wiring.
#include "ptxdvfs/model/DvfsModel.h"

#include "ptxdvfs/model/TensorDataset.h"

#include <torch/torch.h>

#include <algorithm>

namespace ptxdvfs::model {

LstmEncoderImpl::LstmEncoderImpl(const LstmEncoderOptions &options_) : options(options_) {
  if (options.embedding() == EmbeddingMode::Joint) {
    joint = register_module("joint", torch::nn::Embedding(kJointRows, options.inputSize()));
  } else {
    opcode = register_module("opcode", torch::nn::Embedding(kOpcodeRows, options.opcode_dim()));
  space = register_module("space", torch::nn::Embedding(kSpaceRows, options.space_dim()));
  type = register_module("type", torch::nn::Embedding(kTypeRows, options.type_dim()));
  operands =
      register_module("operands", torch::nn::Embedding(kOperandRows, options.operands_dim()));
  distance =
      register_module("distance", torch::nn::Embedding(kDistanceRows, options.distance_dim()));
  kind = register_module("kind", torch::nn::Embedding(kKindRows, options.kind_dim()));
  }
  lstm = register_module(
      "lstm", FusedLstm(FusedLstmOptions(options.inputSize(), options.hidden_size())
                            .num_layers(options.num_layers())));
}

torch::Tensor LstmEncoderImpl::forward(const torch::Tensor &fields, const torch::Tensor &lengths) {
  auto column = [&](FieldColumn c) { return fields.select(2, c); };
  torch::Tensor embedded;
  if (options.embedding() == EmbeddingMode::Joint) {
    // The whole code as one number (mixed radix over the table sizes), folded into the table.
    torch::Tensor code = column(kOpcodeColumn);
    for (auto [c, rows] : {std::pair{kSpaceColumn, kSpaceRows}, {kTypeColumn, kTypeRows},
                           {kOperandsColumn, kOperandRows}, {kDistanceColumn, kDistanceRows},
                           {kKindColumn, kKindRows}})
      code = code * rows + column(c);
    embedded = joint(code.remainder(kJointRows));
  } else {
    embedded = torch::cat({opcode(column(kOpcodeColumn)), space(column(kSpaceColumn)),
                                       type(column(kTypeColumn)), operands(column(kOperandsColumn)),
                                       distance(column(kDistanceColumn)), kind(column(kKindColumn))},
                                      2);
  }
  // Not packed: a unidirectional LSTM's output at step len-1 depends on
  // steps 0..len-1 only, so gathering it keeps padding out of z. (Packing
  // also made libtorch 1.13's CPU backward grow faster than linearly.)
  torch::Tensor output = lstm(embedded); // [B, L, hidden]
  int64_t batch = output.size(0), hidden = output.size(2);
  if (options.readout() == Readout::Mean) {
    torch::Tensor steps = torch::arange(output.size(1), lengths.options()).unsqueeze(0);
    torch::Tensor own = (steps < lengths.unsqueeze(1)).to(output.dtype()).unsqueeze(2);
    return (output * own).sum(1) / lengths.to(output.dtype()).clamp_min(1).unsqueeze(1);
  }
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
  layers->push_back(torch::nn::Linear(width, options.outputs()));
  register_module("layers", layers);
}

torch::Tensor FeedForwardHeadImpl::forward(const torch::Tensor &input) {
  return layers->forward(input);
}

namespace {

/// Coefficients of the physically shaped surfaces (see HeadShape); a
/// signed interaction adds one to power.
constexpr int64_t kTimeCoefficients = 4, kPowerCoefficients = 5;

int64_t powerCoefficients(const DvfsModelOptions &options) {
  return kPowerCoefficients + (options.signed_power_interaction() ? 1 : 0);
}

int64_t coefficientCount(HeadKind head, const DvfsModelOptions &options) {
  switch (head) {
  case HeadKind::Time: return kTimeCoefficients;
  case HeadKind::Power: return powerCoefficients(options);
  case HeadKind::Energy: return kTimeCoefficients + powerCoefficients(options);
  }
  return 1;
}

/// raw [B, 4], u and v [P] -> [B, P].
torch::Tensor timeSurface(const torch::Tensor &raw, const torch::Tensor &u, const torch::Tensor &v,
                          double maxOverlap) {
  torch::Tensor positive = torch::softplus(raw) + 1e-4;
  auto coefficient = [&](int64_t i) { return positive.select(1, i).unsqueeze(1); };
  // k in [1, maxOverlap]: 1 adds the two parts, large k approaches their maximum.
  torch::Tensor k = 1 + (maxOverlap - 1) * torch::sigmoid(raw.select(1, 3)).unsqueeze(1);
  torch::Tensor core = k * (coefficient(1).log() - u.log().unsqueeze(0));
  torch::Tensor memory = k * (coefficient(2).log() - v.log().unsqueeze(0));
  return coefficient(0) + (torch::logaddexp(core, memory) / k).exp();
}

/// raw [B, 5] or [B, 6] (signed interaction), u and v [P] -> [B, P].
torch::Tensor powerSurface(const torch::Tensor &raw, const torch::Tensor &u, const torch::Tensor &v) {
  torch::Tensor positive = torch::softplus(raw);
  auto coefficient = [&](int64_t i) { return positive.select(1, i).unsqueeze(1); };
  torch::Tensor uu = u.unsqueeze(0), vv = v.unsqueeze(0);
  torch::Tensor interaction = coefficient(4);
  if (raw.size(1) > kPowerCoefficients) {
    // Down to -min(b1, bm): dp/du >= b1 (1 - v) and dp/dv >= bm (1 - u)
    // stay non-negative on the normalised clocks (u, v <= 1).
    torch::Tensor floor = torch::minimum(coefficient(1), coefficient(3));
    interaction = interaction - floor * torch::sigmoid(raw.select(1, kPowerCoefficients)).unsqueeze(1);
  }
  return coefficient(0) + coefficient(1) * uu + coefficient(2) * uu.pow(3) +
         coefficient(3) * vv + interaction * uu * vv;
}

} // namespace

DvfsModelImpl::DvfsModelImpl(const DvfsModelOptions &options_) : options(options_) {
  encoder = register_module("encoder", LstmEncoder(options.encoder()));
  if (options.mix_dim() > 0)
    mix = register_module("mix", torch::nn::Linear(kMixWidth, options.mix_dim()));
  bool physical = options.head_shape() == HeadShape::Physical;
  auto head = [&](HeadKind kind) {
    int64_t inputs = options.encoder().hidden_size() + options.mix_dim() +
                     (options.length_feature() ? 1 : 0) + (physical ? 0 : 2);
    return FeedForwardHead(FeedForwardHeadOptions(inputs)
                               .hidden(options.head_hidden())
                               .outputs(physical ? coefficientCount(kind, options) : 1));
  };
  timeHead = register_module("time_head", head(HeadKind::Time));
  powerHead = register_module("power_head", head(HeadKind::Power));
  energyHead = register_module("energy_head", head(HeadKind::Energy));
}

FeedForwardHead &DvfsModelImpl::headModule(HeadKind head) {
  switch (head) {
  case HeadKind::Time: return timeHead;
  case HeadKind::Power: return powerHead;
  case HeadKind::Energy: return energyHead;
  }
  return timeHead;
}

std::vector<torch::Tensor> DvfsModelImpl::headParameters() {
  std::vector<torch::Tensor> parameters;
  for (FeedForwardHead *head : {&timeHead, &powerHead, &energyHead})
    for (const torch::Tensor &parameter : (*head)->parameters())
      parameters.push_back(parameter);
  return parameters;
}

std::vector<torch::Tensor> DvfsModelImpl::latentParameters() {
  // Everything not in a head, so a module added beside the encoder (as the
  // mix projection once was, and went untrained) cannot be left out.
  std::vector<torch::Tensor> heads = headParameters(), rest;
  for (const torch::Tensor &parameter : parameters()) {
    bool inHead = std::any_of(heads.begin(), heads.end(), [&](const torch::Tensor &h) {
      return h.unsafeGetTensorImpl() == parameter.unsafeGetTensorImpl();
    });
    if (!inHead)
      rest.push_back(parameter);
  }
  return rest;
}

torch::Tensor DvfsModelImpl::applyHead(HeadKind head, const torch::Tensor &z,
                                       const torch::Tensor &clocks) {
  if (options.head_shape() == HeadShape::Physical) {
    torch::Tensor raw = headModule(head)(z);
    torch::Tensor v = clocks.select(1, 0), u = clocks.select(1, 1);
    switch (head) {
    case HeadKind::Time: return timeSurface(raw, u, v, options.time_max_overlap());
    case HeadKind::Power: return powerSurface(raw, u, v);
    case HeadKind::Energy:
      return timeSurface(raw.narrow(1, 0, kTimeCoefficients), u, v, options.time_max_overlap()) *
             powerSurface(raw.narrow(1, kTimeCoefficients, powerCoefficients(options)), u, v);
    }
  }
  int64_t batch = z.size(0), points = clocks.size(0);
  torch::Tensor input = torch::cat({z.unsqueeze(1).expand({batch, points, z.size(1)}),
                                    clocks.unsqueeze(0).expand({batch, points, 2})},
                                   2);
  return headModule(head)(input).squeeze(-1);
}

torch::Tensor DvfsModelImpl::forwardHead(HeadKind head, const torch::Tensor &fields,
                                         const torch::Tensor &lengths, const torch::Tensor &clocks) {
  return applyHead(head, latent(fields, lengths), clocks);
}

torch::Tensor DvfsModelImpl::latent(const torch::Tensor &fields, const torch::Tensor &lengths) {
  std::vector<torch::Tensor> parts = {encoder(fields, lengths)};
  if (mix) {
    torch::Tensor shares = instructionMix(fields, lengths);
    if (options.log_mix())
      shares = torch::log1p(kLogMixScale * shares) / std::log1p(kLogMixScale);
    parts.push_back(torch::tanh(mix(shares)));
  }
  if (options.length_feature())
    parts.push_back(lengths.to(torch::kFloat).clamp_min(1).log().unsqueeze(1) / 10);
  return parts.size() == 1 ? parts[0] : torch::cat(parts, 1);
}

DvfsPrediction DvfsModelImpl::forward(const torch::Tensor &fields, const torch::Tensor &lengths,
                                      const torch::Tensor &clocks) {
  torch::Tensor z = latent(fields, lengths);
  return {applyHead(HeadKind::Time, z, clocks), applyHead(HeadKind::Power, z, clocks),
          applyHead(HeadKind::Energy, z, clocks)};
}

} // namespace ptxdvfs::model
