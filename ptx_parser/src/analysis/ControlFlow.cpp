// ControlFlow.cpp - splitting a body into basic blocks, wiring the edges, and dominators.
#include "ptxdvfs/ptx/analysis/ControlFlow.h"

#include <algorithm>
#include <iterator>
#include <map>

namespace ptxdvfs::ptx::analysis {

namespace {

/// What the flattening walk collects besides the instructions.
struct FlatBody {
  std::vector<const Instruction *> instructions;
  /// label -> index of the instruction it precedes (== size at the end).
  std::map<std::string, std::uint32_t, std::less<>> labels;
  std::vector<std::pair<std::string, SourceLocation>> labelOrder;
  /// `$tbl: .branchtargets L1, L2;` -> {"$tbl", {"L1", "L2"}} (PTX ISA 11.3.3).
  std::map<std::string, std::vector<std::string>, std::less<>> branchTargets;
};

std::vector<std::string> splitTargets(std::string_view text) {
  std::vector<std::string> names;
  std::size_t start = text.find(".branchtargets");
  if (start == std::string_view::npos)
    return names;
  std::string current;
  for (char c : text.substr(start + 14)) {
    if (c == ',' || c == ';' || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (!current.empty())
        names.push_back(std::move(current));
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty())
    names.push_back(std::move(current));
  return names;
}

void flatten(const std::vector<Statement> &statements, FlatBody &body, std::string &lastLabel) {
  for (const Statement &statement : statements) {
    if (const auto *instruction = statement.getIf<Instruction>()) {
      body.instructions.push_back(instruction);
      lastLabel.clear();
    } else if (const auto *label = statement.getIf<Label>()) {
      body.labels[label->name] = static_cast<std::uint32_t>(body.instructions.size());
      body.labelOrder.emplace_back(label->name, label->location);
      lastLabel = label->name;
    } else if (const auto *directive = statement.getIf<Directive>()) {
      if (directive->name == ".branchtargets" && !lastLabel.empty())
        body.branchTargets[lastLabel] = splitTargets(directive->text);
    } else if (const auto *block = statement.getIf<Block>()) {
      flatten(block->statements, body, lastLabel);
    }
  }
}

bool endsFunction(std::string_view opcode) {
  return opcode == "ret" || opcode == "exit" || opcode == "trap";
}

bool endsBlock(std::string_view opcode) {
  return opcode == "bra" || opcode == "brx" || endsFunction(opcode);
}

std::string symbolName(const Operand &operand) {
  if (const auto *symbol = operand.getIf<Symbol>())
    return symbol->name;
  if (const auto *reg = operand.getIf<Register>())
    return reg->name;
  return toString(operand);
}

} // namespace

const Instruction *ControlFlowGraph::terminator(std::uint32_t block) const {
  const BasicBlock &b = blocks[block];
  return b.first == b.end ? nullptr : instructions[b.end - 1];
}

ControlFlowGraph buildControlFlowGraph(const Function &function, const std::string &path) {
  ControlFlowGraph graph;
  graph.function = &function;
  FlatBody body;
  std::string lastLabel;
  flatten(function.body, body, lastLabel);
  graph.instructions = body.instructions;
  const auto count = static_cast<std::uint32_t>(graph.instructions.size());

  // Leaders: the first instruction, every labelled one, and every one after a block end.
  std::vector<bool> leader(count + 1, false);
  leader[0] = true;
  for (const auto &[name, index] : body.labels)
    leader[index] = true;
  for (std::uint32_t i = 0; i < count; ++i)
    if (endsBlock(graph.instructions[i]->opcode))
      leader[i + 1] = true;

  std::map<std::uint32_t, std::string> labelAt;
  for (const auto &[name, index] : body.labelOrder)
    labelAt.emplace(body.labels.at(name), name); // first label at a position names the block
  for (std::uint32_t i = 0; i < count || (i == count && labelAt.count(count)); ++i) {
    if (!leader[i])
      continue;
    BasicBlock block;
    block.first = i;
    block.end = i;
    while (block.end < count && (block.end == i || !leader[block.end]))
      ++block.end;
    if (auto it = labelAt.find(i); it != labelAt.end())
      block.label = it->second;
    graph.blocks.push_back(std::move(block));
    if (i == count)
      break;
  }
  if (graph.blocks.empty())
    graph.blocks.push_back(BasicBlock{});

  graph.blockOf.assign(count, 0);
  std::map<std::uint32_t, std::uint32_t> blockStartingAt;
  for (std::uint32_t b = 0; b < graph.blocks.size(); ++b) {
    blockStartingAt.emplace(graph.blocks[b].first, b);
    for (std::uint32_t i = graph.blocks[b].first; i < graph.blocks[b].end; ++i)
      graph.blockOf[i] = b;
  }
  auto blockOfLabel = [&](std::string_view name) -> std::uint32_t {
    auto label = body.labels.find(name);
    if (label == body.labels.end())
      return kNoBlock;
    auto block = blockStartingAt.find(label->second);
    return block == blockStartingAt.end() ? kNoBlock : block->second;
  };
  auto warn = [&](const Instruction &at, std::string message) {
    graph.warnings.push_back({path, at.location, Severity::Warning, std::move(message)});
  };

  const auto blockCount = static_cast<std::uint32_t>(graph.blocks.size());
  for (std::uint32_t b = 0; b < blockCount; ++b) {
    BasicBlock &block = graph.blocks[b];
    std::uint32_t next = b + 1 < blockCount ? b + 1 : kNoBlock;
    const Instruction *last = graph.terminator(b);
    bool fallsThrough = true;
    if (last && last->opcode == "bra") {
      std::string target = last->operands.empty() ? std::string() : symbolName(last->operands[0]);
      std::uint32_t to = blockOfLabel(target);
      if (to == kNoBlock)
        warn(*last, "branch to unknown label '" + target + "'; treated as falling through");
      else
        block.successors.push_back(to);
      fallsThrough = last->guard.has_value() || to == kNoBlock;
    } else if (last && last->opcode == "brx") {
      std::string table = last->operands.size() > 1 ? symbolName(last->operands[1]) : "";
      auto targets = body.branchTargets.find(table);
      if (targets == body.branchTargets.end()) {
        warn(*last, "indirect branch through '" + table +
                        "' without a .branchtargets list; treated as falling through");
      } else {
        for (const std::string &name : targets->second)
          if (std::uint32_t to = blockOfLabel(name); to != kNoBlock)
            block.successors.push_back(to);
        fallsThrough = last->guard.has_value();
      }
    } else if (last && endsFunction(last->opcode)) {
      fallsThrough = last->guard.has_value();
    }
    if (fallsThrough && next != kNoBlock &&
        std::find(block.successors.begin(), block.successors.end(), next) == block.successors.end())
      block.successors.push_back(next);
  }
  for (std::uint32_t b = 0; b < blockCount; ++b)
    for (std::uint32_t to : graph.blocks[b].successors)
      graph.blocks[to].predecessors.push_back(b);
  return graph;
}

DominatorTree::DominatorTree(const ControlFlowGraph &graph) {
  const auto count = static_cast<std::uint32_t>(graph.blocks.size());
  idom_.assign(count, kNoBlock);
  rpoIndex_.assign(count, kNoBlock);

  // Iterative depth-first postorder (bodies of 10^5 blocks must not overflow the stack).
  std::vector<std::uint32_t> postorder;
  std::vector<bool> seen(count, false);
  std::vector<std::pair<std::uint32_t, std::size_t>> stack{{0, 0}};
  seen[0] = true;
  while (!stack.empty()) {
    auto &[block, nextEdge] = stack.back();
    const auto &successors = graph.blocks[block].successors;
    if (nextEdge < successors.size()) {
      std::uint32_t to = successors[nextEdge++];
      if (!seen[to]) {
        seen[to] = true;
        stack.emplace_back(to, 0);
      }
    } else {
      postorder.push_back(block);
      stack.pop_back();
    }
  }
  order_.assign(postorder.rbegin(), postorder.rend());
  for (std::uint32_t i = 0; i < order_.size(); ++i)
    rpoIndex_[order_[i]] = i;

  auto intersect = [&](std::uint32_t a, std::uint32_t b) {
    while (a != b) {
      while (rpoIndex_[a] > rpoIndex_[b])
        a = idom_[a];
      while (rpoIndex_[b] > rpoIndex_[a])
        b = idom_[b];
    }
    return a;
  };
  idom_[0] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t block : order_) {
      if (block == 0)
        continue;
      std::uint32_t next = kNoBlock;
      for (std::uint32_t pred : graph.blocks[block].predecessors) {
        if (idom_[pred] == kNoBlock)
          continue;
        next = next == kNoBlock ? pred : intersect(pred, next);
      }
      if (next != idom_[block]) {
        idom_[block] = next;
        changed = true;
      }
    }
  }
}

