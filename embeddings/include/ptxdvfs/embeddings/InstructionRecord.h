// InstructionRecord.h - one encoded instruction: its fields, and where it came from.
#pragma once

#include "ptxdvfs/embeddings/ExecutionUnit.h"
#include "ptxdvfs/ptx/Diagnostic.h"
#include "ptxdvfs/ptx/Expected.h"
#include "ptxdvfs/ptx/Instruction.h"
#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxdvfs::embeddings {

/// Which kind of instruction wrote the operand an instruction depends on.
enum class DependencyKind : std::uint8_t {
  Core = 0,   ///< any instruction but ld
  Memory = 1, ///< ld (of any space but .param; see the scheme's quirks)
  Shared = 2, ///< gpuptxmodel-v1 uses this for ld.param (an off-by-one in the original)
};

/// The fields of one instruction, each separately; the 9-digit code of
/// gpuptxmodel-v1 is only one serialisation of them.
struct InstructionRecord {
  std::uint16_t opcode = 0;       ///< 0-based index into Vocabulary::opcodes
  std::uint8_t stateSpace = 0;    ///< 0 none, else 1-based index into Vocabulary::stateSpaces
  std::uint8_t type = 0;          ///< 0 none, else 1-based index into Vocabulary::types
  std::uint8_t operandCount = 0;  ///< 1..9 (clamped)
  std::uint8_t dependencyDistance = 0; ///< 0 none, else 1..9 instructions back
  DependencyKind dependencyKind = DependencyKind::Core;

  /// Where the instruction is in the PTX (unknown for dataset records).
  ptx::SourceLocation location;
  /// The CUDA source line in force (`.loc`), when the PTX has line info.
  std::optional<ptx::DebugLocation> debugLocation;
  /// Executions per thread this record stands for (1 for text as written;
  /// see EncodeOptions::asExecuted). Not part of the code.
  double weight = 1;
  /// Innermost loop (index in EncodedKernel::loops), -1 outside any loop or
  /// when the kernel was read as written.
  int loop = -1;
  /// What the instruction keeps busy, from its opcode, space and type
  /// through the vocabulary (ExecutionUnitTable); Unknown where the record
  /// was read without one. Not part of the code.
  ExecutionUnit unit = ExecutionUnit::Unknown;

  friend bool operator==(const InstructionRecord &a, const InstructionRecord &b) {
    return a.opcode == b.opcode && a.stateSpace == b.stateSpace && a.type == b.type &&
           a.operandCount == b.operandCount && a.dependencyDistance == b.dependencyDistance &&
           a.dependencyKind == b.dependencyKind;
  }
};

/// A kernel's encoded sequence.
struct EncodedKernel {
  EncodedKernel() = default;
  EncodedKernel(std::string kernelName, std::vector<InstructionRecord> records)
      : name(std::move(kernelName)), instructions(std::move(records)) {}

  std::string name;
  std::vector<InstructionRecord> instructions;
  /// Read as executed: the loops found, with their trip counts. Their
  /// `function` points into the module encoded, and is null in a kernel
  /// of an imported Dataset, which outlives its modules.
  std::vector<ptx::analysis::LoopReport> loops;
  /// Read as executed: iterations written per loop entry when the budget
  /// forced sampling (0: every iteration written).
  std::uint64_t iterationsPerLoop = 0;
  /// Read as executed: the size of one launch, as its loops read it (the
  /// threads that run this sequence), and the number of launches; unset
  /// when read as written, or imported. The kernels of an application
  /// weigh by it (model::kernelsRead).
  std::optional<ptx::analysis::LaunchSize> launch;
  /// Unusual control flow met while reading it as executed.
  ptx::Diagnostics warnings;

  /// Sum of the records' weights: encoded instructions one thread executes.
  double executedInstructions() const;
};

/// `IIISTTNDK`: opcode (3 digits), space (1), type (2), operand count (1),
/// dependency distance (1), dependency kind (1).
std::string toCode(const InstructionRecord &record);

/// Reads a 9-digit code back; fails on anything else.
ptx::Expected<InstructionRecord> parseCode(std::string_view code);

} // namespace ptxdvfs::embeddings
