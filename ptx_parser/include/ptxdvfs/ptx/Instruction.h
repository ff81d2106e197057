// Instruction.h - one PTX instruction as written, with where it came from.
#pragma once

#include "ptxdvfs/ptx/Diagnostic.h"
#include "ptxdvfs/ptx/Operand.h"
#include "ptxdvfs/ptx/Types.h"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxdvfs::ptx {

/// `@%p1` or `@!%p1` (PTX ISA 9.3: predicated execution).
struct Guard {
  std::string predicate;
  bool negated = false;
};

/// A call site that was inlined, from `.loc ... inlined_at FILE LINE COL`,
/// or from the last such `.loc` of the same position in the function where
/// nvcc repeats the position bare.
struct InlinedAt {
  std::uint32_t fileIndex = 0;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
};

/// The CUDA source position in force for an instruction: the last `.loc`
/// seen before it in the same function (PTX ISA 11.5.3).
/// Module::sourcePath() resolves `fileIndex` through the `.file` table.
/// (The `function_name` label of an inlined `.loc` is not kept: it names a
/// string in the debug sections, which the parser skips.)
struct DebugLocation {
  std::uint32_t fileIndex = 0;
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::optional<InlinedAt> inlinedAt;
};

/// What the dotted modifiers mean, read once by the parser so that later
/// layers need not re-split the mnemonic. Modifiers the parser does not
/// know are still in `Instruction::modifiers`.
struct InstructionDetails {
  std::optional<StateSpace> space;  ///< first state-space modifier
  std::vector<ScalarType> types;    ///< every type modifier, in order
  unsigned vectorWidth = 1;         ///< 2 or 4 for `.v2`/`.v4` (8 for `.v8`)
};

/// One instruction. The string views point into Module::source and stay
/// valid as long as a Module sharing that source lives (copying or moving
/// a Module keeps them valid); they keep 100 MB inputs from doubling.
struct Instruction {
  std::optional<Guard> guard;
  std::string_view mnemonic;               ///< as written: `ld.global.v4.f32`
  std::string_view opcode;                 ///< `ld`
  std::vector<std::string_view> modifiers; ///< `global`, `v4`, `f32` (no dots, in order)
  InstructionDetails details;
  std::vector<Operand> operands;
  SourceLocation location;                 ///< the guard, or the mnemonic if unguarded
  std::string_view lineText;               ///< the whole source line, without newline
  std::optional<DebugLocation> debugLocation;

  /// Whether `modifier` is among the modifiers (`hasModifier("sat")` for `add.sat.s32`).
  bool hasModifier(std::string_view modifier) const {
    return std::find(modifiers.begin(), modifiers.end(), modifier) != modifiers.end();
  }
};

} // namespace ptxdvfs::ptx
