// BlockDirectivesTest.cpp - the block size a loop over blockDim.x is read
// with when --block is not given: the kernel's .reqntid, else its .maxntid
// (__launch_bounds__), else the default; in the functions it calls too;
// and the launch size an application's kernels weigh by.
#include "LoopFixtures.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ptxdvfs::test {
namespace {

using namespace ptx::analysis;

/// A kernel with `directives` whose loop stores once per pass while
/// i < 1024, i from %tid.x by %ntid.x: 1024 / blockDim.x passes for thread 0.
/// With `inFunction`, the loop is in a .func the kernel calls.
ptx::Module blockStrideKernel(const std::string &directives, bool inFunction = false) {
  const std::string loop = "  mov.u32 %r1, %tid.x;\n"
                           "$L_loop:\n"
                           "  st.global.u32 [%rd2], %r1;\n"
                           "  mov.u32 %r2, %ntid.x;\n"
                           "  add.s32 %r1, %r1, %r2;\n"
                           "  setp.lt.u32 %p1, %r1, 1024;\n"
                           "  @%p1 bra $L_loop;\n";
  const std::string registers = "  .reg .pred %p<2>;\n  .reg .b32 %r<3>;\n  .reg .b64 %rd<3>;\n";
  std::string text;
  if (inFunction)
    text += ".func stride_loop(.param .b64 out)\n{\n" + registers +
            "  ld.param.u64 %rd1, [out];\n  cvta.to.global.u64 %rd2, %rd1;\n" + loop + "  ret;\n}\n";
  text += ".visible .entry block_stride(.param .u64 out)\n" + directives + "\n{\n" + registers +
          "  ld.param.u64 %rd1, [out];\n";
  if (inFunction)
    text += "  {\n  .param .b64 param0;\n  st.param.b64 [param0+0], %rd1;\n"
            "  call.uni stride_loop, (param0);\n  }\n";
  else
    text += "  cvta.to.global.u64 %rd2, %rd1;\n" + loop;
  text += "  ret;\n}\n";
  return parseKernelText(text, "block_stride.ptx");
}

ExecutedKernel expandWithBlock(const ptx::Module &module, std::optional<Dim3> block = std::nullopt) {
  LaunchAssumptions assumptions;
  assumptions.block = block;
  return expandNamed(module, "block_stride", assumptions);
}

TEST(BlockDirectivesTest, ReqntidIsTheBlockSize) {
  ExecutedKernel executed = expandWithBlock(blockStrideKernel(".reqntid 64, 1, 1"));
  ASSERT_EQ(executed.loops.size(), 1u);
  EXPECT_EQ(executed.loops[0].maxTripCount, 16u);
  EXPECT_EQ(executed.loops[0].origin, ValueOrigin::Constant);
  EXPECT_EQ(executed.loops[0].why, std::vector<std::string>{"%ntid.x = 64 (.reqntid)"});
}

TEST(BlockDirectivesTest, MaxntidIsTheDefaultBlockSize) {
  // __launch_bounds__(128): 256 threads per block cannot run it; 128 is
  // the likeliest launch, and still a default the user can set.
  ExecutedKernel executed = expandWithBlock(blockStrideKernel(".maxntid 128, 1, 1"));
  ASSERT_EQ(executed.loops.size(), 1u);
  EXPECT_EQ(executed.loops[0].maxTripCount, 8u);
  EXPECT_EQ(executed.loops[0].origin, ValueOrigin::Defaulted);
  EXPECT_EQ(executed.loops[0].why,
            std::vector<std::string>{"%ntid.x = 128 (.maxntid, the most the kernel allows; set --block)"});
  // --block decides over either directive.
  EXPECT_EQ(expandWithBlock(blockStrideKernel(".maxntid 128, 1, 1"), Dim3{32, 1, 1}).loops[0].maxTripCount, 32u);
  // Without directives, the default block of 256.
  EXPECT_EQ(expandWithBlock(blockStrideKernel("")).loops[0].maxTripCount, 4u);
}

TEST(BlockDirectivesTest, AFunctionTheKernelCallsReadsTheKernelsBlockSize) {
  ExecutedKernel required = expandWithBlock(blockStrideKernel(".reqntid 64, 1, 1", true));
  ASSERT_EQ(required.loops.size(), 1u);
  EXPECT_EQ(required.loops[0].maxTripCount, 16u);
  EXPECT_EQ(required.loops[0].origin, ValueOrigin::Constant);
  ExecutedKernel bounded = expandWithBlock(blockStrideKernel(".maxntid 512, 1, 1", true));
  ASSERT_EQ(bounded.loops.size(), 1u);
  EXPECT_EQ(bounded.loops[0].maxTripCount, 2u);
}

TEST(BlockDirectivesTest, TheLaunchSizeIsReadAsTheLoopsReadIt) {
  // The size an application's kernels weigh by: what %ntid and %nctaid read.
  ExecutedKernel unset = expandWithBlock(blockStrideKernel(""));
  EXPECT_EQ(unset.launch.block.x, 256u);
  EXPECT_EQ(unset.launch.grid.x, 1024u);
  EXPECT_EQ(unset.launch.grid.y * unset.launch.grid.z * unset.launch.block.y * unset.launch.block.z, 1u);
  EXPECT_DOUBLE_EQ(unset.launch.threads(), 262144.0);
  EXPECT_EQ(unset.launch.origin, ValueOrigin::Defaulted);
  EXPECT_EQ(unset.launch.why, (std::vector<std::string>{"%nctaid.x,y,z = 1024,1,1 (default; set --grid)",
                                                        "%ntid.x,y,z = 256,1,1 (default; set --block)"}));

  ExecutedKernel required = expandWithBlock(blockStrideKernel(".reqntid 64, 2, 1"));
  EXPECT_DOUBLE_EQ(required.launch.threads(), 1024.0 * 128);
  EXPECT_EQ(required.launch.origin, ValueOrigin::Defaulted); // the grid still is

  LaunchAssumptions given;
  given.grid = Dim3{40, 3, 1};
  ptx::Module module = blockStrideKernel(".maxntid 128, 1, 1");
  ExecutedKernel both = expandNamed(module, "block_stride", given);
  EXPECT_DOUBLE_EQ(both.launch.threads(), 120.0 * 128); // .maxntid as the block
  EXPECT_EQ(both.launch.origin, ValueOrigin::Defaulted);
  given.block = Dim3{32, 4, 2};
  both = expandNamed(module, "block_stride", given);
  EXPECT_DOUBLE_EQ(both.launch.threads(), 120.0 * 256);
  EXPECT_EQ(both.launch.origin, ValueOrigin::Assumed);
  EXPECT_EQ(both.launch.why,
            (std::vector<std::string>{"%nctaid.x,y,z = 40,3,1 (--grid)", "%ntid.x,y,z = 32,4,2 (--block)"}));

  // A launch file's launches multiply the threads the kernel weighs by, not its sizes.
  LaunchAssumptions repeated;
  repeated.sourceLaunches["block_stride"].grid = Dim3{10, 1, 1};
  repeated.sourceLaunches["block_stride"].launches = 5;
  repeated.sourceLaunches["block_stride"].at = "run.json";
  ExecutedKernel five = expandNamed(module, "block_stride", repeated);
  EXPECT_DOUBLE_EQ(five.launch.threads(), 10.0 * 128);
  EXPECT_EQ(five.launch.launches, 5u);
  EXPECT_DOUBLE_EQ(five.launch.launchedThreads(), 5 * 10.0 * 128);
  EXPECT_EQ(five.launch.why.back(), "launched 5 times (the launch at run.json)");
  EXPECT_EQ(both.launch.launches, 1u);

  // Past 2^64 threads the count is still a number, not a wrapped one.
  given.grid = Dim3{UINT32_MAX, 65535, 65535};
  given.block = Dim3{1024, 1, 1};
  EXPECT_GT(expandNamed(module, "block_stride", given).launch.threads(), 1e22);
}

} // namespace
} // namespace ptxdvfs::test
