// ExecutedSequenceTest.cpp - trip counts and executed counts of real nvcc loops with known answers.
//
// tests/fixtures/loops/realistic.cu documents, per kernel, the per-thread
// counts its loops must have; realistic.ptx is nvcc 13's -lineinfo output.
#include "LoopFixtures.h"

#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"
#include "ptxdvfs/ptx/analysis/TripCounts.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace ptxdvfs::test {
namespace {

using namespace ptx::analysis;

class RealisticLoopsTest : public ::testing::Test {
protected:
  static const ptx::Module &module() { return loopFixture("realistic.ptx"); }

  /// 256 blocks of 256 threads unless a test says otherwise.
  static LaunchAssumptions launch(AssumedParameters parameters) {
    LaunchAssumptions assumptions;
    assumptions.grid = Dim3{256, 1, 1};
    assumptions.block = Dim3{256, 1, 1};
    assumptions.parameters = std::move(parameters);
    return assumptions;
  }

  static ExecutedKernel expand(const std::string &namePart, const LaunchAssumptions &assumptions,
                               std::size_t budget = 1u << 20, bool keepLoopControl = false,
                               std::uint64_t defaultTripCount = ExpansionOptions{}.defaultTripCount) {
    ExpansionOptions options;
    options.budget = budget;
    options.keepLoopControl = keepLoopControl;
    options.defaultTripCount = defaultTripCount;
    return expandNamed(module(), namePart, assumptions, options);
  }

