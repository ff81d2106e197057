// ExpansionBench.cpp - time to read a kernel as executed, by trip count and budget.
//
// The budget, not the trip count, should bound the cost: a 10^9-iteration
// loop must cost about as much as a 10^3-iteration one.
#include "ptxdvfs/ptx/Parser.h"
#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>

namespace {

namespace analysis = ptxdvfs::ptx::analysis;

const ptxdvfs::ptx::Module &realistic() {
  static const ptxdvfs::ptx::Module module = [] {
    std::ifstream in(std::string(PTXDVFS_FIXTURE_DIR) + "/loops/realistic.ptx");
    std::ostringstream text;
    text << in.rdbuf();
    return *ptxdvfs::ptx::parseModule(text.str(), "realistic.ptx");
  }();
  return module;
}

const ptxdvfs::ptx::Function &kernelNamed(const std::string &part) {
  for (const ptxdvfs::ptx::Function *kernel : realistic().kernels())
    if (kernel->name.find(part) != std::string::npos)
      return *kernel;
  std::abort();
}

/// Args: the triangular nest's n, the budget.
void BM_ExpandTriangular(benchmark::State &state) {
  analysis::LaunchAssumptions assumptions;
  assumptions.parameters["param_2"] = state.range(0);
  analysis::ExpansionOptions options;
  options.budget = static_cast<std::size_t>(state.range(1));
  const auto &kernel = kernelNamed("triangular");
  std::size_t written = 0;
  for (auto _ : state) {
    analysis::ExecutedKernel executed = analysis::expandKernel(realistic(), kernel, assumptions, options);
    written = executed.sequence.size();
    benchmark::DoNotOptimize(executed.executedInstructions);
  }
  state.counters["written"] = static_cast<double>(written);
}
BENCHMARK(BM_ExpandTriangular)
    ->Args({64, 2000})
    ->Args({1000, 2000})
    ->Args({1000000, 2000})
    ->Args({1000000000, 2000})
    ->Args({1000000, 8192})
    ->Unit(benchmark::kMillisecond);

/// Every kernel of the file, as `ptxdvfs loops` does, n = 2^20.
void BM_ExpandWholeFile(benchmark::State &state) {
  analysis::LaunchAssumptions assumptions;
  assumptions.parameters["param_2"] = 1 << 20;
  assumptions.parameters["param_3"] = 1 << 20;
  for (auto _ : state)
    for (const ptxdvfs::ptx::Function *kernel : realistic().kernels())
      benchmark::DoNotOptimize(analysis::expandKernel(realistic(), *kernel, assumptions).executedInstructions);
}
BENCHMARK(BM_ExpandWholeFile)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
