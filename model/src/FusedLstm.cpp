// FusedLstm.cpp - forward and backward of one LSTM layer over a whole sequence.
#include "ptxdvfs/model/FusedLstm.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#if defined(__SSE__)
#include <xmmintrin.h>
#endif

namespace ptxdvfs::model {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

/// Gradients fading over thousands of steps become denormal floats, which
/// x86 processes about 100 times slower (backward went from 1.57 s to
/// 0.52 s per 1,000 steps when flushed). Flush them to zero inside the
/// time loops only, restoring the caller's mode afterwards.
class FlushDenormalsGuard {
public:
#if defined(__SSE__)
  FlushDenormalsGuard() : saved_(_mm_getcsr()) { _mm_setcsr(saved_ | 0x8040); } // FTZ | DAZ
  ~FlushDenormalsGuard() { _mm_setcsr(saved_); }

private:
  unsigned saved_;
#endif
};

/// out[b][k] += sum_j d[b][j] * w[j][k] for d [B, J], w [J, K]: the small
/// per-step products, written as row updates the compiler vectorises.
void addProduct(const float *d, const float *w, float *out, int64_t rows, int64_t j, int64_t k) {
  for (int64_t b = 0; b < rows; ++b) {
    float *row = out + b * k;
    for (int64_t n = 0; n < j; ++n) {
      float scale = d[b * j + n];
      const float *weights = w + n * k;
      for (int64_t m = 0; m < k; ++m)
        row[m] += scale * weights[m];
    }
  }
}

/// out[b][k] = sum_j d[b][j] * w[j][k] for d [B, J], w [J, K].
void product(const float *d, const float *w, float *out, int64_t rows, int64_t j, int64_t k) {
  std::fill(out, out + rows * k, 0.0f);
  addProduct(d, w, out, rows, j, k);
}

/// One layer, time-major: input [T, B, I] -> output [T, B, H].
struct LstmLayerFunction : public torch::autograd::Function<LstmLayerFunction> {
  static torch::Tensor forward(AutogradContext *ctx, const torch::Tensor &input,
                               const torch::Tensor &weightIh, const torch::Tensor &weightHh,
                               const torch::Tensor &biasIh, const torch::Tensor &biasHh) {
    const int64_t steps = input.size(0), batch = input.size(1), hidden = weightHh.size(1);
    const int64_t gateWidth = 4 * hidden;
    FlushDenormalsGuard flushDenormals;
    torch::Tensor w = weightHh.contiguous();
    torch::Tensor wT = weightHh.t().contiguous(); // [H, 4H]: h W^T as row updates
    // Every step's input projection in one GEMM.
    torch::Tensor gates = torch::addmm((biasIh + biasHh).unsqueeze(0),
                                       input.reshape({steps * batch, input.size(2)}), weightIh.t())
                              .reshape({steps, batch, gateWidth})
                              .contiguous();
    torch::Tensor cells = torch::zeros({steps + 1, batch, hidden});
    torch::Tensor states = torch::zeros({steps + 1, batch, hidden});
    float *g = gates.data_ptr<float>(), *c = cells.data_ptr<float>(), *h = states.data_ptr<float>();
    const float *wTp = wT.data_ptr<float>();
    const int64_t stateSize = batch * hidden, gateSize = batch * gateWidth;
    for (int64_t t = 0; t < steps; ++t) {
      float *gt = g + t * gateSize;
      addProduct(h + t * stateSize, wTp, gt, batch, hidden, gateWidth);
      const float *cPrev = c + t * stateSize;
      float *cNow = c + (t + 1) * stateSize, *hNow = h + (t + 1) * stateSize;
      for (int64_t b = 0; b < batch; ++b) {
        float *row = gt + b * gateWidth;
        for (int64_t k = 0; k < hidden; ++k) {
          // Activations replace the pre-activations: backward needs only them.
          float i = row[k] = sigmoid(row[k]);
          float f = row[hidden + k] = sigmoid(row[hidden + k]);
          float cand = row[2 * hidden + k] = std::tanh(row[2 * hidden + k]);
          float o = row[3 * hidden + k] = sigmoid(row[3 * hidden + k]);
          float cell = f * cPrev[b * hidden + k] + i * cand;
          cNow[b * hidden + k] = cell;
          hNow[b * hidden + k] = o * std::tanh(cell);
        }
      }
    }
    ctx->save_for_backward({input, weightIh, w, gates, cells, states});
    return states.narrow(0, 1, steps);
  }

