// LaunchCounts.cpp - the loops of a kernel whose launches differ, counted
// launch by launch; see LaunchCounts.h.
#include "LaunchCounts.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace ptxdvfs::ptx::analysis {

namespace {

/// Launches differing in size or arguments, each read, merged where they are the same.
constexpr std::size_t kMostBindingsCounted = 64;

} // namespace

std::map<std::tuple<const Function *, std::uint32_t, std::uint32_t>, ExpansionOptions::LoopCount>
countsPerLaunch(const Module &module, const Function &kernel, const LaunchAssumptions &forKernel,
                const ExpansionOptions &options, const ExecutedKernel &averaged) {
  using Key = std::tuple<const Function *, std::uint32_t, std::uint32_t>;
  std::map<Key, ExpansionOptions::LoopCount> counts;
  std::vector<SourceLaunch::Binding> distinct;
  for (const SourceLaunch::Binding &binding : forKernel.launch->bindings) {
    auto same = std::find_if(distinct.begin(), distinct.end(), [&](const SourceLaunch::Binding &other) {
      return other.grid == binding.grid && other.block == binding.block && other.arguments == binding.arguments;
    });
    if (same != distinct.end())
      same->launches += binding.launches;
    else
      distinct.push_back(binding);
  }
  std::set<Key> defaulted;
  for (const LoopReport &loop : averaged.loops)
    if (loop.usedDefault && loop.entries > 0)
      defaulted.insert({loop.function, loop.location.line, loop.location.column});
  if (distinct.size() < 2 || distinct.size() > kMostBindingsCounted || defaulted.empty())
    return counts;
  struct Sum {
    double runs = 0, weight = 0;
    std::size_t launches = 0;
    std::string each;
  };
  std::map<Key, Sum> sums;
  for (const SourceLaunch::Binding &binding : distinct) {
    LaunchAssumptions one = forKernel;
    one.launch->grid = binding.grid;
    one.launch->block = binding.block;
    one.launch->arguments = binding.arguments;
    one.launch->argumentsHow.clear();
    one.launch->argumentsOpen.clear();
    one.launch->gridIsMean = one.launch->blockIsMean = false;
    one.launch->gridHow = one.launch->blockHow = "";
    one.launch->at = binding.at;
    one.launch->bindings.clear();
    one.sourceLaunches.insert_or_assign(kernel.name, *one.launch);          // where a kernel's parameters are read
    const ExecutedKernel read = expandKernel(module, kernel, one, options); // its bindings cleared: read once
    LaunchSize size;
    size.grid = binding.grid;
    size.block = binding.block;
    size.launches = std::max<std::uint64_t>(binding.launches, 1);
    const double threads = size.launchedThreads();
    for (const LoopReport &loop : read.loops) {
      const Key key{loop.function, loop.location.line, loop.location.column};
      if (!defaulted.count(key))
        continue;
      if (loop.usedDefault)
        defaulted.erase(key); // one launch's count is not found either
      Sum &sum = sums[key];
      sum.runs += threads * loop.meanTripCount * loop.entries;
      sum.weight += threads * loop.entries;
      if (++sum.launches <= 3)
        sum.each += (sum.launches > 1 ? ", " : "") +
                    std::to_string(static_cast<std::uint64_t>(std::llround(loop.meanTripCount))) + " at " + binding.at;
    }
  }
  for (const Key &key : defaulted) {
    const auto sum = sums.find(key);
    if (sum == sums.end() || sum->second.weight <= 0)
      continue;
    const std::uint64_t runs = static_cast<std::uint64_t>(std::llround(sum->second.runs / sum->second.weight));
    counts[key] = {std::max<std::uint64_t>(runs, 1),
                   "the mean of its counts over the kernel's launches, by the threads each runs: " + sum->second.each +
                       (sum->second.launches > 3 ? " and " + std::to_string(sum->second.launches - 3) + " more" : "")};
  }
  return counts;
}

} // namespace ptxdvfs::ptx::analysis
