// LoopControl.cpp - the instructions of a loop that full unrolling would remove.
#include "ptxdvfs/ptx/analysis/TripCounts.h"

#include "IntegerSemantics.h"

#include <algorithm>
#include <map>
#include <set>

namespace ptxdvfs::ptx::analysis {

namespace {

/// Registers an operand reads; `asAddress` marks those inside `[...]`.
void readRegisters(const Operand &operand, bool asAddress,
                   std::vector<std::pair<std::string, bool>> &out) {
  if (const auto *reg = operand.getIf<Register>())
    out.emplace_back(reg->name, asAddress);
  else if (const auto *offset = operand.getIf<RegisterOffset>())
    out.emplace_back(offset->base, asAddress);
  else if (const auto *address = operand.getIf<Address>())
    for (const Operand &part : address->parts)
      readRegisters(part, true, out);
  else if (const auto *pack = operand.getIf<VectorPack>())
    for (const Operand &element : pack->elements)
      readRegisters(element, asAddress, out);
  else if (const auto *list = operand.getIf<ArgumentList>())
    for (const Operand &element : list->elements)
      readRegisters(element, asAddress, out);
}

} // namespace

std::vector<std::uint32_t> TripCountAnalysis::loopControl(std::uint32_t loop) const {
  const Loop &theLoop = forest_.loops[loop];
  std::vector<std::uint32_t> own; // instructions of this loop, not of inner loops
  for (std::uint32_t block : theLoop.blocks)
    if (forest_.innermost[block] == static_cast<int>(loop))
      for (std::uint32_t i = graph_.blocks[block].first; i < graph_.blocks[block].end; ++i)
        own.push_back(i);
  std::set<std::uint32_t> control;
  auto authorWritten = [&](std::uint32_t i) { return i < inlineAsm_.size() && inlineAsm_[i]; };
  // Readers of each register among the loop's own instructions; a read
  // anywhere outside the loop (a result used after it) makes it data.
  std::map<std::string, std::vector<std::pair<std::uint32_t, bool>>, std::less<>> readers;
  std::set<std::string, std::less<>> readOutside;
  std::vector<bool> isOwn(graph_.instructions.size(), false);
  for (std::uint32_t i : own)
    isOwn[i] = true;
  for (std::uint32_t i = 0; i < graph_.instructions.size(); ++i) {
    const Instruction &instruction = *graph_.instructions[i];
    if (!isOwn[i] && theLoop.contains(graph_.blockOf[i]))
      continue; // inner loops: their own control is decided there
    if (isOwn[i] && instruction.opcode == "bra" && !authorWritten(i))
      control.insert(i);
    std::vector<std::pair<std::string, bool>> reads;
    auto destinations = destinationRegisters(instruction);
    for (std::size_t k = destinations.empty() ? 0 : 1; k < instruction.operands.size(); ++k)
      readRegisters(instruction.operands[k], false, reads);
    if (destinations.empty() && !instruction.operands.empty())
      readRegisters(instruction.operands[0], false, reads);
    if (instruction.guard)
      reads.emplace_back(instruction.guard->predicate, false);
    for (auto &[reg, asAddress] : reads) {
      if (isOwn[i])
        readers[reg].emplace_back(i, asAddress);
      else
        readOutside.insert(reg);
    }
  }
  // Loop-carried copies: `mov %x, %y` in the loop where %x also enters from outside.
  for (std::uint32_t i : own) {
    const Instruction &instruction = *graph_.instructions[i];
    if (instruction.opcode != "mov" || instruction.operands.size() != 2 ||
        !instruction.operands[1].is<Register>() || authorWritten(i))
      continue;
    auto destinations = destinationRegisters(instruction);
    if (destinations.size() != 1)
      continue;
    const auto &defs = values_.definitionsOf(destinations[0]);
    bool entersFromOutside = std::any_of(defs.begin(), defs.end(),
                                         [&](std::uint32_t def) { return !insideLoop(loop, def); });
    if (entersFromOutside)
      control.insert(i);
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t i : own) {
      const Instruction &instruction = *graph_.instructions[i];
      if (control.count(i) || !isIntegerArithmetic(instruction) || authorWritten(i))
        continue;
      auto destinations = destinationRegisters(instruction);
      if (destinations.empty())
        continue;
      bool anyUse = false, onlyControl = true;
      for (const std::string &reg : destinations) {
        if (readOutside.count(reg))
          onlyControl = false;
        auto it = readers.find(reg);
        if (it == readers.end())
          continue;
        for (auto [reader, asAddress] : it->second) {
          if (reader == i)
            continue; // its own update
          anyUse = true;
          onlyControl = onlyControl && (asAddress || control.count(reader));
        }
      }
      if (anyUse && onlyControl) {
        control.insert(i);
        changed = true;
      }
    }
  }
  // Setup: a `mov` before the loop that only gives a control register its
  // first value (`mov.u32 %r10, 0`, the copies that seed a loop-carried value).
  std::set<std::string> controlRegisters;
  for (std::uint32_t i : control)
    for (std::string &reg : destinationRegisters(*graph_.instructions[i]))
      controlRegisters.insert(std::move(reg));
  for (const std::string &reg : controlRegisters) {
    if (readOutside.count(reg))
      continue;
    const auto &defs = values_.definitionsOf(reg);
    bool allInsideAreControl = std::all_of(defs.begin(), defs.end(), [&](std::uint32_t def) {
      return !insideLoop(loop, def) || control.count(def);
    });
    if (!allInsideAreControl)
      continue;
    for (std::uint32_t def : defs)
      if (!insideLoop(loop, def) && graph_.instructions[def]->opcode == "mov" && !authorWritten(def))
        control.insert(def);
  }
  return {control.begin(), control.end()};
}

} // namespace ptxdvfs::ptx::analysis
