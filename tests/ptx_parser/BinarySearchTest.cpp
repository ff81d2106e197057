// BinarySearchTest.cpp - loops whose data chooses which end of an interval
// moves: binary searches are counted as their longest search; a
// two-pointer walk is left to the default; a linear search with a break,
// or with its data test joined to the counted one, runs at most its bound.
//
// tests/fixtures/loops/searches.cu says, per kernel, what must be read;
// searches.ptx is nvcc 13's -lineinfo output.
#include "LoopFixtures.h"
#include "ParseHelpers.h"

#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

namespace ptxdvfs::test {
namespace {

using namespace ptx::analysis;

class BinarySearchTest : public ::testing::Test {
protected:
  /// The kernel read with its parameter `size` (the searched range's n)
  /// set to `n`, or unset.
  static ExecutedKernel expand(const std::string &namePart, std::optional<std::int64_t> n = std::nullopt,
                               const std::string &size = "param_3") {
    return expandWithParameter("searches.ptx", namePart, n ? size : std::string(), n.value_or(0));
  }
};

/// The most iterations a search from [lo, hi) (lower_bound: `lo < hi`,
/// `lo = mid + 1` or `hi = mid`) can take, over every outcome of its tests.
std::uint64_t longestLowerBound(std::int64_t lo, std::int64_t hi) {
  if (lo >= hi)
    return 0;
  std::int64_t mid = lo + (hi - lo) / 2;
  return 1 + std::max(longestLowerBound(mid + 1, hi), longestLowerBound(lo, mid));
}

/// The same for inclusive bounds (`lo <= hi`, `lo = mid + 1` or `hi = mid - 1`).
std::uint64_t longestInclusive(std::int64_t lo, std::int64_t hi) {
  if (lo > hi)
    return 0;
  std::int64_t mid = (lo + hi) / 2;
  return 1 + std::max(longestInclusive(mid + 1, hi), longestInclusive(lo, mid - 1));
}

TEST_F(BinarySearchTest, AConstantTableIsSearchedInLogTwoSteps) {
  ExecutedKernel kernel = expand("bin_of");
  ASSERT_EQ(kernel.loops.size(), 1u);
  const LoopReport &loop = kernel.loops[0];
  EXPECT_EQ(loop.maxTripCount, 5u); // 20 -> 10 -> 5 -> 3 -> 2 -> 1
  EXPECT_TRUE(loop.atMost);
  EXPECT_FALSE(loop.usedDefault);
  EXPECT_EQ(loop.origin, ValueOrigin::Constant);
  EXPECT_NE(loop.rule.find("binary search"), std::string::npos) << loop.rule;
  EXPECT_DOUBLE_EQ(executedCount(kernel, "ld.const.f32"), 5); // one edge per step
}

TEST_F(BinarySearchTest, CountsMatchTheLongestSearchForEverySize) {
  for (std::int64_t n = 1; n <= 130; ++n) {
    SCOPED_TRACE("n = " + std::to_string(n));
    ExecutedKernel lower = expand("lower_bound", n);
    ASSERT_EQ(lower.loops.size(), 1u);
    EXPECT_EQ(lower.loops[0].maxTripCount, longestLowerBound(0, n));
    EXPECT_EQ(lower.loops[0].origin, ValueOrigin::Assumed);
    ExecutedKernel inclusive = expand("last_not_above", n);
    ASSERT_EQ(inclusive.loops.size(), 1u);
    EXPECT_EQ(inclusive.loops[0].maxTripCount, longestInclusive(0, n - 1));
  }
}

TEST_F(BinarySearchTest, SixtyFourBitIndicesAndAnEarlyExit) {
  // The match exit depends on the data; the search's exit bounds the count.
  ExecutedKernel kernel = expand("find_key", std::int64_t{1} << 40);
  ASSERT_EQ(kernel.loops.size(), 1u);
  EXPECT_EQ(kernel.loops[0].maxTripCount, 41u);
  EXPECT_TRUE(kernel.loops[0].atMost);
  EXPECT_DOUBLE_EQ(executedCount(kernel, "ld.global.u32"), 1 + 41); // the key, then one probe per step
}

TEST_F(BinarySearchTest, AnEmptyRangeIsSkippedAndAnUnknownOneTakesTheDefault) {
  ExecutedKernel empty = expand("lower_bound", 0);
  EXPECT_DOUBLE_EQ(executedCount(empty, "selp.b32"), 0);

  ExecutedKernel unknown = expand("lower_bound");
  ASSERT_EQ(unknown.loops.size(), 1u);
  EXPECT_TRUE(unknown.loops[0].usedDefault);
  EXPECT_EQ(unknown.loops[0].maxTripCount, 16u);
  EXPECT_NE(unknown.loops[0].rule.find("binary search"), std::string::npos) << unknown.loops[0].rule;
  // What the user can give: the size the search runs over.
  EXPECT_TRUE(std::any_of(unknown.loops[0].why.begin(), unknown.loops[0].why.end(),
                          [](const std::string &reason) { return reason.find("no --assume") != std::string::npos; }));
}

TEST_F(BinarySearchTest, ATwoPointerWalkIsNotASearch) {
  // nvcc moves each pointer by an add of a selected step (`i += s < t`),
  // not by selecting between the end and a midpoint: no interval is
  // recognised, and the count stays the default (the walk is n - 1 steps,
  // short enough here to be counted if it were taken for a search).
  ExecutedKernel kernel = expand("pair_sum", 40, "param_2");
  ASSERT_EQ(kernel.loops.size(), 1u);
  EXPECT_TRUE(kernel.loops[0].usedDefault);
  EXPECT_EQ(kernel.loops[0].maxTripCount, 16u);
  EXPECT_EQ(kernel.loops[0].rule.find("binary search"), std::string::npos) << kernel.loops[0].rule;
}

TEST_F(BinarySearchTest, ABreakOnTheDataMakesTheBoundAnUpperBound) {
  // The counted exit gives n probes; the match's exit may leave sooner.
  ExecutedKernel kernel = expand("first_at_least", 1000);
  ASSERT_EQ(kernel.loops.size(), 1u);
  const LoopReport &loop = kernel.loops[0];
  EXPECT_EQ(loop.maxTripCount, 1000u);
  EXPECT_TRUE(loop.atMost);
  EXPECT_FALSE(loop.usedDefault);
  EXPECT_EQ(loop.origin, ValueOrigin::Assumed);
  EXPECT_TRUE(std::any_of(loop.why.begin(), loop.why.end(), [](const std::string &reason) {
    return reason.rfind("another exit may leave sooner: ", 0) == 0;
  }));
  // A loop with its one exit counted is exact.
  ExecutedKernel counted = expandNamed(loopFixture("float_bounds.ptx"), "sqrt_bound");
  ASSERT_FALSE(counted.loops.empty());
  EXPECT_FALSE(counted.loops[0].atMost);
}

TEST_F(BinarySearchTest, WithoutItsBoundAnExitWithABreakNamesTheBoundFirst) {
  // Nothing counts either loop, but the first reason must be the value a
  // user can give (--assume n), not the data exit nobody can, which the
  // loop lists after it. Its data exit comes first in the PTX.
  for (const char *kernelName : {"first_at_least", "find_key"}) {
    SCOPED_TRACE(kernelName);
    ExecutedKernel kernel = expand(kernelName);
    ASSERT_EQ(kernel.loops.size(), 1u);
    const LoopReport &loop = kernel.loops[0];
    EXPECT_TRUE(loop.usedDefault);
    ASSERT_EQ(loop.why.size(), 2u);
    EXPECT_EQ(loop.why[0], "parameter param_3 (no --assume param_3=VALUE)"); // n, read without its .cu
    EXPECT_EQ(loop.why[1].rfind("another exit may leave sooner: ", 0), 0u) << loop.why[1];
  }
}

TEST_F(BinarySearchTest, ACappedLoopNamesTheBoundAUserCanGiveAmongTheSoonerExits) {
  // The cap of 64 counts the loop; `k >= n` may leave sooner, and so may the
  // match, which comes first in the PTX. The bound a user can give is named
  // first, the data's exit after it; with n given, only the data's remains.
  ExecutedKernel kernel = expand("capped_search");
  ASSERT_EQ(kernel.loops.size(), 1u);
  const LoopReport &capped = kernel.loops[0];
  EXPECT_EQ(capped.maxTripCount, 64u);
  EXPECT_TRUE(capped.atMost);
  ASSERT_EQ(capped.why.size(), 2u);
  EXPECT_EQ(capped.why[0], "another exit may leave sooner: parameter param_3 (no --assume param_3=VALUE)");
  EXPECT_NE(capped.why[1].find("compares floating-point values"), std::string::npos) << capped.why[2];

  ExecutedKernel given = expand("capped_search", 10);
  ASSERT_EQ(given.loops.size(), 1u);
  EXPECT_EQ(given.loops[0].maxTripCount, 11u); // k = 0..10, the test after the match
  EXPECT_TRUE(given.loops[0].atMost);
  EXPECT_NE(given.loops[0].why.back().find("compares floating-point values"), std::string::npos);
}

TEST_F(BinarySearchTest, TwoTestsJoinedByAndPredAreTwoExits) {
  // `change > tolerance && step < 100`, one and.pred: the counted test
  // bounds the loop, the float test may end it sooner.
  ExecutedKernel kernel = expand("newton_sqrt");
  ASSERT_EQ(kernel.loops.size(), 1u);
  const LoopReport &loop = kernel.loops[0];
  EXPECT_FALSE(loop.usedDefault);
  EXPECT_EQ(loop.maxTripCount, 100u);
  EXPECT_TRUE(loop.atMost);
  EXPECT_EQ(loop.origin, ValueOrigin::Constant);
  EXPECT_TRUE(std::any_of(loop.why.begin(), loop.why.end(), [](const std::string &reason) {
    return reason.find("compares floating-point values") != std::string::npos;
  }));
  EXPECT_DOUBLE_EQ(executedCount(kernel, "div.rn.f32"), 100);
}

/// lower_bound as nvcc writes it, with `selects` in place of its two
/// selp (lo in %r3, hi in %r4, mid in %r5, mid + 1 in %r6; %p2 and %p3 are
/// the data's test and its negation).
ptx::Module handWrittenSearch(const std::string &selects) {
  return parseKernelText(R"(.visible .entry search(.param .u64 data, .param .u32 n)
{
  .reg .pred %p<5>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [data];
  ld.param.u32 %r4, [n];
  mov.u32 %r3, 0;
  setp.lt.s32 %p1, %r4, 1;
  @%p1 bra $L__done;
$L__loop:
  sub.s32 %r7, %r4, %r3;
  shr.s32 %r8, %r7, 1;
  add.s32 %r5, %r8, %r3;
  mul.wide.s32 %rd2, %r5, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r9, [%rd3];
  setp.lt.s32 %p2, %r9, 7;
  setp.ge.s32 %p3, %r9, 7;
  add.s32 %r6, %r5, 1;
  )" + selects + R"(
  setp.gt.s32 %p4, %r4, %r3;
  @%p4 bra $L__loop;
$L__done:
  st.global.u32 [%rd1], %r3;
  ret;
}
)",
                 "search.ptx");
}

TEST(HandWrittenSearchTest, BothEndsMustBeSelectedOnOneChoiceThatMovesOnlyOne) {
  struct Case {
    const char *selects;
    std::uint64_t count; // for n = 1000; 16: not a search, the default
  };
  const Case cases[] = {
      {"selp.b32 %r3, %r6, %r3, %p2; selp.b32 %r4, %r4, %r5, %p2;", 10}, // as nvcc writes it
      {"selp.b32 %r4, %r4, %r5, %p2; selp.b32 %r3, %r6, %r3, %p2;", 10}, // in the other order
      {"selp.b32 %r3, %r6, %r3, %p2; selp.b32 %r4, %r5, %r4, %p2;", 16}, // both move on one choice
      {"selp.b32 %r3, %r6, %r3, %p2; selp.b32 %r4, %r4, %r5, %p3;", 16}, // two predicates
      {"selp.b32 %r3, %r6, %r3, %p2; setp.ge.s32 %p2, %r9, 7; selp.b32 %r4, %r4, %r5, %p2;", 16}, // re-tested between
      {"selp.b32 %r3, %r6, %r3, %p2; selp.b32 %r4, %r4, %r4, %p2;", 16}, // hi never moves
      // One setp's pair: %p3 is not %p2, and hi moves when lo does.
      {"setp.lt.s32 %p2|%p3, %r9, 7; selp.b32 %r3, %r6, %r3, %p2; selp.b32 %r4, %r4, %r5, %p3;", 16},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.selects);
    ptx::Module module = handWrittenSearch(c.selects);
    ExecutedKernel kernel = expandFirstKernel(module, {{"n", 1000}});
    ASSERT_EQ(kernel.loops.size(), 1u);
    EXPECT_EQ(kernel.loops[0].maxTripCount, c.count);
    EXPECT_EQ(kernel.loops[0].usedDefault, c.count == 16);
  }
}

} // namespace
} // namespace ptxdvfs::test
