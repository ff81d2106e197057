// IntegerSemantics.h - how PTX integer registers wrap and compare, and which instructions compute
// integers; shared by value evaluation, trip counts and loop control.
#pragma once

#include "ptxdvfs/ptx/Instruction.h"
#include "ptxdvfs/ptx/Types.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string_view>

namespace ptxdvfs::ptx::analysis {

/// Width and signedness of the integer type an instruction computes in.
struct IntType {
  unsigned bits = 64;
  bool isSigned = false;
  bool isInteger = true;
};

inline IntType intTypeOf(ScalarType type) {
  switch (kindOf(type)) {
  case ScalarTypeKind::Float: return {sizeInBytes(type) * 8, true, false};
  case ScalarTypeKind::Signed: return {sizeInBytes(type) * 8, true, true};
  case ScalarTypeKind::Predicate: return {1, false, true};
  default: return {sizeInBytes(type) * 8, false, true};
  }
}

/// Two's-complement arithmetic on 64 bits, as registers wrap (signed
/// overflow is undefined in C++; the values come from any PTX).
inline std::int64_t wrappingAdd(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}
inline std::int64_t wrappingSub(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
}
inline std::int64_t wrappingMul(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}
inline std::int64_t wrappingNeg(std::int64_t a) { return wrappingSub(0, a); }

/// The register's bits for `type`, sign-extended when signed.
inline std::int64_t normalise(std::int64_t value, IntType type) {
  if (type.bits >= 64)
    return value;
  std::uint64_t mask = (std::uint64_t{1} << type.bits) - 1;
  std::uint64_t bits = static_cast<std::uint64_t>(value) & mask;
  if (type.isSigned && (bits >> (type.bits - 1)) & 1)
    bits |= ~mask;
  return static_cast<std::int64_t>(bits);
}

/// `value` (an exact integer, or for a 64-bit unsigned `from` its bits)
/// clamped into `type`'s range: PTX's `.sat` on integer `add`, `sub` and
/// `cvt`, which clamp rather than wrap.
inline std::int64_t saturate(std::int64_t value, IntType type, IntType from = {64, true, true}) {
  const bool aboveInt64 = !from.isSigned && from.bits >= 64 && value < 0; // bits of a value >= 2^63
  if (type.bits >= 64) {
    if (!type.isSigned)
      return aboveInt64 || value >= 0 ? value : 0;
    return aboveInt64 ? INT64_MAX : value;
  }
  const std::int64_t high = type.isSigned ? (std::int64_t{1} << (type.bits - 1)) - 1 : (std::int64_t{1} << type.bits) - 1;
  const std::int64_t low = type.isSigned ? -(std::int64_t{1} << (type.bits - 1)) : 0;
  if (aboveInt64 || value > high)
    return normalise(high, type);
  return value < low ? low : value;
}

/// Comparison key: signed values as they are, unsigned ones as their bits.
inline bool lessThan(std::int64_t a, std::int64_t b, IntType type) {
  if (type.isSigned)
    return normalise(a, type) < normalise(b, type);
  IntType unsignedType{type.bits, false, true};
  return static_cast<std::uint64_t>(normalise(a, unsignedType)) <
         static_cast<std::uint64_t>(normalise(b, unsignedType));
}

/// What integer `op` (add, sub, mul or mad's product, div, rem, min, max,
/// and, or, xor, shl, shr) gives for `a` and `b` read as `type`, before
/// the result is cut to its width; `high`: mul.hi's upper half. nullopt
/// for a division by zero or another opcode.
inline std::optional<std::int64_t> integerResult(std::string_view op, std::int64_t a, std::int64_t b, IntType type,
                                                 bool high) {
  // mul.hi of 64-bit operands needs the 128-bit product; a GCC/Clang extension.
  __extension__ using Int128 = __int128;
  __extension__ using UInt128 = unsigned __int128;
  const std::int64_t x = normalise(a, type), y = normalise(b, type);
  const auto ux = static_cast<std::uint64_t>(normalise(x, {type.bits, false, true}));
  const auto uy = static_cast<std::uint64_t>(normalise(y, {type.bits, false, true}));
  if (op == "add") return wrappingAdd(x, y);
  if (op == "sub") return wrappingSub(x, y);
  if (op == "mul" || op == "mad") {
    if (!high)
      return type.isSigned ? wrappingMul(x, y) : static_cast<std::int64_t>(ux * uy);
    Int128 product = type.isSigned ? static_cast<Int128>(x) * y : static_cast<Int128>(static_cast<UInt128>(ux) * uy);
    return static_cast<std::int64_t>(product >> type.bits);
  }
  if (op == "div" || op == "rem") {
    if (y == 0)
      return std::nullopt;
    if (type.isSigned && y == -1) // INT64_MIN / -1 traps in C++; the register wraps
      return op == "div" ? wrappingNeg(x) : 0;
    return type.isSigned ? (op == "div" ? x / y : x % y) : static_cast<std::int64_t>(op == "div" ? ux / uy : ux % uy);
  }
  if (op == "min") return lessThan(x, y, type) ? x : y;
  if (op == "max") return lessThan(x, y, type) ? y : x;
  if (op == "and") return x & y;
  if (op == "or") return x | y;
  if (op == "xor") return x ^ y;
  if (op == "shl") return uy >= type.bits ? 0 : static_cast<std::int64_t>(ux << uy);
  if (op == "shr") {
    if (type.isSigned)
      return uy >= type.bits ? (x < 0 ? -1 : 0) : x >> uy;
    return uy >= type.bits ? 0 : static_cast<std::int64_t>(ux >> uy);
  }
  return std::nullopt;
}

/// setp's comparison; nullopt for the float-only and unordered ones.
inline std::optional<bool> compare(std::string_view op, std::int64_t a, std::int64_t b, IntType type) {
  bool lt = lessThan(a, b, type), gt = lessThan(b, a, type), eq = !lt && !gt;
  if (op == "eq") return eq;
  if (op == "ne") return !eq;
  if (op == "lt" || op == "lo") return lt;
  if (op == "le" || op == "ls") return lt || eq;
  if (op == "gt" || op == "hi") return gt;
  if (op == "ge" || op == "hs") return gt || eq;
  return std::nullopt;
}

/// `clz`, `popc`, `brev` or `bfind` of `bits` (the operand's `type.bits`
/// low bits): what PTX defines each to give, brev in the operand's width,
/// the others as a .u32 (bfind's "none found" is 0xffffffff). A signed
/// bfind finds the highest bit that differs from the sign: the highest
/// clear bit of a negative value.
inline std::int64_t bitInstruction(std::string_view op, std::uint64_t bits, IntType type, bool shiftAmount) {
  const unsigned width = type.bits >= 64 ? 64 : type.bits;
  if (op == "bfind" && type.isSigned && width > 0 && ((bits >> (width - 1)) & 1))
    bits = ~bits & (width >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1);
  if (op == "popc") {
    std::int64_t count = 0;
    for (; bits != 0; bits &= bits - 1)
      ++count;
    return count;
  }
  if (op == "brev") {
    std::uint64_t reversed = 0;
    for (unsigned bit = 0; bit < width; ++bit)
      reversed |= ((bits >> bit) & 1) << (width - 1 - bit);
    return normalise(static_cast<std::int64_t>(reversed), type);
  }
  int highest = -1; // the highest bit set
  for (int bit = static_cast<int>(width) - 1; bit >= 0 && highest < 0; --bit)
    if ((bits >> bit) & 1)
      highest = bit;
  if (op == "clz")
    return static_cast<std::int64_t>(width) - 1 - highest;
  if (highest < 0)
    return 0xffffffff;
  return shiftAmount ? static_cast<std::int64_t>(width) - 1 - highest : highest;
}

/// The three-source bit instructions, as the PTX ISA defines them on
/// their operands' low bits; nullopt for a form not modelled (prmt's
/// f4e, b4e, rc8, ecl, ecr and rc16 modes).
/// - `shf.l`/`shf.r` (`.wrap`: the shift modulo 32; `.clamp`: at most
///   32): the upper (left) or lower (right) word of b:a shifted by c;
/// - `sad`: c + |a - b| in `type`;
/// - `prmt` (default mode): each byte of the result picks one of the
///   eight bytes of b:a by a nibble of c, whose bit 3 asks for that
///   byte's sign replicated instead.
inline std::optional<std::int64_t> threeSourceResult(const Instruction &instruction, std::int64_t a, std::int64_t b,
                                                     std::int64_t c, IntType type) {
  const std::string_view op = instruction.opcode;
  const auto word = [](std::int64_t x) { return static_cast<std::uint64_t>(static_cast<std::uint32_t>(x)); };
  if (op == "shf") {
    const std::uint64_t joined = word(b) << 32 | word(a);
    const std::uint64_t amount = instruction.hasModifier("clamp") ? std::min<std::uint64_t>(word(c), 32) : word(c) & 31;
    if (instruction.hasModifier("l"))
      return static_cast<std::int64_t>(word(static_cast<std::int64_t>((joined << amount) >> 32)));
    if (instruction.hasModifier("r"))
      return static_cast<std::int64_t>(word(static_cast<std::int64_t>(joined >> amount)));
    return std::nullopt;
  }
  if (op == "sad") {
    const std::int64_t x = normalise(a, type), y = normalise(b, type);
    const bool below = lessThan(x, y, type);
    return normalise(c + (below ? y - x : x - y), type);
  }
  if (op == "prmt") {
    if (instruction.modifiers.size() != 1) // `prmt.b32` alone: the default mode
      return std::nullopt;
    const std::uint64_t bytes = word(b) << 32 | word(a);
    std::uint64_t result = 0;
    for (unsigned i = 0; i < 4; ++i) {
      const std::uint64_t selector = (word(c) >> (4 * i)) & 0xf;
      std::uint64_t byte = (bytes >> (8 * (selector & 7))) & 0xff;
      if (selector & 8)
        byte = (byte & 0x80) ? 0xff : 0;
      result |= byte << (8 * i);
    }
    return static_cast<std::int64_t>(result);
  }
  return std::nullopt;
}

/// Whether any type the instruction names is a float (`cvt.rzi.s32.f32`
/// reads one, `setp.lt.f32` compares them).
inline bool hasFloatType(const Instruction &instruction) {
  for (ScalarType type : instruction.details.types)
    if (kindOf(type) == ScalarTypeKind::Float)
      return true;
  return false;
}

/// Integer arithmetic, moves, selects and comparisons on no float type:
/// a pure function of its operands (no memory, no side effect).
inline bool isIntegerArithmetic(const Instruction &instruction) {
  static const std::set<std::string_view> opcodes{"add", "sub", "mul", "mad", "shl", "shr", "and",
                                                  "or",  "xor", "cvt", "neg", "min", "max", "mov",
                                                  "cvta", "selp", "setp", "not", "div", "rem"};
  return opcodes.count(instruction.opcode) && !hasFloatType(instruction);
}

} // namespace ptxdvfs::ptx::analysis
