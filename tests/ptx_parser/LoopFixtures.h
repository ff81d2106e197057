// LoopFixtures.h - the loop fixtures (tests/fixtures/loops) read as executed,
// and what an executed sequence adds up to, for the analysis tests.
#pragma once

#include "ParseHelpers.h"
#include "TestPaths.h"

#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>

namespace ptxdvfs::test {

/// tests/fixtures/loops/`file`, parsed once per test program: instructions
/// keep views into the module's text, so it lives until the program ends.
inline const ptx::Module &loopFixture(const std::string &file) {
  static std::map<std::string, std::unique_ptr<ptx::Module>> parsed;
  std::unique_ptr<ptx::Module> &module = parsed[file];
  if (!module)
    module = std::make_unique<ptx::Module>(parseOk(readFile(fixtureDir() + "/loops/" + file), file));
  return *module;
}

/// `text` (functions, and directives such as `.file`) after the PTX 8.0 /
/// sm_80 header every hand-written test module shares.
inline ptx::Module parseKernelText(const std::string &text, const std::string &name) {
  return parseOk(".version 8.0\n.target sm_80\n.address_size 64\n" + text, name);
}

/// A hand-written kernel (parameters `.u64 out`, `.u32 n`) whose loop
/// stores once per pass: `globals` at module scope, then `setup` leaves the
/// bound in %r1 and the counter's start in %r2 (%r3 is free), and the loop
/// runs while `setp.<compare> %r2, %r1` holds after each `++%r2`, skipped
/// when it fails on entry, as nvcc rotates a `for` loop. Its stores count
/// its passes (`executedCount(..., "st.global.u32")`).
inline ptx::Module storePerPassKernel(const std::string &globals, const std::string &setup,
                                      const std::string &compare) {
  return parseKernelText(globals + "\n.visible .entry store_per_pass(.param .u64 out, .param .u32 n)\n"
                                   "{\n"
                                   "  .reg .pred %p<2>;\n"
                                   "  .reg .b32 %r<4>;\n"
                                   "  .reg .b64 %rd<3>;\n"
                                   "  ld.param.u64 %rd1, [out];\n"
                                   "  cvta.to.global.u64 %rd2, %rd1;\n" +
                             setup +
                             "\n  setp." + compare + " %p1, %r2, %r1;\n"
                             "  @!%p1 bra $L_done;\n"
                             "$L_loop:\n"
                             "  st.global.u32 [%rd2], %r2;\n"
                             "  add.s32 %r2, %r2, 1;\n"
                             "  setp." + compare + " %p1, %r2, %r1;\n"
                             "  @%p1 bra $L_loop;\n"
                             "$L_done:\n"
                             "  ret;\n"
                             "}\n",
                         "store_per_pass.ptx");
}

/// The first kernel of `module` whose name contains `namePart`; null, and
/// a test failure, when there is none.
inline const ptx::Function *kernelNamed(const ptx::Module &module, std::string_view namePart) {
  for (const ptx::Function *kernel : module.kernels())
    if (kernel->name.find(namePart) != std::string::npos)
      return kernel;
  ADD_FAILURE() << "no kernel named like " << namePart;
  return nullptr;
}

/// That kernel read as executed; empty when there is none.
inline ptx::analysis::ExecutedKernel expandNamed(const ptx::Module &module, std::string_view namePart,
                                                 const ptx::analysis::LaunchAssumptions &assumptions = {},
                                                 const ptx::analysis::ExpansionOptions &options = {}) {
  const ptx::Function *kernel = kernelNamed(module, namePart);
  return kernel ? ptx::analysis::expandKernel(module, *kernel, assumptions, options)
                : ptx::analysis::ExecutedKernel{};
}

/// The first kernel of `module` expanded with `parameters` set (by PTX
/// name or suffix), the default launch and default options.
inline ptx::analysis::ExecutedKernel expandFirstKernel(const ptx::Module &module,
                                                      ptx::analysis::AssumedParameters parameters = {}) {
  ptx::analysis::LaunchAssumptions assumptions;
  assumptions.parameters = std::move(parameters);
  return ptx::analysis::expandKernel(module, *module.kernels().front(), assumptions, {});
}
/// The kernel points into its module: a temporary one would be gone before
/// the test reads it (AddressSanitizer found two such tests).
ptx::analysis::ExecutedKernel expandFirstKernel(ptx::Module &&module,
                                                ptx::analysis::AssumedParameters parameters = {}) = delete;

/// Success when the first kernel of `module` has one loop and it took the
/// default count (the rule it was not counted by, in the failure message).
inline ::testing::AssertionResult onlyLoopTakesTheDefault(const ptx::Module &module) {
  ptx::analysis::ExecutedKernel kernel = expandFirstKernel(module);
  if (kernel.loops.size() != 1)
    return ::testing::AssertionFailure() << kernel.loops.size() << " loops, not 1";
  if (!kernel.loops[0].usedDefault)
    return ::testing::AssertionFailure() << "counted: " << kernel.loops[0].rule;
  return ::testing::AssertionSuccess();
}

/// Whether the first kernel of `module`, with `parameters` set, has one
/// loop, counted (not the default) at `passes` header runs.
inline ::testing::AssertionResult onlyLoopRuns(const ptx::Module &module, std::uint64_t passes,
                                               ptx::analysis::AssumedParameters parameters = {}) {
  ptx::analysis::ExecutedKernel kernel = expandFirstKernel(module, std::move(parameters));
  if (kernel.loops.size() != 1)
    return ::testing::AssertionFailure() << kernel.loops.size() << " loops, not 1";
  if (kernel.loops[0].usedDefault)
    return ::testing::AssertionFailure() << "the default count: " << kernel.loops[0].why.front();
  if (kernel.loops[0].maxTripCount != passes)
    return ::testing::AssertionFailure() << kernel.loops[0].maxTripCount << " passes (" << kernel.loops[0].rule << ")";
  return ::testing::AssertionSuccess();
}

/// The kernel of fixture `file` read with parameter `name` (its PTX name
/// or that name's suffix, `param_2`) set to `value`; nothing set for an
/// empty name.
inline ptx::analysis::ExecutedKernel expandWithParameter(const std::string &file, std::string_view namePart,
                                                         const std::string &name = {},
                                                         ptx::analysis::AssumedValue value = 0) {
  ptx::analysis::LaunchAssumptions assumptions;
  if (!name.empty())
    assumptions.parameters = {{name, value}};
  return expandNamed(loopFixture(file), namePart, assumptions);
}

/// Executions per thread of the instructions written `mnemonic`.
inline double executedCount(const ptx::analysis::ExecutedKernel &kernel, std::string_view mnemonic) {
  double total = 0;
  for (const ptx::analysis::ExecutedInstruction &step : kernel.sequence)
    if (step.instruction->mnemonic == mnemonic)
      total += step.weight;
  return total;
}

/// Whether an executed count (a sum of weights) is `expected`: counts past
/// the budget are written as sampled iterations whose weights add up to
/// the count within rounding.
inline ::testing::AssertionResult sameCount(double executed, double expected) {
  if (std::fabs(executed - expected) <= 1e-9 * std::max(1.0, std::fabs(expected)))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << executed << " executed, not " << expected;
}

/// Stores per thread of `kernel` in fixture `file` with its second
/// parameter (param_1, the bound of the fixtures that store once per pass)
/// set to `value`; each of its loops must be counted, not defaulted.
inline double storesPerThreadWith(const std::string &file, std::string_view kernel, std::int64_t value) {
  ptx::analysis::ExecutedKernel executed = expandWithParameter(file, kernel, "param_1", value);
  for (const ptx::analysis::LoopReport &loop : executed.loops)
    EXPECT_FALSE(loop.usedDefault) << kernel << " " << value << ": " << loop.why.front();
  return executedCount(executed, "st.global.f32");
}

} // namespace ptxdvfs::test