  static variable_list backward(AutogradContext *ctx, variable_list gradOutputs) {
    FlushDenormalsGuard flushDenormals;
    auto saved = ctx->get_saved_variables();
    const torch::Tensor &input = saved[0], &weightIh = saved[1], &w = saved[2];
    const torch::Tensor &gates = saved[3], &cells = saved[4], &states = saved[5];
    const int64_t steps = input.size(0), batch = input.size(1), hidden = w.size(1);
    const int64_t gateWidth = 4 * hidden, stateSize = batch * hidden, gateSize = batch * gateWidth;
    torch::Tensor gradOutput = gradOutputs[0].contiguous();
    torch::Tensor gradGates = torch::empty({steps, batch, gateWidth});
    torch::Tensor gradState = torch::zeros({batch, hidden}), gradCell = torch::zeros({batch, hidden});
    const float *g = gates.data_ptr<float>(), *c = cells.data_ptr<float>();
    const float *go = gradOutput.data_ptr<float>(), *wp = w.data_ptr<float>();
    float *gg = gradGates.data_ptr<float>(), *dh = gradState.data_ptr<float>(),
          *dc = gradCell.data_ptr<float>();
    for (int64_t t = steps - 1; t >= 0; --t) {
      const float *gt = g + t * gateSize, *cPrev = c + t * stateSize,
                  *cNow = c + (t + 1) * stateSize, *gradOut = go + t * stateSize;
      float *dGate = gg + t * gateSize;
      for (int64_t b = 0; b < batch; ++b) {
        const float *row = gt + b * gateWidth;
        float *dRow = dGate + b * gateWidth;
        for (int64_t k = 0; k < hidden; ++k) {
          int64_t at = b * hidden + k;
          float i = row[k], f = row[hidden + k], cand = row[2 * hidden + k], o = row[3 * hidden + k];
          float tanhCell = std::tanh(cNow[at]);
          float dState = gradOut[at] + dh[at];
          float dCell = dc[at] + dState * o * (1 - tanhCell * tanhCell);
          dRow[k] = dCell * cand * i * (1 - i);
          dRow[hidden + k] = dCell * cPrev[at] * f * (1 - f);
          dRow[2 * hidden + k] = dCell * i * (1 - cand * cand);
          dRow[3 * hidden + k] = dState * tanhCell * o * (1 - o);
          dc[at] = dCell * f;
        }
      }
      product(dGate, wp, dh, batch, gateWidth, hidden); // gradient reaching h_{t-1}
    }
    // The weight gradients and the input gradient as single GEMMs.
    torch::Tensor flatGrad = gradGates.reshape({steps * batch, gateWidth});
    torch::Tensor previous = states.narrow(0, 0, steps).reshape({steps * batch, hidden});
    torch::Tensor gradWeightHh = flatGrad.t().mm(previous);
    torch::Tensor gradWeightIh = flatGrad.t().mm(input.reshape({steps * batch, input.size(2)}));
    torch::Tensor gradBias = flatGrad.sum(0);
    torch::Tensor gradInput = flatGrad.mm(weightIh).reshape(input.sizes());
    return {gradInput, gradWeightIh, gradWeightHh, gradBias, gradBias};
  }
};

} // namespace

FusedLstmImpl::FusedLstmImpl(const FusedLstmOptions &options_) : options(options_) {
  const double bound = 1.0 / std::sqrt(static_cast<double>(options.hidden_size()));
  for (int64_t layer = 0; layer < options.num_layers(); ++layer) {
    int64_t inputs = layer == 0 ? options.input_size() : options.hidden_size();
    auto parameter = [&](const std::string &name, std::vector<int64_t> shape) {
      return register_parameter(name + std::to_string(layer),
                                torch::empty(shape).uniform_(-bound, bound));
    };
    int64_t gateWidth = 4 * options.hidden_size();
    weightsIh.push_back(parameter("weight_ih_l", {gateWidth, inputs}));
    weightsHh.push_back(parameter("weight_hh_l", {gateWidth, options.hidden_size()}));
    biasesIh.push_back(parameter("bias_ih_l", {gateWidth}));
    biasesHh.push_back(parameter("bias_hh_l", {gateWidth}));
  }
}

torch::Tensor FusedLstmImpl::forward(const torch::Tensor &input) {
  torch::Tensor sequence = input.transpose(0, 1).contiguous(); // time-major
  for (int64_t layer = 0; layer < options.num_layers(); ++layer)
    sequence = LstmLayerFunction::apply(sequence, weightsIh[layer], weightsHh[layer],
                                        biasesIh[layer], biasesHh[layer]);
  return sequence.transpose(0, 1);
}

} // namespace ptxdvfs::model
