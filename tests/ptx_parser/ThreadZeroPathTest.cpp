// ThreadZeroPathTest.cpp - loops whose start thread 0's own path decides:
// a counter copied at the top of each pass, and an unrolled part that thread
// 0's peeled copies leave nothing for, behind a branch nothing decides.
//
// tests/fixtures/loops/realistic.cu, box_sweep_100 and box_sweep_1000
// (lavaMD's particle loop): for each of 1 + nn boxes, thread 0 runs
// ceil(PER / 128) bodies.
#include "LoopFixtures.h"

#include <gtest/gtest.h>

namespace ptxdvfs::test {
namespace {

using namespace ptx::analysis;

ExecutedKernel sweep(const std::string &kernel, std::optional<std::int64_t> neighbours) {
  LaunchAssumptions assumptions;
  assumptions.grid = Dim3{256, 1, 1};
  assumptions.block = Dim3{128, 1, 1};
  if (neighbours)
    assumptions.parameters = {{"param_4", *neighbours}};
  return expandNamed(loopFixture("realistic.ptx"), kernel, assumptions);
}

TEST(ThreadZeroPathTest, ACounterCopiedAtTheTopOfEachPassCountsFromWhatItCopies) {
  // `mov %r10, %r30` opens the header and the exit test reads %r10, the
  // pass's own box: 1 + nn passes, not the default, nor one fewer.
  for (std::int64_t nn : {0, 1, 26}) {
    SCOPED_TRACE("nn = " + std::to_string(nn));
    ExecutedKernel kernel = sweep("box_sweep_1000", nn);
    ASSERT_EQ(kernel.loops.size(), 2u);
    EXPECT_FALSE(kernel.loops[0].usedDefault) << kernel.loops[0].why.front();
    EXPECT_EQ(kernel.loops[0].maxTripCount, static_cast<std::uint64_t>(nn + 1));
    // 1000 particles 128 apart: 8 bodies, two passes of the part unrolled
    // by 4, after the three peeled copies, which the sequence keeps (their
    // branches are on the thread index).
    EXPECT_EQ(kernel.loops[1].maxTripCount, 2u);
    EXPECT_DOUBLE_EQ(executedCount(kernel, "st.global.f32"), static_cast<double>((8 + 3) * (nn + 1)));
  }
}

TEST(ThreadZeroPathTest, ThePeeledCopiesCanLeaveTheUnrolledPartNothing) {
  // 100 particles 128 apart: thread 0 runs one peeled copy per box, and a
  // guard leads it past the part unrolled by 4. Which box a pass reads is
  // chosen by a branch on loaded data before the loop, which sets neither
  // the index nor whether the loop is reached: it stays undecided, and the
  // count must not depend on it.
  for (std::optional<std::int64_t> nn : {std::optional<std::int64_t>{0}, {5}, {}}) {
    SCOPED_TRACE(nn ? "nn = " + std::to_string(*nn) : std::string("nn unknown"));
    ExecutedKernel kernel = sweep("box_sweep_100", nn);
    ASSERT_EQ(kernel.loops.size(), 2u);
    EXPECT_EQ(kernel.loops[0].usedDefault, !nn.has_value());
    const LoopReport &unrolled = kernel.loops[1];
    EXPECT_FALSE(unrolled.usedDefault) << unrolled.why.front();
    EXPECT_EQ(unrolled.maxTripCount, 0u);
    const double boxes = nn ? static_cast<double>(*nn + 1) : 16.0; // the default count
    EXPECT_DOUBLE_EQ(executedCount(kernel, "st.global.f32"), 3 * boxes); // the peeled copies alone
  }
}

TEST(ThreadZeroPathTest, ACounterCopiedAtTheTopOfEachPassKeepsTheLastPassValueAfterTheLoop) {
  // The first loop's copy %r10 runs 0 .. 9 (ten passes) and holds 9 after
  // it, one less than its step would give; the second loop counts from it
  // to 12: three passes. A guard that n decides joins a second value of
  // %r10 there, so the second loop reads the first's exit binding.
  ptx::Module module = parseKernelText(R"(.visible .entry copied(.param .u64 out, .param .u32 n)
{
  .reg .pred %p<3>;
  .reg .b32 %r<40>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r10, 0;
  mov.u32 %r30, 0;
  setp.lt.s32 %p0, %r1, 1;
  @%p0 bra $Ldone;
$Lfirst:
  mov.u32 %r10, %r30;
  add.s32 %r30, %r10, 1;
  setp.lt.s32 %p1, %r10, 9;
  @%p1 bra $Lfirst;
$Ldone:
  mov.u32 %r5, %r10;
$Lsecond:
  add.s32 %r5, %r5, 1;
  st.global.u32 [%rd1], %r5;
  setp.lt.s32 %p2, %r5, 12;
  @%p2 bra $Lsecond;
  ret;
}
)",
                                       "copied.ptx");
  ExecutedKernel kernel = expandFirstKernel(module, {{"n", 5}});
  ASSERT_EQ(kernel.loops.size(), 2u);
  EXPECT_EQ(kernel.loops[0].maxTripCount, 10u);
  EXPECT_FALSE(kernel.loops[1].usedDefault) << kernel.loops[1].why.front();
  EXPECT_EQ(kernel.loops[1].maxTripCount, 3u);
}

} // namespace
} // namespace ptxdvfs::test
