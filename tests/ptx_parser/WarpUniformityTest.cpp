// WarpUniformityTest.cpp - post-dominators, and which registers and load addresses vary within a warp.
#include "ParseHelpers.h"

#include "ptxdvfs/ptx/analysis/WarpUniformity.h"

#include <gtest/gtest.h>

namespace ptxdvfs::test {
namespace {

using namespace ptx::analysis;

std::string kernelWith(const std::string &body, const std::string &kind = ".entry") {
  return ".version 8.0\n.target sm_80\n.address_size 64\n"
         ".visible " + kind + " k(.param .u64 k_param_0, .param .u32 k_param_1)\n{\n"
         ".reg .pred %p<4>;\n.reg .b32 %r<20>;\n.reg .f32 %f<20>;\n.reg .b64 %rd<20>;\n"
         ".local .align 4 .b8 stack[16];\n" +
         body + "}\n";
}

/// The loads of the function, each with whether it reads one global address per warp.
std::vector<bool> uniformGlobalLoads(const ptx::Module &module) {
  ControlFlowGraph graph = buildControlFlowGraph(module.functions.at(0));
  WarpUniformity uniformity(graph);
  std::vector<bool> loads;
  for (const ptx::Instruction *instruction : graph.instructions)
    if (instruction->opcode == "ld")
      loads.push_back(uniformity.isWarpUniformGlobalLoad(*instruction));
  return loads;
}

// Horner's rule as nvcc emits it: an early return for i >= n, then one
// load per thread (x[i]) and one coefficient per step (c[k], the same
// for every lane).
const char *kHorner = "ld.param.u64 %rd1, [k_param_0];\n"
                      "ld.param.u32 %r1, [k_param_1];\n"
                      "mov.u32 %r2, %ctaid.x;\n"
                      "mov.u32 %r3, %ntid.x;\n"
                      "mov.u32 %r4, %tid.x;\n"
                      "mad.lo.s32 %r5, %r2, %r3, %r4;\n"
                      "setp.ge.s32 %p1, %r5, %r1;\n"
                      "@%p1 bra $L_done;\n"
                      "cvta.to.global.u64 %rd2, %rd1;\n"
                      "mul.wide.s32 %rd3, %r5, 4;\n"
                      "add.s64 %rd4, %rd2, %rd3;\n"
                      "ld.global.f32 %f1, [%rd4];\n"
                      "mov.f32 %f2, 0f00000000;\n"
                      "mov.u32 %r6, 0;\n"
                      "$L_loop:\n"
                      "mul.wide.u32 %rd5, %r6, 4;\n"
                      "add.s64 %rd6, %rd2, %rd5;\n"
                      "ld.global.f32 %f3, [%rd6];\n"
                      "fma.rn.f32 %f2, %f2, %f1, %f3;\n"
                      "add.s32 %r6, %r6, 1;\n"
                      "setp.lt.u32 %p2, %r6, 64;\n"
                      "@%p2 bra $L_loop;\n"
                      "st.global.f32 [%rd4], %f2;\n"
                      "$L_done:\n"
                      "ret;\n";

TEST(WarpUniformityTest, ACoefficientIndexedByTheLoopCounterIsOneAddressPerWarp) {
  ptx::Module module = parseOk(kernelWith(kHorner));
  // ld.param, ld.param, x[i], c[k]
  EXPECT_EQ(uniformGlobalLoads(module), (std::vector<bool>{false, false, false, true}));
  ControlFlowGraph graph = buildControlFlowGraph(module.functions.at(0));
  WarpUniformity uniformity(graph);
  EXPECT_TRUE(uniformity.varies("%r5"));  // the thread's index
  EXPECT_TRUE(uniformity.varies("%f2"));  // the sum reads x[i]
  EXPECT_FALSE(uniformity.varies("%r6")); // the early return leaves the counter uniform
  EXPECT_FALSE(uniformity.varies("%r2"));
}

TEST(WarpUniformityTest, AShuffleResultPassedOutOfInlineAsmVaries) {
  // CUB's warp scan: the shuffle writes the block's own register r0, which a
  // mov hands to the kernel's %r2. Read as a symbol, r0 looked the same in
  // every lane and the load it indexes as one address per warp.
  ptx::Module module = parseOk(kernelWith("ld.param.u64 %rd1, [k_param_0];\n"
                                          "mov.u32 %r1, 7;\n"
                                          "{ .reg .u32 r0; .reg .pred p;\n"
                                          "  shfl.sync.up.b32 r0|p, %r1, 1, 0, -1;\n"
                                          "  @p add.u32 r0, r0, %r1;\n"
                                          "  mov.u32 %r2, r0; }\n"
                                          "mul.wide.u32 %rd2, %r2, 4;\n"
                                          "add.s64 %rd3, %rd1, %rd2;\n"
                                          "ld.global.f32 %f1, [%rd3];\n"
                                          "mul.wide.u32 %rd4, %r1, 4;\n"
                                          "add.s64 %rd5, %rd1, %rd4;\n"
                                          "ld.global.f32 %f2, [%rd5];\n"
                                          "ret;\n"));
  EXPECT_EQ(uniformGlobalLoads(module), (std::vector<bool>{false, false, true}));
  ControlFlowGraph graph = buildControlFlowGraph(module.functions.at(0));
  WarpUniformity uniformity(graph);
  EXPECT_TRUE(uniformity.varies("%r2"));
  EXPECT_FALSE(uniformity.varies("%r1"));
}

TEST(WarpUniformityTest, TidYAndCtaidAreUniformButTidXAndLaneidVary) {
  ptx::Module module = parseOk(kernelWith("ld.param.u64 %rd1, [k_param_0];\n"
                                          "mov.u32 %r1, %tid.y;\n"
                                          "mul.wide.u32 %rd2, %r1, 4;\n"
                                          "add.s64 %rd3, %rd1, %rd2;\n"
                                          "ld.global.f32 %f1, [%rd3];\n"
                                          "mov.u32 %r2, %laneid;\n"
                                          "mul.wide.u32 %rd4, %r2, 4;\n"
                                          "add.s64 %rd5, %rd1, %rd4;\n"
                                          "ld.global.f32 %f2, [%rd5+8];\n"
                                          "mov.u32 %r3, %ctaid.x;\n"
                                          "mul.wide.u32 %rd6, %r3, 4;\n"
                                          "add.s64 %rd7, %rd1, %rd6;\n"
                                          "ld.global.f32 %f3, [%rd7];\n"
                                          "ret;\n"));
  EXPECT_EQ(uniformGlobalLoads(module), (std::vector<bool>{false, true, false, true}));
}

/// r2 is 0, or 1 where the branch on r1 == 0 falls through, and then
/// addresses a load: `conditionSource` says where r1 comes from.
std::string branchThenLoad(const std::string &conditionSource) {
  return kernelWith("ld.param.u64 %rd1, [k_param_0];\n" + conditionSource +
                    "setp.eq.s32 %p1, %r1, 0;\n"
                    "mov.u32 %r2, 0;\n"
                    "@%p1 bra $L_join;\n"
                    "mov.u32 %r2, 1;\n"
                    "$L_join:\n"
                    "mul.wide.u32 %rd2, %r2, 4;\n"
                    "add.s64 %rd3, %rd1, %rd2;\n"
                    "ld.global.f32 %f1, [%rd3];\n"
                    "ret;\n");
}

TEST(WarpUniformityTest, AValueChosenOnADivergentBranchVariesWhereTheLanesMeet) {
  // r2 differs by lane, though each definition alone is a constant.
  ptx::Module module = parseOk(branchThenLoad("mov.u32 %r1, %tid.x;\n"));
  EXPECT_EQ(uniformGlobalLoads(module), (std::vector<bool>{false, false}));
}

TEST(WarpUniformityTest, TheSameShapeOnAUniformBranchStaysUniform) {
  ptx::Module module = parseOk(branchThenLoad("ld.param.u32 %r1, [k_param_1];\n"));
  EXPECT_EQ(uniformGlobalLoads(module), (std::vector<bool>{false, false, true}));
}

TEST(WarpUniformityTest, ALoopThatLanesLeaveAtDifferentTimesLeavesItsValuesVaryingAfterIt) {
  // The count is the lane's own (r1 = tid.x), so after the loop r2 differs.
  ptx::Module module = parseOk(kernelWith("ld.param.u64 %rd1, [k_param_0];\n"
                                          "mov.u32 %r1, %tid.x;\n"
                                          "mov.u32 %r2, 0;\n"
                                          "$L_loop:\n"
                                          "mul.wide.u32 %rd2, %r2, 4;\n"
                                          "add.s64 %rd3, %rd1, %rd2;\n"
                                          "ld.global.f32 %f1, [%rd3];\n"
                                          "add.s32 %r2, %r2, 1;\n"
                                          "setp.lt.u32 %p1, %r2, %r1;\n"
                                          "@%p1 bra $L_loop;\n"
                                          "mul.wide.u32 %rd4, %r2, 4;\n"
                                          "add.s64 %rd5, %rd1, %rd4;\n"
                                          "ld.global.f32 %f2, [%rd5];\n"
                                          "ret;\n"));
  ControlFlowGraph graph = buildControlFlowGraph(module.functions.at(0));
  EXPECT_TRUE(WarpUniformity(graph).varies("%r2"));
  // Inside, the lanes still running are all in the same iteration, but the
  // analysis goes by register name, so r2 varies there too (the cautious side).
  EXPECT_EQ(uniformGlobalLoads(module), (std::vector<bool>{false, false, false}));
}

TEST(WarpUniformityTest, LocalLoadsAndTheParametersOfAFuncAreNotBroadcasts) {
  ptx::Module local = parseOk(kernelWith("mov.u64 %rd1, stack;\n"
                                         "ld.local.u64 %rd2, [%rd1];\n"
                                         "ld.global.f32 %f1, [%rd2];\n"
                                         "ld.global.f32 %f2, [%rd1];\n"
                                         "ret;\n"));
  EXPECT_EQ(uniformGlobalLoads(local), (std::vector<bool>{false, false, true}));
  ptx::Module function = parseOk(kernelWith("ld.param.u64 %rd1, [k_param_0];\n"
                                            "ld.global.f32 %f1, [%rd1];\n"
                                            "ret;\n",
                                            ".func"));
  EXPECT_EQ(uniformGlobalLoads(function), (std::vector<bool>{false, false}));
}

TEST(WarpUniformityTest, AtomicResultsAndGuardedDefinitionsVary) {
  ptx::Module module = parseOk(kernelWith("ld.param.u64 %rd1, [k_param_0];\n"
                                          "atom.global.add.u32 %r1, [%rd1], 1;\n"
                                          "mul.wide.u32 %rd2, %r1, 4;\n"
                                          "add.s64 %rd3, %rd1, %rd2;\n"
                                          "ld.global.f32 %f1, [%rd3];\n"
                                          "mov.u32 %r2, %tid.x;\n"
                                          "setp.eq.s32 %p1, %r2, 0;\n"
                                          "mov.u64 %rd4, %rd1;\n"
                                          "@%p1 add.s64 %rd4, %rd1, 4;\n"
                                          "ld.global.f32 %f2, [%rd4];\n"
                                          "ret;\n"));
  EXPECT_EQ(uniformGlobalLoads(module), (std::vector<bool>{false, false, false}));
}

TEST(PostDominatorTreeTest, ADiamondMeetsAtItsJoinAndALoopAtItsExit) {
  ptx::Module module = parseOk(kernelWith("mov.u32 %r1, %tid.x;\n"   // block 0
                                          "setp.eq.s32 %p1, %r1, 0;\n"
                                          "@%p1 bra $L_else;\n"
                                          "mov.u32 %r2, 1;\n"         // block 1
                                          "bra.uni $L_join;\n"
                                          "$L_else:\n"                // block 2
                                          "mov.u32 %r2, 2;\n"
                                          "$L_join:\n"                // block 3
                                          "add.s32 %r2, %r2, 1;\n"
                                          "setp.lt.u32 %p2, %r2, 9;\n"
                                          "@%p2 bra $L_join;\n"
                                          "ret;\n"));                 // block 4
  ControlFlowGraph graph = buildControlFlowGraph(module.functions.at(0));
  ASSERT_EQ(graph.blocks.size(), 5u);
  PostDominatorTree postDominators(graph);
  EXPECT_EQ(postDominators.immediate(0), 3u);
  EXPECT_EQ(postDominators.immediate(1), 3u);
  EXPECT_EQ(postDominators.immediate(2), 3u);
  EXPECT_EQ(postDominators.immediate(3), 4u);
  EXPECT_EQ(postDominators.immediate(4), kNoBlock);
}

} // namespace
} // namespace ptxdvfs::test