  static std::vector<std::uint64_t> tripCounts(const ExecutedKernel &kernel) {
    std::vector<std::uint64_t> counts;
    for (const LoopReport &loop : kernel.loops)
      counts.push_back(loop.maxTripCount);
    return counts;
  }
};

TEST_F(RealisticLoopsTest, GridStrideSaxpyRunsNOverTheWholeGrid) {
  // 2^20 elements over 256 x 256 threads: 16 per thread.
  ExecutedKernel kernel = expand("saxpy_grid_stride", launch({{"param_0", 1 << 20}}));
  ASSERT_EQ(tripCounts(kernel), (std::vector<std::uint64_t>{16}));
  EXPECT_EQ(kernel.loops[0].origin, ValueOrigin::Assumed);
  EXPECT_FALSE(kernel.loops[0].usedDefault);
  EXPECT_DOUBLE_EQ(executedCount(kernel, "fma.rn.f32"), 16);
  ASSERT_TRUE(kernel.loops[0].source.has_value());
  EXPECT_EQ(kernel.loops[0].source->line, 9u);
}

TEST_F(RealisticLoopsTest, ABoundNearTheTopOfItsTypeIsFoundBeforeTheCounterWraps) {
  // One thread walks n elements. Past n = 2^30 the search for the exit
  // doubles to 2^31, where the 32-bit counter reads -2^31 and the test
  // holds again; the exit must still be found where it is.
  LaunchAssumptions assumptions;
  assumptions.grid = Dim3{1, 1, 1};
  assumptions.block = Dim3{1, 1, 1};
  for (std::int64_t n : {std::int64_t{1} << 30, (std::int64_t{1} << 30) + 5, std::int64_t{2000000000},
                         std::int64_t{2147483646}, std::int64_t{2147483647}}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    assumptions.parameters = {{"param_0", n}};
    ExecutedKernel kernel = expand("saxpy_grid_stride", assumptions, 8192);
    ASSERT_EQ(kernel.loops.size(), 1u);
    EXPECT_FALSE(kernel.loops[0].usedDefault);
    EXPECT_EQ(kernel.loops[0].maxTripCount, static_cast<std::uint64_t>(n));
  }
}

TEST_F(RealisticLoopsTest, GridStrideWithoutTheLaunchUsesTheDefaultsAndSaysSo) {
  LaunchAssumptions assumptions;
  assumptions.parameters.insert_or_assign("param_0", 1 << 20);
  ExecutedKernel kernel = expand("saxpy_grid_stride", assumptions);
  // 2^20 / (256 x 1024 default threads) = 4.
  EXPECT_EQ(tripCounts(kernel), (std::vector<std::uint64_t>{4}));
  EXPECT_EQ(kernel.loops[0].origin, ValueOrigin::Defaulted);
}

TEST_F(RealisticLoopsTest, TiledGemmRunsOneFmaPerElementOfTheRow) {
  // n = 256: 16 tiles, each 16 fma (the inner loop is unrolled by nvcc) and two barriers.
  ExecutedKernel kernel = expand("gemm_tiled", launch({{"param_3", 256}}));
  EXPECT_EQ(tripCounts(kernel), (std::vector<std::uint64_t>{16}));
  EXPECT_DOUBLE_EQ(executedCount(kernel, "fma.rn.f32"), 256);
  EXPECT_DOUBLE_EQ(executedCount(kernel, "bar.sync"), 32);
}

TEST_F(RealisticLoopsTest, StencilMarchesAlongZUnrolledByFourWithARemainder) {
  // nz = 66: 64 planes; nvcc unrolled by 4, and 64 % 4 == 0 skips the remainder loop.
  ExecutedKernel kernel = expand("stencil_march_z", launch({{"param_4", 66}}));
  EXPECT_DOUBLE_EQ(executedCount(kernel, "st.global.f32"), 64);
  // nz = 67: 65 planes, the remainder loop runs once.
  ExecutedKernel odd = expand("stencil_march_z", launch({{"param_4", 67}}));
  EXPECT_DOUBLE_EQ(executedCount(odd, "st.global.f32"), 65);
  for (const LoopReport &loop : odd.loops)
    EXPECT_FALSE(loop.usedDefault);
}

TEST_F(RealisticLoopsTest, ReductionHalvesItsStrideLog2BlockTimes) {
  ExecutedKernel kernel = expand("reduce_sum", launch({{"param_2", 1 << 20}}));
  EXPECT_EQ(tripCounts(kernel), (std::vector<std::uint64_t>{16, 8}));
  EXPECT_DOUBLE_EQ(executedCount(kernel, "bar.sync"), 1 + 8);
  EXPECT_NE(kernel.loops[1].rule.find(">>1"), std::string::npos) << kernel.loops[1].rule;
}

TEST_F(RealisticLoopsTest, HistogramHasBlockStrideAndGridStrideLoops) {
  ExecutedKernel kernel = expand("histogram256", launch({{"param_2", 1 << 20}}));
  EXPECT_EQ(tripCounts(kernel), (std::vector<std::uint64_t>{1, 16, 1}));
  LaunchAssumptions small = launch({{"param_2", 1 << 20}});
  small.block = Dim3{64, 1, 1};
  // 64 threads: the 256 bins take 4 block-stride steps; 2^20 / (64 x 256) = 64.
  EXPECT_EQ(tripCounts(expand("histogram256", small)), (std::vector<std::uint64_t>{4, 64, 4}));
}

TEST_F(RealisticLoopsTest, BoundsReadFromMemoryFallBackToTheDefaultWithAReason) {
  for (const char *name : {"spmv_csr", "pointer_chase", "bit_count_shift"}) {
    ExecutedKernel kernel = expand(name, launch({}));
    ASSERT_FALSE(kernel.loops.empty()) << name;
    for (const LoopReport &loop : kernel.loops) {
      EXPECT_FALSE(loop.why.empty()) << name;
      if (loop.usedDefault)
        EXPECT_EQ(loop.maxTripCount, ExpansionOptions{}.defaultTripCount) << name;
      else // spmv's remainder loop: (end - start) & 3
        EXPECT_EQ(loop.maxTripCount, 3u) << name;
    }
    EXPECT_TRUE(std::any_of(kernel.loops.begin(), kernel.loops.end(),
                            [](const LoopReport &loop) { return loop.usedDefault; }))
        << name;
  }
  ExecutedKernel spmv = expand("spmv_csr", launch({}));
  bool mentionsMemory = false;
  for (const LoopReport &loop : spmv.loops)
    for (const std::string &reason : loop.why)
      mentionsMemory = mentionsMemory || reason.find("memory") != std::string::npos;
  EXPECT_TRUE(mentionsMemory);
}

TEST_F(RealisticLoopsTest, TriangularNestCountsEveryInnerTripExactly) {
  // n = 64: the inner loop reads a[i][j] for j < i: 64 * 63 / 2 loads.
  ExecutedKernel kernel = expand("triangular", launch({{"param_2", 64}}));
  EXPECT_DOUBLE_EQ(executedCount(kernel, "ld.global.f32"), 64 * 63 / 2);
  EXPECT_EQ(kernel.iterationsPerLoop, 0u); // nothing sampled at this budget
  ASSERT_GE(kernel.loops.size(), 2u);
  EXPECT_EQ(kernel.loops[1].depth, 2u);
  EXPECT_EQ(kernel.loops[1].origin, ValueOrigin::Assumed); // through the outer bound
}

TEST_F(RealisticLoopsTest, SamplingKeepsTheBudgetAndTheCountsClose) {
  ExecutedKernel full = expand("triangular", launch({{"param_2", 256}}));
  ExecutedKernel sampled = expand("triangular", launch({{"param_2", 256}}), 2000);
  EXPECT_LE(sampled.sequence.size(), 2000u);
  EXPECT_GT(sampled.iterationsPerLoop, 0u);
  EXPECT_DOUBLE_EQ(executedCount(full, "ld.global.f32"), 256 * 255 / 2);
  EXPECT_NEAR(executedCount(sampled, "ld.global.f32") / (256 * 255 / 2), 1.0, 0.10);
  EXPECT_NEAR(sampled.executedInstructions / full.executedInstructions, 1.0, 0.10);
}

TEST_F(RealisticLoopsTest, UnrolledByFourWithRemainderCountsEveryElementOnce) {
  for (std::int64_t n : {1, 3, 4, 10, 1024}) {
    ExecutedKernel kernel = expand("scale_unrolled4", launch({{"param_2", n}}));
    EXPECT_DOUBLE_EQ(executedCount(kernel, "ld.global.f32"), static_cast<double>(n)) << "n = " << n;
  }
  ExecutedKernel none = expand("scale_unrolled4", launch({{"param_2", 0}}));
  EXPECT_DOUBLE_EQ(executedCount(none, "ld.global.f32"), 0); // the guard skips both loops
}

TEST_F(RealisticLoopsTest, AnUnknownRemainderRunsAtMostItsMaskNotTheDefault) {
  // scale_unrolled4 without n: the loop unrolled by 4 takes the default, its
  // remainder `r = n & 3; do ... while (--r)` at most 3, as the three
  // guarded copies of an unrolled remainder are read.
  ExecutedKernel kernel = expand("scale_unrolled4", launch({}));
  ASSERT_EQ(kernel.loops.size(), 2u);
  EXPECT_TRUE(kernel.loops[0].usedDefault);
  EXPECT_EQ(kernel.loops[0].maxTripCount, ExpansionOptions{}.defaultTripCount);
  EXPECT_FALSE(kernel.loops[1].usedDefault);
  EXPECT_EQ(kernel.loops[1].maxTripCount, 3u);
  EXPECT_FALSE(kernel.loops[0].atMost);
  EXPECT_TRUE(kernel.loops[1].atMost); // a bound, which `loops` and lint say
  EXPECT_FALSE(expand("scale_unrolled4", launch({{"param_2", 7}})).loops[1].atMost); // n = 7: exactly 3
  bool saysWhy = false;
  for (const std::string &reason : kernel.loops[1].why)
    saysWhy = saysWhy || reason.find("at most at 3") != std::string::npos;
  EXPECT_TRUE(saysWhy);
}

TEST_F(RealisticLoopsTest, ACountDownLoopStartsWhereItsRemainderLeftTheCounter) {
  // reverse_scale: the remainder loop (n & 3 passes) runs first and the loop
  // unrolled by 4 starts from the counter's value after it.
  for (std::int64_t n : {1, 3, 4, 1024, 1027}) {
    ExecutedKernel kernel = expand("reverse_scale", launch({{"param_2", n}}));
    EXPECT_DOUBLE_EQ(executedCount(kernel, "mul.f32"), static_cast<double>(n)) << "n = " << n;
    for (const LoopReport &loop : kernel.loops)
      EXPECT_FALSE(loop.usedDefault) << "n = " << n;
  }
}

TEST_F(RealisticLoopsTest, ACounterCopiedOnBothPathsAroundTheRemainderIsKnown) {
  // reverse_scale_unsigned: `mov %r30, n` before the guard and again before
  // the remainder loop; with n a multiple of 4 the guard skips the remainder,
  // and both copies agree with the counter's value after it. Where the
  // remainder runs, the copy on the path around it disagrees, and thread
  // 0's path (through the remainder loop) tells which value enters.
  for (std::int64_t n : {1, 3, 4, 5, 1000, 1024, 1027}) {
    ExecutedKernel kernel = expand("reverse_scale_unsigned", launch({{"param_2", n}}));
    EXPECT_DOUBLE_EQ(executedCount(kernel, "mul.f32"), static_cast<double>(n)) << "n = " << n;
  }
}

TEST_F(RealisticLoopsTest, APointerRangeCountsFromTheOffsetOfItsEnds) {
  // pointer_range: `p < v + n` with v unknown; both ends rest on v, so the
  // count is n, and it rests on n alone.
  for (std::int64_t n : {1, 7, 1000}) {
    ExecutedKernel kernel = expand("pointer_range", launch({{"param_1", n}}));
    ASSERT_EQ(kernel.loops.size(), 1u);
    EXPECT_FALSE(kernel.loops[0].usedDefault) << "n = " << n;
    EXPECT_EQ(kernel.loops[0].origin, ValueOrigin::Assumed);
    EXPECT_DOUBLE_EQ(executedCount(kernel, "mul.f32"), static_cast<double>(n)) << "n = " << n;
  }
}

TEST_F(RealisticLoopsTest, AGridStrideLoopUnrolledByFourCountsEveryPass) {
  // grid_stride_unrolled over 256 x 256 threads: ceil(n / 65536) passes of
  // two stores each, split between the remainder (count & 3) and groups of
  // 4 whose counter moves through a chain of adds. n <= 3 x 65536 leaves no
  // group, and the guard before the unrolled part skips it.
  for (std::int64_t n : {1, 65536, 65537, 196608, 196609, 1000000, 1048577}) {
    ExecutedKernel kernel = expand("grid_stride_unrolled", launch({{"param_7", n}}));
    double passes = static_cast<double>((n + 65535) / 65536);
    EXPECT_DOUBLE_EQ(executedCount(kernel, "st.global.f32"), 2 * passes) << "n = " << n;
    for (const LoopReport &loop : kernel.loops)
      EXPECT_FALSE(loop.usedDefault) << "n = " << n;
  }
}

TEST_F(RealisticLoopsTest, AnUnrolledLoopStartsFromThePeeledCopiesThreadZeroRan) {
  // strided_accumulate: thread 0 fills slots k = 0, 256, 512, 768; slot k
  // takes m = ceil((n - k) / 1024) elements, m & 3 in peeled copies (each
  // setting the counter on its own path) and m / 4 passes of the part
  // unrolled by 4, which a guard skips when m < 4.
  for (std::int64_t n : {1000, 2048, 3500, 4100, 10000}) {
    ExecutedKernel kernel = expand("strided_accumulate", launch({{"param_3", n}}));
    ASSERT_EQ(kernel.loops.size(), 2u) << "n = " << n;
    const LoopReport &unrolled = kernel.loops[1];
    std::uint64_t least = UINT64_MAX, most = 0;
    double total = 0;
    for (std::int64_t slot = 0; slot < 1024; slot += 256) {
      std::int64_t elements = n > slot ? (n - slot + 1023) / 1024 : 0;
      auto passes = static_cast<std::uint64_t>(elements / 4);
      least = std::min(least, passes);
      most = std::max(most, passes);
      total += static_cast<double>(passes);
    }
    EXPECT_FALSE(unrolled.usedDefault) << "n = " << n;
    EXPECT_EQ(unrolled.minTripCount, least) << "n = " << n;
    EXPECT_EQ(unrolled.maxTripCount, most) << "n = " << n;
    EXPECT_DOUBLE_EQ(unrolled.meanTripCount * unrolled.entries, total) << "n = " << n;
  }
}

TEST_F(RealisticLoopsTest, APathDecidedByAParameterNamesTheParameterNotARegister) {
  // Without n (param_3; the library reads PTX names, the CLI adds CUDA's),
  // which peeled copy thread 0 ran is undecided: the reason must be the one
  // thing that decides it, so the user knows what to --assume.
  ExecutedKernel kernel = expand("strided_accumulate", launch({}));
  ASSERT_EQ(kernel.loops.size(), 2u);
  const LoopReport &unrolled = kernel.loops[1];
  EXPECT_TRUE(unrolled.usedDefault);
  EXPECT_EQ(unrolled.why, (std::vector<std::string>{"parameter param_3 (no --assume param_3=VALUE)"}));
}

TEST_F(RealisticLoopsTest, AnUnrolledPartStartingAfterThePeeledCopiesFollowsThreadZerosCopy) {
  // clamped_window: the inner part unrolled by 4 starts from one before the
  // column the peeled copies left (`add %r25, %r24, -1`), %r24 set on each
  // copy's own path: w columns and w rows, w = min(hi, 63) - max(lo, 0) + 1.
  for (auto [lo, hi] : {std::pair{3, 9}, {0, 63}, {-5, 2}, {10, 13}, {7, 7}, {60, 100}, {9, 3}}) {
    SCOPED_TRACE("lo = " + std::to_string(lo) + ", hi = " + std::to_string(hi));
    ExecutedKernel kernel = expand("clamped_window", launch({{"param_1", lo}, {"param_2", hi}}));
    for (const LoopReport &loop : kernel.loops)
      EXPECT_FALSE(loop.usedDefault) << loop.rule;
    double width = std::max(0, std::min(hi, 63) - std::max(lo, 0) + 1);
    EXPECT_DOUBLE_EQ(executedCount(kernel, "st.global.f32"), width * width);
  }
}

TEST_F(RealisticLoopsTest, AnExitTestOnTheRemainingStepsCountsTheSteps) {
  // binomial_sweep: i = n, n - 32, ... > 0, tested as n - k > 32 with k
  // counting up, then ceil(i / 224) tiles for each i.
  for (std::int64_t n : {1, 32, 33, 100, 2048}) {
    ExecutedKernel kernel = expand("binomial_sweep", launch({{"param_2", n}}));
    ASSERT_GE(kernel.loops.size(), 2u) << "n = " << n;
    EXPECT_FALSE(kernel.loops[0].usedDefault) << "n = " << n;
    EXPECT_EQ(kernel.loops[0].maxTripCount, static_cast<std::uint64_t>((n + 31) / 32)) << "n = " << n;
    double tiles = 0;
    for (std::int64_t i = n; i > 0; i -= 32)
      tiles += static_cast<double>((i + 223) / 224);
    EXPECT_DOUBLE_EQ(kernel.loops[1].meanTripCount * kernel.loops[1].entries, tiles) << "n = " << n;
  }
}

TEST_F(RealisticLoopsTest, TheDefaultCountsPassesOfTheLoopAsNvccWroteIt) {
  // Without n, a loop runs the default count of passes as written: one body
  // per pass where nvcc left it rolled (saxpy_grid_stride), four where it
  // unrolled it by 4, plus its remainder (a loop read as at most 3, or 3
  // peeled copies, which are kept). The training microbenchmarks' own
  // repetition loops are unrolled by 4 with peeled remainders and read this
  // way, so real kernels must be too (docs/loops.md, "Unknown counts").
  for (std::uint64_t fallback : {16u, 64u}) {
    auto expandWithDefault = [&](const std::string &name) {
      return expand(name, LaunchAssumptions{}, 1u << 20, false, fallback);
    };
    auto passes = static_cast<double>(fallback);
    EXPECT_DOUBLE_EQ(executedCount(expandWithDefault("saxpy_grid_stride"), "fma.rn.f32"), passes);
    EXPECT_DOUBLE_EQ(executedCount(expandWithDefault("scale_unrolled4"), "ld.global.f32"), 4 * passes + 3);
    EXPECT_DOUBLE_EQ(executedCount(expandWithDefault("scale_size_t"), "mul.f32"), 4 * passes + 3);
    EXPECT_DOUBLE_EQ(executedCount(expandWithDefault("rows_by_columns"), "add.f32"), passes * (4 * passes + 3));
  }
}

TEST_F(RealisticLoopsTest, SixtyFourBitAndNestedRemaindersCountEveryElementOnce) {
  for (std::int64_t n : {1, 3, 4, 1027}) {
    ExecutedKernel scale = expand("scale_size_t", launch({{"param_1", n}}));
    EXPECT_DOUBLE_EQ(executedCount(scale, "mul.f32"), static_cast<double>(n)) << "n = " << n;
    for (std::int64_t m : {1, 6, 8}) {
      ExecutedKernel grid = expand("rows_by_columns", launch({{"param_1", n}, {"param_2", m}}));
      EXPECT_DOUBLE_EQ(executedCount(grid, "add.f32"), static_cast<double>(n * m)) << "n = " << n << ", m = " << m;
    }
  }
}

TEST_F(RealisticLoopsTest, ConstantBoundIsExactAndConstant) {
  ExecutedKernel kernel = expand("constant_rolled", launch({}));
  ASSERT_EQ(tripCounts(kernel), (std::vector<std::uint64_t>{100}));
  EXPECT_EQ(kernel.loops[0].origin, ValueOrigin::Constant);
  EXPECT_TRUE(kernel.loops[0].why.empty());
  EXPECT_DOUBLE_EQ(executedCount(kernel, "fma.rn.f32"), 100);
}

TEST_F(RealisticLoopsTest, CalledFunctionsAreInlinedAtEveryCall) {
  ExecutedKernel kernel = expand("calls_in_loop", launch({}));
  const ptx::Function *poly = nullptr;
  for (const ptx::Function &function : module().functions)
    if (function.kind == ptx::FunctionKind::Func && function.hasBody && function.name.find("poly") != std::string::npos)
      poly = &function;
  ASSERT_NE(poly, nullptr);
  double inlined = 0;
  for (const ExecutedInstruction &step : kernel.sequence)
    if (step.function == poly)
      inlined += step.weight;
  EXPECT_DOUBLE_EQ(inlined, 8.0 * static_cast<double>(poly->instructionCount()));
}

TEST_F(RealisticLoopsTest, ACalledFunctionsLoopRunsAsItsCallSiteAsks) {
  // sum_first(v, 8) + sum_first(v + 8, 100): the count is each call's argument,
  // and an --assume of the same name does not override what the call passes.
  for (const auto &parameters : {AssumedParameters{},
                                 AssumedParameters{{"_Z9sum_firstPKfi_param_1", 1000}}}) {
    ExecutedKernel kernel = expand("calls_with_bounds", launch(parameters));
    EXPECT_DOUBLE_EQ(executedCount(kernel, "ld.global.f32"), 8 + 100);
    ASSERT_FALSE(kernel.loops.empty());
    EXPECT_EQ(kernel.loops[0].minTripCount, 8u / 4);
    EXPECT_EQ(kernel.loops[0].maxTripCount, 100u / 4);
    EXPECT_EQ(kernel.loops[0].origin, ValueOrigin::Constant);
  }
}

TEST_F(RealisticLoopsTest, WeightsAddUpToTheExecutedCount) {
  ExecutedKernel kernel = expand("gemm_tiled", launch({{"param_3", 4096}}), 1000);
  double total = 0;
  for (const ExecutedInstruction &step : kernel.sequence)
    total += step.weight;
  EXPECT_NEAR(total, kernel.executedInstructions, 1e-6 * total);
  EXPECT_NEAR(executedCount(kernel, "fma.rn.f32"), 4096, 1e-6);
}

TEST_F(RealisticLoopsTest, LoopControlIsReadAsFullUnrollingWouldLeaveIt) {
  // constant_rolled: per iteration one fma, a counter add, the exit test and the branch.
  ExecutedKernel unrolled = expand("constant_rolled", launch({}));
  ExecutedKernel executed = expand("constant_rolled", launch({}), 1u << 20, true);
  EXPECT_DOUBLE_EQ(executedCount(unrolled, "fma.rn.f32"), 100);
  EXPECT_DOUBLE_EQ(executedCount(executed, "fma.rn.f32"), 100);
  EXPECT_DOUBLE_EQ(executedCount(unrolled, "setp.ne.s32"), 0);
  EXPECT_DOUBLE_EQ(executedCount(executed, "setp.ne.s32"), 100);
  EXPECT_DOUBLE_EQ(executedCount(executed, "add.s32"), 100);
  EXPECT_LT(unrolled.executedInstructions, executed.executedInstructions - 250);
}

TEST_F(RealisticLoopsTest, AccumulatorsReadAfterTheLoopAreDataNotControl) {
  // bit_count_shift: `bits += v & 1` is read after the loop; the shift feeds the exit test too.
  ExecutedKernel kernel = expand("bit_count_shift", launch({}));
  const double trips = static_cast<double>(ExpansionOptions{}.defaultTripCount);
  EXPECT_DOUBLE_EQ(executedCount(kernel, "add.s32"), trips);
  EXPECT_DOUBLE_EQ(executedCount(kernel, "and.b32"), trips);
  // Grid-stride SAXPY keeps its loads, fma and store; the index arithmetic goes.
  ExecutedKernel saxpy = expand("saxpy_grid_stride", launch({{"param_0", 1 << 20}}));
  EXPECT_DOUBLE_EQ(executedCount(saxpy, "ld.global.f32"), 32);
  EXPECT_DOUBLE_EQ(executedCount(saxpy, "st.global.f32"), 16);
  EXPECT_DOUBLE_EQ(executedCount(saxpy, "mul.wide.s32"), 0);
}

} // namespace
} // namespace ptxdvfs::test