bool DominatorTree::dominates(std::uint32_t a, std::uint32_t b) const {
  if (!reachable(a) || !reachable(b))
    return false;
  while (true) {
    if (a == b)
      return true;
    if (b == 0)
      return false;
    b = idom_[b];
  }
}

PostDominatorTree::PostDominatorTree(const ControlFlowGraph &graph)
    : ipdom_(graph.blocks.size(), kNoBlock) {
  std::size_t count = graph.blocks.size();
  if (count == 0 || count > kMaxBlocks)
    return;
  // pdom[b]: the blocks on every path from b to the end, b included. Blocks
  // that never reach the end keep "all", the start of the iteration.
  std::size_t words = (count + 63) / 64;
  std::vector<std::vector<std::uint64_t>> pdom(count, std::vector<std::uint64_t>(words, ~0ULL));
  auto only = [&](std::uint32_t b) {
    std::vector<std::uint64_t> set(words, 0);
    set[b / 64] |= 1ULL << (b % 64);
    return set;
  };
  for (std::uint32_t b = 0; b < count; ++b)
    if (graph.blocks[b].successors.empty())
      pdom[b] = only(b);
  bool changed = true;
  while (changed) {
    changed = false;
    for (std::uint32_t b = static_cast<std::uint32_t>(count); b-- > 0;) {
      if (graph.blocks[b].successors.empty())
        continue;
      std::vector<std::uint64_t> meet(words, ~0ULL);
      for (std::uint32_t s : graph.blocks[b].successors)
        for (std::size_t w = 0; w < words; ++w)
          meet[w] &= pdom[s][w];
      meet[b / 64] |= 1ULL << (b % 64);
      if (meet != pdom[b]) {
        pdom[b] = std::move(meet);
        changed = true;
      }
    }
  }
  auto size = [](const std::vector<std::uint64_t> &set) {
    std::size_t total = 0;
    for (std::uint64_t word : set)
      total += static_cast<std::size_t>(__builtin_popcountll(word));
    return total;
  };
  std::vector<bool> reachesEnd(count, false);
  std::vector<std::uint32_t> work;
  for (std::uint32_t b = 0; b < count; ++b)
    if (graph.blocks[b].successors.empty())
      work.push_back(b);
  while (!work.empty()) {
    std::uint32_t b = work.back();
    work.pop_back();
    if (reachesEnd[b])
      continue;
    reachesEnd[b] = true;
    for (std::uint32_t p : graph.blocks[b].predecessors)
      work.push_back(p);
  }
  for (std::uint32_t b = 0; b < count; ++b) {
    if (!reachesEnd[b])
      continue;
    std::size_t own = size(pdom[b]);
    // The strict post-dominators form a chain; the nearest has all but b.
    for (std::uint32_t p = 0; p < count; ++p)
      if (p != b && (pdom[b][p / 64] >> (p % 64) & 1) && size(pdom[p]) == own - 1) {
        ipdom_[b] = p;
        break;
      }
  }
}

