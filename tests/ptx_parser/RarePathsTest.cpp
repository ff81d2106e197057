// RarePathsTest.cpp - code real data almost never runs: the math library's
// large-argument paths and compare-and-swap retries.
//
// tests/fixtures/loops/rare_paths.cu says, per kernel, what must be read;
// rare_paths.ptx is nvcc 13's -lineinfo output.
#include "LoopFixtures.h"
#include "ParseHelpers.h"

#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <gtest/gtest.h>

#include <optional>

#include <algorithm>

namespace ptxdvfs::test {
namespace {

using namespace ptx::analysis;

class RarePathsTest : public ::testing::Test {
protected:
  static const ptx::Module &module() { return loopFixture("rare_paths.ptx"); }
  static ExecutedKernel expand(const std::string &namePart, LaunchAssumptions assumptions = {},
                               ExpansionOptions options = {}) {
    return expandNamed(module(), namePart, assumptions, options);
  }
};

TEST_F(RarePathsTest, SincosfsLargeArgumentReductionIsNotRead) {
  LaunchAssumptions assumptions;
  assumptions.parameters = {{"param_4", 100}};
  ExecutedKernel kernel = expand("phase_sum", assumptions);
  // The sample loop runs; the reduction's 6-iteration loop inside it is
  // behind the rare side: listed, never entered.
  ASSERT_EQ(kernel.loops.size(), 2u);
  EXPECT_EQ(kernel.loops[0].maxTripCount, 100u);
  EXPECT_EQ(kernel.loops[1].parent, 0);
  EXPECT_DOUBLE_EQ(kernel.loops[1].entries, 0);
  EXPECT_EQ(kernel.loops[1].maxTripCount, 0u);
  EXPECT_EQ(kernel.loops[1].why,
            std::vector<std::string>{"it lies on a side of a branch read as rare (never taken)"});
  EXPECT_DOUBLE_EQ(executedCount(kernel, "ld.global.f32"), 1 + 100); // x[i], then kx[k]
  EXPECT_DOUBLE_EQ(executedCount(kernel, "ld.global.nc.u32"), 0);    // the 2/pi table
  EXPECT_DOUBLE_EQ(executedCount(kernel, "st.local.u32"), 0);
  EXPECT_DOUBLE_EQ(executedCount(kernel, "mad.wide.u32"), 0);
  ASSERT_EQ(kernel.rareBranches.size(), 1u);
  EXPECT_NE(kernel.rareBranches[0].condition.find("105615"), std::string::npos)
      << kernel.rareBranches[0].condition;
  EXPECT_FALSE(kernel.rareBranches[0].nonFinite);
  ASSERT_TRUE(kernel.rareBranches[0].source.has_value());
  EXPECT_EQ(kernel.rareBranches[0].source->line, 15u);
}

TEST_F(RarePathsTest, DoubleSineDoesNotInlineItsSlowPath) {
  const auto &functions = module().functions;
  ASSERT_TRUE(std::any_of(functions.begin(), functions.end(), [](const ptx::Function &function) {
    return function.name == "__internal_trig_reduction_slowpathd";
  }));
  ExecutedKernel kernel = expand("double_sine");
  EXPECT_TRUE(std::none_of(kernel.sequence.begin(), kernel.sequence.end(), [](const ExecutedInstruction &step) {
    return step.function->name == "__internal_trig_reduction_slowpathd";
  }));
  EXPECT_DOUBLE_EQ(executedCount(kernel, "call.uni"), 0);
  EXPECT_GE(executedCount(kernel, "fma.rn.f64"), 10); // the polynomial of the ordinary path
  ASSERT_EQ(kernel.rareBranches.size(), 2u); // infinity, then |x| >= 2^31
  EXPECT_TRUE(kernel.rareBranches[0].nonFinite);
  EXPECT_FALSE(kernel.rareBranches[1].nonFinite);
  EXPECT_NE(kernel.rareBranches[1].condition.find("2147483648"), std::string::npos);
}

TEST_F(RarePathsTest, AMagnitudeTestAgainstAnOrdinaryBoundKeepsBothSides) {
  ExecutedKernel kernel = expand("clamp_small");
  EXPECT_DOUBLE_EQ(executedCount(kernel, "mul.f32"), 1); // |v| < 1
  EXPECT_DOUBLE_EQ(executedCount(kernel, "rcp.rn.f32"), 1);
  EXPECT_TRUE(kernel.rareBranches.empty());
}

TEST_F(RarePathsTest, ACompareAndSwapRetryLoopRunsOnceWhateverTheDefault) {
  for (std::uint64_t defaultTripCount : {16u, 5u}) {
    ExpansionOptions options;
    options.defaultTripCount = defaultTripCount;
    ExecutedKernel kernel = expand("histogram_cas", {}, options);
    ASSERT_EQ(kernel.loops.size(), 1u);
    EXPECT_EQ(kernel.loops[0].maxTripCount, 1u);
    EXPECT_EQ(originName(kernel.loops[0]), "default"); // an assumption: no contention
    EXPECT_NE(kernel.loops[0].rule.find("compare-and-swap"), std::string::npos);
    EXPECT_DOUBLE_EQ(executedCount(kernel, "atom.global.cas.b32"), 1);
  }
}

TEST(RareBranchTest, AWorkQueueLoopSaysItsCountRestsOnTheOtherThreads) {
  // while ((i = atomicAdd(counter, 1)) < n) out[i] = ...: each thread's
  // share of n depends on how the others race for the counter.
  ptx::Module module = parseKernelText(R"(.visible .entry k(.param .u64 counter, .param .u32 n)
{
  .reg .pred %p<3>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [counter];
  ld.param.u32 %r4, [n];
  atom.global.add.u32 %r5, [%rd1], 1;
  setp.ge.s32 %p1, %r5, %r4;
  @%p1 bra $L__done;
$L__loop:
  st.global.u32 [%rd1+4], %r5;
  atom.global.add.u32 %r5, [%rd1], 1;
  setp.lt.s32 %p2, %r5, %r4;
  @%p2 bra $L__loop;
$L__done:
  ret;
}
)",
                                       "work_queue.ptx");
  ExecutedKernel kernel = expandFirstKernel(module, {{"n", 1000}});
  ASSERT_EQ(kernel.loops.size(), 1u);
  EXPECT_TRUE(kernel.loops[0].usedDefault);
  ASSERT_FALSE(kernel.loops[0].why.empty());
  EXPECT_NE(kernel.loops[0].why[0].find("comes from an atomic (line 16,"), std::string::npos) << kernel.loops[0].why[0];
}

TEST(RareBranchTest, ASpinOnAWarpVoteSaysTheLanesWaitForOneAnother) {
  // CUB's decoupled look-back: spin while any lane still reads an empty
  // flag another block will set. How long depends on the other blocks.
  ptx::Module module = parseKernelText(R"(.visible .entry spin(.param .u64 flags)
{
  .reg .pred %p<3>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [flags];
$L__spin:
  ld.volatile.global.u32 %r1, [%rd1];
  setp.eq.s32 %p1, %r1, 0;
  vote.sync.any.pred %p2, %p1, -1;
  @%p2 bra $L__spin;
  ret;
}
)",
                                       "look_back.ptx");
  ExecutedKernel kernel = expandFirstKernel(module);
  ASSERT_EQ(kernel.loops.size(), 1u);
  EXPECT_TRUE(kernel.loops[0].usedDefault);
  ASSERT_FALSE(kernel.loops[0].why.empty());
  EXPECT_NE(kernel.loops[0].why[0].find("is a warp vote"), std::string::npos) << kernel.loops[0].why[0];
}

