// LoopReasonTest.cpp - what `loops` says of a loop written by hand in PTX:
// the source line it shows, why a count is what it is, and what is control.
#include "LoopFixtures.h"

#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"
#include "ptxdvfs/ptx/analysis/TripCounts.h"

#include <gtest/gtest.h>

#include <string>

namespace ptxdvfs::test {
namespace {

using namespace ptx::analysis;

/// Where `loops` shows the only loop of `text`'s kernel ("path:line"), with
/// the expanded kernel in `kernel`.
std::string shownAt(const char *text, ExecutedKernel &kernel) {
  ptx::Module module = parseKernelText(text, "loop_line.ptx");
  kernel = expandFirstKernel(module);
  if (kernel.loops.size() != 1 || !kernel.loops[0].source)
    return "(" + std::to_string(kernel.loops.size()) + " loops, or no source line)";
  return std::string(module.sourcePath(*kernel.loops[0].source)) + ":" + std::to_string(kernel.loops[0].source->line);
}

TEST(LoopSourceLineTest, ARotatedHeaderOpeningOnLineZeroIsShownAtItsFirstRealLine) {
  // nvcc opens the header of a rotated loop with `.loc 1 0 N` (compiler-made
  // code); an editor hint on line 0 would be lost, so the loop takes line 42.
  const char *text = R"(.file 1 "/src/kernel.cu"
.visible .entry k(.param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .loc 1 40 3
  mov.u32 %r1, 0;
$L__header:
  .loc 1 0 5
  add.s32 %r2, %r1, 7;
  .loc 1 42 5
  add.s32 %r1, %r1, 1;
  setp.lt.u32 %p1, %r1, 10;
  @%p1 bra $L__header;
  ret;
}
)";
  ExecutedKernel kernel;
  EXPECT_EQ(shownAt(text, kernel), "/src/kernel.cu:42");
  EXPECT_EQ(kernel.loops.at(0).maxTripCount, 10u);
}

TEST(LoopSourceLineTest, AHeaderOpeningWithAnInlinedCallIsShownAtTheLoopsOwnLine) {
  // `while (*flag == 0) __nanosleep(100);`: the header opens with the
  // sleep, inlined from sm_70_rt.hpp; the loop is the kernel's line 39. A
  // bare repeat of an inlined position (line 7) is not the kernel's own.
  const char *text = R"(.file 1 "/src/kernel.cu"
.file 3 "/cuda/include/sm_70_rt.hpp"
.visible .entry k(.param .u64 flag)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  .loc 1 38 0
  ld.param.u64 %rd2, [flag];
  cvta.to.global.u64 %rd1, %rd2;
  .loc 3 7 2, function_name $L__info_string0, inlined_at 1 37 1
  mov.u32 %r1, 0;
$L__spin:
  .loc 3 169 5, function_name $L__info_string4, inlined_at 1 39 3
  mov.u32 %r2, 100;
  nanosleep.u32 %r2;
  .loc 3 7 2
  add.s32 %r1, %r1, 1;
  .loc 1 39 3
  ld.volatile.global.u32 %r3, [%rd1];
  setp.eq.s32 %p1, %r3, 0;
  @%p1 bra $L__spin;
  ret;
}
)";
  ExecutedKernel kernel;
  EXPECT_EQ(shownAt(text, kernel), "/src/kernel.cu:39");
  // The flag is volatile: another thread or the host sets it, no aliasing to fix.
  ASSERT_FALSE(kernel.loops[0].why.empty());
  EXPECT_NE(kernel.loops[0].why[0].find("is read with ld.volatile.global.u32 from the same address in every "
                                        "iteration (line 23): a spin on a flag another thread or the host sets"),
            std::string::npos)
      << kernel.loops[0].why[0];
}

