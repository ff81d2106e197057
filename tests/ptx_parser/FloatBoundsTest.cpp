// FloatBoundsTest.cpp - loop bounds the source computes in float: nvcc keeps
// the f32/f64 arithmetic and converts at the end, so a count is read only
// by following float values (tests/fixtures/loops/float_bounds.cu).
#include "LoopFixtures.h"

#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>

namespace ptxdvfs::test {
namespace {

using namespace ptx::analysis;

ExecutedKernel expand(const std::string &namePart, const std::string &name = {}, AssumedValue value = 0) {
  return expandWithParameter("float_bounds.ptx", namePart, name, value);
}

TEST(FloatBoundsTest, SqrtOfAConstantIsAConstantBound) {
  ExecutedKernel kernel = expand("sqrt_bound");
  ASSERT_FALSE(kernel.loops.empty());
  EXPECT_FALSE(kernel.loops[0].usedDefault);
  EXPECT_EQ(kernel.loops[0].origin, ValueOrigin::Constant);
  EXPECT_DOUBLE_EQ(executedCount(kernel, "add.f32"), 32);
}

TEST(FloatBoundsTest, CeilOfAFloatQuotientCountsTiles) {
  // Every n up to 300 and a few beyond: the unrolled loop and its remainder
  // together run ceilf(n / 32.0f) bodies.
  for (std::int64_t n = 0; n <= 330; n += (n < 300 ? 1 : 29)) {
    SCOPED_TRACE("n = " + std::to_string(n));
    ExecutedKernel kernel = expand("ceil_tiles", "param_2", n);
    for (const LoopReport &loop : kernel.loops)
      EXPECT_FALSE(loop.usedDefault) << loop.rule;
    EXPECT_DOUBLE_EQ(executedCount(kernel, "add.f32"), std::ceil(static_cast<float>(n) / 32.0f));
  }
}

TEST(FloatBoundsTest, AnUnsetParameterIsNamedNotTheFloat) {
  ExecutedKernel kernel = expand("ceil_tiles");
  ASSERT_FALSE(kernel.loops.empty());
  EXPECT_TRUE(kernel.loops[0].usedDefault);
  ASSERT_FALSE(kernel.loops[0].why.empty());
  EXPECT_EQ(kernel.loops[0].why[0].rfind("parameter ", 0), 0u) << kernel.loops[0].why[0];
}

TEST(FloatBoundsTest, AnAssumedFloatParameterIsItsNumber) {
  for (std::int64_t scale : {0, 1, 3, 12}) {
    SCOPED_TRACE("scale = " + std::to_string(scale));
    ExecutedKernel kernel = expand("scaled_steps", "param_1", scale);
    EXPECT_DOUBLE_EQ(executedCount(kernel, "fma.rn.f32"), 10 * scale);
  }
}

TEST(FloatBoundsTest, ABoundInDoubleIsFollowed) {
  for (std::int64_t n : {0, 1, 2, 7, 1000, 1001}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    ExecutedKernel kernel = expand("half_in_double", "param_1", n);
    EXPECT_DOUBLE_EQ(executedCount(kernel, "add.f64"), static_cast<double>(n / 2));
  }
}

/// Header runs of `for (t = from; t < to; t += by)`, or `t > to` counting
/// down, in the C++ compiler's own IEEE arithmetic: the reference the
/// analysis' stepping must agree with.
template <typename Real>
std::uint64_t realLoopRuns(Real from, Real to, Real by) {
  std::uint64_t runs = 0;
  for (Real t = from; by > 0 ? t < to : t > to; t += by)
    ++runs;
  return runs;
}

/// The parameters of a kernel in float_bounds.ptx set to real numbers.
ExecutedKernel expandWith(const std::string &namePart, AssumedParameters parameters) {
  LaunchAssumptions assumptions;
  assumptions.parameters = std::move(parameters);
  return expandNamed(loopFixture("float_bounds.ptx"), namePart, assumptions);
}

TEST(FloatBoundsTest, AFloatCounterIsSteppedAsTheHardwareRounds) {
  for (double limit : {7.0, 7.5, 0.0, -3.0, 1000.0}) {
    SCOPED_TRACE("limit = " + std::to_string(limit));
    ExecutedKernel kernel = expand("float_counter", "param_1", AssumedValue::real(limit));
    EXPECT_DOUBLE_EQ(executedCount(kernel, "fma.rn.f32"),
                     static_cast<double>(realLoopRuns(0.f, static_cast<float>(limit), 1.f)));
    for (const LoopReport &loop : kernel.loops)
      EXPECT_FALSE(loop.usedDefault) << loop.rule;
  }
  ExecutedKernel unset = expand("float_counter");
  ASSERT_EQ(unset.loops.size(), 1u);
  EXPECT_TRUE(unset.loops[0].usedDefault);
}

TEST(FloatBoundsTest, ATimeStepCountsEachRoundedAddition) {
  // 0.01f added a hundred times is 0.99999934f: 101 steps, where real
  // numbers would take 100; in double, counting down from 1, it is 100.
  ASSERT_EQ(realLoopRuns(0.f, 1.f, 0.01f), 101u);
  for (auto [dt, end] : {std::pair{0.01, 1.0}, {0.1, 1.0}, {0.5, 1.0}, {0.001, 2.5}, {0.3, 0.2}, {1e-3, 1e3}}) {
    SCOPED_TRACE("dt = " + std::to_string(dt) + ", T = " + std::to_string(end));
    AssumedParameters parameters{{"param_1", AssumedValue::real(dt)}, {"param_2", AssumedValue::real(end)}};
    ExecutedKernel up = expandWith("time_steps", parameters);
    ASSERT_EQ(up.loops.size(), 1u);
    EXPECT_EQ(up.loops[0].origin, ValueOrigin::Assumed);
    EXPECT_EQ(up.loops[0].maxTripCount, realLoopRuns(0.f, static_cast<float>(end), static_cast<float>(dt)));
    ExecutedKernel down = expandWith("time_steps_down", parameters);
    ASSERT_EQ(down.loops.size(), 1u);
    EXPECT_EQ(down.loops[0].maxTripCount, realLoopRuns(end, 0.0, -dt));
    // Past the budget the iterations are sampled; their weights still add up.
    EXPECT_NEAR(executedCount(down, "mul.f64"), static_cast<double>(down.loops[0].maxTripCount), 1e-6);
  }
}

TEST(FloatBoundsTest, AFloatCounterCopiedInTheHeaderIsTestedBeforeItsUpdate) {
  // nvcc -G's shape: the header copies the carried %f2 and tests the copy,
  // the update writes a temporary copied back: t = 0, 0.5, 1, 1.5 stay
  // below 2, so the body runs 4 times and the header 5.
  ptx::Module module = parseKernelText(R"(.visible .entry k(.param .u64 out, .param .f32 limit)
{
  .reg .pred %p<3>;
  .reg .f32 %f<5>;
  .reg .b64 %rd<2>;
  ld.param.f32 %f1, [limit];
  ld.param.u64 %rd1, [out];
  mov.f32 %f2, 0f00000000;
$L__head:
  mov.f32 %f3, %f2;
  setp.lt.f32 %p1, %f3, %f1;
  not.pred %p2, %p1;
  @%p2 bra $L__done;
  st.global.f32 [%rd1], %f3;
  add.f32 %f4, %f3, 0f3F000000;
  mov.f32 %f2, %f4;
  bra.uni $L__head;
$L__done:
  ret;
}
)",
                                       "header_copy.ptx");
  EXPECT_TRUE(onlyLoopRuns(module, 5, {{"limit", 2}}));
  EXPECT_DOUBLE_EQ(executedCount(expandFirstKernel(module, {{"limit", 2}}), "st.global.f32"), 4);
}

TEST(FloatBoundsTest, AFloatCounterThatStopsMovingIsNoCount) {
  // 2^54 - 1 is 2^54 in double: the counter never moves, and a loop that
  // would not end takes the default count, saying why.
  AssumedParameters parameters{{"param_1", 1}, {"param_2", std::int64_t{1} << 54}};
  ExecutedKernel kernel = expandWith("time_steps_down", parameters);
  ASSERT_EQ(kernel.loops.size(), 1u);
  EXPECT_TRUE(kernel.loops[0].usedDefault);
  std::string reasons;
  for (const std::string &reason : kernel.loops[0].why)
    reasons += reason + "\n";
  EXPECT_NE(reasons.find("stops moving at 18014398509481984"), std::string::npos) << reasons;
}

TEST(FloatBoundsTest, AFractionIsNoValueForAnIntegerParameter) {
  ExecutedKernel kernel = expand("ceil_tiles", "param_2", AssumedValue::real(2.5));
  ASSERT_FALSE(kernel.loops.empty());
  EXPECT_TRUE(kernel.loops[0].usedDefault);
  ASSERT_FALSE(kernel.loops[0].why.empty());
  EXPECT_NE(kernel.loops[0].why[0].find("2.5 (--assume) is not a whole number"), std::string::npos)
      << kernel.loops[0].why[0];
  // A whole number written as a real is that integer.
  EXPECT_DOUBLE_EQ(executedCount(expand("ceil_tiles", "param_2", AssumedValue::real(64.0)), "add.f32"), 2);
}

TEST(FloatBoundsTest, AFloatStepIsNoIntegerStep) {
  // f32 arithmetic on a .b32 register the exit test compares as an integer:
  // 1.0f added to the bits 0 .. 0x4f000000 would be a count of 1.0f's bits
  // (0x3f800000) per iteration if the step were read as an integer.
  ptx::Module module = parseKernelText(R"(.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<2>;
  mov.f32 %f1, 0f3F800000;
  mov.b32 %r1, 0;
$L__loop:
  add.f32 %r1, %r1, %f1;
  setp.lt.s32 %p1, %r1, 1325400064;
  @%p1 bra $L__loop;
  ld.param.u64 %rd1, [out];
  st.global.u32 [%rd1], %r1;
  ret;
}
)",
                                       "float_step.ptx");
  EXPECT_TRUE(onlyLoopTakesTheDefault(module));
}

