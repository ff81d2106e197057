// InductionVariables.cpp - registers that a loop moves by a fixed step each iteration.
#include "ptxdvfs/ptx/analysis/TripCounts.h"

#include "Copies.h"
#include "FloatSemantics.h"
#include "IntegerSemantics.h"
#include "Reasons.h"
#include "RegisterNames.h"

#include <algorithm>

namespace ptxdvfs::ptx::analysis {

std::int64_t InductionVariable::atIteration(std::uint64_t k) const {
  const IntType type{bits, isSigned, true};
  const IntType asBits{bits, false, true};
  std::int64_t start = *initial.number;
  switch (kind) {
  case Update::Add:
    return normalise(wrappingAdd(start, wrappingMul(static_cast<std::int64_t>(k), step)), type);
  case Update::ShiftLeft: {
    std::uint64_t shift = k * static_cast<std::uint64_t>(step);
    if (k > 64 || shift >= bits)
      return 0;
    return normalise(static_cast<std::int64_t>(static_cast<std::uint64_t>(start) << shift), type);
  }
  case Update::ShiftRight: {
    std::uint64_t shift = k * static_cast<std::uint64_t>(step);
    if (truncates) {
      // Repeated truncating division by 2^step is one division by 2^shift.
      const std::int64_t value = normalise(start, type);
      if (k > 64 || shift >= bits)
        return 0;
      const std::uint64_t magnitude = (value < 0 ? 0 - static_cast<std::uint64_t>(value)
                                                 : static_cast<std::uint64_t>(value)) >> shift;
      return value < 0 ? -static_cast<std::int64_t>(magnitude) : static_cast<std::int64_t>(magnitude);
    }
    if (k > 64 || shift >= bits)
      return isSigned && start < 0 ? -1 : 0;
    return isSigned ? normalise(start, type) >> shift
                    : static_cast<std::int64_t>(static_cast<std::uint64_t>(normalise(start, asBits)) >> shift);
  }
  case Update::Multiply: {
    std::int64_t value = start;
    for (std::uint64_t i = 0; i < std::min<std::uint64_t>(k, 128); ++i)
      value = normalise(static_cast<std::int64_t>(static_cast<std::uint64_t>(value) *
                                                  static_cast<std::uint64_t>(step)),
                        type);
    return value;
  }
  }
  return start;
}

bool TripCountAnalysis::insideLoop(std::uint32_t loop, std::uint32_t instruction) const {
  return instruction != ValueEvaluator::kNoDefinition &&
         forest_.loops[loop].contains(graph_.blockOf[instruction]);
}

bool TripCountAnalysis::runsEveryPass(std::uint32_t loop, std::uint32_t at) const {
  return !graph_.instructions[at]->guard && blockRunsEveryPass(loop, graph_.blockOf[at]);
}

void TripCountAnalysis::noteCounterSkips(std::uint32_t loop, const InductionVariable &counter, TripCount &count) const {
  if (!runsEveryPass(loop, counter.update))
    count.why.push_back("the counter " + counter.reg + " moves only on the passes that run line " +
                        std::to_string(graph_.instructions[counter.update]->location.line) +
                        ": counted as if it moved on every pass; each pass that skips it adds one");
}

bool TripCountAnalysis::blockRunsEveryPass(std::uint32_t loop, std::uint32_t block) const {
  const std::vector<std::uint32_t> &latches = forest_.loops[loop].latches;
  return std::all_of(latches.begin(), latches.end(),
                     [&](std::uint32_t latch) { return dominators_.dominates(block, latch); });
}

std::vector<std::uint32_t> TripCountAnalysis::definitionsInside(std::uint32_t loop, const std::string &reg) const {
  std::vector<std::uint32_t> inside;
  for (std::uint32_t def : values_.definitionsOf(reg))
    if (insideLoop(loop, def))
      inside.push_back(def);
  return inside;
}

std::optional<std::uint32_t> TripCountAnalysis::soleDefinitionInside(std::uint32_t loop, const Register *operand,
                                                                    std::uint32_t at) const {
  if (!operand || operand->negated)
    return std::nullopt;
  std::optional<std::uint32_t> definition = values_.soleReachingDefinition(operand->name, at);
  if (!definition || !insideLoop(loop, *definition))
    return std::nullopt;
  return definition;
}

bool TripCountAnalysis::changesInside(std::uint32_t loop, const std::string &reg, std::uint32_t at) const {
  auto defs = values_.reachingDefinitions(reg, at);
  return std::any_of(defs.begin(), defs.end(), [&](std::uint32_t def) { return insideLoop(loop, def); });
}

std::string TripCountAnalysis::whyNotInduction(std::uint32_t loop, const std::string &reg, std::uint32_t at,
                                               const Bindings &outer) const {
  // A counter stepped by an amount the loop does not change but the
  // analysis does not know (CUB's grid-even-share stride, a struct field):
  // what would make the step known.
  std::vector<std::uint32_t> inside = definitionsInside(loop, reg);
  if (inside.size() == 1) {
    const Instruction &update = *graph_.instructions[inside[0]];
    if ((update.opcode == "add" || update.opcode == "sub") && update.operands.size() == 3)
      for (std::size_t side = 1; side <= 2; ++side) {
        const auto *self = update.operands[side].getIf<Register>();
        const Operand &step = update.operands[3 - side];
        const auto *stepRegister = step.getIf<Register>();
        if (!self || self->name != reg || (update.opcode == "sub" && side == 2) || !stepRegister ||
            (changesInside(loop, stepRegister->name, inside[0]) &&
             !recomputedInvariant(loop, stepRegister->name, inside[0])))
          continue;
        Value amount = values_.operandAt(step, inside[0], outer);
        if (!amount.known() && !amount.why.empty())
          return amount.why.front();
      }
  }
  constexpr std::size_t kMaxDefinitions = 64; // a bound's chain is short; stop rather than walk a whole body
  std::vector<std::pair<std::string, std::uint32_t>> pending{{reg, at}};
  std::vector<std::uint32_t> seen;
  bool loadsData = false;
  while (!pending.empty() && seen.size() < kMaxDefinitions) {
    auto [name, readAt] = pending.back();
    pending.pop_back();
    for (std::uint32_t def : values_.reachingDefinitions(name, readAt)) {
      if (!insideLoop(loop, def) || std::find(seen.begin(), seen.end(), def) != seen.end())
        continue;
      seen.push_back(def);
      const Instruction &instruction = *graph_.instructions[def];
      if (instruction.opcode == "atom")
        return "the exit test's " + reg + " comes from an atomic (line " +
               std::to_string(instruction.location.line) +
               ", a work queue or a shared counter): how often each thread goes round depends on "
               "the other threads";
      if (instruction.opcode == "mbarrier")
        return "the exit test's " + reg + " comes from " + std::string(instruction.mnemonic) + " (line " +
               std::to_string(instruction.location.line) +
               "): the thread waits at a barrier for the others to arrive, a count only a run can tell";
      if (instruction.opcode == "ld" || instruction.opcode == "ldu") {
        bool sameAddress = true;
        if (instruction.operands.size() > 1)
          if (const auto *address = instruction.operands[1].getIf<Address>())
            for (const Operand &part : address->parts) {
              const auto *base = part.getIf<Register>();
              const auto *offset = part.getIf<RegisterOffset>();
              if ((base && changesInside(loop, base->name, def)) ||
                  (offset && changesInside(loop, offset->base, def)))
                sameAddress = false;
            }
        if (sameAddress && (instruction.hasModifier("volatile") || instruction.hasModifier("acquire") ||
                            instruction.hasModifier("relaxed")))
          return "the exit test's " + reg + " is read with " + std::string(instruction.mnemonic) +
                 " from the same address in every iteration (line " + std::to_string(instruction.location.line) +
                 "): a spin on a flag another thread or the host sets, a count only a run can tell";
        if (sameAddress)
          return "the exit test's " + reg +
                 " is re-read from the same address in every iteration (nvcc cannot prove the loop's "
                 "stores leave it alone; a local copy of the bound or __restrict__ pointers let it be "
                 "read once)";
        loadsData = true;
        continue;
      }
      for (std::size_t i = 1; i < instruction.operands.size(); ++i)
        if (const auto *source = instruction.operands[i].getIf<Register>())
          pending.emplace_back(source->name, def);
    }
  }
  if (loadsData)
    return "the exit test's " + reg + " depends on data loaded in the loop (a count only a run can tell)";
  return "register " + reg + " in the exit test is not an induction variable";
}

bool TripCountAnalysis::recomputedInvariant(std::uint32_t loop, const std::string &reg, std::uint32_t at,
                                            unsigned depth) const {
  constexpr unsigned kMaxDepth = 4; // `mov %r9, %ntid.x; mov %r10, %nctaid.x; mul %r11, %r9, %r10` is 2
  std::optional<std::uint32_t> definition = values_.soleReachingDefinition(reg, at);
  if (!definition || !insideLoop(loop, *definition) || depth >= kMaxDepth)
    return false;
  const Instruction &computation = *graph_.instructions[*definition];
  // Integer arithmetic, or the float arithmetic a bound is computed in
  // (-G recomputes `n * 0.75f` before every test): pure functions of their operands.
  const bool floatArithmetic = hasFloatType(computation) && computation.operands.size() >= 2 &&
                               (computation.opcode == "cvt" || computation.opcode == "mov" ||
                                modelsFloatArithmetic(computation.opcode, computation.operands.size() - 1));
  if (!isIntegerArithmetic(computation) && !floatArithmetic)
    return false;
  for (std::size_t i = 1; i < computation.operands.size(); ++i) {
    const auto *operand = computation.operands[i].getIf<Register>();
    if (operand && changesInside(loop, operand->name, *definition) &&
        !recomputedInvariant(loop, operand->name, *definition, depth + 1))
      return false;
  }
  return true;
}

std::optional<Value> TripCountAnalysis::updateStep(std::uint32_t loop, std::uint32_t arithmetic,
                                                  const std::string &updated, const Bindings &outer,
                                                  unsigned *countedBits, bool *truncates) const {
  const Instruction *instruction = graph_.instructions[arithmetic];
  std::string_view op = instruction->opcode;
  // A float counter's bits are no count (`f += 1.0f` adds 1.0 to a value,
  // not 0x3f800000 to its bits).
  if (kindOf(instruction->details.types.back()) == ScalarTypeKind::Float)
    return std::nullopt;
  // add.sat clamps at the type's ends instead of wrapping: no fixed step
  // there (simulatedCount() steps it).
  if (instruction->hasModifier("sat"))
    return std::nullopt;
  const unsigned bits = intTypeOf(instruction->details.types.back()).bits;
  // A copy of the counter taken earlier in the iteration, then `%r = %t op
  // step`: `mov %t, %r` where the body reads the old value (lud's `for (i
  // = 0; i < 15; i++)` reading i after `++i`), or a round trip through 64
  // bits (`cvt.s64.s32 %rd, %r` ... `cvt.u32.u64 %t, %rd`, an index kept
  // wide for addressing). Each link must be the only value its reader can
  // see, so it runs before the update in every iteration. A link narrower
  // than the update (`cvt.s64.s32` of a 64-bit counter: an int variable
  // stepped by a 64-bit stride) keeps only the low bits. The low bits of a
  // sum, difference, product or left shift depend on its operands' low bits
  // alone, so the counter is then counted in that width (`narrowest`); a
  // right shift brings high bits down, and is refused.
  const bool keepsLowBits = op != "shr";
  unsigned narrowest = bits;
  auto copiesUpdated = [&](const Register *operand, std::uint32_t at) {
    constexpr unsigned kMaxCopies = 4;
    unsigned width = bits;
    for (unsigned links = 0; links < kMaxCopies; ++links) {
      std::optional<std::uint32_t> definition = soleDefinitionInside(loop, operand, at);
      if (!definition)
        return false;
      const Instruction &copy = *graph_.instructions[*definition];
      const Register *source = copySource(copy);
      if (!source && (source = integerConversionSource(copy))) {
        const auto &types = copy.details.types;
        width = std::min({width, intTypeOf(types[0]).bits, intTypeOf(types[1]).bits});
      }
      if (!source || (width < bits && !keepsLowBits))
        return false;
      if (source->name == updated) {
        narrowest = std::min(narrowest, width);
        return true;
      }
      operand = source;
      at = *definition;
    }
    return false;
  };
  auto readsCounter = [&](const Register *operand, std::uint32_t at) {
    return operand && (operand->name == updated || copiesUpdated(operand, at));
  };
  // A signed division by 2^k: `shr.s32 q, u, k` of `u = x + t`, t being
  // x's sign bit brought down to the k low bits (`shr.u32 t, x, 31` for k
  // = 1; `shr.s32 s, x, 31; shr.u32 t, s, 32 - k` above), so that
  // negative values round toward zero. u then stands for x.
  auto roundedDividend = [&](const Register *operand, std::uint32_t at) -> bool {
    const Instruction &shift = *graph_.instructions[arithmetic];
    const auto *amount = shift.operands[2].getIf<Immediate>();
    const IntType type = intTypeOf(shift.details.types.back());
    std::optional<std::uint32_t> definition = soleDefinitionInside(loop, operand, at);
    if (op != "shr" || !type.isSigned || !amount || amount->kind != ImmediateKind::Integer || amount->bits == 0 ||
        amount->bits >= type.bits || !definition)
      return false;
    const Instruction &sum = *graph_.instructions[*definition];
    if (sum.opcode != "add" || sum.operands.size() != 3)
      return false;
    // The register `source` shifts right by `by` (shr.s when signedShift, else shr.u), in the loop.
    auto shiftOf = [&](const Register *source, std::uint32_t reader, bool signedShift,
                       std::uint64_t by) -> const Register * {
      std::optional<std::uint32_t> shifted = soleDefinitionInside(loop, source, reader);
      if (!shifted)
        return nullptr;
      const Instruction &instruction = *graph_.instructions[*shifted];
      const auto *count = instruction.operands.size() == 3 ? instruction.operands[2].getIf<Immediate>() : nullptr;
      if (instruction.opcode != "shr" || !count || count->bits != by || instruction.details.types.empty() ||
          intTypeOf(instruction.details.types.back()).isSigned != signedShift ||
          intTypeOf(instruction.details.types.back()).bits != type.bits)
        return nullptr;
      return instruction.operands[1].getIf<Register>();
    };
    for (std::size_t side : {1, 2}) {
      const auto *dividend = sum.operands[side].getIf<Register>();
      const auto *sign = sum.operands[3 - side].getIf<Register>();
      const Register *signOf = shiftOf(sign, *definition, false, type.bits - amount->bits);
      if (signOf && amount->bits > 1)
        signOf = shiftOf(signOf, *definition, true, type.bits - 1);
      if (dividend && signOf && signOf->name == dividend->name && readsCounter(dividend, *definition)) {
        if (truncates)
          *truncates = true;
        return true;
      }
    }
    return false;
  };
  // A partial sum of a chain of adds: nvcc's unrolled grid-stride loops add
  // the stride once per copy of the body (`%a = %i + s; %b = %a + s;
  // %i = %b + s`). The link must be the only value the read can see, so it
  // runs earlier in the same iteration.
  auto chainLink = [&](const Register *operand, std::uint32_t at) -> std::optional<std::uint32_t> {
    std::optional<std::uint32_t> definition = soleDefinitionInside(loop, operand, at);
    if (!definition)
      return std::nullopt;
    const Instruction &link = *graph_.instructions[*definition];
    if ((link.opcode != "add" && link.opcode != "sub") || link.operands.size() != 3 ||
        link.details.types.empty() || intTypeOf(link.details.types.back()).bits != bits)
      return std::nullopt;
    return definition;
  };
  struct StepTerm {
    const Operand *operand;
    std::uint32_t at;  ///< the instruction that reads it
    bool subtracted;
  };
  constexpr unsigned kMaxChain = 16; // nvcc unrolls by at most 8 here; longer is something else
  std::vector<StepTerm> terms;
  for (std::uint32_t at = arithmetic;;) {
    const Instruction &link = *graph_.instructions[at];
    std::string_view linkOp = link.opcode;
    const auto *left = link.operands[1].getIf<Register>();
    const auto *right = link.operands[2].getIf<Register>();
    bool commutes = linkOp == "add" || linkOp == "mul";
    if (readsCounter(left, at) || roundedDividend(left, at)) {
      terms.push_back({&link.operands[2], at, linkOp == "sub"});
      break;
    }
    if (commutes && readsCounter(right, at)) {
      terms.push_back({&link.operands[1], at, false});
      break;
    }
    bool additive = (linkOp == "add" || linkOp == "sub") && (op == "add" || op == "sub");
    if (!additive || terms.size() + 1 >= kMaxChain)
      return std::nullopt;
    if (auto next = chainLink(left, at)) {
      terms.push_back({&link.operands[2], at, linkOp == "sub"});
      at = *next;
    } else if (linkOp == "add" && (next = chainLink(right, at))) {
      terms.push_back({&link.operands[1], at, false});
      at = *next;
    } else {
      return std::nullopt;
    }
  }
  Value step = Value::constant(0);
  for (const StepTerm &term : terms) {
    if (const auto *stepRegister = term.operand->getIf<Register>();
        stepRegister && changesInside(loop, stepRegister->name, term.at) &&
        !recomputedInvariant(loop, stepRegister->name, term.at))
      return std::nullopt; // the step changes inside the loop
    Value part = values_.operandAt(*term.operand, term.at, outer);
    if (!part.known())
      return std::nullopt;
    step.number = term.subtracted ? wrappingSub(*step.number, *part.number) : wrappingAdd(*step.number, *part.number);
    step.origin = std::max(step.origin, part.origin);
    appendReasons(step.why, part.why);
  }
  if (countedBits)
    *countedBits = narrowest;
  return step;
}

std::optional<InductionVariable> TripCountAnalysis::inductionCopiedFrom(std::uint32_t loop,
                                                                        const std::string &temporary,
                                                                        const Bindings &outer) const {
  for (std::uint32_t block : forest_.loops[loop].blocks)
    for (std::uint32_t i = graph_.blocks[block].first; i < graph_.blocks[block].end; ++i) {
      const Instruction &instruction = *graph_.instructions[i];
      const Register *from = copySource(instruction);
      if (!from || from->name != temporary || instruction.operands.empty())
        continue;
      const auto *counter = instruction.operands[0].getIf<Register>();
      if (!counter)
        continue;
      std::optional<InductionVariable> variable = asInduction(loop, counter->name, outer);
      if (variable && variable->update == i && !variable->copiedAtHeaderStart)
        return variable;
    }
  return std::nullopt;
}

bool TripCountAnalysis::copiedFirstInHeader(std::uint32_t loop, std::uint32_t copy, const std::string &reg) const {
  const BasicBlock &header = graph_.blocks[forest_.loops[loop].header];
  if (copy < header.first || copy >= header.end)
    return false;
  for (std::uint32_t i = header.first; i < copy; ++i)
    if (namesRegister(*graph_.instructions[i], reg))
      return false;
  return true;
}

std::optional<InductionVariable> TripCountAnalysis::asInduction(std::uint32_t loop,
                                                                const std::string &reg,
                                                                const Bindings &outer) const {
  std::vector<std::uint32_t> inside = definitionsInside(loop, reg);
  if (inside.size() != 1)
    return std::nullopt;
  InductionVariable variable;
  variable.reg = reg;
  variable.update = inside[0];
  // `mov %r, %t` where `%t = %r op step` is the only write of %t in the loop.
  std::uint32_t arithmetic = inside[0];
  const Instruction *instruction = graph_.instructions[arithmetic];
  std::string enteringRegister = reg; // whose value the first iteration reads
  // `cvt.s16.s8 %rs6, %rs5` after `add.s16 %rs5, %rs6, 1`: a signed char
  // counter nvcc keeps in 16 bits, re-extended from its low 8 every pass.
  std::optional<IntType> narrowedTo;
  if (const Register *from = integerConversionSource(*instruction);
      from && !copiedFirstInHeader(loop, inside[0], reg)) {
    const IntType to = intTypeOf(instruction->details.types[0]), of = intTypeOf(instruction->details.types[1]);
    narrowedTo = to.bits > of.bits ? of : to;
    std::vector<std::uint32_t> temporaries = definitionsInside(loop, from->name);
    if (temporaries.size() != 1)
      return std::nullopt;
    arithmetic = temporaries[0];
    instruction = graph_.instructions[arithmetic];
  } else if (instruction->opcode == "mov" && instruction->operands.size() == 2) {
    const auto *from = instruction->operands[1].getIf<Register>();
    if (!from)
      return std::nullopt;
    // `mov %r10, %r30` opening the header, `add %r30, %r10, 1` later: nvcc
    // keeps the old counter for the body (`k == 0`, `a[k - 1]`) and tests
    // it. Each iteration starts by copying, so the first reads what %r30
    // brings into the loop.
    if (copiedFirstInHeader(loop, inside[0], reg)) {
      enteringRegister = from->name;
      variable.copiedAtHeaderStart = true;
    }
    // -G copies once more on the way round (`mov %r6, %r33` in the
    // header, `mov %r33, %r10` at the latch, `add %r10, %r6, 1024`).
    for (int copies = 0; copies < 3; ++copies) {
      std::vector<std::uint32_t> temporaries = definitionsInside(loop, from->name);
      if (temporaries.size() != 1)
        return std::nullopt;
      arithmetic = temporaries[0];
      instruction = graph_.instructions[arithmetic];
      from = copySource(*instruction);
      if (!from)
        break;
    }
  }
  std::string_view op = instruction->opcode;
  if (instruction->operands.size() != 3 || instruction->details.types.empty())
    return std::nullopt;
  unsigned countedBits = 0;
  std::optional<Value> step = updateStep(loop, arithmetic, reg, outer, &countedBits, &variable.truncates);
  if (!step)
    return std::nullopt;
  if (op == "add" || op == "sub") {
    variable.kind = InductionVariable::Update::Add;
    variable.step = *step->number;
  } else if (op == "shl" || op == "shr") {
    variable.kind = op == "shl" ? InductionVariable::Update::ShiftLeft
                                : InductionVariable::Update::ShiftRight;
    variable.step = *step->number;
    if (variable.step <= 0)
      return std::nullopt;
  } else if (op == "mul" && !instruction->hasModifier("wide")) {
    variable.kind = InductionVariable::Update::Multiply;
    variable.step = *step->number;
  } else {
    return std::nullopt;
  }
  ScalarType type = instruction->details.types.back();
  variable.bits = countedBits; // the update's width, or a narrower copy's on the way round
  variable.isSigned = intTypeOf(type).isSigned;
  if (narrowedTo && narrowedTo->bits < variable.bits) {
    variable.bits = narrowedTo->bits;
    variable.isSigned = narrowedTo->isSigned;
  }

  Value initial = entryValue(loop, enteringRegister, outer);
  // The step's provenance travels with the initial value into the count.
  if (initial.known()) {
    std::optional<std::int64_t> number = initial.number;
    initial.origin = std::max(initial.origin, step->origin);
    for (const std::string &reason : step->why)
      initial.why.push_back(reason);
    initial.number = number;
  }
  variable.initial = initial;
  return variable;
}

std::vector<InductionVariable> TripCountAnalysis::inductionVariables(std::uint32_t loop,
                                                                     const Bindings &outer) const {
  std::vector<std::string> candidates;
  for (std::uint32_t block : forest_.loops[loop].blocks)
    for (std::uint32_t i = graph_.blocks[block].first; i < graph_.blocks[block].end; ++i)
      for (std::string &reg : destinationRegisters(*graph_.instructions[i]))
        candidates.push_back(std::move(reg));
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  std::vector<InductionVariable> variables;
  for (const std::string &reg : candidates)
    if (auto variable = asInduction(loop, reg, outer); variable && variable->initial.known())
      variables.push_back(std::move(*variable));
  return variables;
}

} // namespace ptxdvfs::ptx::analysis