std::vector<bool> reachableWithin(const ControlFlowGraph &graph, std::uint32_t start,
                                  std::uint32_t stop) {
  std::vector<bool> seen(graph.blocks.size(), false);
  std::vector<std::uint32_t> work{start};
  while (!work.empty()) {
    std::uint32_t block = work.back();
    work.pop_back();
    if (seen[block])
      continue;
    seen[block] = true;
    if (block != stop)
      for (std::uint32_t next : graph.blocks[block].successors)
        work.push_back(next);
  }
  return seen;
}

std::vector<bool> inlineAsmInstructions(const ControlFlowGraph &graph, std::string_view source) {
  std::vector<bool> written(graph.instructions.size(), false);
  const Function *function = graph.function;
  if (!function || function->sourceEnd <= function->sourceBegin || function->sourceEnd > source.size())
    return written;
  // Byte offsets in `source` where an asm region opens (true) or closes (false).
  std::vector<std::pair<std::size_t, bool>> markers;
  std::string_view body = source.substr(function->sourceBegin, function->sourceEnd - function->sourceBegin);
  for (auto [marker, opens] : {std::pair<std::string_view, bool>{"// begin inline asm", true},
                               std::pair<std::string_view, bool>{"// end inline asm", false}})
    for (std::size_t at = body.find(marker); at != std::string_view::npos; at = body.find(marker, at + 1))
      markers.emplace_back(function->sourceBegin + at, opens);
  if (markers.empty())
    return written;
  std::sort(markers.begin(), markers.end());
  for (std::size_t i = 0; i < graph.instructions.size(); ++i) {
    const char *text = graph.instructions[i]->lineText.data();
    if (text < source.data() || text >= source.data() + source.size())
      continue; // not parsed from this text
    auto offset = static_cast<std::size_t>(text - source.data());
    auto after = std::upper_bound(markers.begin(), markers.end(), std::pair<std::size_t, bool>{offset, true});
    written[i] = after != markers.begin() && std::prev(after)->second;
  }
  return written;
}

} // namespace ptxdvfs::ptx::analysis