TEST(LoopReasonTest, ABoundReReadEveryIterationIsToldApartFromDataTheLoopChases) {
  // rereads: `for (i = 0; i < *n; i++) out[i] = 0;` where the store may alias *n,
  // so nvcc loads the bound again each iteration. chase: `while (p >= 0) p = next[p];`.
  const char *text = R"(.visible .entry rereads(.param .u64 n, .param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [n];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, 0;
$L__loop:
  st.global.u32 [%rd2], %r1;
  add.s64 %rd2, %rd2, 4;
  add.s32 %r1, %r1, 1;
  ld.global.u32 %r2, [%rd1];
  setp.lt.s32 %p1, %r1, %r2;
  @%p1 bra $L__loop;
  ret;
}
.visible .entry chase(.param .u64 next)
{
  .reg .pred %p<2>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [next];
  mov.u32 %r1, 0;
$L__loop:
  mul.wide.s32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r1, [%rd3];
  setp.gt.s32 %p1, %r1, -1;
  @%p1 bra $L__loop;
  ret;
}
)";
  ptx::Module module = parseKernelText(text, "reasons.ptx");
  auto reasonOf = [&](std::size_t kernel) {
    ExecutedKernel expanded =
        expandKernel(module, *module.kernels()[kernel], LaunchAssumptions{}, ExpansionOptions{});
    EXPECT_EQ(expanded.loops.size(), 1u);
    EXPECT_TRUE(!expanded.loops.empty() && expanded.loops[0].usedDefault);
    std::string joined;
    for (const LoopReport &loop : expanded.loops)
      for (const std::string &reason : loop.why)
        joined += reason + "\n";
    return joined;
  };
  std::string rereads = reasonOf(0), chase = reasonOf(1);
  EXPECT_NE(rereads.find("re-read from the same address"), std::string::npos) << rereads;
  EXPECT_NE(rereads.find("__restrict__"), std::string::npos) << rereads;
  EXPECT_NE(chase.find("depends on data loaded in the loop"), std::string::npos) << chase;
  EXPECT_EQ(chase.find("re-read"), std::string::npos) << chase;
}

TEST(LoopReasonTest, ANegatedExitTestIsStillSolved) {
  // nvcc -G: `not.pred` (and `mov.pred`) between the comparison and the branch leaving the loop.
  const char *text = R"(.visible .entry k()
{
  .reg .pred %p<4>;
  .reg .b32 %r<4>;
  mov.u32 %r1, 0;
$L__header:
  setp.lt.s32 %p1, %r1, 12;
  not.pred %p2, %p1;
  mov.pred %p3, %p2;
  @%p3 bra $L__exit;
  add.s32 %r1, %r1, 3;
  bra.uni $L__header;
$L__exit:
  ret;
}
)";
  ptx::Module module = parseKernelText(text, "negated.ptx");
  ExecutedKernel kernel = expandFirstKernel(module);
  ASSERT_EQ(kernel.loops.size(), 1u);
  EXPECT_FALSE(kernel.loops[0].usedDefault);
  EXPECT_EQ(kernel.loops[0].maxTripCount, 5u); // the header runs for 0, 3, 6, 9 and leaves at 12
}

TEST(LoopReasonTest, TheGlobalIndexOfBlockZeroDoesNotRestOnTheBlockSize) {
  // corr-style `for (j2 = j1 + 1; j2 < 2048; ++j2)`, j1 the global thread
  // index: for thread 0 of block 0, %ctaid.x * %ntid.x is 0 whatever the
  // block size, so the count is exact and names no default.
  const char *text = R"(.visible .entry k()
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mad.lo.s32 %r4, %r1, %r2, %r3;
  add.s32 %r5, %r4, 1;
$L__header:
  add.s32 %r5, %r5, 1;
  setp.lt.s32 %p1, %r5, 2048;
  @%p1 bra $L__header;
  ret;
}
)";
  ptx::Module module = parseKernelText(text, "global_index.ptx");
  ExecutedKernel kernel = expandFirstKernel(module);
  ASSERT_EQ(kernel.loops.size(), 1u);
  EXPECT_EQ(kernel.loops[0].maxTripCount, 2047u); // %r5 = 2 .. 2048
  EXPECT_EQ(kernel.loops[0].origin, ValueOrigin::Constant);
  EXPECT_TRUE(kernel.loops[0].why.empty()) << kernel.loops[0].why.front();
}

TEST(LoopReasonTest, ACounterCopiedBeforeItsUpdateIsStillACounter) {
  // lud-style `for (i = 0; i < 15; i++) { ... for (j = 0; j < i; j++) ... }`:
  // nvcc copies i (`mov %r1, %r5`) and updates the counter from the copy
  // (`add %r5, %r1, 1`), so the counter's update never reads the counter.
  const char *text = R"(.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<2>;
  mov.u32 %r5, 0;
  mov.f32 %f1, 0f00000000;
$L__outer:
  mov.u32 %r1, %r5;
  add.s32 %r5, %r1, 1;
  cvt.rn.f32.u32 %f2, %r1;
  add.f32 %f1, %f1, %f2;
  setp.eq.s32 %p2, %r1, 0;
  @%p2 bra $L__next;
  mov.u32 %r2, 0;
$L__inner:
  mul.f32 %f1, %f1, %f2;
  add.s32 %r2, %r2, 1;
  setp.lt.u32 %p3, %r2, %r1;
  @%p3 bra $L__inner;
$L__next:
  setp.lt.u32 %p1, %r5, 15;
  @%p1 bra $L__outer;
  ld.param.u64 %rd1, [out];
  st.global.f32 [%rd1], %f1;
  ret;
}
)";
  ptx::Module module = parseKernelText(text, "copied_counter.ptx");
  ExecutedKernel kernel = expandFirstKernel(module);
  ASSERT_EQ(kernel.loops.size(), 2u);
  EXPECT_FALSE(kernel.loops[0].usedDefault);
  EXPECT_EQ(kernel.loops[0].maxTripCount, 15u); // i = 0 .. 14
  EXPECT_EQ(kernel.loops[0].origin, ValueOrigin::Constant);
  EXPECT_FALSE(kernel.loops[1].usedDefault); // j < i, i bound through the copy
  EXPECT_DOUBLE_EQ(executedCount(kernel, "add.f32"), 15);
  EXPECT_DOUBLE_EQ(executedCount(kernel, "mul.f32"), 14 * 15 / 2); // 1 + 2 + ... + 14
}

