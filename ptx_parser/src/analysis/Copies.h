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

/// The register `instruction` keeps the low `bits` of when it is `and`
/// with a mask 2^bits - 1 narrower than its type (`and.b16 %rs4, %rs5,
/// 255`: an unsigned char counter nvcc keeps in 16 bits); nullptr
/// otherwise.
inline const Register *maskedLowBits(const Instruction &instruction, unsigned &bits) {
  const auto &types = instruction.details.types;
  if (instruction.opcode != "and" || instruction.operands.size() != 3 || types.empty())
    return nullptr;
  const unsigned width = intTypeOf(types.back()).bits;
  for (std::size_t side = 1; side <= 2; ++side) {
    const auto *source = instruction.operands[side].getIf<Register>();
    const auto *mask = instruction.operands[3 - side].getIf<Immediate>();
    if (!source || source->negated || !mask || mask->kind != ImmediateKind::Integer || mask->negative)
      continue;
    const std::uint64_t value = mask->bits;
    if (value == 0 || (value & (value + 1)) != 0)
      return nullptr; // not 2^k - 1
    unsigned k = 0;
    while (k < 64 && ((value >> k) & 1))
      ++k;
    if (k >= width)
      return nullptr;
    bits = k;
    return source;
  }
  return nullptr;
}

} // namespace ptxdvfs::ptx::analysis
