// InstructionMix.h - the share of executions with each opcode, state space and type; no LibTorch.
#pragma once

#include "ptxdvfs/embeddings/InstructionRecord.h"

#include <cstdint>
#include <map>
#include <vector>

namespace ptxdvfs::model {

/// Table sizes of the embeddings: every value a 9-digit code can hold.
inline constexpr int64_t kOpcodeRows = 1001, kSpaceRows = 10, kTypeRows = 100,
                         kOperandRows = 10, kDistanceRows = 10, kKindRows = 3;

/// Width of an instruction mix: the opcode, state-space and type blocks.
inline constexpr int64_t kMixWidth = kOpcodeRows + kSpaceRows + kTypeRows;

/// The execution-unit block follows them (embeddings/ExecutionUnit.h): one
/// share per unit, Unknown included, at kMixWidth + unit.
inline constexpr int64_t kUnitRows = static_cast<int64_t>(embeddings::kExecutionUnitCount);
inline constexpr int64_t kHistogramFeatures = kMixWidth + kUnitRows;

/// Records' weights are stored in 1/kWeightScale units (see TensorDataset.h).
inline constexpr double kWeightScale = 1000.0;

/// The log scale of a mix share s: log(1 + kLogMixScale s) / log(1 + kLogMixScale),
/// which keeps 0 and 1 and spreads the small shares apart (see
/// DvfsModelOptions::log_mix and logScaled()).
inline constexpr double kLogMixScale = 1000.0;

/// How the kernels of a multi-kernel application become one input.
enum class KernelCombination {
  Concatenate, ///< all kernels' instructions in kernel order, one sequence
  LastKernel,  ///< only the last kernel (what the original tool saw)
};

/// A kernel of an application as the model reads it, with its share: its
/// threads over all its launches (LaunchSize::launchedThreads) over the
/// largest of the kernels read, so at most 1. Its records' weights
/// (executions per thread) are multiplied by it, so that the
/// application's mix counts the instructions all threads execute, not one
/// thread of each kernel. Every share is 1 where some kernel read has no
/// launch (read as written, an imported dataset), or where all launch as
/// many threads: those weights stay exactly as they were. A kernel of no
/// launches (LaunchSize::launches 0: the host code read launches others
/// and not it) is not read, unless no kernel has any.
struct KernelRead {
  const embeddings::EncodedKernel *kernel = nullptr;
  double share = 1;
};

/// The kernels of an application that `combination` reads, in order.
/// They point into `kernels`, which must outlive them: a temporary is refused.
std::vector<KernelRead> kernelsRead(const std::vector<embeddings::EncodedKernel> &kernels,
                                    KernelCombination combination);
std::vector<KernelRead> kernelsRead(std::vector<embeddings::EncodedKernel> &&kernels,
                                    KernelCombination combination) = delete;

/// A record's weight times its kernel's share, as the fields tensor
/// stores it: in 1/kWeightScale units, at least 1 unit.
int64_t storedWeight(const embeddings::InstructionRecord &record, double share);

/// Instruction mix of an application: the share of its instructions with
/// each opcode, state space and type value, and with each execution unit
/// (four blocks that each sum to 1), stored sparsely by feature index
/// (opcode + 1, kOpcodeRows + space, kOpcodeRows + kSpaceRows + type,
/// kMixWidth + unit). Order-free, so it cannot tell a loop body from
/// straight-line code; a loop shows only through the weights. A mix read
/// from a model folder written before the unit block has only three.
using InstructionHistogram = std::map<int64_t, float>;

/// Features of the opcode, space and type blocks, in that order (what the
/// histogram MLP and the LSTM's mix projection read; not the unit block).
inline int64_t histogramWidth() { return kMixWidth; }

/// Whether `histogram` has the execution-unit block.
bool hasUnitBlock(const InstructionHistogram &histogram);

/// The mix of the instructions the model reads of `kernels`: combined by
/// `combination`, cut to `maxLength` as fieldsTensor() cuts them, each
/// record counted by its stored weight (storedWeight).
/// The same numbers as histogramOf(fieldsTensor(...)), without LibTorch.
InstructionHistogram mixOf(const std::vector<embeddings::EncodedKernel> &kernels,
                           KernelCombination combination, int64_t maxLength = 0);

} // namespace ptxdvfs::model
