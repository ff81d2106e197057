// FloatSemantics.h - what PTX's f32/f64 instructions compute, for the value
// analysis: nvcc keeps a loop bound in float when the source computes it so
// (`(int)ceilf(n / 32.0f)`, `(int)sqrtf(1024.0f)` folded to `mov.f32 0f42000000`
// and a `cvt.rzi`).
//
// A float register's Value::number holds its IEEE bits (f32 in the low 32),
// as the register does. Results are rounded to the destination's precision
// once; the .approx instructions (lg2, ex2, rcp, rsqrt, sqrt, div) give the
// exact result, which the hardware's may miss by an ulp.
#pragma once

#include "IntegerSemantics.h"

#include "ptxdvfs/ptx/Operand.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ptxdvfs::ptx::analysis {

/// Bits of the register of `type` (f32 or f64) read as a number; nullopt
/// for the narrow float types, which no bound is kept in.
inline std::optional<double> decodeFloat(std::int64_t bits, ScalarType type) {
  if (type == ScalarType::F32) {
    auto low = static_cast<std::uint32_t>(bits);
    float value;
    std::memcpy(&value, &low, sizeof value);
    return value;
  }
  if (type == ScalarType::F64) {
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  }
  return std::nullopt;
}

/// `value` rounded to `type` (f32 or f64) and written as its register's bits.
inline std::optional<std::int64_t> encodeFloat(double value, ScalarType type) {
  if (type == ScalarType::F32) {
    // A double beyond float's range converts with undefined behaviour in
    // C++; IEEE rounding takes it to the largest float or to infinity.
    constexpr double kMaxFloat = std::numeric_limits<float>::max();
    const double halfLastUlp = std::ldexp(1.0, 103); // float's ulp at its largest is 2^104
    if (std::isfinite(value) && std::fabs(value) > kMaxFloat)
      value = std::copysign(std::fabs(value) < kMaxFloat + halfLastUlp ? kMaxFloat
                                                                        : std::numeric_limits<double>::infinity(),
                            value);
    auto narrow = static_cast<float>(value);
    std::uint32_t bits;
    std::memcpy(&bits, &narrow, sizeof bits);
    return static_cast<std::int64_t>(bits);
  }
  if (type == ScalarType::F64) {
    std::int64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
  }
  return std::nullopt;
}

/// The number a float instruction reads from an immediate operand: the
/// bits of `0f`/`0d`, or an integer written as such (`add.f32 %f1, %f2, 1`).
inline double immediateAsFloat(const Immediate &immediate) {
  return immediate.kind == ImmediateKind::Integer ? static_cast<double>(static_cast<std::int64_t>(immediate.bits))
                                                  : immediate.value;
}

/// `value` as the shortest decimal that reads back as the same number of
/// `type` (f32: 0.01f shows as "0.01", not "0.009999999776482582"; "1e+300",
/// "inf"): how a float is shown in a report.
inline std::string shortestDecimal(double value, ScalarType type = ScalarType::F64) {
  char buffer[32];
  auto written = type == ScalarType::F32
                     ? std::to_chars(buffer, buffer + sizeof buffer, static_cast<float>(value))
                     : std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, written.ptr);
}

/// The integral rounding a cvt names (`rni`, `rzi`, `rmi`, `rpi`); nullopt
/// for none of them.
inline std::optional<double> roundIntegral(double value, std::string_view rounding) {
  if (rounding == "rni") return std::nearbyint(value); // ties to even in the default mode
  if (rounding == "rzi") return std::trunc(value);
  if (rounding == "rmi") return std::floor(value);
  if (rounding == "rpi") return std::ceil(value);
  return std::nullopt;
}

