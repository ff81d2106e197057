// Copies.h - the register-to-register moves nvcc makes of a loop's values: -G
// copies a variable before every use, and a rotated loop carries a value
// through a temporary (`mov %r1, %r151; add %r151, %r1, 1`).
#pragma once

#include "IntegerSemantics.h"

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

/// The register an integer-to-integer `cvt` converts (`cvt.s64.s32 %rd28,
/// %rd37`: widening or narrowing, each keeping the low bits of the narrower
/// type); nullptr for any other instruction or operand, and for `.sat`,
/// which clamps rather than keeps bits.
inline const Register *integerConversionSource(const Instruction &instruction) {
  const auto &types = instruction.details.types;
  if (instruction.opcode != "cvt" || instruction.operands.size() != 2 || types.size() != 2 ||
      !intTypeOf(types[0]).isInteger || !intTypeOf(types[1]).isInteger || instruction.modifiers.size() != 2)
    return nullptr;
  const auto *source = instruction.operands[1].getIf<Register>();
  return source && !source->negated ? source : nullptr;
}

/// The register `instruction` keeps the low bits of when it is an integer
/// `cvt` to the same or a narrower width (`cvt.u32.u64 %r23, %rd37`): a
/// comparison at the destination's width reads the source as it would the
/// destination. nullptr otherwise.
inline const Register *lowBitsSource(const Instruction &instruction) {
  const auto &types = instruction.details.types;
  const Register *source = integerConversionSource(instruction);
  return source && intTypeOf(types[0]).bits <= intTypeOf(types[1]).bits ? source : nullptr;
}

} // namespace ptxdvfs::ptx::analysis