/// A kernel that arrives at an mbarrier and polls it with `poll` (lines 14
/// on), leaving the loop at `$L__done`.
ptx::Module barrierPoll(const std::string &poll) {
  return parseKernelText(R"(.visible .entry barrier_wait(.param .u64 bar)
{
  .reg .pred %p<3>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [bar];
  cvta.to.shared.u64 %rd2, %rd1;
  cvt.u32.u64 %r1, %rd2;
  mbarrier.arrive.shared.b64 %rd2, [%r1];
$L__poll:
)" + poll + R"(
$L__done:
  ret;
}
)",
                         "barrier_wait.ptx");
}

/// The one loop of barrierPoll(poll) as read; nullopt when it has another number.
std::optional<LoopReport> pollLoop(const std::string &poll) {
  const ptx::Module module = barrierPoll(poll);
  ExecutedKernel kernel = expandFirstKernel(module);
  if (kernel.loops.size() != 1)
    return std::nullopt;
  return kernel.loops[0];
}

TEST(RareBranchTest, APollOfATryWaitRunsOnceAsTheWaitSuspendsTheThread) {
  // libcu++'s cuda::barrier::wait: inline asm polls the phase into its own
  // predicate p and hands it back through selp; CUTLASS branches on it.
  for (const char *poll : {"  { .reg .pred p; mbarrier.try_wait.shared.b64 p, [%r1], %rd2; selp.b32 %r2, 1, 0, p; }\n"
                           "  setp.eq.s32 %p1, %r2, 0;\n  @%p1 bra $L__poll;",
                           "  { .reg .pred p; mbarrier.try_wait.shared.b64 p, [%r1], %rd2; selp.b32 %r2, 0, 1, p; }\n"
                           "  setp.ne.s32 %p1, 0, %r2;\n  @%p1 bra $L__poll;",
                           "  mbarrier.try_wait.parity.shared.b64 %p1, [%r1], 0;\n  @!%p1 bra $L__poll;",
                           "  mbarrier.try_wait.parity.shared.b64 %p1, [%r1], 0;\n  @%p1 bra $L__done;\n"
                           "  bra.uni $L__poll;"}) {
    std::optional<LoopReport> loop = pollLoop(poll);
    ASSERT_TRUE(loop) << poll;
    EXPECT_FALSE(loop->usedDefault) << poll;
    EXPECT_EQ(loop->maxTripCount, 1u) << poll;
    EXPECT_EQ(loop->origin, ValueOrigin::Defaulted) << poll;
    EXPECT_NE(loop->rule.find("waits until mbarrier.try_wait"), std::string::npos) << loop->rule;
  }
}