/// cvt from a float to an integer type: rounded as `rounding` says, clamped
/// to the destination's range, NaN to 0 (PTX ISA, cvt: float-to-integer
/// conversions saturate).
inline std::optional<std::int64_t> floatToInteger(double value, std::string_view rounding, IntType type) {
  std::optional<double> rounded = roundIntegral(value, rounding);
  if (!rounded || type.bits > 64)
    return std::nullopt;
  if (std::isnan(*rounded))
    return 0;
  // The range's ends; `beyond` is one past the largest, a power of two, so
  // it is exact as a double.
  int magnitudeBits = static_cast<int>(type.bits) - (type.isSigned ? 1 : 0);
  double lowest = type.isSigned ? -std::ldexp(1.0, magnitudeBits) : 0.0;
  double beyond = std::ldexp(1.0, magnitudeBits);
  if (*rounded < lowest)
    return normalise(static_cast<std::int64_t>(lowest), type);
  if (*rounded >= beyond) {
    std::uint64_t highest = magnitudeBits == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << magnitudeBits) - 1;
    return normalise(static_cast<std::int64_t>(highest), type);
  }
  if (type.isSigned)
    return normalise(static_cast<std::int64_t>(*rounded), type);
  return normalise(static_cast<std::int64_t>(static_cast<std::uint64_t>(*rounded)), type);
}

/// An integer register's value converted to a float number (cvt.rn).
inline double integerToFloat(std::int64_t value, IntType type) {
  if (type.isSigned)
    return static_cast<double>(normalise(value, type));
  return static_cast<double>(static_cast<std::uint64_t>(normalise(value, {type.bits, false, true})));
}

/// setp on floats: the ordered comparisons are false and the unordered
/// ones (`equ`, `ltu`, ...) true when either side is NaN; nullopt for an
/// unknown comparison.
inline std::optional<bool> compareFloat(std::string_view op, double a, double b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  if (op == "num") return !unordered;
  if (op == "nan") return unordered;
  bool wantsUnordered = op.size() == 3 && op.back() == 'u';
  std::string_view base = wantsUnordered ? op.substr(0, 2) : op;
  static const std::set<std::string_view> comparisons{"eq", "ne", "lt", "le", "gt", "ge"};
  if (!comparisons.count(base))
    return std::nullopt;
  if (unordered)
    return wantsUnordered;
  if (base == "eq") return a == b;
  if (base == "ne") return a != b;
  if (base == "lt") return a < b;
  if (base == "le") return a <= b;
  if (base == "gt") return a > b;
  if (base == "ge") return a >= b;
  return std::nullopt;
}

/// The arithmetic instructions on one float type whose result the analysis
/// computes, on their operands' numbers; nullopt for any other (sin, cos,
/// tanh, copysign, ...), which no bound nvcc emits goes through.
inline std::optional<double> floatArithmetic(std::string_view op, const std::vector<double> &x) {
  auto arity = [&](std::size_t n) { return x.size() == n; };
  if (arity(1)) {
    if (op == "neg") return -x[0];
    if (op == "abs") return std::fabs(x[0]);
    if (op == "sqrt") return std::sqrt(x[0]);
    if (op == "rsqrt") return 1 / std::sqrt(x[0]);
    if (op == "rcp") return 1 / x[0];
    if (op == "lg2") return std::log2(x[0]);
    if (op == "ex2") return std::exp2(x[0]);
  }
  if (arity(2)) {
    if (op == "add") return x[0] + x[1];
    if (op == "sub") return x[0] - x[1];
    if (op == "mul") return x[0] * x[1];
    if (op == "div") return x[0] / x[1];
    if (op == "min") return std::fmin(x[0], x[1]);
    if (op == "max") return std::fmax(x[0], x[1]);
  }
  if (arity(3) && (op == "fma" || op == "mad"))
    return std::fma(x[0], x[1], x[2]);
  return std::nullopt;
}

/// Whether floatArithmetic computes `op` on `arity` operands.
inline bool modelsFloatArithmetic(std::string_view op, std::size_t arity) {
  return floatArithmetic(op, std::vector<double>(arity, 1.0)).has_value();
}

} // namespace ptxdvfs::ptx::analysis