/// A loop from 0 while the counter is below `bound`, a float register's
/// value after `setup` (f32 in %f1..%f3, predicate %p3) converted by `convert`.
ptx::Module floatBoundLoop(const std::string &setup, const std::string &convert) {
  return parseKernelText(R"(.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<4>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<2>;
  )" + setup + "\n  " + convert + R"( %r2, %f1;
  mov.u32 %r1, 0;
  setp.lt.s32 %p1, %r2, 1;
  @%p1 bra $L__done;
$L__loop:
  add.s32 %r1, %r1, 1;
  setp.lt.s32 %p2, %r1, %r2;
  @%p2 bra $L__loop;
$L__done:
  ld.param.u64 %rd1, [out];
  st.global.u32 [%rd1], %r1;
  ret;
}
)",
                         "float_bound.ptx");
}

TEST(FloatBoundsTest, ConversionsRoundSaturateAndCompareAsPtxSays) {
  struct Case {
    const char *setup, *convert;
    double passes;
  };
  const Case cases[] = {
      {"mov.f32 %f1, 0f40490FDB;", "cvt.rzi.s32.f32", 3},                // pi toward zero
      {"mov.f32 %f1, 0f40490FDB;", "cvt.rpi.s32.f32", 4},                // pi up
      {"mov.f32 %f1, 0f40500000;", "cvt.rni.s32.f32", 3},                // 3.25 to nearest
      {"mov.f32 %f1, 0f40200000;", "cvt.rni.s32.f32", 2},                // 2.5 to even
      {"mov.f32 %f1, 0f7FC00000;", "cvt.rzi.s32.f32", 0},                // NaN is 0
      {"mov.f32 %f1, 0fCF800000;", "cvt.rzi.s32.f32", 0},                // -2^32 saturates low
      {"mov.f32 %f2, 0f41200000;\n  sqrt.approx.f32 %f3, %f2;\n  mul.rn.f32 %f1, %f3, %f3;",
       "cvt.rpi.s32.f32", 10},                                          // sqrt(10)^2 rounds up to 10
      {"mov.f32 %f2, 0f41800000;\n  lg2.approx.f32 %f1, %f2;", "cvt.rzi.s32.f32", 4}, // log2 16
      {"mov.f32 %f2, 0f7FC00000;\n  setp.gtu.f32 %p3, %f2, 0f00000000;\n"
       "  selp.f32 %f1, 0f41200000, 0f41A00000, %p3;",
       "cvt.rzi.s32.f32", 10},                                          // NaN > 0 unordered: true
      {"mov.f32 %f2, 0f7FC00000;\n  setp.gt.f32 %p3, %f2, 0f00000000;\n"
       "  selp.f32 %f1, 0f41200000, 0f41A00000, %p3;",
       "cvt.rzi.s32.f32", 20},                                          // NaN > 0 ordered: false
      {"mov.f32 %f2, 0f41200000;\n  cvt.f64.f32 %fd1, %f2;\n  mul.f64 %fd2, %fd1, 0d3FF8000000000000;\n"
       "  cvt.rn.f32.f64 %f1, %fd2;",
       "cvt.rzi.s32.f32", 15},                                          // through f64: 10 * 1.5
      {"mov.f64 %fd1, 0d7E37E43C8800759C;\n  cvt.rn.f32.f64 %f1, %fd1;", "cvt.rzi.s32.f32",
       2147483647},                                                     // 1e300: infinity, saturated
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(std::string(c.setup) + " / " + c.convert);
    std::string setup = std::string(".reg .f64 %fd<3>;\n  ") + c.setup;
    ptx::Module module = floatBoundLoop(setup, c.convert);
    ExecutedKernel kernel = expandFirstKernel(module);
    for (const LoopReport &loop : kernel.loops)
      EXPECT_FALSE(loop.usedDefault) << loop.rule;
    // Billions of passes are written as samples whose weights add up to
    // the count within rounding.
    EXPECT_NEAR(executedCount(kernel, "add.s32"), c.passes, 1e-6 * c.passes);
  }
}

TEST(FloatBoundsTest, AValueReachedOnManyPathsIsReadOnce) {
  // A Fibonacci chain, each value the sum of the two before it: the bound
  // reaches the first values along 2^12 paths, past the point where the
  // value analysis starts remembering what each definition gave.
  std::string setup = ".reg .f32 %g<16>;\n  mov.f32 %g0, 0f3F800000;\n  mov.f32 %g1, 0f3F800000;\n";
  for (int i = 2; i <= 12; ++i)
    setup += "  add.f32 %g" + std::to_string(i) + ", %g" + std::to_string(i - 2) + ", %g" +
             std::to_string(i - 1) + ";\n";
  setup += "  mov.f32 %f1, %g12;";
  ptx::Module module = floatBoundLoop(setup, "cvt.rzi.s32.f32");
  ExecutedKernel kernel = expandFirstKernel(module);
  ASSERT_EQ(kernel.loops.size(), 1u);
  EXPECT_FALSE(kernel.loops[0].usedDefault);
  EXPECT_DOUBLE_EQ(executedCount(kernel, "add.s32"), 233); // 1, 1, 2, 3, 5, ..., 233
}

} // namespace
} // namespace ptxdvfs::test
