// WideStridesTest.cpp - int counters nvcc keeps in 64 bits because their
// stride is 64-bit (cooperative groups' g.size()): each iteration re-extends
// the low half and the exit test reads it through cvt.u32.u64
// (tests/fixtures/loops/wide_strides.cu).
#include "LoopFixtures.h"

#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptxdvfs::test {
namespace {

using namespace ptx::analysis;

struct Launch {
  Dim3 grid, block;
};

ExecutedKernel expand(const std::string &namePart, std::int64_t n, const Launch &launch) {
  LaunchAssumptions assumptions;
  assumptions.grid = launch.grid;
  assumptions.block = launch.block;
  assumptions.parameters = {{"param_1", n}};
  return expandNamed(loopFixture("wide_strides.ptx"), namePart, assumptions);
}

std::int64_t threads(const Launch &launch) {
  return static_cast<std::int64_t>(launch.grid.x) * launch.grid.y * launch.grid.z * launch.block.x *
         launch.block.y * launch.block.z;
}

TEST(WideStridesTest, ALoopOverAllSixLaunchDimensionsNamesEachRegisterOnce) {
  // One line per register and source, its components in order, as
  // --grid X,Y,Z spells them; a loop that reads only .x keeps its line.
  LaunchAssumptions assumptions;
  assumptions.block = Dim3{32, 4, 1};
  ExecutedKernel grid = expandNamed(loopFixture("wide_strides.ptx"), "grid_group_stride", assumptions);
  ASSERT_FALSE(grid.loops.empty());
  EXPECT_EQ(grid.loops[0].why, (std::vector<std::string>{"%nctaid.x,y,z = 1024,1,1 (default; set --grid)",
                                                         "%ntid.x,y,z = 32,4,1 (--block)",
                                                         "parameter param_1 (no --assume param_1=VALUE)"}));
  ExecutedKernel xOnly = expandNamed(loopFixture("wide_strides.ptx"), "size_t_stride", assumptions);
  ASSERT_FALSE(xOnly.loops.empty());
  EXPECT_EQ(xOnly.loops[0].why, (std::vector<std::string>{"%ntid.x = 32 (--block)",
                                                          "%nctaid.x = 1024 (default; set --grid)",
                                                          "parameter param_1 (no --assume param_1=VALUE)"}));
}

TEST(WideStridesTest, EveryGridStrideShapeRunsCeilNOverTheThreads) {
  // Thread 0 takes elements 0, S, 2S, ... (or n - 1, n - 1 - S, ...): one
  // store each, ceil(n / S) in all. The grid_group loop's stride is the
  // product of all six launch dimensions.
  const Launch launches[] = {{{1024, 1, 1}, {256, 1, 1}}, {{7, 1, 1}, {96, 1, 1}}, {{5, 3, 2}, {32, 4, 1}}};
  for (const char *kernel : {"size_t_stride", "grid_group_stride", "size_t_stride_down"})
    for (const Launch &launch : launches)
      for (std::int64_t n : {0, 1, 671, 672, 673, 262144, 262145, 1000000}) {
        // The two size_t kernels read only the x dimensions.
        bool allDimensions = std::string(kernel) == "grid_group_stride";
        Launch used = allDimensions ? launch : Launch{{launch.grid.x, 1, 1}, {launch.block.x, 1, 1}};
        std::int64_t stride = threads(used);
        SCOPED_TRACE(std::string(kernel) + " n = " + std::to_string(n) + " stride = " + std::to_string(stride));
        ExecutedKernel expanded = expand(kernel, n, launch);
        ASSERT_FALSE(expanded.loops.empty());
        for (const LoopReport &loop : expanded.loops) {
          bool inTheKernel = loop.source && loop.source->line < 30; // the grid barrier spins in a header
          EXPECT_TRUE(!inTheKernel || !loop.usedDefault) << loop.rule;
        }
        // Long loops are sampled, their weights adding up to the count.
        double stores = static_cast<double>((n + stride - 1) / stride);
        EXPECT_NEAR(executedCount(expanded, "st.global.f32"), stores, 1e-9 * stores);
      }
}

/// A kernel whose counter %rd1 starts at `start`, is written by `update`
/// (through a narrowed copy of itself) and is tested on its low half %r2
/// with `stayWhile` (`setp.ne.s32 %p1, %r2, 0`).
ptx::Module narrowedCounterLoop(const std::string &start, const std::string &update,
                                const std::string &stayWhile) {
  return parseKernelText(".visible .entry narrowed(.param .u32 n)\n"
                         "{\n"
                         "  .reg .pred %p<2>;\n"
                         "  .reg .b32 %r<3>;\n"
                         "  .reg .b64 %rd<3>;\n"
                         "  mov.u64 %rd1, " + start + ";\n"
                         "$L1:\n" +
                             update +
                             "  cvt.u32.u64 %r2, %rd1;\n"
                             "  " + stayWhile + ";\n"
                             "  @%p1 bra $L1;\n"
                             "  ret;\n"
                             "}\n",
                         "narrowed.ptx");
}

TEST(WideStridesTest, ARightShiftThroughANarrowedCopyIsNoCounter) {
  // The low half of a right shift takes bits from the high half, which the
  // sign extension filled: from -1024 the low half stays negative and never
  // reaches 0 (shr.u64 of the extended value), where a 32-bit logical shift
  // would reach 0 after 32 steps. Not a counter: the default count.
  EXPECT_TRUE(onlyLoopTakesTheDefault(narrowedCounterLoop("-1024",
                                                          "  cvt.s64.s32 %rd2, %rd1;\n"
                                                          "  shr.u64 %rd1, %rd2, 1;\n",
                                                          "setp.ne.s32 %p1, %r2, 0")));
}

TEST(WideStridesTest, ASaturatingCopyClampsTheCounter) {
  // cvt.sat clamps instead of keeping the low bits, so the counter is not
  // a narrowed one; stepped, 0, 10^9, 2 x 10^9 meets a bound of 2 x 10^9 on
  // pass 2, before any clamp. Against 2.1 x 10^9 it is held at 2^31 - 1 +
  // 10^9 from pass 3 on and never leaves, where a 32-bit counter stepped by
  // 10^9 would after a few wraps: the default count, and why.
  const char *update = "  cvt.sat.s32.s64 %r1, %rd1;\n"
                       "  cvt.s64.s32 %rd2, %r1;\n"
                       "  add.s64 %rd1, %rd2, 1000000000;\n";
  EXPECT_TRUE(onlyLoopRuns(narrowedCounterLoop("0", update, "setp.lt.s32 %p1, %r2, 2000000000"), 2));
  ptx::Module held = narrowedCounterLoop("0", update, "setp.lt.s32 %p1, %r2, 2100000000");
  EXPECT_TRUE(onlyLoopTakesTheDefault(held));
  ExecutedKernel kernel = expandFirstKernel(held);
  ASSERT_FALSE(kernel.loops.at(0).why.empty());
  EXPECT_NE(kernel.loops[0].why.back().find("stays at 3147483647"), std::string::npos) << kernel.loops[0].why.back();
}

TEST(WideStridesTest, ASaturatingAddIsSteppedNotWrapped) {
  // add.sat.s32 by 10^9 from 0: 10^9, 2 x 10^9, then held at 2^31 - 1, which
  // the test waits for: 3 passes. Read as a wrapping step it would never
  // meet 2^31 - 1 exactly.
  EXPECT_TRUE(onlyLoopRuns(parseKernelText(".visible .entry clamped(.param .u32 n)\n"
                                           "{\n"
                                           "  .reg .pred %p<2>;\n"
                                           "  .reg .b32 %r<2>;\n"
                                           "  mov.u32 %r1, 0;\n"
                                           "$L1:\n"
                                           "  add.sat.s32 %r1, %r1, 1000000000;\n"
                                           "  setp.ne.s32 %p1, %r1, 2147483647;\n"
                                           "  @%p1 bra $L1;\n"
                                           "  ret;\n"
                                           "}\n",
                                           "clamped.ptx"),
                           3));
}

double storesOf(const char *kernel, std::optional<std::int64_t> n) {
  ExecutedKernel executed = n ? expandWithParameter("wide_strides.ptx", kernel, "param_1", *n)
                              : expandWithParameter("wide_strides.ptx", kernel);
  for (const LoopReport &loop : executed.loops)
    EXPECT_FALSE(loop.usedDefault) << kernel << ": " << loop.why.front();
  return executedCount(executed, "st.global.f32");
}

TEST(WideStridesTest, ACharCounterKeptIn16BitsWrapsIn8) {
  // unsigned char c < n, tested through and.b16 ..., 255: n passes.
  for (std::int64_t n : {1, 2, 77, 200, 255})
    EXPECT_DOUBLE_EQ(storesOf("uchar_count", n), static_cast<double>(n)) << n;
  // c != 4 from 250: round past 255, 10 passes (not 2^16 - 246 in the register's width).
  EXPECT_DOUBLE_EQ(storesOf("uchar_wraps", std::nullopt), 10);
  // signed char from -100, re-extended by cvt.s16.s8 every pass: n + 100 passes.
  for (std::int64_t n : {-99, -1, 0, 77, 127})
    EXPECT_DOUBLE_EQ(storesOf("schar_count", n), static_cast<double>(n + 100)) << n;
}

TEST(WideStridesTest, AMaskAfterARightShiftOrAnOffsetIsSteppedNotNarrowed) {
  // (x >> 1) & 255 is not (x & 255) >> 1: the high bits come down. From 768
  // the masked value is 128, 192, 96, ... and reaches 0 on pass 10; read in
  // 8 bits the counter would start at 0 and leave on pass 1.
  EXPECT_TRUE(onlyLoopRuns(parseKernelText(".visible .entry masked_shift(.param .u32 n)\n"
                                                      "{\n"
                                                      "  .reg .pred %p<2>;\n"
                                                      "  .reg .b32 %r<3>;\n"
                                                      "  mov.u32 %r1, 768;\n"
                                                      "$L1:\n"
                                                      "  shr.u32 %r1, %r1, 1;\n"
                                                      "  and.b32 %r2, %r1, 255;\n"
                                                      "  setp.ne.s32 %p1, %r2, 0;\n"
                                                      "  @%p1 bra $L1;\n"
                                                      "  ret;\n"
                                                      "}\n",
                                                      "masked_shift.ptx"), 10));
  // ((c + 5) & 255) != 0: the mask applies after the offset, which the
  // counter's own width cannot say; c = 251 is the first to leave.
  EXPECT_TRUE(onlyLoopRuns(parseKernelText(".visible .entry masked_sum(.param .u32 n)\n"
                                                      "{\n"
                                                      "  .reg .pred %p<2>;\n"
                                                      "  .reg .b32 %r<4>;\n"
                                                      "  mov.u32 %r1, 0;\n"
                                                      "$L1:\n"
                                                      "  add.s32 %r1, %r1, 1;\n"
                                                      "  add.s32 %r2, %r1, 5;\n"
                                                      "  and.b32 %r3, %r2, 255;\n"
                                                      "  setp.ne.s32 %p1, %r3, 0;\n"
                                                      "  @%p1 bra $L1;\n"
                                                      "  ret;\n"
                                                      "}\n",
                                                      "masked_sum.ptx"), 251));
}

} // namespace
} // namespace ptxdvfs::test
