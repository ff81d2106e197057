// BlockDirectivesTest.cpp - the block size a loop over blockDim.x is read
// with when --block is not given: the kernel's .reqntid, else its .maxntid
// (__launch_bounds__), else the default; in the functions it calls too.
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

} // namespace
} // namespace ptxdvfs::test
