// ExecutionUnit.cpp - instruction classes by the resource they wait on.
#include "ptxdvfs/embeddings/ExecutionUnit.h"

#include "ptxdvfs/embeddings/InstructionRecord.h"

#include <algorithm>
#include <initializer_list>

namespace ptxdvfs::embeddings {

std::string_view executionUnitName(ExecutionUnit unit) {
  switch (unit) {
  case ExecutionUnit::Unknown: return "unknown";
  case ExecutionUnit::GlobalMemory: return "global_memory";
  case ExecutionUnit::SharedMemory: return "shared_memory";
  case ExecutionUnit::LocalMemory: return "local_memory";
  case ExecutionUnit::ConstantMemory: return "constant_memory";
  case ExecutionUnit::Parameter: return "parameter";
  case ExecutionUnit::TextureMemory: return "texture_memory";
  case ExecutionUnit::Atomic: return "atomic";
  case ExecutionUnit::Fp64: return "fp64";
  case ExecutionUnit::Fp32: return "fp32";
  case ExecutionUnit::SpecialFunction: return "special_function";
  case ExecutionUnit::Integer: return "integer";
  case ExecutionUnit::Control: return "control";
  case ExecutionUnit::Synchronisation: return "synchronisation";
  case ExecutionUnit::DataMovement: return "data_movement";
  }
  return "unknown";
}

ExecutionUnit executionUnitOf(std::string_view opcode, std::string_view stateSpace,
                              std::string_view type) {
  auto among = [&](std::initializer_list<std::string_view> names) {
    return std::find(names.begin(), names.end(), opcode) != names.end();
  };
  if (opcode.empty())
    return ExecutionUnit::Unknown;
  if (among({"atom", "red", "sured"}))
    return ExecutionUnit::Atomic;
  if (among({"ld", "ldu", "st", "prefetch", "prefetchu"})) {
    if (stateSpace == "shared")
      return ExecutionUnit::SharedMemory;
    if (stateSpace == "local")
      return ExecutionUnit::LocalMemory;
    if (stateSpace == "const")
      return ExecutionUnit::ConstantMemory;
    if (stateSpace == "param")
      return ExecutionUnit::Parameter;
    if (stateSpace == "tex")
      return ExecutionUnit::TextureMemory;
    return ExecutionUnit::GlobalMemory; // .global, or a generic address nvcc could not resolve
  }
  if (among({"suld", "sust", "suq"}))
    return ExecutionUnit::TextureMemory;
  if (among({"bra", "call", "ret", "exit"}))
    return ExecutionUnit::Control;
  if (among({"bar", "bar.warp.sync", "membar", "vote", "match.sync", "activemask", "shfl"}))
    return ExecutionUnit::Synchronisation;
  if (among({"mov", "cvt", "cvta", "prmt", "isspacep"}))
    return ExecutionUnit::DataMovement;
  if (type == "f64")
    return ExecutionUnit::Fp64;
  if (among({"sin", "cos", "lg2", "ex2", "rcp", "sqrt", "rsqrt"}))
    return ExecutionUnit::SpecialFunction;
  if (type == "f32" || type == "f16" || type == "f16x2")
    return ExecutionUnit::Fp32;
  return ExecutionUnit::Integer;
}

ExecutionUnitTable::ExecutionUnitTable(const Vocabulary &vocabulary)
    : spaces_(vocabulary.stateSpaces.size() + 1), types_(vocabulary.types.size() + 1) {
  units_.reserve(vocabulary.opcodes.size() * spaces_ * types_);
  for (const std::string &opcode : vocabulary.opcodes)
    for (std::size_t space = 0; space < spaces_; ++space)
      for (std::size_t type = 0; type < types_; ++type)
        units_.push_back(executionUnitOf(opcode, space ? vocabulary.stateSpaces[space - 1] : "",
                                         type ? vocabulary.types[type - 1] : ""));
}

ExecutionUnit ExecutionUnitTable::of(const InstructionRecord &record) const {
  if (record.stateSpace >= spaces_ || record.type >= types_)
    return ExecutionUnit::Unknown;
  std::size_t index = (record.opcode * spaces_ + record.stateSpace) * types_ + record.type;
  return index < units_.size() ? units_[index] : ExecutionUnit::Unknown;
}

void ExecutionUnitTable::assign(std::vector<EncodedKernel> &kernels) const {
  for (EncodedKernel &kernel : kernels)
    for (InstructionRecord &record : kernel.instructions)
      record.unit = of(record);
}

} // namespace ptxdvfs::embeddings
