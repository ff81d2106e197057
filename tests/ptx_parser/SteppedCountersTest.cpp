// SteppedCountersTest.cpp - loops whose counter follows a rule the
// induction forms do not cover, stepped one iteration at a time, compared
// with the same loops run on the host (tests/fixtures/loops/stepped.cu).
#include "LoopFixtures.h"

#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
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

int fibonacciSteps(std::int32_t n) {
  int passes = 0;
  for (std::int32_t a = 0, b = 1; b < n; ++passes) {
    std::int32_t t = a + b;
    a = b;
    b = t;
  }
  return passes;
}

int euclidSteps(std::int32_t n) {
  int passes = 0;
  for (std::int32_t a = n, b = 1071; b != 0; ++passes) {
    std::int32_t t = a % b;
    a = b;
    b = t;
  }
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
    // Two carried registers each. The Fibonacci numbers pass 2^31 - 1
    // (where the host's int would overflow) only for the largest sample.
    if (value != 0x7fffffffLL) {
      EXPECT_DOUBLE_EQ(storesWith("fibonacci", value), fibonacciSteps(asInt)) << value;
    }
    EXPECT_DOUBLE_EQ(storesWith("euclid", value), euclidSteps(asInt)) << value;
  }
}

TEST(SteppedCountersTest, CountersSteppedTogetherAreNamedInTheRule) {
  ExecutedKernel executed = expandWithParameter("stepped.ptx", "euclid", "param_1", 100);
  ASSERT_EQ(executed.loops.size(), 1u);
  EXPECT_EQ(executed.loops[0].maxTripCount, 7u); // 1071, 100, 71, 29, 13, 3, 1, 0
  const std::string &rule = executed.loops[0].rule;
  EXPECT_NE(rule.find("= 1071, "), std::string::npos) << rule;
  EXPECT_NE(rule.find("= 100, set by lines "), std::string::npos) << rule;
  // Without a value for n, the start of one of them is what to give.
  ExecutedKernel unset = expandWithParameter("stepped.ptx", "euclid");
  ASSERT_EQ(unset.loops.size(), 1u);
  EXPECT_TRUE(unset.loops[0].usedDefault);
  EXPECT_EQ(unset.loops[0].why, std::vector<std::string>{"parameter param_1 (no --assume param_1=VALUE)"});
  // Nor for the bound the Fibonacci numbers are stepped against.
  ExecutedKernel unbounded = expandWithParameter("stepped.ptx", "fibonacci");
  ASSERT_EQ(unbounded.loops.size(), 1u);
  EXPECT_TRUE(unbounded.loops[0].usedDefault);
  EXPECT_EQ(unbounded.loops[0].why, std::vector<std::string>{"parameter param_1 (no --assume param_1=VALUE)"});
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

/// A loop `while (r < 1000)` whose only write of r is `update`, reached on
/// the passes where r is odd (%p2).
ptx::Module oddOnlyUpdate(const std::string &update) {
  return parseKernelText(R"(.visible .entry odd_only(.param .u32 n)
{
  .reg .pred %p<3>;
  .reg .b32 %r<3>;
  ld.param.u32 %r1, [n];
$L_loop:
  and.b32 %r2, %r1, 1;
  setp.ne.s32 %p2, %r2, 0;
)" + update + R"(  setp.lt.u32 %p1, %r1, 1000;
  @%p1 bra $L_loop;
  ret;
}
)",
                         "odd_only.ptx");
}

TEST(SteppedCountersTest, AnUpdateThatDoesNotRunEveryPassIsNotStepped) {
  // r = r * r only while r is odd: from 3 that is 3, 9, 81, 6561, 3 passes,
  // but from 2 it never moves. Stepped as if the update ran every pass, 2
  // would leave after 4 (2, 4, 16, 256, 65536): it keeps the default.
  for (const char *update : {"  @%p2 mul.lo.s32 %r1, %r1, %r1;\n",
                             "  @!%p2 bra $L_skip;\n  mul.lo.s32 %r1, %r1, %r1;\n$L_skip:\n"}) {
    const ptx::Module module = oddOnlyUpdate(update);
    ExecutedKernel executed = expandFirstKernel(module, {{"n", 2}});
    ASSERT_EQ(executed.loops.size(), 1u) << update;
    EXPECT_TRUE(executed.loops[0].usedDefault) << update << executed.loops[0].rule;
  }
}

TEST(SteppedCountersTest, ACounterMovedOnSomePassesSaysSo) {
  // r *= 3 only while r is odd is a counter (x3 per pass) that skips the
  // passes where r is even: from 1, 7 passes (3^7 = 2187); from 2 it never
  // leaves. It is counted as if it moved every pass (the guarded form: 7
  // from 1, 6 from 2), and the reason says it does not.
  for (const char *update : {"  @%p2 mul.lo.s32 %r1, %r1, 3;\n",
                             "  @!%p2 bra $L_skip;\n  mul.lo.s32 %r1, %r1, 3;\n$L_skip:\n"}) {
    for (std::int64_t n : {1, 2}) {
      const ptx::Module module = oddOnlyUpdate(update);
      ExecutedKernel executed = expandFirstKernel(module, {{"n", n}});
      ASSERT_EQ(executed.loops.size(), 1u) << update;
      if (std::string(update).find("bra") == std::string::npos) { // the guarded form
        EXPECT_EQ(executed.loops[0].maxTripCount, n == 1 ? 7u : 6u) << update;
      }
      ASSERT_FALSE(executed.loops[0].why.empty());
      EXPECT_NE(executed.loops[0].why.back().find("the counter %r1 moves only on the passes that run line "),
                std::string::npos)
          << executed.loops[0].why.back();
    }
  }
}

} // namespace
} // namespace ptxdvfs::test
