// GpuClocks.cpp - reading the clock tables.
#include "ptxdvfs/embeddings/GpuClocks.h"

#include "Text.h"

#include <algorithm>
#include <fstream>

namespace ptxdvfs::embeddings {

std::vector<VfPoint> GpuClocks::grid() const {
  std::vector<VfPoint> points;
  for (unsigned memory : memoryMHz)
    for (unsigned core : coreMHz.at(memory))
      points.push_back({memory, core});
  return points;
}

bool GpuClocks::contains(VfPoint point) const {
  auto cores = coreMHz.find(point.memoryMHz);
  return cores != coreMHz.end() &&
         std::binary_search(cores->second.begin(), cores->second.end(), point.coreMHz);
}

namespace {

struct ClockList {
  std::vector<unsigned> allowed; ///< ascending, unique
  unsigned defaultMHz = 0;
};

ptx::Expected<ClockList> readClockList(const std::string &path) {
  auto fail = [&](unsigned line, std::string message) {
    return ptx::Expected<ClockList>::failure(
        ptx::Diagnostic{path, {line, 0}, ptx::Severity::Error, std::move(message)});
  };
  std::ifstream in(path);
  if (!in)
    return fail(0, "cannot read clock table");
  std::vector<unsigned> values;
  std::string raw;
  for (unsigned number = 1; std::getline(in, raw); ++number) {
    std::string text = trimmed(raw);
    if (text.empty())
      continue;
    char *end = nullptr;
    unsigned long value = std::strtoul(text.c_str(), &end, 10);
    if (*end != '\0' || value == 0 || value > 100000)
      return fail(number, "'" + text + "' is not a clock in MHz");
    values.push_back(static_cast<unsigned>(value));
  }
  if (values.size() < 2)
    return fail(0, "a clock table needs the allowed clocks and, last, the default one");
  ClockList list;
  list.defaultMHz = values.back();
  list.allowed.assign(values.begin(), values.end() - 1);
  std::sort(list.allowed.begin(), list.allowed.end());
  list.allowed.erase(std::unique(list.allowed.begin(), list.allowed.end()), list.allowed.end());
  if (!std::binary_search(list.allowed.begin(), list.allowed.end(), list.defaultMHz))
    return fail(static_cast<unsigned>(values.size()),
                "default clock " + std::to_string(list.defaultMHz) + " MHz is not an allowed clock");
  return list;
}

} // namespace

ptx::Expected<GpuClocks> loadGpuClocks(const std::string &dir, const std::string &gpu) {
  auto memory = readClockList(dir + "/clks_mem_" + gpu + ".txt");
  if (!memory)
    return ptx::Expected<GpuClocks>::failure(memory.takeDiagnostics());
  GpuClocks clocks;
  clocks.gpu = gpu;
  clocks.memoryMHz = memory->allowed;
  for (unsigned fmem : clocks.memoryMHz) {
    auto cores = readClockList(dir + "/clks_core_" + gpu + "_" + std::to_string(fmem) + ".txt");
    if (!cores)
      return ptx::Expected<GpuClocks>::failure(cores.takeDiagnostics());
    clocks.coreMHz[fmem] = cores->allowed;
    if (fmem == memory->defaultMHz)
      clocks.defaultPoint = {fmem, cores->defaultMHz};
  }
  unsigned top = clocks.memoryMHz.back();
  clocks.fmax = {top, clocks.coreMHz.at(top).back()};
  return clocks;
}

} // namespace ptxdvfs::embeddings
