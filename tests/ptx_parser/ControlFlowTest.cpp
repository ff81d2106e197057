// ControlFlowTest.cpp - basic blocks, edges, dominators, natural loops and irreducible flow.
#include "ParseHelpers.h"

#include "ptxdvfs/ptx/analysis/ControlFlow.h"
#include "ptxdvfs/ptx/analysis/Loops.h"

#include <gtest/gtest.h>

namespace ptxdvfs::test {
namespace {

using namespace ptx::analysis;

std::string kernelWith(const std::string &body) {
  return ".version 8.0\n.target sm_80\n.address_size 64\n"
         ".visible .entry k(.param .u32 k_param_0)\n{\n"
         ".reg .pred %p<4>;\n.reg .b32 %r<10>;\n" +
         body + "}\n";
}

// A counted loop: the preheader, the loop block that branches to itself, the exit.
const char *kCountedLoop = "ld.param.u32 %r1, [k_param_0];\n"
                           "mov.u32 %r2, 0;\n"
                           "$L_head:\n"
                           "add.s32 %r2, %r2, 1;\n"
                           "setp.lt.s32 %p1, %r2, %r1;\n"
                           "@%p1 bra $L_head;\n"
                           "ret;\n";

TEST(ControlFlowTest, SplitsAtLabelsAndBranchesAndWiresBothSidesOfAGuardedBranch) {
  ptx::Module module = parseOk(kernelWith(kCountedLoop));
  ControlFlowGraph graph = buildControlFlowGraph(module.functions.at(0));
  ASSERT_EQ(graph.blocks.size(), 3u);
  EXPECT_EQ(graph.blocks[0].size(), 2u);
  EXPECT_EQ(graph.blocks[1].label, "$L_head");
  EXPECT_EQ(graph.blocks[1].successors, (std::vector<std::uint32_t>{1, 2}));
  EXPECT_EQ(graph.blocks[1].predecessors, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_TRUE(graph.blocks[2].successors.empty()); // ret ends the function
  EXPECT_TRUE(graph.warnings.empty());
}

TEST(ControlFlowTest, DominatorsAndTheNaturalLoop) {
  ptx::Module module = parseOk(kernelWith(kCountedLoop));
  ControlFlowGraph graph = buildControlFlowGraph(module.functions.at(0));
  DominatorTree dominators(graph);
  EXPECT_TRUE(dominators.dominates(0, 2));
  EXPECT_TRUE(dominators.dominates(1, 2));
  EXPECT_FALSE(dominators.dominates(2, 1));
  LoopForest forest = findLoops(graph, dominators);
  ASSERT_EQ(forest.loops.size(), 1u);
  EXPECT_EQ(forest.loops[0].header, 1u);
  EXPECT_EQ(forest.loops[0].latches, (std::vector<std::uint32_t>{1}));
  EXPECT_EQ(forest.innermost, (std::vector<int>{-1, 0, -1}));
}

TEST(ControlFlowTest, NestedLoopsKnowTheirParentAndDepth) {
  ptx::Module module = parseOk(kernelWith("mov.u32 %r1, 0;\n"
                                          "$L_outer:\n"
                                          "mov.u32 %r2, 0;\n"
                                          "$L_inner:\n"
                                          "add.s32 %r2, %r2, 1;\n"
                                          "setp.lt.s32 %p1, %r2, 8;\n"
                                          "@%p1 bra $L_inner;\n"
                                          "add.s32 %r1, %r1, 1;\n"
                                          "setp.lt.s32 %p2, %r1, 4;\n"
                                          "@%p2 bra $L_outer;\n"
                                          "ret;\n"));
  ControlFlowGraph graph = buildControlFlowGraph(module.functions.at(0));
  DominatorTree dominators(graph);
  LoopForest forest = findLoops(graph, dominators);
  ASSERT_EQ(forest.loops.size(), 2u);
  EXPECT_EQ(forest.loops[0].parent, -1);
  EXPECT_EQ(forest.loops[1].parent, 0);
  EXPECT_EQ(forest.loops[1].depth, 2u);
  EXPECT_EQ(forest.loops[0].children, (std::vector<std::uint32_t>{1}));
  EXPECT_TRUE(forest.loops[0].contains(forest.loops[1].header));
}

TEST(ControlFlowTest, IrreducibleFlowIsReportedNotTreatedAsALoop) {
  // The cycle A <-> B is entered at A (falling through) and at B (the jump).
  ptx::Module module = parseOk(kernelWith("ld.param.u32 %r1, [k_param_0];\n"
                                          "setp.eq.s32 %p1, %r1, 0;\n"
                                          "@%p1 bra $B;\n"
                                          "$A:\n"
                                          "add.s32 %r2, %r2, 1;\n"
                                          "$B:\n"
                                          "add.s32 %r3, %r3, 1;\n"
                                          "setp.lt.s32 %p2, %r3, 10;\n"
                                          "@%p2 bra $A;\n"
                                          "ret;\n"));
  ControlFlowGraph graph = buildControlFlowGraph(module.functions.at(0), "k.ptx");
  DominatorTree dominators(graph);
  LoopForest forest = findLoops(graph, dominators, "k.ptx");
  EXPECT_TRUE(forest.loops.empty());
  ASSERT_EQ(forest.warnings.size(), 1u);
  EXPECT_NE(forest.warnings[0].message.find("irreducible"), std::string::npos);
  EXPECT_EQ(forest.warnings[0].path, "k.ptx");
  EXPECT_GT(forest.warnings[0].location.line, 0u);
}

TEST(ControlFlowTest, UnknownLabelsAndIndirectBranchesAreWarningsNotFailures) {
  ptx::Module module = parseOk(kernelWith("ld.param.u32 %r1, [k_param_0];\n"
                                          "setp.eq.s32 %p1, %r1, 0;\n"
                                          "@%p1 bra $nowhere;\n"
                                          "brx.idx %r1, $table;\n"
                                          "ret;\n"));
  ControlFlowGraph graph = buildControlFlowGraph(module.functions.at(0), "k.ptx");
  EXPECT_EQ(graph.warnings.size(), 2u);
  for (const BasicBlock &block : graph.blocks)
    for (std::uint32_t successor : block.successors)
      EXPECT_LT(successor, graph.blocks.size());
}

TEST(ControlFlowTest, ABodyEndingInALabelGetsAnEmptyExitBlock) {
  ptx::Module module = parseOk(kernelWith("ld.param.u32 %r1, [k_param_0];\n"
                                          "setp.eq.s32 %p1, %r1, 0;\n"
                                          "@%p1 bra $end;\n"
                                          "add.s32 %r2, %r1, 1;\n"
                                          "$end:\n"));
  ControlFlowGraph graph = buildControlFlowGraph(module.functions.at(0));
  ASSERT_EQ(graph.blocks.size(), 3u);
  EXPECT_EQ(graph.blocks[2].size(), 0u);
  EXPECT_EQ(graph.blocks[0].successors, (std::vector<std::uint32_t>{2, 1}));
  EXPECT_EQ(graph.terminator(2), nullptr);
}

} // namespace
} // namespace ptxdvfs::test
