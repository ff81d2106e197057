// ThreadZeroPathTest.cpp - loops whose start thread 0's own path decides:
// an unrolled part that thread 0's peeled copies leave nothing for, behind
// a branch nothing decides, and a tail that starts where an earlier loop
// left its offset, or where a path around that loop set it.
//
// tests/fixtures/loops/realistic.cu: box_sweep_100 (lavaMD's particle
// loop: for each of 1 + nn boxes, thread 0 runs one body) and
// tiles_then_tail, tiles_then_rest, tiles_then_guarded_tail and
// tiles_then_int_tail (CUB's reduction: full tiles, then the partial one);
// constant_bounds.cu: guarded_copy (lavaMD's copy behind a test of the
// block against a struct field).
#include "LoopFixtures.h"

#include <gtest/gtest.h>

namespace ptxdvfs::test {
namespace {

using namespace ptx::analysis;

TEST(ThreadZeroPathTest, ThePeeledCopiesCanLeaveTheUnrolledPartNothing) {
  // 100 particles 128 apart: thread 0 runs one peeled copy per box, and a
  // guard leads it past the part unrolled by 4. Which box a pass reads is
  // chosen by a branch on loaded data before the loop, which sets neither
  // the index nor whether the loop is reached: it stays undecided, and the
  // count must not depend on it.
  for (std::optional<std::int64_t> nn : {std::optional<std::int64_t>{0}, {5}, {}}) {
    SCOPED_TRACE(nn ? "nn = " + std::to_string(*nn) : std::string("nn unknown"));
    ExecutedKernel kernel = expandWithParameter("realistic.ptx", "box_sweep_100", nn ? "param_4" : "", nn.value_or(0));
    ASSERT_EQ(kernel.loops.size(), 2u);
    EXPECT_EQ(kernel.loops[0].usedDefault, !nn.has_value());
    const LoopReport &unrolled = kernel.loops[1];
    EXPECT_FALSE(unrolled.usedDefault) << unrolled.why.front();
    EXPECT_EQ(unrolled.maxTripCount, 0u);
    const double boxes = nn ? static_cast<double>(*nn + 1) : 16.0; // the default count
    EXPECT_DOUBLE_EQ(executedCount(kernel, "st.global.f32"), 3 * boxes); // the peeled copies alone
  }
}

TEST(ThreadZeroPathTest, AGuardOnlyOneSideOfWhichLeadsToTheLoopDoesNotDecideItsCount) {
  // if (blockIdx.x < d_dim.number_boxes) { copy 100 particles, 128 threads apart }:
  // a thread that reaches the copy took the guard's inner side, whatever
  // number_boxes is, so thread 0 copies exactly one particle without it.
  ExecutedKernel kernel = expandNamed(loopFixture("constant_bounds.ptx"), "guarded_copy");
  ASSERT_EQ(kernel.loops.size(), 2u);
  for (const LoopReport &loop : kernel.loops) {
    EXPECT_FALSE(loop.usedDefault) << loop.rule;
    EXPECT_EQ(loop.origin, ValueOrigin::Constant) << loop.rule;
  }
  EXPECT_DOUBLE_EQ(executedCount(kernel, "st.shared.v4.u32"), 1);
}

TEST(ThreadZeroPathTest, ATailStartsWhereTheTileLoopOrThePathAroundItLeftTheOffset) {
  // The offset reaches the tail from the tile loop (its exit value) or, for
  // n < 1024, from the path around it (0); the tile loop leaves by one of
  // two exits through a block that only branches on.
  for (std::int64_t n : {1000, 1024, 2047, 3000, 1000000}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    ExecutedKernel kernel = expandWithParameter("realistic.ptx", "tiles_then_tail", "param_2", n);
    ASSERT_FALSE(kernel.loops.empty());
    const LoopReport &tail = kernel.loops.back();
    EXPECT_FALSE(tail.usedDefault) << tail.why.front();
    const std::int64_t left = n % 1024;
    EXPECT_EQ(tail.maxTripCount, static_cast<std::uint64_t>((left + 255) / 256));
  }
}

TEST(ThreadZeroPathTest, ATileLoopWithTwoExitsLeavesByTheOneItsCountSays) {
  // The tile loop leaves at its header when a partial tile is left (for
  // the tail) and after a tile when none is (past it, to another block):
  // the exit that never fires for n is not read as "a guard skips the
  // loop", and the tail starts from the offset the header's exit leaves,
  // the body's update having run once less than the header.
  for (std::int64_t n : {2048, 3000, 4096, 5000, 1000000, 1048576}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    ExecutedKernel kernel = expandWithParameter("realistic.ptx", "tiles_then_rest", "param_2", n);
    ASSERT_EQ(kernel.loops.size(), 2u);
    const std::int64_t left = n % 1024;
    EXPECT_FALSE(kernel.loops[0].usedDefault);
    EXPECT_EQ(kernel.loops[0].maxTripCount, static_cast<std::uint64_t>(left ? n / 1024 : n / 1024 - 1));
    const LoopReport &tail = kernel.loops[1];
    EXPECT_FALSE(tail.usedDefault) << tail.why.front();
    EXPECT_EQ(tail.maxTripCount, static_cast<std::uint64_t>((left + 255) / 256));
  }
}

TEST(ThreadZeroPathTest, ABranchOnTheOffsetBeingFoundIsDecidedWithItsValueSoFar) {
  // `if (offset < n)` before the tail: the walk decides it with the offset
  // the tile loop (or the path around it) left. Thread 0 has 1 to 4 items
  // of any partial tile: one pass of the tail unrolled by 4.
  for (std::int64_t n : {1000, 3000, 1000000, 1000960}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    ExecutedKernel kernel = expandWithParameter("realistic.ptx", "tiles_then_guarded_tail", "param_2", n);
    ASSERT_FALSE(kernel.loops.empty());
    const LoopReport &tail = kernel.loops.back();
    EXPECT_FALSE(tail.usedDefault) << tail.why.front();
    EXPECT_EQ(tail.maxTripCount, 1u);
  }
}

TEST(ThreadZeroPathTest, ATailsRemainderAndUnrolledPartFollowTheOffsetThreeStepsUp) {
  // The remainder loop's count is computed from the offset a few steps up
  // (`((~tid + n - offset) >> 8) + 1 & 3`), and the unrolled part starts
  // from the index `offset + tid` behind a guard on the offset: thread 0
  // loads 4 per full tile and one per item of the partial tile.
  for (std::int64_t n : {1000, 1024, 1025, 2047, 2048, 3000, 1000000, 1000960}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    ExecutedKernel kernel = expandWithParameter("realistic.ptx", "tiles_then_int_tail", "param_2", n);
    for (const LoopReport &loop : kernel.loops)
      EXPECT_FALSE(loop.usedDefault) << loop.why.front();
    const std::int64_t items = (n % 1024 + 255) / 256;
    const double loads = static_cast<double>(4 * (n / 1024) + items);
    EXPECT_NEAR(executedCount(kernel, "ld.global.f32"), loads, 1e-9 * loads); // long loops are sampled
  }
}

TEST(ThreadZeroPathTest, ALoopThreadZeroGoesPastRestsOnlyOnTheBranchesThatChoseThePath) {
  // Thread 0 branches past the loop (`tid == 0`); its bound, loaded from
  // memory, is never read on that path, so it must neither make the count
  // unknown nor appear among its reasons.
  ptx::Module module = parseKernelText(R"(.visible .entry skipped(.param .u64 data, .param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [data];
  ld.param.u32 %r1, [n];
  ld.global.u32 %r9, [%rd1];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, 0;
  setp.eq.s32 %p1, %r2, 0;
  @%p1 bra $Lpast;
  setp.eq.s32 %p2, %r1, 8;
  @%p2 bra $Lset;
  bra.uni $Lloop;
$Lset:
  mov.u32 %r3, 1;
$Lloop:
  add.s32 %r3, %r3, 1;
  setp.lt.s32 %p3, %r3, %r9;
  @%p3 bra $Lloop;
$Lpast:
  ret;
}
)",
                                       "skipped.ptx");
  ExecutedKernel kernel = expandFirstKernel(module, {{"n", 8}});
  ASSERT_EQ(kernel.loops.size(), 1u);
  const LoopReport &loop = kernel.loops[0];
  EXPECT_EQ(loop.maxTripCount, 0u);
  EXPECT_FALSE(loop.usedDefault);
  EXPECT_NE(loop.origin, ValueOrigin::Unknown);
  for (const std::string &reason : loop.why)
    EXPECT_EQ(reason.find("loaded from memory"), std::string::npos) << reason;
}

} // namespace
} // namespace ptxdvfs::test
