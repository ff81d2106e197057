// Function.h - a kernel (`.entry`) or device function (`.func`).
#pragma once

#include "ptxdvfs/ptx/Statement.h"

#include <functional>
#include <string>
#include <vector>

namespace ptxdvfs::ptx {

/// `.maxntid 256, 1, 1` -> {"maxntid", {256, 1, 1}}; `.noreturn` -> {"noreturn", {}}.
struct PerformanceDirective {
  std::string name;
  std::vector<std::uint64_t> values;
};

struct Function {
  FunctionKind kind = FunctionKind::Entry;
  Linkage linkage = Linkage::None;
  std::string name;
  std::vector<VariableDecl> results;    ///< `.func (.param .b32 r) f(...)`; empty for kernels
  std::vector<VariableDecl> parameters;
  std::vector<PerformanceDirective> performanceDirectives;
  bool hasBody = false;                 ///< false for prototypes and `.extern` declarations
  std::vector<Statement> body;
  SourceLocation location;              ///< the `.entry`/`.func` keyword
  /// Byte offsets into Module::source of the whole declaration, from its
  /// first linkage keyword (or `.entry`/`.func`) to its closing `}` or `;`
  /// inclusive: `source.substr(sourceBegin, sourceEnd - sourceBegin)`.
  std::uint32_t sourceBegin = 0;
  std::uint32_t sourceEnd = 0;

  /// Instructions in the body, nested blocks included, in source order.
  std::size_t instructionCount() const;
  void forEachInstruction(const std::function<void(const Instruction &)> &visit) const;
};

/// Makes each operand that names a register declared without `%` a
/// `Register`: inline asm declares its temporaries that way (`{ .reg .pred
/// p; shfl.sync.up.b32 r0|p, ...; @p add.f32 r0, r0, %f1; mov.f32 %f2, r0;
/// }`), and the parser, which reads a name by its spelling, took them for
/// symbols. A declaration covers its own `{ }` block and the blocks inside
/// it, as PTX scopes it; `.reg` parameters of a `.func` cover the body.
void resolveScopedRegisterNames(Function &function);

} // namespace ptxdvfs::ptx
