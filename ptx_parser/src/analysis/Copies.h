// Copies.h - the register-to-register moves nvcc makes of a loop's values: -G
// copies a variable before every use, and a rotated loop carries a value
// through a temporary (`mov %r1, %r151; add %r151, %r1, 1`).
#pragma once

#include "ptxdvfs/ptx/Instruction.h"

namespace ptxdvfs::ptx::analysis {

/// The register `instruction` copies when it is `mov dst, src` of a plain
/// register; nullptr for any other instruction or operand.
inline const Register *copySource(const Instruction &instruction) {
  if (instruction.opcode != "mov" || instruction.operands.size() != 2)
    return nullptr;
  const auto *source = instruction.operands[1].getIf<Register>();
  return source && !source->negated ? source : nullptr;
}

} // namespace ptxdvfs::ptx::analysis
