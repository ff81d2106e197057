// SteppedCountersTest.cpp - loops whose counter follows a rule the
// induction forms do not cover, stepped one iteration at a time, compared
// with the same loops run on the host (tests/fixtures/loops/stepped.cu).
#include "LoopFixtures.h"

#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace ptxdvfs::test {
namespace {

using namespace ptx::analysis;

std::vector<std::int64_t> samples() {
  std::vector<std::int64_t> values;
  for (std::int64_t n = 0; n <= 300; ++n)
    values.push_back(n);
  for (std::int64_t n : {-5LL, 1000LL, 1021LL, 65537LL, 837799LL, 0x7fffffffLL})
    values.push_back(n);
  return values;
}

double storesWith(const char *kernel, std::int64_t value) { return storesPerThreadWith("stepped.ptx", kernel, value); }

int ceilHalvings(std::int32_t k) {
  int passes = 0;
  // k + 1 wraps at 2^31 - 1 as the GPU's add does (in C++ it would be undefined).
  for (; k > 1; k = static_cast<std::int32_t>(static_cast<std::uint32_t>(k) + 1u) / 2)
    ++passes;
  return passes;
}

int oddDoublings(std::uint32_t n) {
  int passes = 0;
  for (std::uint32_t i = 1; i < n; i = 2 * i + 1)
    ++passes;
  return passes;
}

int collatzSteps(std::uint32_t v) {
  int passes = 0;
  while (v > 1) {
    v = (v & 1) ? 3 * v + 1 : v / 2;
    ++passes;
  }
  return passes;
}

int powerCycle(std::uint32_t seed) {
  int passes = 0;
  for (std::uint32_t x = seed % 1021 * 3 % 1021; x != seed % 1021; x = x * 3 % 1021)
    ++passes;
  return passes;
}

TEST(SteppedCountersTest, EachRuleIsSteppedAsTheHostRunsIt) {
  for (std::int64_t value : samples()) {
    const auto asInt = static_cast<std::int32_t>(value);
    const auto asUnsigned = static_cast<std::uint32_t>(value);
    // nvcc tests the old k against 2 for the new k against 1, which only
    // holds while k + 1 does not wrap (signed overflow is undefined in CUDA
    // C++): at 2^31 - 1 the PTX runs 2 passes, the host loop 1.
    if (value != 0x7fffffffLL) {
      EXPECT_DOUBLE_EQ(storesWith("ceil_halving", value), ceilHalvings(asInt)) << value;
    }
    EXPECT_DOUBLE_EQ(storesWith("odd_doubling", value), oddDoublings(asUnsigned)) << value;
    EXPECT_DOUBLE_EQ(storesWith("collatz", value), collatzSteps(asUnsigned)) << value;
    if (asUnsigned % 1021 != 0) { // from 0 the loop has no start to return to: skipped
      EXPECT_DOUBLE_EQ(storesWith("power_cycle", value), powerCycle(asUnsigned)) << value;
    }
  }
}

TEST(SteppedCountersTest, AnUnknownStartNamesWhatToGive) {
  ExecutedKernel executed = expandWithParameter("stepped.ptx", "ceil_halving");
  ASSERT_EQ(executed.loops.size(), 1u);
  EXPECT_TRUE(executed.loops[0].usedDefault);
  ASSERT_FALSE(executed.loops[0].why.empty());
  EXPECT_EQ(executed.loops[0].why[0], "parameter param_1 (no --assume param_1=VALUE)");
}

TEST(SteppedCountersTest, ACounterThatStopsMovingKeepsTheDefaultAndSaysWhy) {
  // r = r * r & 255 until it is 2, which no square modulo 256 is: from 1
  // (or 3: 9, 81, 161, 65, 129, 1) r reaches 1 and stays; from 6, 14 or
  // 254 it reaches 0 (254 * 254 & 255 = 4, then 16, then 0). The step that
  // finds the fixed point stops the stepping, and the count keeps the default.
  ptx::Module module = parseKernelText(R"(.visible .entry squares(.param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<3>;
  ld.param.u32 %r1, [n];
$L__loop:
  mul.lo.s32 %r2, %r1, %r1;
  and.b32 %r1, %r2, 255;
  setp.ne.s32 %p1, %r1, 2;
  @%p1 bra $L__loop;
  ret;
}
)",
                                       "squares.ptx");
  for (std::int64_t n : {1, 3}) {
    ExecutedKernel executed = expandFirstKernel(module, {{"n", n}});
    ASSERT_EQ(executed.loops.size(), 1u);
    EXPECT_TRUE(executed.loops[0].usedDefault) << n;
    ASSERT_FALSE(executed.loops[0].why.empty());
    EXPECT_NE(executed.loops[0].why.back().find("the counter %r1 stays at 1 and the exit test keeps it in the loop"),
              std::string::npos)
        << executed.loops[0].why.back();
  }
  for (std::int64_t n : {6, 14, 254}) {
    ExecutedKernel executed = expandFirstKernel(module, {{"n", n}});
    ASSERT_EQ(executed.loops.size(), 1u);
    EXPECT_TRUE(executed.loops[0].usedDefault) << n;
    EXPECT_NE(executed.loops[0].why.back().find("stays at 0"), std::string::npos) << executed.loops[0].why.back();
  }
}

} // namespace
} // namespace ptxdvfs::test
