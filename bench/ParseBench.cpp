// ParseBench.cpp - parse throughput in MB/s on a large PTX file made from the fixtures.
//
// Each stage is measured on its own so the closing note can say what each
// step bought: generated ANTLR lexer, hand lexer, full parse on 1..N threads.
#include "ptxdvfs/ptx/Parser.h"

#include "Lexer.h"
#include "PTXLexer.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

/// The fixtures concatenated until the text reaches `kTargetBytes`
/// (override with PTXDVFS_BENCH_MB).
const std::string &largePtx() {
  static const std::string text = [] {
    std::vector<std::string> files;
    for (const auto &entry :
         std::filesystem::directory_iterator(std::string(PTXDVFS_FIXTURE_DIR) + "/ptx"))
      files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    std::string one;
    for (const auto &file : files) {
      std::ifstream in(file);
      std::ostringstream buffer;
      buffer << in.rdbuf();
      one += buffer.str() + "\n";
    }
    const char *mb = std::getenv("PTXDVFS_BENCH_MB");
    std::size_t target = (mb ? std::stoul(mb) : 32) << 20;
    std::string all;
    while (all.size() < target)
      all += one;
    return all;
  }();
  return text;
}

void setThroughput(benchmark::State &state) {
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(largePtx().size()));
  state.counters["MB"] = static_cast<double>(largePtx().size()) / 1e6;
}

void BM_GeneratedAntlrLexer(benchmark::State &state) {
  for (auto _ : state) {
    antlr4::ANTLRInputStream input(largePtx());
    PTXLexer lexer(&input);
    std::size_t count = 0;
    while (lexer.nextToken()->getType() != antlr4::Token::EOF)
      ++count;
    benchmark::DoNotOptimize(count);
  }
  setThroughput(state);
}

void BM_HandLexer(benchmark::State &state) {
  for (auto _ : state) {
    auto result = ptxdvfs::ptx::lexPtx(largePtx(), "bench.ptx", 50, ptxdvfs::ptx::ParseLimits{}.maxNesting);
    benchmark::DoNotOptimize(result.tokens.data());
  }
  setThroughput(state);
}

void BM_ParseModule(benchmark::State &state) {
  ptxdvfs::ptx::ParseOptions options;
  options.threads = static_cast<unsigned>(state.range(0));
  for (auto _ : state) {
    auto module = ptxdvfs::ptx::parseModule(largePtx(), "bench.ptx", options);
    if (!module)
      state.SkipWithError("the benchmark input did not parse");
    benchmark::DoNotOptimize(module->functions.data());
  }
  setThroughput(state);
}

} // namespace

BENCHMARK(BM_GeneratedAntlrLexer)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_HandLexer)->Unit(benchmark::kMillisecond)->Iterations(5)->UseRealTime();
BENCHMARK(BM_ParseModule)->Arg(1)->Arg(2)->Arg(4)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

BENCHMARK_MAIN();
