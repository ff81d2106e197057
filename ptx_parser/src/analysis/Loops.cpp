// Loops.cpp - back edges, loop bodies, nesting, and the irreducible edges that are not loops.
#include "ptxdvfs/ptx/analysis/Loops.h"

#include <algorithm>
#include <map>

namespace ptxdvfs::ptx::analysis {

bool Loop::contains(std::uint32_t block) const {
  return std::binary_search(blocks.begin(), blocks.end(), block);
}

namespace {

/// Edges that go back to a block still on the depth-first stack.
std::vector<std::pair<std::uint32_t, std::uint32_t>> retreatingEdges(const ControlFlowGraph &graph) {
  const auto count = graph.blocks.size();
  enum class State : std::uint8_t { New, OnStack, Done };
  std::vector<State> state(count, State::New);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
  std::vector<std::pair<std::uint32_t, std::size_t>> stack{{0, 0}};
  state[0] = State::OnStack;
  while (!stack.empty()) {
    auto &[block, nextEdge] = stack.back();
    const auto &successors = graph.blocks[block].successors;
    if (nextEdge < successors.size()) {
      std::uint32_t to = successors[nextEdge++];
      if (state[to] == State::OnStack)
        edges.emplace_back(block, to);
      else if (state[to] == State::New) {
        state[to] = State::OnStack;
        stack.emplace_back(to, 0);
      }
    } else {
      state[block] = State::Done;
      stack.pop_back();
    }
  }
  return edges;
}

} // namespace

LoopForest findLoops(const ControlFlowGraph &graph, const DominatorTree &dominators,
                     const std::string &path) {
  LoopForest forest;
  std::map<std::uint32_t, std::vector<std::uint32_t>> latchesOf;
  for (auto [from, to] : retreatingEdges(graph)) {
    if (dominators.dominates(to, from)) {
      latchesOf[to].push_back(from);
      continue;
    }
    const Instruction *at = graph.terminator(from);
    forest.warnings.push_back(
        {path, at ? at->location : SourceLocation{}, Severity::Warning,
         "irreducible control flow: the branch back to '" + graph.blocks[to].label +
             "' enters a cycle that has more than one entry; it is not analysed as a loop"});
  }

  for (auto &[header, latches] : latchesOf) {
    Loop loop;
    loop.header = header;
    std::sort(latches.begin(), latches.end());
    loop.latches = latches;
    std::vector<bool> inLoop(graph.blocks.size(), false);
    inLoop[header] = true;
    std::vector<std::uint32_t> work;
    for (std::uint32_t latch : latches)
      if (!inLoop[latch]) {
        inLoop[latch] = true;
        work.push_back(latch);
      }
    while (!work.empty()) {
      std::uint32_t block = work.back();
      work.pop_back();
      for (std::uint32_t pred : graph.blocks[block].predecessors)
        if (!inLoop[pred] && dominators.reachable(pred)) {
          inLoop[pred] = true;
          work.push_back(pred);
        }
    }
    for (std::uint32_t b = 0; b < inLoop.size(); ++b)
      if (inLoop[b])
        loop.blocks.push_back(b);
    forest.loops.push_back(std::move(loop));
  }

  // Outer loops first: a loop holding another has more blocks. Ties are
  // impossible between nested natural loops with different headers.
  std::stable_sort(forest.loops.begin(), forest.loops.end(), [](const Loop &a, const Loop &b) {
    return a.blocks.size() != b.blocks.size() ? a.blocks.size() > b.blocks.size()
                                              : a.header < b.header;
  });
  forest.innermost.assign(graph.blocks.size(), -1);
  for (std::size_t i = 0; i < forest.loops.size(); ++i) {
    Loop &loop = forest.loops[i];
    // The parent is the deepest loop so far that holds this header.
    int parent = forest.innermost[loop.header];
    loop.parent = parent;
    if (parent >= 0) {
      loop.depth = forest.loops[static_cast<std::size_t>(parent)].depth + 1;
      forest.loops[static_cast<std::size_t>(parent)].children.push_back(static_cast<std::uint32_t>(i));
    }
    for (std::uint32_t block : loop.blocks)
      forest.innermost[block] = static_cast<int>(i);
  }
  return forest;
}

int LoopForest::childHolding(int parent, std::uint32_t block) const {
  int loop = innermost[block];
  while (loop >= 0 && loops[static_cast<std::size_t>(loop)].parent != parent)
    loop = loops[static_cast<std::size_t>(loop)].parent;
  return loop;
}

} // namespace ptxdvfs::ptx::analysis
