// RememberedValuesTest.cpp - what an expansion remembers from one query to the
// next (Values.h) never carries one iteration's counter, or one call's
// arguments, into another: each is decided under its own.
#include "LoopFixtures.h"
#include "ParseHelpers.h"

#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <gtest/gtest.h>

namespace ptxdvfs::test {
namespace {

using namespace ptx::analysis;

/// Written by hand (ptxas -arch=sm_80 accepts it): `bound_then_unbound`
/// calls `tally` with a count of 3, then with one it never stores
/// (`unbound_then_bound` in the other order);
/// `every_third` stores a word in passes 0, 3, 6 and 9 of 12 and a
/// half-word in every pass when n <= 100; `twice` calls `store_times` with
/// counts 3, then 5.
const ptx::Module &module() {
  static const ptx::Module parsed = parseKernelText(R"(
.shared .align 4 .u32 tallies;

.func tally(.param .b32 count)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  ld.param.u32 %r1, [count];
  mov.u32 %r2, 0;
  setp.eq.s32 %p1, %r1, 0;
  @%p1 bra $L_done;
$L_loop:
  st.shared.u32 [tallies], %r2;
  add.s32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra $L_loop;
$L_done:
  ret;
}

.visible .entry bound_then_unbound()
{
  {
  .param .b32 param0;
  st.param.b32 [param0], 3;
  call.uni tally, (param0);
  }
  {
  .param .b32 param0;
  call.uni tally, (param0);
  }
  ret;
}

.visible .entry unbound_then_bound()
{
  {
  .param .b32 param0;
  call.uni tally, (param0);
  }
  {
  .param .b32 param0;
  st.param.b32 [param0], 3;
  call.uni tally, (param0);
  }
  ret;
}

.func store_times(.param .b64 p, .param .b32 count)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [count];
  mov.u32 %r2, 0;
  setp.eq.s32 %p1, %r1, 0;
  @%p1 bra $L_done;
$L_loop:
  st.global.u32 [%rd1], %r2;
  add.s32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra $L_loop;
$L_done:
  ret;
}

.visible .entry every_third(.param .u64 out, .param .u32 n)
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
$L_loop:
  rem.u32 %r3, %r2, 3;
  setp.ne.s32 %p2, %r3, 0;
  @%p2 bra $L_not_third;
  st.global.u32 [%rd2], %r2;
$L_not_third:
  setp.gt.u32 %p2, %r1, 100;
  @%p2 bra $L_large;
  st.global.u16 [%rd2], %r2;
$L_large:
  add.s32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, 12;
  @%p1 bra $L_loop;
  ret;
}

.visible .entry twice(.param .u64 out)
{
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  {
  .param .b64 param0;
  st.param.b64 [param0], %rd2;
  .param .b32 param1;
  st.param.b32 [param1], 3;
  call.uni store_times, (param0, param1);
  }
  {
  .param .b64 param0;
  st.param.b64 [param0], %rd2;
  .param .b32 param1;
  st.param.b32 [param1], 5;
  call.uni store_times, (param0, param1);
  }
  ret;
}
)",
                                                    "remembered_values.ptx");
  return parsed;
}

TEST(RememberedValuesTest, ABranchOnTheCounterIsDecidedInEachIteration) {
  ExecutedKernel kernel = expandNamed(module(), "every_third");
  ASSERT_EQ(kernel.loops.size(), 1u);
  EXPECT_EQ(kernel.loops[0].maxTripCount, 12u);
  EXPECT_DOUBLE_EQ(executedCount(kernel, "st.global.u32"), 4); // not 12: pass 0's decision
}

TEST(RememberedValuesTest, ABranchOnAParameterFollowsItsValue) {
  for (auto [n, halfWords] : {std::pair<std::int64_t, double>{50, 12}, {200, 0}, {100, 12}}) {
    LaunchAssumptions assumptions;
    assumptions.parameters = {{"n", n}};
    ExecutedKernel kernel = expandNamed(module(), "every_third", assumptions);
    EXPECT_DOUBLE_EQ(executedCount(kernel, "st.global.u16"), halfWords) << "n = " << n;
    EXPECT_DOUBLE_EQ(executedCount(kernel, "st.global.u32"), 4) << "n = " << n;
  }
}

TEST(RememberedValuesTest, EachCallOfAFunctionReadsItsOwnArguments) {
  ExecutedKernel kernel = expandNamed(module(), "twice");
  ASSERT_EQ(kernel.loops.size(), 1u);
  EXPECT_FALSE(kernel.loops[0].usedDefault);
  EXPECT_DOUBLE_EQ(kernel.loops[0].entries, 2);
  EXPECT_DOUBLE_EQ(executedCount(kernel, "st.global.u32"), 3 + 5); // not 3 + 3
}

TEST(RememberedValuesTest, ACallWithoutArgumentsAndOneWithThemReadApart) {
  for (const char *kernelName : {"bound_then_unbound", "unbound_then_bound"}) {
    ExecutedKernel kernel = expandNamed(module(), kernelName);
    ASSERT_EQ(kernel.loops.size(), 1u);
    EXPECT_TRUE(kernel.loops[0].usedDefault) << kernelName; // the unstored count is not known
    EXPECT_DOUBLE_EQ(executedCount(kernel, "st.shared.u32"), 3 + ExpansionOptions{}.defaultTripCount)
        << kernelName;
  }
}

} // namespace
} // namespace ptxdvfs::test
