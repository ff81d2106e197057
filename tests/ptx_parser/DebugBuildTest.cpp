// DebugBuildTest.cpp - loops as nvcc -G writes them: counters read through
// copies, invariants recomputed in every iteration, tests at the top.
//
// tests/fixtures/loops/debug_build.cu says, per kernel, what must be read;
// debug_build.ptx is nvcc 13's -G output.
#include "LoopFixtures.h"

#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace ptxdvfs::test {
namespace {

using namespace ptx::analysis;

class DebugBuildTest : public ::testing::Test {
protected:
  static ExecutedKernel expand(const std::string &namePart, const std::string &name = {},
                               std::int64_t value = 0) {
    return expandWithParameter("debug_build.ptx", namePart, name, value);
  }
};

TEST_F(DebugBuildTest, TheTestReadsACopyOfTheCounter) {
  ExecutedKernel kernel = expand("constant_loop");
  ASSERT_EQ(kernel.loops.size(), 1u);
  EXPECT_FALSE(kernel.loops[0].usedDefault);
  EXPECT_EQ(kernel.loops[0].origin, ValueOrigin::Constant);
  EXPECT_EQ(kernel.loops[0].maxTripCount, 101u); // the header: 100 passes, then the test that leaves
  EXPECT_DOUBLE_EQ(executedCount(kernel, "mul.f32"), 100);
}

TEST_F(DebugBuildTest, AStrideRecomputedInTheLoopIsStillInvariant) {
  // 1000 elements, 256 x 1024 threads: one pass for thread 0.
  ExecutedKernel kernel = expand("grid_stride", "param_0", 1000);
  ASSERT_EQ(kernel.loops.size(), 1u);
  EXPECT_NE(kernel.loops[0].rule.find("+262144 per iteration"), std::string::npos) << kernel.loops[0].rule;
  EXPECT_DOUBLE_EQ(executedCount(kernel, "mul.f32"), 1);
}

TEST_F(DebugBuildTest, ABoundRecomputedInTheHeaderIsStillInvariant) {
  ExecutedKernel kernel = expand("tiles", "param_2", 1000);
  ASSERT_EQ(kernel.loops.size(), 1u);
  EXPECT_EQ(kernel.loops[0].origin, ValueOrigin::Assumed);
  EXPECT_DOUBLE_EQ(executedCount(kernel, "add.f32"), 1000 / 16);
}

TEST_F(DebugBuildTest, AnUnsignedCountDownStopsAtZero) {
  for (std::int64_t n : {std::int64_t{0}, std::int64_t{1}, std::int64_t{1000}, std::int64_t{2147483647}}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    ExecutedKernel kernel = expand("count_down", "param_2", n);
    ASSERT_EQ(kernel.loops.size(), 1u);
    EXPECT_FALSE(kernel.loops[0].usedDefault);
    // Sampled when long: the weights add up to n within rounding.
    EXPECT_NEAR(executedCount(kernel, "mul.f32"), static_cast<double>(n), 1e-6 * static_cast<double>(n));
  }
}

TEST_F(DebugBuildTest, AWhileTrueTestNeverLeavesAndTheBreakCountsTheLoop) {
  // `mov.pred %p5, 0; @%p5 bra` is -G's `while (true)`: not an exit the
  // data may take, so the break's count is exact.
  for (std::int64_t n : {1, 10, 1000}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    ExecutedKernel kernel = expand("forever_with_break", "param_2", n);
    ASSERT_EQ(kernel.loops.size(), 1u);
    EXPECT_FALSE(kernel.loops[0].usedDefault);
    EXPECT_FALSE(kernel.loops[0].atMost);
    EXPECT_EQ(kernel.loops[0].maxTripCount, static_cast<std::uint64_t>(n));
    EXPECT_TRUE(kernel.loops[0].why.size() == 1) << kernel.loops[0].why.back();
  }
}

TEST_F(DebugBuildTest, ADoWhileZeroRunsOnce) {
  ExecutedKernel kernel = expand("scale_once");
  ASSERT_EQ(kernel.loops.size(), 1u);
  EXPECT_FALSE(kernel.loops[0].usedDefault);
  EXPECT_EQ(kernel.loops[0].maxTripCount, 1u);
  EXPECT_DOUBLE_EQ(executedCount(kernel, "mul.f32"), 1);
}

TEST_F(DebugBuildTest, ACounterCarriedRoundThroughTwoCopiesIsACounter) {
  // offset: `mov %r2, %r10` in the header, `add %r3, %r2, 1024`, then
  // `mov %r10, %r3`: n / 1024 tiles, and the header runs once more.
  for (std::int64_t n : {1000, 3000, 100000}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    ExecutedKernel kernel = expand("whole_tiles", "param_2", n);
    ASSERT_EQ(kernel.loops.size(), 1u);
    EXPECT_FALSE(kernel.loops[0].usedDefault) << kernel.loops[0].why.front();
    EXPECT_EQ(kernel.loops[0].maxTripCount, static_cast<std::uint64_t>(n / 1024 + 1));
    EXPECT_DOUBLE_EQ(executedCount(kernel, "ld.f32"), static_cast<double>(n / 1024)); // -G loads are generic
  }
}

} // namespace
} // namespace ptxdvfs::test
