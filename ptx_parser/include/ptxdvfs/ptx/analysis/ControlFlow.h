// ControlFlow.h - basic blocks, the control-flow graph of one function, and its dominator tree.
#pragma once

#include "ptxdvfs/ptx/Diagnostic.h"
#include "ptxdvfs/ptx/Function.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ptxdvfs::ptx::analysis {

inline constexpr std::uint32_t kNoBlock = UINT32_MAX;

/// A maximal run of instructions entered only at its first and left only
/// after its last. `first`/`end` index ControlFlowGraph::instructions.
/// An empty block (first == end) stands for a label that ends the body.
struct BasicBlock {
  std::uint32_t first = 0;
  std::uint32_t end = 0;
  std::string label; ///< the label naming its start; empty if none
  std::vector<std::uint32_t> successors;   ///< taken target first, then fall-through
  std::vector<std::uint32_t> predecessors;

  std::uint32_t size() const { return end - first; }
};

/// The control-flow graph of one function body. Invariants: block 0 is
/// the entry; blocks are in source order and partition `instructions`;
/// `blockOf[i]` is the block of instruction i.
///
/// Edges: a `bra` goes to its label (and, when guarded, also falls
/// through); `ret`, `exit` and `trap` end the function (guarded ones fall
/// through too); `call` returns to the next instruction. An indirect
/// `brx.idx`, or a branch to an unknown label, is reported in `warnings`
/// and treated as falling through, so the graph stays usable.
struct ControlFlowGraph {
  const Function *function = nullptr;
  std::vector<const Instruction *> instructions; ///< nested `{}` blocks flattened, source order
  std::vector<BasicBlock> blocks;
  std::vector<std::uint32_t> blockOf;
  Diagnostics warnings;

  /// The block's last instruction, or nullptr for an empty block.
  const Instruction *terminator(std::uint32_t block) const;
};

/// `path` only names the file in warnings.
ControlFlowGraph buildControlFlowGraph(const Function &function, const std::string &path = {});

/// Per block of `graph`: whether it is reachable from `start` (included)
/// without passing `stop` (which is reached, not left; kNoBlock: no stop).
std::vector<bool> reachableWithin(const ControlFlowGraph &graph, std::uint32_t start, std::uint32_t stop);

/// Per instruction of `graph`: whether the CUDA author wrote it in inline
/// asm, which nvcc brackets with `// begin inline asm` and `// end inline
/// asm` lines and emits as written, so no unrolling removes it. `source` is
/// the Module::source the function was parsed from; with any other text
/// every entry is false.
std::vector<bool> inlineAsmInstructions(const ControlFlowGraph &graph, std::string_view source);

/// Immediate dominators (Cooper, Harvey & Kennedy, "A Simple, Fast
/// Dominance Algorithm"). The entry is its own idom; a block unreachable
/// from the entry has kNoBlock and dominates nothing.
class DominatorTree {
public:
  explicit DominatorTree(const ControlFlowGraph &graph);

  std::uint32_t idom(std::uint32_t block) const { return idom_[block]; }
  bool reachable(std::uint32_t block) const { return idom_[block] != kNoBlock; }
  /// True if every path from the entry to `b` passes through `a` (a block dominates itself).
  bool dominates(std::uint32_t a, std::uint32_t b) const;
  /// Reachable blocks in reverse postorder of a depth-first walk from the entry.
  const std::vector<std::uint32_t> &reversePostorder() const { return order_; }

private:
  std::vector<std::uint32_t> idom_;
  std::vector<std::uint32_t> rpoIndex_;
  std::vector<std::uint32_t> order_;
};

/// Immediate post-dominators: the nearest block through which every path
/// from a block to the function's end passes (where the lanes of a warp
/// that diverged at the block run together again). Computed on bit sets;
/// a function of more than kMaxBlocks blocks gets none (every block's
/// immediate post-dominator is kNoBlock, the function's end).
class PostDominatorTree {
public:
  static constexpr std::uint32_t kMaxBlocks = 4096;
  explicit PostDominatorTree(const ControlFlowGraph &graph);

  /// kNoBlock when only the function's end post-dominates `block`, or when
  /// `block` cannot reach the end (an endless loop).
  std::uint32_t immediate(std::uint32_t block) const { return ipdom_[block]; }

private:
  std::vector<std::uint32_t> ipdom_;
};

} // namespace ptxdvfs::ptx::analysis
