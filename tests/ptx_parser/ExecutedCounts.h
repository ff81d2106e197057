// ExecutedCounts.h - what an executed sequence adds up to, for the analysis tests.
#pragma once

#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <string_view>

namespace ptxdvfs::test {

/// Executions per thread of the instructions written `mnemonic`.
inline double executedCount(const ptx::analysis::ExecutedKernel &kernel, std::string_view mnemonic) {
  double total = 0;
  for (const ptx::analysis::ExecutedInstruction &step : kernel.sequence)
    if (step.instruction->mnemonic == mnemonic)
      total += step.weight;
  return total;
}

} // namespace ptxdvfs::test
