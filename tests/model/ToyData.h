// ToyData.h - a small learnable DVFS problem and tiny model sizes for fast CPU tests.
#pragma once

#include "ptxdvfs/model/DvfsModel.h"
#include "ptxdvfs/model/TensorDataset.h"
#include "ptxdvfs/model/Training.h"

#include <torch/torch.h>

#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

namespace ptxdvfs::test {

using namespace ptxdvfs::model;


inline embeddings::InstructionRecord record(int opcode, int space, int distance) {
  embeddings::InstructionRecord r;
  r.opcode = static_cast<std::uint16_t>(opcode);
  r.stateSpace = static_cast<std::uint8_t>(space);
  r.type = 7;
  r.operandCount = 3;
  r.dependencyDistance = static_cast<std::uint8_t>(distance);
  r.dependencyKind = embeddings::DependencyKind::Memory;
  // What the shipped vocabulary's table gives the two kinds the toys use:
  // opcode 54 in space 4 is ld.global; the others are s32 (type 7) arithmetic.
  r.unit = opcode == 54 && space == 4 ? embeddings::ExecutionUnit::GlobalMemory
                                      : embeddings::ExecutionUnit::Integer;
  return r;
}

/// One launch of the given grid and block (in blocks and threads), its
/// sizes constant as if the program fixed them.
inline ptx::analysis::LaunchSize launchOf(ptx::analysis::Dim3 grid, ptx::analysis::Dim3 block) {
  ptx::analysis::LaunchSize launch;
  launch.grid = grid;
  launch.block = block;
  return launch;
}

/// Applications whose scaling depends on how memory-bound their code is:
/// a learnable, deterministic toy problem with 4 V-F points.
inline TensorDataset toyData(int applications) {
  TensorDataset data;
  data.clocks = torch::tensor({{0.25f, 0.5f}, {0.25f, 1.0f}, {1.0f, 0.5f}, {1.0f, 1.0f}});
  for (int a = 0; a < applications; ++a) {
    double memoryShare = (a % 5) / 4.0;
    embeddings::EncodedKernel kernel{"k" + std::to_string(a), {}};
    int length = 6 + (a * 7) % 23;
    for (int i = 0; i < length; ++i)
      kernel.instructions.push_back(
          i < memoryShare * length ? record(54, 4, 1) : record(30, 0, 2));
    torch::Tensor targets = torch::zeros({4, 3});
    for (int p = 0; p < 4; ++p) {
      float fmem = data.clocks[p][0].item<float>(), fcore = data.clocks[p][1].item<float>();
      float time = static_cast<float>(memoryShare / fmem + (1 - memoryShare) / fcore);
      float power = 0.5f + 0.3f * fcore + 0.2f * fmem;
      targets[p][0] = time;
      targets[p][1] = power;
      targets[p][2] = time * power;
    }
    data.items.push_back({kernel.name, fieldsTensor({kernel}, KernelCombination::Concatenate),
                          targets});
  }
  return data;
}

inline DvfsModelOptions tinyModel() {
  return DvfsModelOptions()
      .encoder(LstmEncoderOptions().hidden_size(8).num_layers(2).opcode_dim(4))
      .head_hidden({12, 8});
}

inline std::vector<std::size_t> range(std::size_t begin, std::size_t end) {
  std::vector<std::size_t> indices;
  for (std::size_t i = begin; i < end; ++i)
    indices.push_back(i);
  return indices;
}

/// Loss on the 24-application toy problem before and after 30 epochs of
/// joint training with seed 7.
struct ToyLearning {
  double before = 0, after = 0;
  TrainResult result;
};
inline ToyLearning learnToyProblem(const DvfsModelOptions &architecture) {
  TensorDataset data = toyData(24);
  ToyLearning run;
  torch::manual_seed(7);
  DvfsModel untrained(architecture);
  run.before = evaluationLoss(untrained, data, range(0, 24), 8);
  auto trained = train(data, range(0, 24), {}, architecture,
                       TrainOptions().epochs(30).seed(7).patience(0).schedule(HeadSchedule::Joint));
  if (!trained)
    throw std::runtime_error("training the toy problem failed");
  run.result = std::move(*trained);
  run.after = evaluationLoss(run.result.model, data, range(0, 24), 8);
  return run;
}

inline bool sameWeights(DvfsModel &a, DvfsModel &b) {
  auto pa = a->parameters(), pb = b->parameters();
  if (pa.size() != pb.size())
    return false;
  for (std::size_t i = 0; i < pa.size(); ++i)
    if (!torch::equal(pa[i], pb[i]))
      return false;
  return true;
}

inline std::string freshDir(const std::string &name) {
  std::string dir = (std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()))).string();
  std::filesystem::remove_all(dir);
  return dir;
}


} // namespace ptxdvfs::test
