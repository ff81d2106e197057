// ConstantBoundsTest.cpp - loops bounded by a __constant__ variable: set by
// the host (--assume NAME=VALUE, NAME+BYTES for a field) or initialized in
// the PTX (tests/fixtures/loops/constant_bounds.cu).
#include "LoopFixtures.h"

#include "ptxdvfs/ptx/Statement.h"
#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace ptxdvfs::test {
namespace {

using namespace ptx::analysis;

ExecutedKernel expand(const std::string &namePart, AssumedParameters values = {}) {
  LaunchAssumptions assumptions;
  assumptions.parameters = std::move(values);
  return expandNamed(loopFixture("constant_bounds.ptx"), namePart, assumptions);
}

TEST(ConstantBoundsTest, AHostSetBoundIsNamedAndTakesItsAssumedValue) {
  ExecutedKernel unset = expand("neighbour_list");
  ASSERT_FALSE(unset.loops.empty());
  EXPECT_TRUE(unset.loops[0].usedDefault);
  EXPECT_EQ(unset.loops[0].why.front(),
            "constant-memory variable NbrListLen (set by the host; no --assume NbrListLen=VALUE)");
  // One atom load per neighbour bin, through the loop unrolled by 4 and its remainder.
  for (std::int64_t bins : {0, 1, 3, 4, 27, 256}) {
    ExecutedKernel kernel = expand("neighbour_list", {{"NbrListLen", bins}});
    EXPECT_DOUBLE_EQ(executedCount(kernel, "ld.global.v4.f32"), static_cast<double>(bins)) << bins;
    // The unrolled loop and its remainder are both listed, run or skipped;
    // either way the count rests on the assumed value.
    ASSERT_EQ(kernel.loops.size(), 2u) << bins;
    for (const LoopReport &loop : kernel.loops) {
      EXPECT_FALSE(loop.usedDefault) << bins;
      EXPECT_EQ(loop.why.back(), "constant-memory variable NbrListLen = " + std::to_string(bins) + " (--assume)");
    }
  }
}

TEST(ConstantBoundsTest, AFieldOfAStructInConstantMemoryIsNamedByItsOffset) {
  // while (ei < d_common.in_elem) { ...; ei += 128; }, then no_points (8 bytes in).
  ExecutedKernel unset = expand("parameter_struct");
  ASSERT_EQ(unset.loops.size(), 4u);
  EXPECT_EQ(unset.loops[2].why.front(),
            "constant-memory variable d_common+8 (set by the host; no --assume d_common+8=VALUE)");
  // No 0 elements: the guard `tid >= in_elem` reads the thread index, so it
  // is not decided for thread 0, and nvcc's remainder count is 1 there.
  for (std::int64_t elements : {1, 127, 128, 129, 1000, 4096})
    for (std::int64_t points : {0, 5, 51}) {
      ExecutedKernel kernel = expand("parameter_struct", {{"d_common", elements}, {"d_common+8", points}});
      EXPECT_DOUBLE_EQ(executedCount(kernel, "st.global.f32"), static_cast<double>((elements + 127) / 128 + points))
          << elements << " elements, " << points << " points";
    }
}

TEST(ConstantBoundsTest, AnInitializedVariableIsAConstantTheHostMayOverride) {
  ExecutedKernel kernel = expand("initialized");
  ASSERT_EQ(kernel.loops.size(), 5u);
  for (const LoopReport &loop : kernel.loops) {
    EXPECT_FALSE(loop.usedDefault) << loop.rule;
    EXPECT_EQ(loop.origin, ValueOrigin::Constant) << loop.rule;
  }
  EXPECT_DOUBLE_EQ(kernel.loops[0].meanTripCount, 25); // c_rows = 100, unrolled by 4
  EXPECT_DOUBLE_EQ(kernel.loops[1].meanTripCount, 0);  // its remainder: 100 % 4 = 0, skipped
  EXPECT_DOUBLE_EQ(kernel.loops[2].meanTripCount, 7);  // c_defaults.no_points, bytes 8-11 of a .b8 array
  EXPECT_DOUBLE_EQ(kernel.loops[3].meanTripCount, 5);  // from c_from = -5 (.u16, sign-extended by cvt) to 0
  EXPECT_DOUBLE_EQ(kernel.loops[4].meanTripCount, 5);  // t = 0, 0.5, ..., 2 below c_limit = 2.5f
  EXPECT_EQ(kernel.loops[0].why.front(), "constant-memory variable c_rows = 100 (as the PTX initializes it; "
                                         "--assume c_rows=VALUE if the host writes it)");
  // The skipped remainder rests on the branch that skips it, which reads c_rows alone.
  EXPECT_EQ(kernel.loops[1].why, (std::vector<std::string>{"thread 0's branches lead past this loop",
                                                           kernel.loops[0].why.front()}));
  EXPECT_EQ(kernel.loops[4].why.front(), "constant-memory variable c_limit = 2.5 (as the PTX initializes it; "
                                         "--assume c_limit=VALUE if the host writes it)");

  ExecutedKernel given = expand("initialized", {{"c_rows", 8}, {"c_defaults+8", 2}, {"c_limit", AssumedValue::real(1.0)}});
  ASSERT_EQ(given.loops.size(), 5u);
  EXPECT_DOUBLE_EQ(given.loops[0].meanTripCount, 2);
  EXPECT_DOUBLE_EQ(given.loops[1].meanTripCount, 0); // 8 % 4 = 0: the remainder is skipped
  EXPECT_DOUBLE_EQ(given.loops[2].meanTripCount, 2);
  EXPECT_DOUBLE_EQ(given.loops[4].meanTripCount, 2);
  EXPECT_EQ(given.loops[0].origin, ValueOrigin::Assumed);
  EXPECT_EQ(given.loops[1].origin, ValueOrigin::Assumed); // skipped because c_rows = 8 was given
}

TEST(ConstantBoundsTest, ASignedLoadOfAnInitializedVariableIsSignExtended) {
  ptx::Module module = storePerPassKernel(".const .align 4 .s32 c_from = -5;",
                                          "  ld.const.s32 %r2, [c_from];\n  mov.u32 %r1, 0;", "lt.s32");
  ExecutedKernel kernel = expandFirstKernel(module);
  ASSERT_EQ(kernel.loops.size(), 1u);
  EXPECT_DOUBLE_EQ(executedCount(kernel, "st.global.u32"), 5);
  EXPECT_EQ(kernel.loops[0].why.front(), "constant-memory variable c_from = -5 (as the PTX initializes it; "
                                         "--assume c_from=VALUE if the host writes it)");
}

TEST(ConstantBoundsTest, AByteOfAnAssumedVariableIsThatByteOfItsValue) {
  ptx::Module module = storePerPassKernel(".const .align 4 .u32 c_packed;",
                                          "  ld.const.u8 %r1, [c_packed+2];\n  mov.u32 %r2, 0;", "lt.u32");
  ExecutedKernel kernel = expandFirstKernel(module, {{"c_packed", 0x123456}});
  ASSERT_EQ(kernel.loops.size(), 1u);
  EXPECT_DOUBLE_EQ(executedCount(kernel, "st.global.u32"), 0x12);
  EXPECT_EQ(kernel.loops[0].why.front(), "constant-memory variable c_packed = 1193046 (--assume)");
}

TEST(ConstantBoundsTest, EachElementOfAVectorLoadIsItsOwnField) {
  // ld.param.v2.u32 {%r15, %r16}, [d_dim+32]: grid.y and grid.z; the loop reads grid.z at +36.
  for (std::int64_t z : {1, 7, 40}) {
    ExecutedKernel kernel = expand("struct_by_value", {{"param_0+32", 1000}, {"param_0+36", z}, {"param_0+48", 3}});
    ASSERT_EQ(kernel.loops.size(), 3u);
    EXPECT_DOUBLE_EQ(kernel.loops[1].meanTripCount, static_cast<double>(z));
    EXPECT_DOUBLE_EQ(kernel.loops[2].meanTripCount, 3); // levels[2], the first element of its pair
  }
}

TEST(ConstantBoundsTest, AStructHandedToAFunctionBindsEachFieldFromTheCall) {
  // range_sum({2, 50}) then range_sum({0, m}): 48 loads, then m.
  for (std::int64_t m : {0, 1, 70, 1000}) {
    ExecutedKernel kernel = expand("struct_to_function", {{"param_2", m}});
    ASSERT_EQ(kernel.loops.size(), 1u);
    EXPECT_FALSE(kernel.loops[0].usedDefault) << kernel.loops[0].why.front();
    EXPECT_DOUBLE_EQ(executedCount(kernel, "ld.global.f32"), static_cast<double>(48 + m)) << m;
  }
  ExecutedKernel unset = expand("struct_to_function");
  ASSERT_EQ(unset.loops.size(), 1u);
  EXPECT_TRUE(unset.loops[0].usedDefault);
  EXPECT_EQ(unset.loops[0].why.front(), "parameter param_2 (no --assume param_2=VALUE)");
  EXPECT_DOUBLE_EQ(executedCount(unset, "ld.global.f32"), 48 + 16); // the second call takes the default
  // 30 fields stored field by field: the first, the bound, is stored 30 stores before the call.
  for (std::int64_t m : {1, 7, 70}) {
    ExecutedKernel wide = expand("wide_struct_to_function", {{"param_2", m}});
    ASSERT_EQ(wide.loops.size(), 1u);
    EXPECT_FALSE(wide.loops[0].usedDefault) << wide.loops[0].why.front();
    EXPECT_DOUBLE_EQ(executedCount(wide, "ld.global.f32"), static_cast<double>(m)) << m;
  }
  EXPECT_DOUBLE_EQ(executedCount(expand("wide_struct_to_function", {{"param_2", 0}}), "ld.global.f32"), 0);
}

ptx::VariableDecl declared(const std::string &text) {
  ptx::Module module = parseKernelText(text, "initializer.ptx");
  EXPECT_EQ(module.globals.size(), 1u);
  return module.globals.empty() ? ptx::VariableDecl{} : module.globals.front();
}

TEST(ConstantBoundsTest, InitialBytesAreLittleEndianAndZeroFilledToTheDeclaredSize) {
  using Bytes = std::vector<std::uint8_t>;
  EXPECT_EQ(ptx::initialBytes(declared(".const .align 4 .b8 s[6] = {232, 3};")), (Bytes{232, 3, 0, 0, 0, 0}));
  EXPECT_EQ(ptx::initialBytes(declared(".const .align 4 .u32 a[2] = {1, -2};")),
            (Bytes{1, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff}));
  EXPECT_EQ(ptx::initialBytes(declared(".const .align 4 .f32 x = 0f3F800000;")), (Bytes{0, 0, 0x80, 0x3f}));
  EXPECT_EQ(ptx::initialBytes(declared(".const .align 2 .s16 m[2][2] = {{1, 2}, {3, 4}};")),
            (Bytes{1, 0, 2, 0, 3, 0, 4, 0}));
  EXPECT_EQ(ptx::initialBytes(declared(".const .align 4 .u32 n;")), std::nullopt);
  EXPECT_EQ(ptx::initialBytes(declared(".global .align 8 .u64 p = generic(q);")), std::nullopt);
  EXPECT_EQ(ptx::initialBytes(declared(".const .align 1 .b8 t[] = {1, 2, 3};")), (Bytes{1, 2, 3})); // sized by it
  EXPECT_EQ(ptx::initialBytes(declared(".const .align 1 .b8 u[1] = {1, 2};")), std::nullopt); // more than declared
}

TEST(ConstantBoundsTest, DeclaredBytesAreTheTypeTimesEachDimension) {
  EXPECT_EQ(ptx::declaredBytes(declared(".const .align 4 .u32 n;")), 4);
  EXPECT_EQ(ptx::declaredBytes(declared(".const .align 2 .s16 m[2][3];")), 12);
  EXPECT_EQ(ptx::declaredBytes(declared(".const .align 1 .b8 t[] = {1, 2, 3};")), std::nullopt); // open
  EXPECT_EQ(ptx::declaredBytes(declared(".const .align 8 .u64 w[1152921504606846976][8];")), std::nullopt); // past int64
}

} // namespace
} // namespace ptxdvfs::test
