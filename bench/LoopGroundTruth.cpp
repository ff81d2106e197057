// LoopGroundTruth.cpp - compares the executed sequence of looped PTX with the same program unrolled.
//
// Usage: loop_ground_truth [--json] --vocabulary DIR UNROLLED_ROOT LOOPED_ROOT
//   UNROLLED_ROOT/<name>/<name>.ptx: the program as the training data saw it
//   LOOPED_ROOT/<name>/<name>.looped.ptx: the same source compiled with loops kept
// Run through scripts/loop-ground-truth.sh, which makes LOOPED_ROOT.
#include "ptxdvfs/embeddings/EncodingScheme.h"
#include "ptxdvfs/ptx/Parser.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>

namespace fs = std::filesystem;
using namespace ptxdvfs;

namespace {

constexpr double kCountTolerance = 0.05;
constexpr double kMinimumCosine = 0.98;

struct Histogram {
  std::map<std::string, double> counts;
  double total = 0;
  bool constantBounds = true; ///< every loop's count follows from the PTX alone
  std::size_t loops = 0;
};

std::optional<Histogram> histogramOf(const std::string &path, const embeddings::EncodingScheme &scheme,
                                     bool asExecuted) {
  auto module = ptx::parseFile(path);
  if (!module) {
    for (const auto &diagnostic : module.diagnostics())
      std::cerr << diagnostic.format() << '\n';
    return std::nullopt;
  }
  embeddings::EncodeOptions options;
  options.asExecuted = asExecuted;
  Histogram histogram;
  for (const embeddings::EncodedKernel &kernel : scheme.encode(*module, options)) {
    for (const embeddings::InstructionRecord &record : kernel.instructions) {
      histogram.counts[scheme.readable(record)] += record.weight;
      histogram.total += record.weight;
    }
    histogram.loops += kernel.loops.size();
    for (const auto &loop : kernel.loops)
      histogram.constantBounds = histogram.constantBounds && !loop.usedDefault &&
                                 loop.origin == ptx::analysis::ValueOrigin::Constant;
  }
  return histogram;
}

double cosine(const Histogram &a, const Histogram &b) {
  double dot = 0, na = 0, nb = 0;
  for (const auto &[key, count] : a.counts) {
    na += count * count;
    if (auto other = b.counts.find(key); other != b.counts.end())
      dot += count * other->second;
  }
  for (const auto &[key, count] : b.counts)
    nb += count * count;
  return na > 0 && nb > 0 ? dot / std::sqrt(na * nb) : 0;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> positional;
  std::string vocabularyDir, detail;
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--vocabulary" && i + 1 < argc)
      vocabularyDir = argv[++i];
    else if (arg == "--json")
      json = true;
    else if (arg == "--detail" && i + 1 < argc)
      detail = argv[++i]; // one benchmark: its two histograms side by side
    else
      positional.push_back(arg);
  }
  if (positional.size() != 2 || vocabularyDir.empty()) {
    std::cerr << "usage: loop_ground_truth [--json] [--detail NAME] --vocabulary DIR UNROLLED_ROOT LOOPED_ROOT\n";
    return 2;
  }
  auto vocabulary = embeddings::loadVocabulary(vocabularyDir);
  if (!vocabulary) {
    std::cerr << vocabularyDir << ": cannot read the vocabulary\n";
    return 2;
  }
  auto scheme = embeddings::makeScheme(embeddings::kGpuPtxModelV1, std::move(*vocabulary));
  std::vector<std::string> names;
  for (const auto &entry : fs::directory_iterator(positional[1]))
    if (fs::exists(entry.path() / (entry.path().filename().string() + ".looped.ptx")))
      names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());

  nlohmann::json rows = nlohmann::json::array();
  std::size_t constantCount = 0, constantMet = 0, otherCount = 0;
  double worstConstantRatio = 0, worstConstantCosine = 1;
  if (!json)
    std::cout << std::left << std::setw(28) << "benchmark" << std::right << std::setw(10) << "unrolled"
              << std::setw(12) << "executed" << std::setw(8) << "ratio" << std::setw(8) << "cosine"
              << std::setw(7) << "loops" << "  bounds\n";
  for (const std::string &name : names) {
    // The unrolled programs keep some loops rolled (an outer repetition
    // without a pragma), so they are read as executed too.
    auto unrolled = histogramOf(positional[0] + "/" + name + "/" + name + ".ptx", **scheme, true);
    auto looped = histogramOf(positional[1] + "/" + name + "/" + name + ".looped.ptx", **scheme, true);
    if (!unrolled || !looped || unrolled->total == 0)
      continue;
    if (name == detail) {
      std::map<std::string, std::pair<double, double>> both;
      for (const auto &[key, count] : unrolled->counts)
        both[key].first = count;
      for (const auto &[key, count] : looped->counts)
        both[key].second = count;
      for (const auto &[key, counts] : both)
        if (std::abs(counts.first - counts.second) > 1e-9)
          std::cout << "  " << std::left << std::setw(24) << key << std::right << std::setw(10)
                    << counts.first << std::setw(10) << counts.second << '\n';
    }
    double ratio = looped->total / unrolled->total;
    double similarity = cosine(*unrolled, *looped);
    bool met = std::abs(ratio - 1) <= kCountTolerance && similarity >= kMinimumCosine;
    if (looped->constantBounds) {
      ++constantCount;
      constantMet += met;
      if (std::abs(ratio - 1) > std::abs(worstConstantRatio - 1) || constantCount == 1)
        worstConstantRatio = ratio;
      worstConstantCosine = std::min(worstConstantCosine, similarity);
    } else {
      ++otherCount;
    }
    rows.push_back({{"name", name}, {"unrolled", unrolled->total}, {"executed", looped->total},
                    {"ratio", ratio}, {"cosine", similarity}, {"loops", looped->loops},
                    {"constant_bounds", looped->constantBounds}, {"goal_met", met}});
    if (!json)
      std::cout << std::left << std::setw(28) << name << std::right << std::fixed << std::setprecision(0)
                << std::setw(10) << unrolled->total << std::setw(12) << looped->total
                << std::setprecision(3) << std::setw(8) << ratio << std::setw(8) << similarity
                << std::setw(7) << looped->loops << "  "
                << (looped->constantBounds ? "constant" : "not constant") << (met ? "" : "  MISSED") << '\n';
  }
  bool goal = constantMet == constantCount && constantCount > 0;
  if (json) {
    std::cout << nlohmann::json{{"benchmarks", rows},
                                {"constant_bound", constantCount},
                                {"constant_bound_goal_met", constantMet},
                                {"other", otherCount},
                                {"worst_constant_ratio", worstConstantRatio},
                                {"worst_constant_cosine", worstConstantCosine},
                                {"goal_met", goal}}
                     .dump(2)
              << '\n';
  } else {
    std::cout << "\n" << constantMet << " of " << constantCount
              << " benchmarks with constant loop bounds within 5% and cosine >= 0.98"
              << " (worst ratio " << std::setprecision(3) << worstConstantRatio << ", worst cosine "
              << worstConstantCosine << "); " << otherCount << " others\n";
  }
  return goal ? 0 : 1;
}
