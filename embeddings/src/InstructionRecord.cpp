// InstructionRecord.cpp - the 9-digit serialisation of a record.
#include "ptxdvfs/embeddings/InstructionRecord.h"

#include <cstdio>

namespace ptxdvfs::embeddings {

std::string toCode(const InstructionRecord &record) {
  char code[16];
  std::snprintf(code, sizeof code, "%03u%u%02u%u%u%u", unsigned(record.opcode % 1000),
                unsigned(record.stateSpace % 10), unsigned(record.type % 100),
                unsigned(record.operandCount % 10), unsigned(record.dependencyDistance % 10),
                unsigned(record.dependencyKind) % 10);
  return code;
}

ptx::Expected<InstructionRecord> parseCode(std::string_view code) {
  auto fail = [&](std::string message) {
    return ptx::Expected<InstructionRecord>::failure(
        ptx::Diagnostic{"", {}, ptx::Severity::Error, std::move(message)});
  };
  if (code.size() != 9)
    return fail("code '" + std::string(code) + "' does not have 9 digits");
  for (char c : code)
    if (c < '0' || c > '9')
      return fail("code '" + std::string(code) + "' is not all digits");
  auto digits = [&](std::size_t at, std::size_t count) {
    unsigned value = 0;
    for (std::size_t i = at; i < at + count; ++i)
      value = value * 10 + unsigned(code[i] - '0');
    return value;
  };
  unsigned kind = digits(8, 1);
  if (kind > 2)
    return fail("code '" + std::string(code) + "' has dependency kind " + std::to_string(kind) +
                " (0, 1 or 2 expected)");
  InstructionRecord record;
  record.opcode = static_cast<std::uint16_t>(digits(0, 3));
  record.stateSpace = static_cast<std::uint8_t>(digits(3, 1));
  record.type = static_cast<std::uint8_t>(digits(4, 2));
  record.operandCount = static_cast<std::uint8_t>(digits(6, 1));
  record.dependencyDistance = static_cast<std::uint8_t>(digits(7, 1));
  record.dependencyKind = static_cast<DependencyKind>(kind);
  return record;
}

double EncodedKernel::executedInstructions() const {
  double total = 0;
  for (const InstructionRecord &record : instructions)
    total += record.weight;
  return total;
}

} // namespace ptxdvfs::embeddings