TEST(RareBranchTest, APollThatDoesNotSuspendOrStaysOnCompletionKeepsTheDefault) {
  // test_wait returns at once: how often it polls only a run can tell. A
  // loop that goes round while the phase is complete is no wait.
  for (const char *poll : {"  { .reg .pred p; mbarrier.test_wait.shared.b64 p, [%r1], %rd2; selp.b32 %r2, 1, 0, p; }\n"
                           "  setp.eq.s32 %p1, %r2, 0;\n  @%p1 bra $L__poll;",
                           "  { .reg .pred p; mbarrier.try_wait.shared.b64 p, [%r1], %rd2; selp.b32 %r2, 1, 0, p; }\n"
                           "  setp.ne.s32 %p1, %r2, 0;\n  @%p1 bra $L__poll;"}) {
    std::optional<LoopReport> loop = pollLoop(poll);
    ASSERT_TRUE(loop) << poll;
    EXPECT_TRUE(loop->usedDefault) << poll;
    ASSERT_FALSE(loop->why.empty());
    EXPECT_NE(loop->why[0].find("comes from mbarrier.t"), std::string::npos) << loop->why[0];
    EXPECT_NE(loop->why[0].find("(line 14): the thread waits"), std::string::npos) << loop->why[0];
  }
}

/// A kernel whose branch on `test` (over %f2 = |%f1|) jumps to `add.f32`
/// and falls through to `mul.f32`.
ptx::Module magnitudeBranch(const std::string &test, const std::string &branch) {
  return parseOk(R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ld.global.f32 %f1, [%rd1];
  abs.ftz.f32 %f2, %f1;
  )" + test + "\n  " + branch + R"( $L__taken;
  mul.f32 %f3, %f1, %f1;
  bra.uni $L__done;
$L__taken:
  add.f32 %f3, %f1, %f1;
$L__done:
  st.global.f32 [%rd1], %f3;
  ret;
}
)",
                 "magnitude.ptx");
}

TEST(RareBranchTest, TheOrdinarySideFollowsFromTheComparisonItsOperandOrderAndTheGuard) {
  struct Case {
    const char *test;
    const char *branch;
    double taken; // add.f32 runs: the branch target is the ordinary side
  };
  const Case cases[] = {
      {"setp.ltu.f32 %p1, %f2, 0f47CE4780;", "@%p1 bra", 1},       // sinf: small jumps past the reduction
      {"setp.ltu.f32 %p1, %f2, 0f47CE4780;", "@!%p1 bra", 0},
      {"setp.gtu.ftz.f32 %p1, %f2, 0f7F800000;", "@%p1 bra", 0},   // NaN jumps
      {"setp.eq.f32 %p1, %f2, 0f7F800000;", "@%p1 bra", 0},        // infinity jumps
      {"setp.neu.f32 %p1, %f2, 0f7F800000;", "@%p1 bra", 1},
      {"setp.lt.f32 %p1, 0f4B000000, %f2;", "@%p1 bra", 0},        // bound first: 2^23 < |x| is rare
      {"setp.lt.f32 %p1|%p2, %f2, 0f4B000000;", "@%p2 bra", 0},    // the pair's negation
  };
  for (const Case &c : cases) {
    ptx::Module module = magnitudeBranch(c.test, c.branch);
    ExecutedKernel kernel = expandFirstKernel(module);
    EXPECT_DOUBLE_EQ(executedCount(kernel, "add.f32"), c.taken) << c.test << " " << c.branch;
    EXPECT_DOUBLE_EQ(executedCount(kernel, "mul.f32"), 1 - c.taken) << c.test << " " << c.branch;
    EXPECT_EQ(kernel.rareBranches.size(), 1u) << c.test;
  }
  // Below 2^16 neither side is rare.
  ptx::Module ordinary = magnitudeBranch("setp.lt.f32 %p1, %f2, 0f477FFF00;", "@%p1 bra"); // 65535
  ExecutedKernel kernel = expandKernel(ordinary, *ordinary.kernels().front(), {}, {});
  EXPECT_DOUBLE_EQ(executedCount(kernel, "add.f32") + executedCount(kernel, "mul.f32"), 2);
  EXPECT_TRUE(kernel.rareBranches.empty());
}

} // namespace
} // namespace ptxdvfs::test
