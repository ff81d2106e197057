// Values.cpp - reaching definitions and the integer semantics of the instructions that compute bounds.
#include "ptxdvfs/ptx/analysis/Values.h"

#include "IntegerSemantics.h"
#include "Reasons.h"
#include "ValueCombination.h"

#include <algorithm>
#include <set>

namespace ptxdvfs::ptx::analysis {

std::string_view toString(ValueOrigin origin) {
  switch (origin) {
  case ValueOrigin::Constant: return "constant";
  case ValueOrigin::Assumed: return "assumed";
  case ValueOrigin::Defaulted: return "default";
  case ValueOrigin::Unknown: return "unknown";
  }
  return "unknown";
}

Value Value::unknown(std::string reason) {
  return Value{std::nullopt, ValueOrigin::Unknown, {std::move(reason)}};
}

namespace {

/// Deeper chains than this are not followed; nvcc's bound computations are a few steps.
constexpr unsigned kMaxDepth = 48;

/// Definitions a query follows before it remembers what each one gave.
constexpr unsigned kStepsBeforeMemo = 64;

const std::set<std::string_view> &opcodesWithoutDestination() {
  static const std::set<std::string_view> opcodes{
      "st",      "red",   "bar",     "barrier", "bra",       "brx",      "call",   "ret",
      "exit",    "trap",  "membar",  "fence",   "prefetch",  "prefetchu", "cp",    "pmevent",
      "nanosleep", "setmaxnreg", "griddepcontrol", "stmatrix", "discard", "applypriority"};
  return opcodes;
}

/// `base + x ± c`: an address moved by a known amount keeps its base.
std::optional<Value> addressArithmetic(bool subtract, const Value &a, const Value &b) {
  const Value *address = a.fromBase ? &a : (!subtract && b.fromBase ? &b : nullptr);
  const Value *amount = address == &a ? &b : &a;
  if (!address || !amount->known())
    return std::nullopt;
  Value::FromBase from = address->fromBase.value();
  from.offset = subtract ? wrappingSub(from.offset, *amount->number) : wrappingAdd(from.offset, *amount->number);
  from.origin = std::max(from.origin, amount->origin);
  appendReasons(from.why, amount->why);
  Value moved = *address;
  moved.fromBase = std::move(from);
  moved.perThread = moved.perThread || amount->perThread;
  return moved;
}

} // namespace

namespace {

/// destinationRegisters, as views into the instruction.
std::vector<std::string_view> destinationNames(const Instruction &instruction) {
  std::vector<std::string_view> names;
  if (instruction.operands.empty() || opcodesWithoutDestination().count(instruction.opcode))
    return names;
  const Operand &destination = instruction.operands[0];
  if (const auto *reg = destination.getIf<Register>())
    names.push_back(reg->name);
  else if (const auto *pair = destination.getIf<PredicatePair>()) {
    names.push_back(pair->first);
    names.push_back(pair->second);
  } else if (const auto *pack = destination.getIf<VectorPack>()) {
    for (const Operand &element : pack->elements)
      if (const auto *elementRegister = element.getIf<Register>())
        names.push_back(elementRegister->name);
  }
  return names;
}

} // namespace

std::vector<std::string> destinationRegisters(const Instruction &instruction) {
  std::vector<std::string_view> views = destinationNames(instruction);
  return {views.begin(), views.end()};
}

std::optional<std::uint32_t> ValueEvaluator::soleReachingDefinition(std::string_view reg, std::uint32_t at) const {
  const std::vector<std::uint32_t> &defs = reachingDefinitions(reg, at);
  if (defs.size() != 1 || defs[0] == kNoDefinition)
    return std::nullopt;
  return defs[0];
}

ValueEvaluator::ValueEvaluator(const ControlFlowGraph &graph, const LaunchAssumptions &assumptions,
                               const Module *module)
    : graph_(graph), assumptions_(assumptions) {
  if (module)
    for (const VariableDecl &variable : module->globals)
      if (variable.space == StateSpace::Const)
        constants_.emplace(variable.name, &variable);
  for (std::uint32_t i = 0; i < graph.instructions.size(); ++i)
    for (std::string_view name : destinationNames(*graph.instructions[i]))
      definitions_[name].instructions.push_back(i);
}

const std::vector<std::uint32_t> &ValueEvaluator::definitionsOf(std::string_view reg) const {
  auto it = definitions_.find(reg);
  return it == definitions_.end() ? empty_ : it->second.instructions;
}

const std::vector<std::uint32_t> &ValueEvaluator::reachingDefinitions(std::string_view reg,
                                                                      std::uint32_t at) const {
  auto it = definitions_.find(reg);
  if (it == definitions_.end())
    return undefined_;
  auto [slot, isNew] = it->second.reachingAt.try_emplace(at);
  if (isNew)
    slot->second = reachingAmong(it->second.instructions, at);
  return slot->second;
}

std::vector<std::uint32_t> ValueEvaluator::reachingAmong(const std::vector<std::uint32_t> &defs,
                                                         std::uint32_t at) const {
  // The last definition in [first, end) of a block, if any.
  auto lastIn = [&](std::uint32_t first, std::uint32_t end) -> std::optional<std::uint32_t> {
    auto it = std::lower_bound(defs.begin(), defs.end(), end);
    if (it == defs.begin() || *std::prev(it) < first)
      return std::nullopt;
    return *std::prev(it);
  };
  std::vector<std::uint32_t> found;
  std::uint32_t block = at < graph_.blockOf.size() ? graph_.blockOf[at] : 0;
  if (auto def = lastIn(graph_.blocks[block].first, at))
    return {*def};
  std::vector<bool> visited(graph_.blocks.size(), false);
  std::vector<std::uint32_t> work(graph_.blocks[block].predecessors);
  if (block == 0)
    found.push_back(kNoDefinition);
  while (!work.empty()) {
    std::uint32_t b = work.back();
    work.pop_back();
    if (visited[b])
      continue;
    visited[b] = true;
    if (auto def = lastIn(graph_.blocks[b].first, graph_.blocks[b].end)) {
      found.push_back(*def);
      continue;
    }
    if (b == 0)
      found.push_back(kNoDefinition);
    for (std::uint32_t pred : graph_.blocks[b].predecessors)
      work.push_back(pred);
  }
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return found;
}

ValueEvaluator::Query::Query(const Bindings &bindings)
    : bindings(bindings),
      // Sorted, the keys with `%` (registers) are consecutive.
      bindsArguments(!bindings.empty() &&
                     (bindings.begin()->first.rfind('%', 0) != 0 || bindings.rbegin()->first.rfind('%', 0) != 0)) {}

Value ValueEvaluator::registerAt(std::string_view reg, std::uint32_t at,
                                 const Bindings &bindings) const {
  Query query(bindings);
  return registerAt(reg, at, query, 0);
}

Value ValueEvaluator::operandAt(const Operand &operand, std::uint32_t at,
                                const Bindings &bindings) const {
  Query query(bindings);
  return operandAt(operand, at, query, 0);
}

Value ValueEvaluator::definedBy(std::uint32_t def, std::string_view reg,
                                const Bindings &bindings) const {
  Query query(bindings);
  return definedBy(def, reg, query, 0);
}

std::optional<Value> ValueEvaluator::boundValue(std::string_view reg, std::vector<std::uint32_t> defs,
                                               std::uint32_t at, const Bindings &bindings) const {
  Query query(bindings);
  return boundValue(reg, std::move(defs), at, query, 0);
}

std::optional<Value> ValueEvaluator::boundValue(std::string_view reg, std::vector<std::uint32_t> defs,
                                               std::uint32_t at, Query &query,
                                               unsigned depth) const {
  ++query.lookups.bindings;
  auto bound = query.bindings.find(reg);
  if (bound == query.bindings.end())
    return std::nullopt;
  const std::vector<std::uint32_t> &covered = bound->second.definitions;
  std::sort(defs.begin(), defs.end());
  if (covered.empty() || std::includes(covered.begin(), covered.end(), defs.begin(), defs.end()))
    return bound->second.value;
  // Definitions it does not cover still agree when each gives the same
  // number (a counter copied twice, one copy on the path around a skipped loop).
  Value agreed = bound->second.value;
  for (std::uint32_t def : defs) {
    if (std::binary_search(covered.begin(), covered.end(), def))
      continue;
    if (def == kNoDefinition || def >= at || !agreed.known())
      return std::nullopt;
    Value other = definedBy(def, reg, query, depth + 1);
    if (!other.known() || *other.number != *agreed.number)
      return std::nullopt;
    absorb(agreed, other);
  }
  return agreed;
}

Value ValueEvaluator::registerAt(std::string_view reg, std::uint32_t at, Query &query,
                                 unsigned depth) const {
  if (depth > kMaxDepth)
    return Value::unknown("a computation too deep to follow");
  const std::vector<std::uint32_t> &defs = reachingDefinitions(reg, at);
  if (defs.size() > 1)
    if (std::optional<Value> value = boundValue(reg, defs, at, query, depth))
      return *value;
  Value result;
  for (std::uint32_t def : defs) {
    if (def == kNoDefinition)
      return Value::unknown("register " + std::string(reg) + " read before it is written");
    // A definition that reads its own register (an induction update) cannot
    // be followed without a binding for the loop iteration.
    if (def >= at && defs.size() > 1)
      return Value::unknown("register " + std::string(reg) + " changes from one iteration to the next");
    Value value = definedBy(def, reg, query, depth + 1);
    if (!value.known()) {
      if (defs.size() > 1)
        value.fromBase.reset(); // one path's address is not the merge's
      return value;
    }
    if (result.known() && *result.number != *value.number)
      return Value::unknown("register " + std::string(reg) + " has different values on different paths");
    std::optional<std::int64_t> number = value.number;
    absorb(result, value);
    result.number = number;
  }
  return result;
}

Value ValueEvaluator::operandAt(const Operand &operand, std::uint32_t at, Query &query,
                                unsigned depth) const {
  if (const auto *immediate = operand.getIf<Immediate>()) {
    if (immediate->kind != ImmediateKind::Integer)
      return Value::unknown("a floating-point value");
    return Value::constant(static_cast<std::int64_t>(immediate->bits));
  }
  if (const auto *element = operand.getIf<VectorElement>())
    return specialRegister(element->base, element->component);
  if (const auto *reg = operand.getIf<Register>()) {
    if (reg->negated) {
      Value value = registerAt(reg->name, at, query, depth);
      if (value.known())
        value.number = *value.number ? 0 : 1;
      return value;
    }
    if (reg->name == "%laneid" || reg->name == "%warpid")
      return Value{0, ValueOrigin::Constant, {}, true};
    return registerAt(reg->name, at, query, depth);
  }
  // PTX's predefined WARP_SZ (nvcc's warpSize): 32 threads on every target.
  if (const auto *symbol = operand.getIf<Symbol>(); symbol && symbol->name == "WARP_SZ")
    return Value::constant(32);
  return Value::unknown("operand " + toString(operand));
}

Value ValueEvaluator::definedBy(std::uint32_t def, std::string_view reg, Query &query,
                                unsigned depth) const {
  // A definition read on many paths (a value squared, both sides of a
  // long fma chain) is followed once per query, so a query costs its
  // definitions, not its paths (2^depth). Most queries are a few steps,
  // cheaper without the memo's copies: it starts after kStepsBeforeMemo.
  // A value followed with more depth left is as good as a new reading;
  // one followed with less is redone. A value that looked up no binding
  // is remembered for later queries too (unbound_).
  // A reading that reuses another looks up what it looked up.
  auto reuse = [&](const Reading &earlier) {
    query.lookups.bindings += earlier.readsBindings;
    query.lookups.parameters += earlier.readsParameters;
    return earlier.value;
  };
  if (auto remembered = unbound_.find(def); remembered != unbound_.end())
    for (const Unbound &entry : remembered->second)
      if (entry.reg == reg && entry.reading.depth <= depth &&
          !(entry.reading.readsParameters && query.bindsArguments))
        return reuse(entry.reading);
  const Lookups before = query.lookups;
  auto follow = [&] {
    Reading reading{depth, followDefinition(def, reg, query, depth), query.lookups.bindings != before.bindings,
                    query.lookups.parameters != before.parameters};
    if (!reading.readsBindings)
      remember(def, reg, reading);
    return reading;
  };
  if (++query.steps <= kStepsBeforeMemo)
    return follow().value;
  auto key = std::make_pair(def, std::string(reg));
  if (auto found = query.found.find(key); found != query.found.end() && found->second.depth <= depth)
    return reuse(found->second);
  Reading reading = follow();
  return query.found.insert_or_assign(std::move(key), std::move(reading)).first->second.value;
}

void ValueEvaluator::remember(std::uint32_t def, std::string_view reg, const Reading &reading) const {
  std::vector<Unbound> &entries = unbound_[def];
  for (Unbound &entry : entries)
    if (entry.reg == reg) {
      // Keep the one that serves more readings: from less depth, then for any query.
      if (std::make_pair(reading.depth, reading.readsParameters) <
          std::make_pair(entry.reading.depth, entry.reading.readsParameters))
        entry.reading = reading;
      return;
    }
  entries.push_back({std::string(reg), reading});
}

Value ValueEvaluator::followDefinition(std::uint32_t def, std::string_view reg, Query &query,
                                       unsigned depth) const {
  const Instruction &instruction = *graph_.instructions[def];
  std::string_view op = instruction.opcode;
  const auto &operands = instruction.operands;
  const auto &types = instruction.details.types;
  IntType type = types.empty() ? IntType{} : intTypeOf(types.back());
  auto source = [&](std::size_t i) {
    return i < operands.size() ? operandAt(operands[i], def, query, depth + 1)
                               : Value::unknown("a missing operand");
  };
  auto where = [&] { return "line " + std::to_string(instruction.location.line); };

  if (op == "ld") {
    // `[name]` or `[name+BYTES]`: a named parameter or variable, not a register's address.
    std::string_view name;
    std::int64_t field = 0; // bytes into a struct or array
    if (const auto *address = operands.size() > 1 ? operands[1].getIf<Address>() : nullptr;
        address && address->parts.size() == 1) {
      if (const auto *symbol = address->parts[0].getIf<Symbol>())
        name = symbol->name;
      if (const auto *offset = address->parts[0].getIf<RegisterOffset>()) {
        name = offset->base;
        field = offset->offset;
      }
    }
    std::optional<ScalarType> loaded = types.empty() ? std::nullopt : std::optional<ScalarType>(types.back());
    if (instruction.details.vectorWidth > 1) {
      // `ld.param.v2.u32 {%r15, %r16}, [p+32]`: %r16 is the element at p+36.
      const auto *pack = operands.empty() ? nullptr : operands[0].getIf<VectorPack>();
      std::size_t element = 0;
      while (pack && element < pack->elements.size() &&
             !(pack->elements[element].getIf<Register>() && pack->elements[element].getIf<Register>()->name == reg))
        ++element;
      if (!pack || element == pack->elements.size() || !loaded)
        name = {};
      else
        field += static_cast<std::int64_t>(element * sizeInBytes(*loaded));
    }
    // Unknown, but the same all kernel long: a base two addresses compare from.
    auto invariant = [&](Value value) {
      if (!value.known())
        value.fromBase = Value::FromBase{def, 0, ValueOrigin::Constant, {}};
      return value;
    };
    if (!name.empty() && instruction.details.space == StateSpace::Param) {
      // A called function's parameter (or a field of it), as its call site set it.
      const std::string bound = std::string(name) + (field != 0 ? "+" + std::to_string(field) : "");
      ++(query.bindsArguments ? query.lookups.bindings : query.lookups.parameters);
      if (auto argument = query.bindings.find(bound); argument != query.bindings.end())
        return argument->second.value;
      return invariant(parameter(name, loaded, field));
    }
    if (instruction.details.space == StateSpace::Const)
      if (auto variable = constants_.find(name); variable != constants_.end())
        return invariant(constantVariable(*variable->second, loaded, field));
    return Value::unknown("a value loaded from memory (" + where() + ")");
  }
  if (hasFloatType(instruction))
    return floatDefinedBy(def, reg, query, depth);
  if (op == "mov")
    return source(1);
  if (op == "cvta") {
    // A conversion between address spaces moves no address nvcc compares.
    Value address = source(1);
    Value result = Value::unknown("the result of " + std::string(instruction.mnemonic) + " (" + where() + ")");
    result.fromBase = address.fromBase ? address.fromBase : Value::FromBase{def, 0, ValueOrigin::Constant, {}};
    return result;
  }
  if (op == "setp" || op == "set") {
    Value a = source(1), b = source(2);
    std::optional<bool> compared;
    if (a.known() && b.known() && !instruction.modifiers.empty())
      compared = compare(instruction.modifiers[0], *a.number, *b.number, type);
    return comparisonResult(def, reg, compared, a, b, query, depth);
  }
  if (op == "selp") {
    Value predicate = source(3);
    if (!predicate.known())
      return predicate;
    Value chosen = source(*predicate.number ? 1 : 2);
    absorb(chosen, predicate);
    return chosen;
  }
  if (op == "cvt") {
    // cvt.dst.src: read as the source type, written as the destination type.
    if (types.size() < 2)
      return Value::unknown("cvt without its two types (" + where() + ")");
    Value a = source(1);
    const IntType to = intTypeOf(types[0]), from = intTypeOf(types[1]);
    if (a.known())
      a.number = instruction.hasModifier("sat") ? saturate(normalise(*a.number, from), to, from)
                                                 : normalise(normalise(*a.number, from), to);
    return a;
  }
  if (op == "clz" || op == "popc" || op == "brev" || op == "bfind") {
    // Bit counts bound loops over a value's bits (`i < 32 - __clz(n)`, `i < __popc(mask)`).
    Value a = source(1);
    a.atMost.reset();
    a.atLeast.reset();
    a.fromBase.reset();
    if (!a.known())
      return a;
    a.number = bitInstruction(op, static_cast<std::uint64_t>(normalise(*a.number, {type.bits, false, true})), type,
                        instruction.hasModifier("shiftamt"));
    return a;
  }
  if (op == "shf" || op == "sad" || op == "prmt") {
    Value a = source(1), b = source(2), c = source(3);
    std::optional<std::int64_t> number;
    if (a.known() && b.known() && c.known())
      if (!(number = threeSourceResult(instruction, *a.number, *b.number, *c.number, type)))
        return Value::unknown("the result of " + std::string(instruction.mnemonic) + " (" + where() + ")");
    return combine({&a, &b, &c}, number);
  }
  if (op == "neg" || op == "not" || op == "abs") {
    Value a = source(1);
    if (!a.known()) {
      // The negated remainder count a 64-bit loop counts up from: -(n & 3).
      std::optional<std::int64_t> capped = a.atMost;
      a.atMost.reset();
      a.atLeast.reset();
      if (op == "neg" && capped)
        a.atLeast = wrappingNeg(*capped);
      return a;
    }
    std::int64_t x = normalise(*a.number, type);
    a.number = normalise(op == "neg" ? wrappingNeg(x) : op == "not" ? ~x : (x < 0 ? wrappingNeg(x) : x), type);
    return a;
  }

  Value a = source(1), b = source(2);
  bool wide = instruction.hasModifier("wide"), high = instruction.hasModifier("hi");
  IntType resultType = wide ? IntType{type.bits * 2, type.isSigned, true} : type;
  if ((op == "mul" || op == "mad") && !instruction.hasModifier("cc")) {
    // A known zero factor makes the other irrelevant: `mad %ctaid.x, %ntid.x,
    // %tid.x` in block 0 does not rest on the block size, however it was set.
    const Value *zero = a.known() && *a.number == 0 ? &a : b.known() && *b.number == 0 ? &b : nullptr;
    if (zero && op == "mul")
      return *zero;
    if (zero) {
      Value c = source(3);
      Value result = combine({zero, &c}, c.number);
      if (result.known())
        result.number = normalise(*result.number, resultType);
      return result;
    }
  }
  std::optional<std::int64_t> number;
  if (a.known() && b.known())
    number = integerResult(op, *a.number, *b.number, type, high);
  if (instruction.hasModifier("sat")) { // add.sat.s32, sub.sat.s32 clamp; other .sat forms are not read
    if (op != "add" && op != "sub")
      return Value::unknown("the result of " + std::string(instruction.mnemonic) + " (" + where() + ")");
    if (number)
      number = saturate(*number, type);
  }
  if (op == "mad") {
    Value c = source(3);
    if (number && c.known())
      number = wrappingAdd(*number, *c.number);
    else
      number.reset();
    Value result = combine({&a, &b, &c}, number);
    if (result.known())
      result.number = normalise(*result.number, resultType);
    return result;
  }
  static const std::set<std::string_view> binary{"add", "sub", "mul", "div", "rem", "min", "max",
                                                 "and", "or",  "xor", "shl", "shr"};
  if (!binary.count(op) || instruction.hasModifier("cc"))
    return Value::unknown("the result of " + std::string(instruction.mnemonic) + " (" + where() + ")");
  if ((op == "add" || op == "sub") && (a.fromBase || b.fromBase))
    if (std::optional<Value> address = addressArithmetic(op == "sub", a, b))
      return *address;
  Value result = combine({&a, &b}, number);
  if (result.known())
    result.number = normalise(*result.number, resultType);
  else if (op == "and" && (a.known() != b.known()) && *(a.known() ? a : b).number >= 0)
    result.atMost = *(a.known() ? a : b).number; // nvcc's remainder count: n & 3
  else if (op == "rem" && !type.isSigned && b.known() && *b.number > 0 && !a.known())
    result.atMost = *b.number - 1;
  return result;
}

Value ValueEvaluator::comparisonResult(std::uint32_t def, std::string_view reg, std::optional<bool> compared,
                                       const Value &a, const Value &b, Query &query,
                                       unsigned depth) const {
  // `setp.lt.s32 %p|%q, a, b` writes the comparison to %p and its negation to %q.
  const Instruction &instruction = *graph_.instructions[def];
  const auto &operands = instruction.operands;
  if (instruction.modifiers.empty())
    return Value::unknown("setp without a comparison");
  if (compared && operands.size() > 3 && instruction.modifiers.size() > 2) {
    // setp.cmp.and/or/xor with a predicate operand.
    Value c = operandAt(operands[3], def, query, depth + 1);
    if (!c.known())
      return combine({&a, &b, &c}, std::nullopt);
    std::string_view join = instruction.modifiers[1];
    bool other = *c.number != 0;
    compared = join == "and" ? (*compared && other) : join == "or" ? (*compared || other)
               : join == "xor" ? (*compared != other) : std::optional<bool>();
  }
  if (compared && !operands.empty())
    if (const auto *pair = operands[0].getIf<PredicatePair>(); pair && pair->second == reg)
      compared = !*compared;
  return combine({&a, &b}, compared ? std::optional<std::int64_t>(*compared ? 1 : 0) : std::nullopt);
}

} // namespace ptxdvfs::ptx::analysis
