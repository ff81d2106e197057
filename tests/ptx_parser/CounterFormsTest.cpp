// CounterFormsTest.cpp - counters in the forms nvcc writes them: kept
// through a copy opening each pass (the body reads the old value), copied
// from the temporary that holds the next value, or tested against an
// offset the loop recomputes every pass; stepped or bounded by a field of
// a struct passed by value.
//
// tests/fixtures/loops/realistic.cu: box_sweep_1000 (lavaMD's particle
// loop: 1 + nn boxes, 8 bodies each for thread 0) and tree_levels.
#include "LoopFixtures.h"

#include <gtest/gtest.h>

namespace ptxdvfs::test {
namespace {

using namespace ptx::analysis;

TEST(CounterFormsTest, ACounterCopiedAtTheTopOfEachPassCountsFromWhatItCopies) {
  // `mov %r10, %r30` opens the header and the exit test reads %r10, the
  // pass's own box: 1 + nn passes, not the default, nor one fewer.
  for (std::int64_t nn : {0, 1, 26}) {
    SCOPED_TRACE("nn = " + std::to_string(nn));
    ExecutedKernel kernel = expandWithParameter("realistic.ptx", "box_sweep_1000", "param_4", nn);
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

TEST(CounterFormsTest, ACounterCopiedAtTheTopOfEachPassKeepsTheLastPassValueAfterTheLoop) {
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

TEST(CounterFormsTest, ATestOnTheTemporaryACounterIsCopiedFromReadsTheNextValue) {
  // tree_levels: s = 1, 2, 4, ... while s < n, tested as the next stride
  // before `mov %r8, %r3`: ceil(log2 n) levels, none for n = 1.
  for (std::int64_t n : {1, 2, 3, 50, 1024, 1025}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    ExecutedKernel kernel = expandWithParameter("realistic.ptx", "tree_levels", "param_1", n);
    std::uint64_t levels = 0;
    for (std::int64_t s = 1; s < n; s <<= 1)
      ++levels;
    EXPECT_DOUBLE_EQ(executedCount(kernel, "bar.sync"), static_cast<double>(levels));
    for (const LoopReport &loop : kernel.loops) {
      EXPECT_FALSE(loop.usedDefault) << loop.why.front();
      EXPECT_EQ(loop.maxTripCount, levels);
    }
  }
}

TEST(CounterFormsTest, AnOffsetRecomputedEveryPassIsStillLoopInvariant) {
  // CUB's transform kernel, unrolled by 4: the counter %r80 climbs by 4 and
  // the test reads (n & 3) - n + %r80, the offset recomputed in the loop
  // from n alone: (n - n % 4) / 4 passes.
  ptx::Module module = parseKernelText(R"(.visible .entry recomputed(.param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<90>;
  ld.param.u32 %r30, [n];
  mov.u32 %r80, 0;
$Lpass:
  add.s32 %r80, %r80, 4;
  and.b32 %r67, %r30, 3;
  sub.s32 %r68, %r67, %r30;
  add.s32 %r69, %r68, %r80;
  setp.ne.s32 %p1, %r69, 0;
  @%p1 bra $Lpass;
  ret;
}
)",
                                       "recomputed.ptx");
  for (std::int64_t n : {4, 7, 1000}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    ExecutedKernel kernel = expandFirstKernel(module, {{"n", n}});
    ASSERT_EQ(kernel.loops.size(), 1u);
    EXPECT_FALSE(kernel.loops[0].usedDefault) << kernel.loops[0].why.front();
    EXPECT_EQ(kernel.loops[0].maxTripCount, static_cast<std::uint64_t>((n - n % 4) / 4));
  }
  // Without n, the reason names n, not a register.
  ExecutedKernel unknown = expandFirstKernel(module);
  ASSERT_EQ(unknown.loops.size(), 1u);
  EXPECT_TRUE(unknown.loops[0].usedDefault);
  EXPECT_EQ(unknown.loops[0].why, (std::vector<std::string>{"parameter n (no --assume n=VALUE)"}));
}

/// A loop from 0 stepping by `step` while below `bound` (PTX text).
ptx::Module fieldLoop(const std::string &step, const std::string &bound) {
  return parseKernelText(".visible .entry fields(.param .align 8 .b8 share[32], .param .u32 step)\n"
                         "{\n"
                         "  .reg .pred %p<2>;\n"
                         "  .reg .b32 %r<8>;\n"
                         "  ld.param.u32 %r2, [" + step + "];\n"
                         "  ld.param.u32 %r3, [" + bound + "];\n"
                         "  mov.u32 %r1, 0;\n"
                         "$Lpass:\n"
                         "  add.s32 %r1, %r1, %r2;\n"
                         "  setp.lt.s32 %p1, %r1, %r3;\n"
                         "  @%p1 bra $Lpass;\n"
                         "  ret;\n"
                         "}\n",
                         "fields.ptx");
}

TEST(CounterFormsTest, AFieldOfAStructPassedByValueIsAssumedAsNamePlusOffset) {
  // CUB passes its grid-even-share as a struct: `ld.param.u32 %r3,
  // [share+20]` is the field 20 bytes in, which --assume share+20=N sets,
  // and which the reason names so (not "a value loaded from memory").
  ptx::Module module = fieldLoop("step", "share+20");
  ExecutedKernel unknown = expandFirstKernel(module, {{"step", 1}});
  ASSERT_EQ(unknown.loops.size(), 1u);
  EXPECT_TRUE(unknown.loops[0].usedDefault);
  ASSERT_FALSE(unknown.loops[0].why.empty());
  EXPECT_EQ(unknown.loops[0].why.back(), "parameter share+20 (a field of a struct passed by value; no --assume "
                                         "share+20=VALUE)");
  ExecutedKernel given = expandFirstKernel(module, {{"step", 1}, {"share+20", 100}});
  ASSERT_EQ(given.loops.size(), 1u);
  EXPECT_FALSE(given.loops[0].usedDefault);
  EXPECT_EQ(given.loops[0].maxTripCount, 100u);
  // Another field of the same struct is another value.
  ExecutedKernel other = expandFirstKernel(module, {{"step", 1}, {"share+24", 100}});
  ASSERT_EQ(other.loops.size(), 1u);
  EXPECT_TRUE(other.loops[0].usedDefault);
}

TEST(CounterFormsTest, ACounterWithAnUnknownStepNamesWhatWouldGiveIt) {
  // The bound is known; the step, a field, is not: the reason is the field,
  // not "register %r1 in the exit test is not an induction variable".
  ptx::Module module = fieldLoop("share+24", "share+20");
  ExecutedKernel kernel = expandFirstKernel(module, {{"share+20", 1000}});
  ASSERT_EQ(kernel.loops.size(), 1u);
  EXPECT_TRUE(kernel.loops[0].usedDefault);
  EXPECT_EQ(kernel.loops[0].why, (std::vector<std::string>{"parameter share+24 (a field of a struct passed by "
                                                           "value; no --assume share+24=VALUE)"}));
  ExecutedKernel given = expandFirstKernel(module, {{"share+20", 1000}, {"share+24", 64}});
  ASSERT_EQ(given.loops.size(), 1u);
  EXPECT_EQ(given.loops[0].maxTripCount, 16u); // 64, 128, ..., 1024
}

} // namespace
} // namespace ptxdvfs::test
