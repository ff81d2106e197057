// ExpansionBench.cpp - time to read a kernel as executed, by trip count and budget.
//
// The budget, not the trip count, should bound the cost: a 10^9-iteration
// loop must cost about as much as a 10^3-iteration one.
#include "ptxdvfs/ptx/Parser.h"
#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

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
  assumptions.parameters.insert_or_assign("param_2", state.range(0));
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
  assumptions.parameters.insert_or_assign("param_2", 1 << 20);
  assumptions.parameters.insert_or_assign("param_3", 1 << 20);
  for (auto _ : state)
    for (const ptxdvfs::ptx::Function *kernel : realistic().kernels())
      benchmark::DoNotOptimize(analysis::expandKernel(realistic(), *kernel, assumptions).executedInstructions);
}
BENCHMARK(BM_ExpandWholeFile)->Unit(benchmark::kMillisecond);

/// The training programs' PTX (`train --as-executed` reads every kernel of
/// them; their loops branch on float values in every iteration), parsed once.
const std::vector<ptxdvfs::ptx::Module> &trainingPtx() {
  static const std::vector<ptxdvfs::ptx::Module> modules = [] {
    std::vector<ptxdvfs::ptx::Module> parsed;
    const std::filesystem::path root = std::string(PTXDVFS_SHARED_DIR) + "/datasets/gpuptxmodel-gtxtitanx/ptx";
    std::error_code error;
    std::vector<std::filesystem::path> files;
    for (const auto &entry : std::filesystem::recursive_directory_iterator(root, error))
      if (entry.path().extension() == ".ptx")
        files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const std::filesystem::path &file : files) {
      std::ifstream in(file);
      std::ostringstream text;
      text << in.rdbuf();
      if (auto module = ptxdvfs::ptx::parseModule(text.str(), file.string()))
        parsed.push_back(std::move(*module));
    }
    return parsed;
  }();
  return modules;
}

/// Every kernel of the training programs' PTX, with the default launch.
void BM_ExpandTrainingPtx(benchmark::State &state) {
  if (trainingPtx().empty()) {
    state.SkipWithError("no PTX under ../shared/datasets/gpuptxmodel-gtxtitanx/ptx");
    return;
  }
  std::size_t kernels = 0;
  for (auto _ : state) {
    kernels = 0;
    for (const ptxdvfs::ptx::Module &module : trainingPtx())
      for (const ptxdvfs::ptx::Function *kernel : module.kernels()) {
        benchmark::DoNotOptimize(analysis::expandKernel(module, *kernel, {}).executedInstructions);
        ++kernels;
      }
  }
  state.counters["kernels"] = static_cast<double>(kernels);
}
BENCHMARK(BM_ExpandTrainingPtx)->Unit(benchmark::kMillisecond);

/// A kernel that branches on the last of `pairs` pairs of fma, each reading
/// the two before it: the branch's value reaches every definition along
/// many paths (2^depth without the value analysis' memo).
ptxdvfs::ptx::Module fmaChain(int pairs) {
  std::ostringstream text;
  text << ".version 8.0\n.target sm_80\n.address_size 64\n"
       << ".visible .entry chain(.param .u64 out, .param .f32 a, .param .f32 b)\n{\n"
       << "  .reg .pred %p<2>;\n  .reg .f32 %f<" << 2 * pairs + 2 << ">;\n  .reg .b64 %rd<2>;\n"
       << "  ld.param.f32 %f0, [a];\n  ld.param.f32 %f1, [b];\n";
  for (int i = 0; i < pairs; ++i)
    text << "  fma.rn.f32 %f" << 2 * i + 2 << ", %f" << 2 * i << ", %f" << 2 * i + 1 << ", 0f3F800000;\n"
         << "  fma.rn.f32 %f" << 2 * i + 3 << ", %f" << 2 * i + 1 << ", %f" << 2 * i + 2 << ", 0f40000000;\n";
  text << "  setp.gt.f32 %p1, %f" << 2 * pairs << ", 0f3F000000;\n  @%p1 bra $L__skip;\n"
       << "  ld.param.u64 %rd1, [out];\n  st.global.f32 [%rd1], %f" << 2 * pairs + 1 << ";\n"
       << "$L__skip:\n  ret;\n}\n";
  return *ptxdvfs::ptx::parseModule(text.str(), "chain.ptx");
}

/// Arg: pairs of fma before the branch. Should grow linearly.
void BM_BranchOnLongFloatChain(benchmark::State &state) {
  const ptxdvfs::ptx::Module module = fmaChain(static_cast<int>(state.range(0)));
  for (auto _ : state)
    benchmark::DoNotOptimize(
        analysis::expandKernel(module, *module.kernels().front(), {}, {}).executedInstructions);
}
BENCHMARK(BM_BranchOnLongFloatChain)->Arg(8)->Arg(32)->Arg(128)->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
