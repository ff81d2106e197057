// RegisterNames.h - the registers an instruction names, wherever its operands
// hold them (addresses, vector packs, call arguments).
#pragma once

#include "ptxdvfs/ptx/Instruction.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace ptxdvfs::ptx::analysis {

inline void addRegisterNames(const Operand &operand, std::vector<std::string_view> &names) {
  if (const auto *reg = operand.getIf<Register>())
    names.push_back(reg->name);
  else if (const auto *element = operand.getIf<VectorElement>())
    names.push_back(element->base);
  else if (const auto *offset = operand.getIf<RegisterOffset>())
    names.push_back(offset->base);
  else if (const auto *address = operand.getIf<Address>())
    for (const Operand &part : address->parts)
      addRegisterNames(part, names);
  else if (const auto *pack = operand.getIf<VectorPack>())
    for (const Operand &element : pack->elements)
      addRegisterNames(element, names);
  else if (const auto *arguments = operand.getIf<ArgumentList>())
    for (const Operand &element : arguments->elements)
      addRegisterNames(element, names);
}

/// Registers an instruction reads: its guard and every operand but the destination.
inline std::vector<std::string_view> sourceRegisters(const Instruction &instruction, bool hasDestination) {
  std::vector<std::string_view> names;
  if (instruction.guard)
    names.push_back(instruction.guard->predicate);
  std::size_t first = hasDestination ? 1 : 0;
  for (std::size_t i = first; i < instruction.operands.size(); ++i)
    addRegisterNames(instruction.operands[i], names);
  return names;
}

/// Whether `instruction` names `reg` anywhere: read, written, or as its guard.
inline bool namesRegister(const Instruction &instruction, std::string_view reg) {
  std::vector<std::string_view> names = sourceRegisters(instruction, false);
  return std::find(names.begin(), names.end(), reg) != names.end();
}

} // namespace ptxdvfs::ptx::analysis
