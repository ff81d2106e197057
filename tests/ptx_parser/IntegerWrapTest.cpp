// IntegerWrapTest.cpp - values at the ends of the 64-bit range: registers
// wrap, and the analysis must compute what PTX does, without C++'s undefined
// signed overflow or the trap of INT64_MIN / -1 (which ended the process).
#include "LoopFixtures.h"

#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace ptxdvfs::test {
namespace {

constexpr const char *kMin = "-9223372036854775808";
constexpr const char *kMax = "9223372036854775807";

/// A kernel that computes %rd4 from %rd3 = `start` by `compute`, then skips
/// its one store when `setp.<test> %rd4, <against>` holds (ptxas accepts
/// every case below). Decided, the store runs 0 times; undecided, both
/// sides are kept and it runs once.
ptx::Module wrapKernel(const std::string &start, const std::string &compute, const std::string &test,
                       const std::string &against) {
  return parseKernelText(".visible .entry wrap(.param .u64 out)\n"
                         "{\n"
                         "  .reg .pred %p<2>;\n"
                         "  .reg .b64 %rd<6>;\n"
                         "  ld.param.u64 %rd1, [out];\n"
                         "  cvta.to.global.u64 %rd2, %rd1;\n"
                         "  mov.u64 %rd3, " + start + ";\n"
                         "  " + compute + "\n"
                         "  setp." + test + ".s64 %p1, %rd4, " + against + ";\n"
                         "  @%p1 bra $L_skip;\n"
                         "  st.global.u64 [%rd2], %rd4;\n"
                         "$L_skip:\n"
                         "  ret;\n"
                         "}\n",
                         "wrap.ptx");
}

TEST(IntegerWrapTest, EachOperationWrapsAsTheRegisterDoes) {
  struct Case {
    const char *start, *compute, *test, *against;
  } cases[] = {
      {kMin, "div.s64 %rd4, %rd3, -1;", "lt", "0"},    // INT64_MIN / -1 wraps to INT64_MIN
      {kMin, "rem.s64 %rd4, %rd3, -1;", "eq", "0"},
      {kMin, "neg.s64 %rd4, %rd3;", "lt", "0"},
      {kMin, "abs.s64 %rd4, %rd3;", "lt", "0"},
      {kMax, "add.s64 %rd4, %rd3, 1;", "lt", "0"},
      {kMin, "sub.s64 %rd4, %rd3, 1;", "gt", "0"},
      {kMax, "mul.lo.s64 %rd4, %rd3, 2;", "eq", "-2"},
      {kMax, "mad.lo.s64 %rd4, %rd3, 1, 1;", "lt", "0"},
  };
  for (const Case &c : cases) {
    ptx::Module module = wrapKernel(c.start, c.compute, c.test, c.against);
    ptx::analysis::ExecutedKernel kernel = expandFirstKernel(module);
    EXPECT_DOUBLE_EQ(executedCount(kernel, "st.global.u64"), 0) << c.compute << " from " << c.start;
  }
}

/// A loop that counts %rd3 down from 0 by 1 while it is not `bound`,
/// storing it in each pass, or, without `stores`, of loop control alone.
ptx::Module countDownKernel(const std::string &bound, bool stores) {
  return parseKernelText(".visible .entry count_down(.param .u64 out)\n"
                         "{\n"
                         "  .reg .pred %p<2>;\n"
                         "  .reg .b64 %rd<4>;\n"
                         "  ld.param.u64 %rd1, [out];\n"
                         "  cvta.to.global.u64 %rd2, %rd1;\n"
                         "  mov.u64 %rd3, 0;\n"
                         "$L_loop:\n" +
                             std::string(stores ? "  st.global.u64 [%rd2], %rd3;\n" : "") +
                             "  setp.ne.s64 %p1, %rd3, " + bound + ";\n"
                             "  add.s64 %rd3, %rd3, -1;\n"
                             "  @%p1 bra $L_loop;\n"
                             "  ret;\n"
                             "}\n",
                         "count_down.ptx");
}

TEST(IntegerWrapTest, ACountDownToTheMinimumIsReadWithoutATrap) {
  // `i != INT64_MIN` from 0 by -1: the distance over the step is INT64_MIN / -1.
  const ptx::Module module = countDownKernel(kMin, true);
  ptx::analysis::ExecutedKernel kernel = expandFirstKernel(module);
  ASSERT_EQ(kernel.loops.size(), 1u);
  EXPECT_EQ(kernel.loops[0].maxTripCount, (std::uint64_t{1} << 63) + 1); // 0, -1, ..., INT64_MIN
  EXPECT_GE(executedCount(kernel, "st.global.u64"), 9.2e18);
}

TEST(IntegerWrapTest, ALoopThatWritesNothingIsSampledNotWalked) {
  // 2^40 + 1 passes of loop control alone: every pass was walked (it never
  // ended, found by fuzzing); now the budget bounds the passes written too.
  const ptx::Module module = countDownKernel("-1099511627776", false);
  ptx::analysis::ExecutedKernel kernel = expandFirstKernel(module);
  ASSERT_EQ(kernel.loops.size(), 1u);
  EXPECT_EQ(kernel.loops[0].maxTripCount, (std::uint64_t{1} << 40) + 1);
  EXPECT_EQ(kernel.iterationsPerLoop, ptx::analysis::ExpansionOptions{}.budget);
}

} // namespace
} // namespace ptxdvfs::test
