// Operand.h - the operands of a PTX instruction, one case per syntactic form.
#pragma once

#include "ptxdvfs/ptx/Diagnostic.h"

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace ptxdvfs::ptx {

struct Operand;

/// `%r1`, `%p2`, `%tid` (special registers keep their `%` name); `!%p1`
/// sets `negated` (PTX ISA 9.7: predicate negation on source operands).
/// Also a name without `%` that a `.reg` of an enclosing scope declares
/// (`p` in inline asm's `{ .reg .pred p; ... }`; resolveScopedRegisterNames).
struct Register {
  std::string name;
  bool negated = false;
};

/// `%tid.x`, `%r1.y`: one component of a vector register.
struct VectorElement {
  std::string base;      ///< `%tid`
  std::string component; ///< `x`
};

/// A name that is not a register: label, variable, parameter or function.
struct Symbol {
  std::string name;
};

enum class ImmediateKind {
  Integer,     ///< decimal, hex (0x), octal (leading 0) or binary (0b), optional U
  Float32Bits, ///< 0f followed by 8 hex digits: the IEEE bits of a float
  Float64Bits, ///< 0d followed by 16 hex digits: the IEEE bits of a double
  DecimalFloat ///< 1.5, 2e3
};

/// A literal. `bits` holds the integer value (two's complement when
/// `negative`) or the IEEE bits; `value` holds the numeric value as double.
struct Immediate {
  ImmediateKind kind = ImmediateKind::Integer;
  bool negative = false;
  std::uint64_t bits = 0;
  double value = 0;
  std::string text; ///< as written, sign included
};

/// `%rd1+8`, `param0+0`, `%rd2+-16`, `x-4`: a base name plus a byte offset.
struct RegisterOffset {
  std::string base;
  std::int64_t offset = 0;
};

/// `[ ... ]`: an address. Usually one part (`[%rd1]`, `[%rd1+8]`, `[x]`);
/// texture and surface instructions add more (`[tex, {%f1, %f2}]`).
struct Address {
  std::vector<Operand> parts;
};

/// `{%f1, %f2, _, %f4}`: a vector of registers.
struct VectorPack {
  std::vector<Operand> elements;
};

/// `(param0, param1)`: the parenthesised lists of `call`.
struct ArgumentList {
  std::vector<Operand> elements;
};

/// `%p|%q`: the two destination predicates of `setp`/`shfl`.
struct PredicatePair {
  std::string first;
  std::string second;
};

/// `_`: a destination whose value is discarded.
struct Sink {};

/// Any other constant expression (`a*4+b`), kept as written.
struct Expression {
  std::string text;
};

using OperandValue =
    std::variant<Register, VectorElement, Symbol, Immediate, RegisterOffset,
                 Address, VectorPack, ArgumentList, PredicatePair, Sink,
                 Expression>;

struct Operand {
  OperandValue value;
  SourceLocation location; ///< first character of the operand

  template <typename T> const T *getIf() const { return std::get_if<T>(&value); }
  template <typename T> bool is() const { return std::holds_alternative<T>(value); }
};

/// Human-readable rendering in PTX syntax (`[%rd1+8]`, `{%f1, %f2}`).
std::string toString(const Operand &operand);

} // namespace ptxdvfs::ptx
