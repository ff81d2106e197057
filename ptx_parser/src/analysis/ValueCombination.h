// ValueCombination.h - a value computed from others rests on what they rest on.
#pragma once

#include "Reasons.h"

#include "ptxdvfs/ptx/analysis/Values.h"

#include <cstdint>
#include <initializer_list>
#include <optional>

namespace ptxdvfs::ptx::analysis {

/// Merges the provenance of `from` into `into` (the worst origin wins).
inline void absorb(Value &into, const Value &from) {
  mergeProvenance(into, from);
  into.perThread = into.perThread || from.perThread;
}

/// The result `number` of an instruction on `inputs`: known when they all
/// are, resting on all of them; else unknown, resting on the unknown ones.
/// All known but no number: the operation is not modelled. `Inputs`: any
/// range of `const Value *` (an instruction's operands, however many).
template <typename Inputs>
Value combineAll(const Inputs &inputs, std::optional<std::int64_t> number) {
  Value result;
  bool allKnown = true;
  for (const Value *input : inputs)
    allKnown = allKnown && input->known();
  if (allKnown && !number)
    return Value::unknown("an operation that is not modelled (or a division by zero)");
  for (const Value *input : inputs)
    if (allKnown || !input->known())
      absorb(result, *input);
  if (allKnown)
    result.number = number;
  return result;
}

/// combineAll on a braced list (`combine({&a, &b}, number)`).
inline Value combine(std::initializer_list<const Value *> inputs, std::optional<std::int64_t> number) {
  return combineAll(inputs, number);
}

} // namespace ptxdvfs::ptx::analysis
