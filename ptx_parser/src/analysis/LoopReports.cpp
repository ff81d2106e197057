// LoopReports.cpp - a loop's CUDA line, and why a loop no pass entered was skipped.
#include "LoopReports.h"

namespace ptxdvfs::ptx::analysis {

std::optional<DebugLocation> sourceLineOf(const ControlFlowGraph &graph, const Loop &loop) {
  std::optional<DebugLocation> fallback, inlined;
  auto search = [&](std::uint32_t block) -> std::optional<DebugLocation> {
    for (std::uint32_t i = graph.blocks[block].first; i < graph.blocks[block].end; ++i) {
      const auto &location = graph.instructions[i]->debugLocation;
      if (location && location->line != 0 && !location->inlinedAt)
        return location;
      if (location && location->line != 0 && !inlined)
        inlined = location;
      if (location && !fallback)
        fallback = location;
    }
    return std::nullopt;
  };
  if (auto found = search(loop.header))
    return found;
  for (std::uint32_t block : loop.blocks)
    if (block != loop.header)
      if (auto found = search(block))
        return found;
  return inlined ? inlined : fallback;
}

DecidedBranches leadingPast(const ControlFlowGraph &graph, const LoopForest &forest, int region,
                            const std::vector<bool> &live, const std::vector<Decision> &decisions,
                            std::uint32_t skipped) {
  const Loop *enclosing = region < 0 ? nullptr : &forest.loops[static_cast<std::size_t>(region)];
  const std::uint32_t target = forest.loops[skipped].header;
  DecidedBranches past;
  std::vector<std::uint32_t> seenBy(graph.blocks.size(), 0); // the decision (1-based) that last visited a block
  std::uint32_t stamp = 0;
  for (const Decision &decision : decisions) {
    ++stamp;
    std::vector<std::uint32_t> work{decision.untaken};
    bool reaches = false;
    while (!work.empty() && !reaches) {
      std::uint32_t block = work.back();
      work.pop_back();
      if (seenBy[block] == stamp || live[block] || (enclosing && !enclosing->contains(block)))
        continue;
      seenBy[block] = stamp;
      reaches = block == target;
      for (std::uint32_t to : graph.blocks[block].successors)
        work.push_back(to);
    }
    if (!reaches)
      continue;
    mergeProvenance(past, decision);
    (decision.rare ? past.byRarity : past.byValue) = true;
  }
  return past;
}

void describeSkipped(LoopReport &report, const DecidedBranches &decided) {
  if (report.entries > 0)
    return;
  report.minTripCount = 0;
  report.origin = decided.origin;
  if (decided.byValue)
    appendReasons(report.why, {kLeadsPastLoop});
  if (decided.byRarity)
    appendReasons(report.why, {kBehindRareSide});
  appendReasons(report.why, decided.why);
}

} // namespace ptxdvfs::ptx::analysis
