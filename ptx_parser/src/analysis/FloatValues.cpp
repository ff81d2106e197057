// FloatValues.cpp - the value analysis on f32/f64 registers: enough of it to
// follow a bound nvcc keeps in float to the integer a loop compares.
#include "ptxdvfs/ptx/analysis/Values.h"

#include "FloatSemantics.h"
#include "ValueCombination.h"

#include <algorithm>
#include <array>

namespace ptxdvfs::ptx::analysis {

namespace {

/// The rounding a cvt names, integral (`rzi`) or not (`rn`); empty for none.
std::string_view roundingOf(const Instruction &instruction) {
  static const std::array<std::string_view, 8> roundings{"rni", "rzi", "rmi", "rpi", "rn", "rz", "rm", "rp"};
  for (std::string_view modifier : instruction.modifiers)
    if (std::find(roundings.begin(), roundings.end(), modifier) != roundings.end())
      return modifier;
  return {};
}

bool isFloat(ScalarType type) { return kindOf(type) == ScalarTypeKind::Float; }

} // namespace

Value ValueEvaluator::floatDefinedBy(std::uint32_t def, std::string_view reg, Query &query,
                                     unsigned depth) const {
  const Instruction &instruction = *graph_.instructions[def];
  std::string_view op = instruction.opcode;
  const auto &operands = instruction.operands;
  const auto &types = instruction.details.types;
  auto notFollowed = [&] {
    return Value::unknown("a floating-point value (line " + std::to_string(instruction.location.line) + ")");
  };
  // Bounds are kept in f32 or f64; the narrow types carry data only.
  auto wide = [](ScalarType type) { return !isFloat(type) || type == ScalarType::F32 || type == ScalarType::F64; };
  if (types.empty() || operands.empty() || !std::all_of(types.begin(), types.end(), wide))
    return notFollowed();

  // Operand i read as a number of `type`, with the Value it rests on.
  struct Number {
    Value value;
    std::optional<double> number;
  };
  auto read = [&](std::size_t i, ScalarType type) -> Number {
    if (i >= operands.size())
      return {Value::unknown("a missing operand"), std::nullopt};
    if (const auto *immediate = operands[i].getIf<Immediate>(); immediate && isFloat(type))
      return {Value::constant(0), immediateAsFloat(*immediate)};
    Value value = operandAt(operands[i], def, query, depth + 1);
    if (!value.known())
      return {value, std::nullopt};
    if (!isFloat(type))
      return {value, integerToFloat(*value.number, intTypeOf(type))};
    std::optional<double> number = decodeFloat(*value.number, type);
    if (!number)
      return {notFollowed(), std::nullopt};
    return {value, number};
  };
  // The result `number` written to a register of `type`, resting on `inputs`.
  auto result = [&](std::initializer_list<const Value *> inputs, std::optional<double> number,
                    ScalarType type) {
    return combine(inputs, number ? encodeFloat(*number, type) : std::nullopt);
  };

  if (op == "setp") {
    Number a = read(1, types.back()), b = read(2, types.back());
    std::optional<bool> compared;
    if (a.number && b.number && !instruction.modifiers.empty())
      compared = compareFloat(instruction.modifiers[0], *a.number, *b.number);
    return comparisonResult(def, reg, compared, a.value, b.value, query, depth);
  }
  if (op == "selp") {
    if (operands.size() != 4)
      return notFollowed();
    Value predicate = operandAt(operands[3], def, query, depth + 1);
    if (!predicate.known())
      return predicate;
    Number chosen = read(*predicate.number ? 1 : 2, types.back());
    Value value = result({&chosen.value}, chosen.number, types.back());
    absorb(value, predicate);
    return value;
  }
  if (op == "cvt") {
    // cvt.dst.src: a float source rounds to an integer (rzi, rmi, ...) or to
    // the destination's precision; an integer one converts to nearest.
    if (types.size() != 2)
      return notFollowed();
    Number source = read(1, types[1]);
    std::string_view rounding = roundingOf(instruction);
    if (!isFloat(types[0])) {
      std::optional<std::int64_t> number;
      if (source.number)
        number = floatToInteger(*source.number, rounding, intTypeOf(types[0]));
      return combine({&source.value}, number);
    }
    std::optional<double> number = source.number;
    if (number && isFloat(types[1]))
      if (std::optional<double> integral = roundIntegral(*number, rounding))
        number = integral;
    return result({&source.value}, number, types[0]);
  }
  if (op == "mov") {
    Number source = read(1, types.back());
    return result({&source.value}, source.number, types.back());
  }

  const std::size_t arity = operands.size() - 1;
  if (!modelsFloatArithmetic(op, arity))
    return notFollowed();
  std::vector<Number> inputs;
  std::vector<double> numbers;
  for (std::size_t i = 1; i <= arity; ++i) {
    inputs.push_back(read(i, types.back()));
    if (inputs.back().number)
      numbers.push_back(*inputs.back().number);
  }
  std::vector<const Value *> values;
  for (const Number &input : inputs)
    values.push_back(&input.value);
  std::optional<std::int64_t> bits;
  if (numbers.size() == arity)
    bits = encodeFloat(*floatArithmetic(op, numbers), types.back());
  return combineAll(values, bits);
}

} // namespace ptxdvfs::ptx::analysis
