// ConvertedBoundsTest.cpp - loops whose int counter is converted to float
// for its test against a float bound (tests/fixtures/loops/converted_bounds.cu),
// compared with the same loops run on the host.
#include "LoopFixtures.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace ptxdvfs::test {
namespace {

using namespace ptx::analysis;

double storesWith(const char *kernel, std::int64_t n) { return storesPerThreadWith("converted_bounds.ptx", kernel, n); }

std::vector<std::int64_t> samples() {
  std::vector<std::int64_t> values;
  for (std::int64_t n = -3; n <= 300; ++n)
    values.push_back(n);
  for (std::int64_t n : {1000LL, 65536LL, 1000003LL, 16777216LL, 30000001LL})
    values.push_back(n);
  return values;
}

/// floor(log2(n)) in integers: the GPU's log2f and lg2.approx give exactly
/// k at 2^k, and no n <= 300 (or the larger samples) lies within their
/// error of a power of two.
int levels(std::int64_t n) {
  int passes = 0;
  for (std::int64_t power = 2; power <= n; power *= 2)
    ++passes;
  return passes;
}

// The loops as written, on the host's IEEE float and double.
int sqrtRows(std::int32_t n) {
  int passes = 0;
  for (int i = 0; static_cast<float>(i) < std::sqrt(static_cast<float>(n)); i++)
    ++passes;
  return passes;
}
int sqrtRowsDouble(std::int32_t n) {
  int passes = 0;
  for (int i = 0; static_cast<double>(i) < std::sqrt(static_cast<double>(n)); i++)
    ++passes;
  return passes;
}
/// Passes of `for (Counter i = 0; i < bound; i++)` with i converted to float.
template <typename Counter>
std::int64_t passesBelow(float bound) {
  std::int64_t passes = 0;
  for (Counter i = 0; static_cast<float>(i) < bound; i++)
    ++passes;
  return passes;
}
std::int64_t threeQuarters(std::int32_t n) { return passesBelow<std::int32_t>(static_cast<float>(n) * 0.75f); }
std::int64_t unsignedQuarter(std::int32_t n) { return passesBelow<std::uint32_t>(static_cast<float>(n) * 0.25f); }
std::int64_t downToSqrt(std::int32_t n) {
  const float bound = std::sqrt(static_cast<float>(n));
  std::int64_t passes = 0;
  for (std::int32_t i = n; static_cast<float>(i) > bound; i--)
    ++passes;
  return passes;
}

TEST(ConvertedBoundsTest, EachLoopRunsAsTheHostRunsIt) {
  for (std::int64_t n : samples()) {
    const auto asInt = static_cast<std::int32_t>(n);
    EXPECT_TRUE(sameCount(storesWith("log2_levels", n), levels(n))) << n;
    EXPECT_TRUE(sameCount(storesWith("fast_log2_levels", n), levels(n))) << n;
    EXPECT_TRUE(sameCount(storesWith("sqrt_rows", n), sqrtRows(asInt))) << n;
    EXPECT_TRUE(sameCount(storesWith("sqrt_rows_double", n), sqrtRowsDouble(asInt))) << n;
    EXPECT_TRUE(sameCount(storesWith("three_quarters", n), threeQuarters(asInt))) << n;
    EXPECT_TRUE(sameCount(storesWith("unsigned_quarter", n), unsignedQuarter(asInt))) << n;
    if (n < 1000000) { // the host loop is too slow beyond
      EXPECT_TRUE(sameCount(storesWith("down_to_sqrt", n), downToSqrt(asInt))) << n;
    }
  }
}

TEST(ConvertedBoundsTest, PastTwoToTheTwentyFourTheConvertedCounterRounds) {
  // 30000001 * 0.75f is 22500000 in float; from 2^24 on, i converts to
  // even numbers only, and 22500000 is reached at i = 22499999 (rounded up).
  ASSERT_EQ(threeQuarters(30000001), 22499999);
  EXPECT_TRUE(sameCount(storesWith("three_quarters", 30000001), 22499999));
}

TEST(ConvertedBoundsTest, ACounterThatStartsAtMostAtARemainderIsABound) {
  // r = n & 3, then one pass per r while float(r) > 0 after --r: at most 3
  // passes whatever n is, the bound the remainder gives (as for an integer test).
  ptx::Module module = parseKernelText(R"(.visible .entry remainder(.param .u64 out, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<3>;
  .reg .f32 %f<2>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  ld.param.u32 %r1, [n];
  and.b32 %r2, %r1, 3;
$L_loop:
  st.global.u32 [%rd2], %r2;
  add.s32 %r2, %r2, -1;
  cvt.rn.f32.s32 %f1, %r2;
  setp.gt.f32 %p1, %f1, 0f00000000;
  @%p1 bra $L_loop;
  ret;
}
)",
                                       "remainder.ptx");
  EXPECT_TRUE(onlyLoopRuns(module, 3));
  EXPECT_TRUE(expandFirstKernel(module).loops[0].atMost);
}

TEST(ConvertedBoundsTest, ABoundRecomputedInEveryPassIsStillInvariant) {
  // nvcc -G's `for (int i = 0; i < n * 0.75f; i++)`: the counter copied at
  // the top, n * 0.75f computed again before every test (cvt, mul.f32),
  // the test negated. 750 bodies for n = 1000, and one more header run.
  ptx::Module module = parseKernelText(R"(.visible .entry recomputed(.param .u64 out, .param .u32 n)
{
  .reg .pred %p<3>;
  .reg .b32 %r<12>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  ld.param.u32 %r4, [n];
  mov.u32 %r11, 0;
$L_header:
  mov.u32 %r2, %r11;
  cvt.rn.f32.s32 %f1, %r2;
  cvt.rn.f32.s32 %f2, %r4;
  mul.f32 %f3, %f2, 0f3F400000;
  setp.lt.f32 %p1, %f1, %f3;
  not.pred %p2, %p1;
  @%p2 bra $L_done;
  st.global.u32 [%rd2], %r2;
  add.s32 %r3, %r2, 1;
  mov.u32 %r11, %r3;
  bra.uni $L_header;
$L_done:
  ret;
}
)",
                                       "recomputed.ptx");
  EXPECT_TRUE(onlyLoopRuns(module, 751, {{"n", 1000}}));
  EXPECT_TRUE(sameCount(executedCount(expandFirstKernel(module, {{"n", 1000}}), "st.global.u32"), 750));
}

TEST(ConvertedBoundsTest, AnUnknownBoundNamesTheParameter) {
  ExecutedKernel executed = expandWithParameter("converted_bounds.ptx", "sqrt_rows");
  ASSERT_FALSE(executed.loops.empty());
  for (const LoopReport &loop : executed.loops) {
    EXPECT_TRUE(loop.usedDefault);
    ASSERT_FALSE(loop.why.empty());
    EXPECT_EQ(loop.why[0], "parameter param_1 (no --assume param_1=VALUE)");
  }
}

} // namespace
} // namespace ptxdvfs::test
