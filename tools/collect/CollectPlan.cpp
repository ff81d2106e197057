// CollectPlan.cpp - clock selection, kernels cut out of the suite, the dry-run report.
#include "CollectPlan.h"

#include "ptxdvfs/ptx/Parser.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <ostream>
#include <set>

namespace ptxdvfs::tools::collect {

double CollectPlan::estimatedSeconds() const {
  // Per pair: a calibration run, the warm-ups and the measured runs, each
  // about secondsPerRun; per clock change, a second for the clocks to settle.
  double perPair = (1 + settings.warmups + settings.runs) * settings.secondsPerRun;
  return static_cast<double>(points.size() * benchmarks.size()) * perPair +
         static_cast<double>(points.size());
}

embeddings::GpuClocks thinClocks(const embeddings::GpuClocks &all, std::size_t maxCoreClocks) {
  embeddings::GpuClocks thinned = all;
  maxCoreClocks = std::max<std::size_t>(maxCoreClocks, 2);
  for (auto &[memory, cores] : thinned.coreMHz) {
    if (cores.size() <= maxCoreClocks)
      continue;
    std::set<unsigned> kept = {cores.front(), cores.back()};
    if (memory == all.defaultPoint.memoryMHz)
      kept.insert(all.defaultPoint.coreMHz);
    for (std::size_t i = 0; kept.size() < maxCoreClocks && i < maxCoreClocks; ++i) {
      double at = static_cast<double>(i) * static_cast<double>(cores.size() - 1) /
                  static_cast<double>(maxCoreClocks - 1);
      kept.insert(cores[static_cast<std::size_t>(std::lround(at))]);
    }
    cores.assign(kept.begin(), kept.end());
  }
  return thinned;
}

embeddings::GpuClocks currentClocksOnly(const embeddings::VfPoint &current, const std::string &gpu) {
  embeddings::GpuClocks clocks;
  clocks.gpu = gpu;
  clocks.memoryMHz = {current.memoryMHz};
  clocks.coreMHz[current.memoryMHz] = {current.coreMHz};
  clocks.defaultPoint = current;
  clocks.fmax = current;
  return clocks;
}

ptx::Expected<Suite> readSuite(const std::string &suitePath) {
  auto module = ptx::parseFile(suitePath);
  if (!module)
    return ptx::Expected<Suite>::failure(module.diagnostics());
  const std::string &text = *module->source;
  std::vector<const ptx::Function *> kernels = module->kernels();
  if (kernels.empty())
    return ptx::Expected<Suite>::failure(
        ptx::Diagnostic{suitePath, {}, ptx::Severity::Error, "no kernel (.entry) to measure"});
  Suite suite;
  suite.text = module->source;
  for (const std::string &target : module->targets)
    if (target.rfind("sm_", 0) == 0)
      suite.target = target;
  for (const ptx::Function *kept : kernels) {
    // The whole module but the other kernels: their device functions and
    // variables stay, so every kernel still finds what it uses.
    std::string ptx;
    std::size_t from = 0;
    for (const ptx::Function *other : kernels) {
      if (other == kept)
        continue;
      ptx.append(text, from, other->sourceBegin - from);
      from = other->sourceEnd;
    }
    ptx.append(text, from, std::string::npos);
    std::vector<std::string> parameters;
    for (const ptx::VariableDecl &parameter : kept->parameters)
      parameters.push_back(parameter.name);
    suite.benchmarks.push_back({kept->name, std::move(ptx), std::move(parameters)});
  }
  return suite;
}

std::string targetMismatch(const std::string &target, unsigned computeCapability) {
  unsigned architecture = 0;
  char suffix = 0;
  if (std::sscanf(target.c_str(), "sm_%u%c", &architecture, &suffix) < 1 || architecture == 0)
    return ""; // no sm_ target named: let the driver judge
  std::string gpu = "sm_" + std::to_string(computeCapability);
  bool runs = suffix == 'a' ? architecture == computeCapability : architecture <= computeCapability;
  if (runs)
    return "";
  return "the suite is compiled for " + target + " and this GPU is " + gpu +
         ": PTX runs only on its target architecture" + (suffix == 'a' ? "" : " or newer") +
         "; use build/microbenchmarks/suite_sm" + std::to_string(computeCapability) + ".ptx (build it with -DPTXDVFS_MICROBENCHMARK_ARCHS=" +
         std::to_string(computeCapability) + ")";
}

std::string fileNameOfGpu(const std::string &productName) {
  std::string name;
  for (char c : productName)
    if (std::isalnum(static_cast<unsigned char>(c)))
      name += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char *vendor : {"nvidia", "geforce", "tesla"})
    if (name.rfind(vendor, 0) == 0 && name.size() > std::string(vendor).size())
      name.erase(0, std::string(vendor).size());
  return name.empty() ? "gpu" : name;
}

void printPlan(const CollectPlan &plan, std::size_t alreadyMeasured, std::ostream &out) {
  std::size_t pairs = plan.points.size() * plan.benchmarks.size();
  out << "GPU " << plan.gpu << ": " << plan.clocks.memoryMHz.size() << " memory clock(s), "
      << plan.points.size() << " V-F point(s); default " << plan.clocks.defaultPoint.memoryMHz << '/'
      << plan.clocks.defaultPoint.coreMHz << " MHz (memory/core)\n";
  for (unsigned memory : plan.clocks.memoryMHz) {
    out << "  memory " << memory << " MHz, core:";
    for (unsigned core : plan.clocks.coreMHz.at(memory))
      out << ' ' << core;
    out << '\n';
  }
  out << plan.benchmarks.size() << " benchmark(s): ";
  for (std::size_t i = 0; i < plan.benchmarks.size() && i < 4; ++i)
    out << (i ? ", " : "") << plan.benchmarks[i].name;
  if (plan.benchmarks.size() > 4)
    out << ", ...";
  out << '\n';
  const MeasurementSettings &s = plan.settings;
  out << "each (benchmark, point): " << s.warmups << " warm-up and " << s.runs
      << " measured run(s) of at least " << s.secondsPerRun << " s on buffers of "
      << (s.bufferBytes >> 20) << " MiB\n";
  double remaining = plan.estimatedSeconds() * static_cast<double>(pairs - std::min(pairs, alreadyMeasured)) /
                     static_cast<double>(std::max<std::size_t>(pairs, 1));
  out << pairs << " measurement(s), " << std::min(pairs, alreadyMeasured) << " already done; about "
      << std::fixed << std::setprecision(1) << remaining / 3600.0 << " h to go\n";
}

} // namespace ptxdvfs::tools::collect
