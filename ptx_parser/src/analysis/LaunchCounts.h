// LaunchCounts.h - the loops of a kernel whose launches differ in size or
// arguments (SourceLaunch::bindings), counted launch by launch: what
// expandKernel() reads where the launches' mean sizes and open arguments
// leave a loop to the default.
#pragma once

#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <cstdint>
#include <map>
#include <tuple>

namespace ptxdvfs::ptx::analysis {

/// For the loops that `averaged` (the kernel read with its launches' mean
/// sizes) leaves to the default, the header runs its launches
/// (`forKernel.launch->bindings`, at least 2, up to 64 different ones)
/// give one by one, each read by expandKernel(), where every launch counts
/// the loop: their mean, weighted by the threads each launch runs and how
/// often a thread enters the loop, by the function and the location of the
/// loop's header, as ExpansionOptions::loopCounts takes them. Empty where
/// no loop is left to the default, or no launch counts one.
std::map<std::tuple<const Function *, std::uint32_t, std::uint32_t>, ExpansionOptions::LoopCount>
countsPerLaunch(const Module &module, const Function &kernel, const LaunchAssumptions &forKernel,
                const ExpansionOptions &options, const ExecutedKernel &averaged);

} // namespace ptxdvfs::ptx::analysis
