// CallArguments.h - what a `call` passes its callee: the function it names,
// and the values the call site stores into its parameters, so that a
// `.func` inlined by expandKernel() runs its loops as this call asks.
#pragma once

#include "ptxdvfs/ptx/Module.h"
#include "ptxdvfs/ptx/analysis/ControlFlow.h"
#include "ptxdvfs/ptx/analysis/Values.h"

#include <cstdint>

namespace ptxdvfs::ptx::analysis {

/// The function with a body that `call` (a `call` instruction) names; null
/// for an indirect call or a declaration without a body.
const Function *calleeOf(const Module &module, const Instruction &call);

/// The callee's parameters, by name, bound to the values the call site
/// stores into its arguments (`st.param.b32 [param2+0], %r1;` before
/// `call (retval0), f, (param0, param1, param2)`), and the fields of a
/// struct argument as NAME+BYTES: a loop bounded by a parameter runs as
/// this call asks, not as an --assume of that name says. `call` is the
/// call's index in `graph`'s instructions, `bindings` what the caller's
/// registers hold there.
Bindings callArguments(const ControlFlowGraph &graph, const ValueEvaluator &values, std::uint32_t call,
                       const Function &callee, const Bindings &bindings);

} // namespace ptxdvfs::ptx::analysis
