// Loops.h - natural loops of a control-flow graph and how they nest.
#pragma once

#include "ptxdvfs/ptx/analysis/ControlFlow.h"

#include <cstdint>
#include <vector>

namespace ptxdvfs::ptx::analysis {

/// A natural loop: a header that dominates the sources of its back edges
/// (the latches) and every block that reaches a latch without passing
/// the header. Back edges to one header make one loop.
struct Loop {
  std::uint32_t header = 0;
  std::vector<std::uint32_t> blocks;  ///< ascending (source order), header included
  std::vector<std::uint32_t> latches; ///< ascending
  int parent = -1;                    ///< index in LoopForest::loops, -1 at the top
  std::vector<std::uint32_t> children;
  unsigned depth = 1;                 ///< 1 for an outermost loop

  bool contains(std::uint32_t block) const;
};

/// Every natural loop of one function. Invariants: a parent comes before
/// its children in `loops`; `innermost[b]` is the deepest loop holding
/// block b, or -1.
struct LoopForest {
  std::vector<Loop> loops;
  std::vector<int> innermost;

  /// The loop directly inside `parent` (-1: the function) that holds
  /// `block`, or -1 when `block` belongs to `parent` itself (or lies outside it).
  int childHolding(int parent, std::uint32_t block) const;
  /// A retreating edge whose target does not dominate its source (a loop
  /// with two entries): reported, not analysed as a loop.
  Diagnostics warnings;
};

/// `path` only names the file in warnings.
LoopForest findLoops(const ControlFlowGraph &graph, const DominatorTree &dominators,
                     const std::string &path = {});

} // namespace ptxdvfs::ptx::analysis
