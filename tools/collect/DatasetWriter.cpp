// DatasetWriter.cpp - the measurement CSV, the clock tables and one PTX folder per benchmark.
#include "DatasetWriter.h"

#include "AtomicFile.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>

namespace ptxdvfs::tools::collect {

namespace {

std::string clockTable(const std::vector<unsigned> &allowed, unsigned defaultMHz) {
  std::string text;
  for (unsigned clock : allowed)
    text += std::to_string(clock) + "\n";
  return text + std::to_string(defaultMHz) + "\n";
}

} // namespace

std::string writeDataset(const std::string &dir, const CollectPlan &plan, const ProgressLog &log,
                         std::size_t &complete, const LaunchFileText &launchFile) {
  namespace fs = std::filesystem;
  std::error_code error;
  fs::create_directories(dir + "/gpu_info", error);
  if (error)
    return dir + "/gpu_info: cannot create: " + error.message();

  std::map<std::pair<std::string, embeddings::VfPoint>, const MeasuredPoint *> measured;
  for (const MeasuredPoint &row : log.rows())
    measured[{row.benchmark, row.point}] = &row;

  std::vector<std::pair<std::string, std::string>> files;
  std::string csv;
  complete = 0;
  std::vector<embeddings::VfPoint> grid = plan.clocks.grid();
  for (const PlannedBenchmark &benchmark : plan.benchmarks) {
    std::string block = benchmark.name + "\n";
    bool all = true;
    for (const embeddings::VfPoint &point : grid) {
      auto found = measured.find({benchmark.name, point});
      if (found == measured.end()) {
        all = false;
        break;
      }
      const MeasuredPoint &row = *found->second;
      char line[128];
      std::snprintf(line, sizeof line, "%u,%u,%.6f,%.6f,%.6f\n", point.memoryMHz, point.coreMHz,
                    row.milliseconds, row.watts, row.millijoules());
      block += line;
    }
    if (!all)
      continue;
    ++complete;
    csv += block;
    fs::create_directories(dir + "/" + benchmark.name, error);
    if (error)
      return dir + "/" + benchmark.name + ": cannot create: " + error.message();
    files.emplace_back(dir + "/" + benchmark.name + "/" + benchmark.name + ".ptx", benchmark.ptx);
    if (launchFile)
      files.emplace_back(dir + "/" + benchmark.name + "/launch.json",
                         launchFile(benchmark, log.repeatsOf(benchmark.name)));
  }
  const embeddings::GpuClocks &clocks = plan.clocks;
  std::string info = dir + "/gpu_info/";
  files.emplace_back(dir + "/aggregated_dataset_" + plan.gpu + ".csv", csv);
  files.emplace_back(info + "clks_mem_" + plan.gpu + ".txt",
                     clockTable(clocks.memoryMHz, clocks.defaultPoint.memoryMHz));
  for (unsigned memory : clocks.memoryMHz) {
    const std::vector<unsigned> &cores = clocks.coreMHz.at(memory);
    unsigned defaultCore = std::binary_search(cores.begin(), cores.end(), clocks.defaultPoint.coreMHz)
                               ? clocks.defaultPoint.coreMHz
                               : cores.back();
    files.emplace_back(info + "clks_core_" + plan.gpu + "_" + std::to_string(memory) + ".txt",
                       clockTable(cores, defaultCore));
  }
  return writeFilesAtomically(files);
}

} // namespace ptxdvfs::tools::collect