TEST(LoopReasonTest, ACounterKeptInSixtyFourBitsIsStillACounter) {
  // A grid-stride row loop (CSR scalar SpMV) keeps its index in 64 bits for
  // addressing and updates the 32-bit counter from it: `cvt.s64.s32 %rd1,
  // %r1` ... `cvt.u32.u64 %r2, %rd1; add.s32 %r1, %r2, 3`. Through 16 bits
  // the low bits the update adds to are not the counter's (it would wrap
  // at 65536 and never reach 300000), so that is no counter.
  auto module = [](const char *roundTrip) {
    return parseKernelText((std::string(R"(.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b16 %rs<2>;
  .reg .b32 %r<4>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<3>;
  mov.u32 %r1, 0;
  mov.f32 %f1, 0f00000000;
$L__loop:
  cvt.s64.s32 %rd1, %r1;
  cvt.rn.f32.s64 %f2, %rd1;
  add.f32 %f1, %f1, %f2;
)") + roundTrip + R"(
  add.s32 %r1, %r2, 3;
  setp.lt.s32 %p1, %r1, 300000;
  @%p1 bra $L__loop;
  ld.param.u64 %rd2, [out];
  st.global.f32 [%rd2], %f1;
  ret;
}
)").c_str(), "wide_counter.ptx");
  };
  ptx::Module wide = module("  cvt.u32.u64 %r2, %rd1;");
  ExecutedKernel kernel = expandFirstKernel(wide);
  ASSERT_EQ(kernel.loops.size(), 1u);
  EXPECT_FALSE(kernel.loops[0].usedDefault);
  EXPECT_EQ(kernel.loops[0].maxTripCount, 100000u);
  EXPECT_NEAR(executedCount(kernel, "add.f32"), 100000, 1e-6); // sampled iterations carry the weight

  ptx::Module narrow = module("  cvt.u16.u64 %rs1, %rd1;\n  cvt.u32.u16 %r2, %rs1;");
  kernel = expandFirstKernel(narrow);
  ASSERT_EQ(kernel.loops.size(), 1u);
  EXPECT_TRUE(kernel.loops[0].usedDefault);
}

TEST(LoopControlTest, InlineAsmCopiesAreWorkWhereNvccCopiesAreControl) {
  // A register rotation written in inline asm stays in the unrolled build
  // (nvcc emits asm as written); nvcc's own copy carrying %f3 into the next
  // iteration (`mov.f32 %f1, %f3`) would vanish, as would the counter.
  const char *text = R"(.visible .entry k(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<3>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<2>;
  // begin inline asm
  .reg .f64 %r112;
  .reg .f64 %r113;
  mov.f64 %r112, 1.5;
  mov.f64 %r113, %r112;
  // end inline asm
  mov.f32 %f1, 0f00000000;
  mov.u32 %r1, 0;
$L__header:
  // begin inline asm
  mov.f64 %r113, %r112;
  mov.f64 %r112, %r113;
  // end inline asm
  add.f32 %f3, %f1, 0f3F800000;
  add.s32 %r1, %r1, 1;
  setp.lt.u32 %p1, %r1, 10;
  mov.f32 %f1, %f3;
  @%p1 bra $L__header;
  ld.param.u64 %rd1, [out];
  st.global.f32 [%rd1], %f3;
  ret;
}
)";
  ptx::Module module = parseKernelText(text, "asm_rotation.ptx");
  ExecutedKernel kernel = expandFirstKernel(module);
  ASSERT_EQ(kernel.loops.size(), 1u);
  ASSERT_EQ(kernel.loops[0].maxTripCount, 10u);
  EXPECT_DOUBLE_EQ(executedCount(kernel, "mov.f64"), 2 + 2 * 10); // before the loop, then twice per iteration
  EXPECT_DOUBLE_EQ(executedCount(kernel, "add.f32"), 10);
  EXPECT_DOUBLE_EQ(executedCount(kernel, "mov.f32"), 0); // nvcc's copy and its seed
  EXPECT_DOUBLE_EQ(executedCount(kernel, "add.s32"), 0);
}

} // namespace
} // namespace ptxdvfs::test
