// InstructionMix.cpp - the instruction mix from encoded records, as the fields tensor would give it.
#include "ptxdvfs/model/InstructionMix.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace ptxdvfs::model {

std::vector<KernelRead> kernelsRead(const std::vector<embeddings::EncodedKernel> &kernels,
                                    KernelCombination combination) {
  std::vector<KernelRead> read;
  if (combination == KernelCombination::LastKernel && !kernels.empty())
    read.push_back({&kernels.back()});
  else
    for (const embeddings::EncodedKernel &kernel : kernels)
      read.push_back({&kernel});
  double most = 0;
  for (const KernelRead &kernel : read) {
    if (!kernel.kernel->launch)
      return read;
    most = std::max(most, kernel.kernel->launch->launchedThreads());
  }
  if (most == 0)
    return read;
  for (KernelRead &kernel : read)
    kernel.share = kernel.kernel->launch->launchedThreads() / most;
  // A kernel the host code never launches runs no thread of the application.
  read.erase(std::remove_if(read.begin(), read.end(), [](const KernelRead &kernel) { return kernel.share == 0; }),
             read.end());
  return read;
}

int64_t storedWeight(const embeddings::InstructionRecord &record, double share) {
  return std::max<int64_t>(1, static_cast<int64_t>(std::llround(record.weight * share * kWeightScale)));
}

InstructionHistogram mixOf(const std::vector<embeddings::EncodedKernel> &kernels,
                           KernelCombination combination, int64_t maxLength) {
  // Rows as fieldsTensor() makes them: feature indices and the stored weight.
  struct Row {
    std::array<int64_t, 4> features;
    double weight;
  };
  std::vector<Row> rows;
  for (const KernelRead &read : kernelsRead(kernels, combination))
    for (const embeddings::InstructionRecord &record : read.kernel->instructions)
      rows.push_back({{std::min<int64_t>(record.opcode + 1, kOpcodeRows - 1),
                       kOpcodeRows + std::min<int64_t>(record.stateSpace, kSpaceRows - 1),
                       kOpcodeRows + kSpaceRows + std::min<int64_t>(record.type, kTypeRows - 1),
                       kMixWidth + static_cast<int64_t>(record.unit)},
                      static_cast<double>(static_cast<float>(storedWeight(record, read.share)) /
                                          static_cast<float>(kWeightScale))});
  if (rows.empty()) // the all-zero row of an empty application, counted once
    rows.push_back({{0, kOpcodeRows, kOpcodeRows + kSpaceRows, kMixWidth}, 1.0});
  auto length = static_cast<int64_t>(rows.size());
  if (maxLength > 0 && length > maxLength) {
    int64_t head = maxLength / 2;
    rows.erase(rows.begin() + head, rows.begin() + (length - (maxLength - head)));
  }
  std::map<int64_t, double> counts;
  double total = 0;
  for (const Row &row : rows) {
    for (int64_t feature : row.features)
      counts[feature] += row.weight;
    total += row.weight;
  }
  InstructionHistogram mix;
  for (const auto &[feature, count] : counts)
    mix[feature] = static_cast<float>(count / std::max(total, 1e-6));
  return mix;
}

bool hasUnitBlock(const InstructionHistogram &histogram) {
  return histogram.lower_bound(kMixWidth) != histogram.end();
}

} // namespace ptxdvfs::model
