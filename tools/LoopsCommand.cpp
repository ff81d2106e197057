// LoopsCommand.cpp - `ptxdvfs loops FILE.ptx`: each kernel's loops, trip counts and executed length.
#include "LoopsCommand.h"

#include "CountText.h"
#include "DiagnosticPrinter.h"
#include "ExitCodes.h"
#include "KernelInputs.h"
#include "LaunchFlags.h"

#include "ptxdvfs/ptx/Parser.h"
#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <cmath>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

namespace ptxdvfs::tools {

namespace {

namespace analysis = ptx::analysis;

struct LoopsOptions {
  std::string file;
  LaunchFlags launch;
  std::vector<std::string> kernels; ///< --kernel globs; empty: every kernel
  bool json = false;
};

std::string sourceLine(const ptx::Module &module, const std::optional<ptx::DebugLocation> &source) {
  if (!source)
    return "";
  std::string path(module.sourcePath(*source));
  auto slash = path.find_last_of('/');
  return (slash == std::string::npos ? path : path.substr(slash + 1)) + ":" +
         std::to_string(source->line);
}

/// Adds `"source": {"file", "line"}` to `entry` when the PTX has -lineinfo.
void addSource(nlohmann::json &entry, const ptx::Module &module, const std::optional<ptx::DebugLocation> &source) {
  if (source)
    entry["source"] = {{"file", std::string(module.sourcePath(*source))}, {"line", source->line}};
}

/// " (file.cu:12)" and " in FUNCTION" for code inlined from a `.func`.
std::string whereInSource(const ptx::Module &module, const std::optional<ptx::DebugLocation> &source,
                          const ptx::Function *function, const analysis::ExecutedKernel &kernel) {
  std::string text;
  if (std::string cuda = sourceLine(module, source); !cuda.empty())
    text += " (" + cuda + ")";
  if (function != kernel.kernel)
    text += " in " + function->name;
  return text;
}

/// "128 iterations", "1 iteration", "at most 3 iterations", or a mean with
/// its range where the count changes from one entry to the next.
std::string tripText(const analysis::LoopReport &loop) {
  std::ostringstream text;
  if (loop.atMost)
    text << "at most ";
  if (loop.minTripCount == loop.maxTripCount)
    text << loop.minTripCount << (loop.minTripCount == 1 ? " iteration" : " iterations");
  else
    text << std::fixed << std::setprecision(1) << loop.meanTripCount << " (" << loop.minTripCount
         << ".." << loop.maxTripCount << ") iterations";
  return text.str();
}

nlohmann::json toJson(const ptx::Module &module, const analysis::ExecutedKernel &kernel) {
  nlohmann::json loops = nlohmann::json::array();
  for (const analysis::LoopReport &loop : kernel.loops) {
    nlohmann::json entry = {{"line", loop.location.line},
                            {"function", loop.function->name},
                            {"depth", loop.depth},
                            {"parent", loop.parent},
                            {"trip_count", loop.meanTripCount},
                            {"trip_count_min", loop.minTripCount},
                            {"trip_count_max", loop.maxTripCount},
                            {"entries_per_thread", loop.entries},
                            {"trip_count_is_upper_bound", loop.atMost},
                            {"origin", std::string(analysis::originName(loop))},
                            {"rule", loop.rule},
                            {"why", loop.why}};
    addSource(entry, module, loop.source);
    loops.push_back(std::move(entry));
  }
  nlohmann::json rare = nlohmann::json::array();
  for (const analysis::RareBranchReport &branch : kernel.rareBranches) {
    nlohmann::json entry = {{"line", branch.location.line},
                            {"function", branch.function->name},
                            {"not_read", branch.condition},
                            {"non_finite", branch.nonFinite}};
    addSource(entry, module, branch.source);
    rare.push_back(std::move(entry));
  }
  return {{"name", kernel.kernel->name},
          {"executed_instructions", kernel.executedInstructions},
          {"written_instructions", kernel.sequence.size()},
          {"iterations_per_loop", kernel.iterationsPerLoop},
          {"launch", launchSizeJson(kernel.launch)},
          {"loops", std::move(loops)},
          {"rare_branches", std::move(rare)}};
}

void printKernel(const ptx::Module &module, const analysis::ExecutedKernel &kernel, std::ostream &out) {
  out << "kernel " << kernel.kernel->name << ": " << wholeCountText(kernel.executedInstructions)
      << " instructions per thread";
  if (kernel.iterationsPerLoop)
    out << " (" << kernel.sequence.size() << " written, " << kernel.iterationsPerLoop
        << " sampled iterations per loop)";
  out << ", " << threadsPerLaunchText(kernel.launch) << '\n';
  // Large-argument paths one by one; the many infinity/NaN tests of math
  // functions as one line of PTX lines.
  std::string nonFiniteLines;
  std::size_t nonFinite = 0;
  for (const analysis::RareBranchReport &branch : kernel.rareBranches) {
    if (branch.nonFinite) {
      nonFiniteLines += (nonFinite++ ? ", " : "") + std::to_string(branch.location.line);
      continue;
    }
    out << "  branch at line " << branch.location.line
        << whereInSource(module, branch.source, branch.function, kernel) << ": the side where "
        << branch.condition << " is not read (rare data)\n";
  }
  if (nonFinite)
    out << "  " << nonFinite << (nonFinite == 1 ? " branch" : " branches")
        << " on infinity or NaN read on the finite side (line" << (nonFinite == 1 ? " " : "s ")
        << nonFiniteLines << ")\n";
  if (kernel.loops.empty()) {
    out << "  no loops\n";
    return;
  }
  for (const analysis::LoopReport &loop : kernel.loops) {
    out << "  " << std::string(2 * (loop.depth - 1), ' ') << "loop at line " << loop.location.line
        << whereInSource(module, loop.source, loop.function, kernel) << ": " << tripText(loop) << ", "
        << analysis::originName(loop) << '\n';
    std::string indent(2 * loop.depth + 4, ' ');
    if (!loop.rule.empty())
      out << indent << loop.rule << '\n';
    for (const std::string &reason : loop.why)
      if (!reason.empty())
        out << indent << "- " << reason << '\n';
  }
}

int runLoopsCommand(const LoopsOptions &options) {
  auto module = ptx::parseFile(options.file);
  printDiagnostics(module.diagnostics(), std::cerr);
  if (!module)
    return kExitInputError;
  warnIfDebugBuild(*module, options.file);
  analysis::LaunchAssumptions assumptions;
  if (std::string error = toAssumptions(options.launch, *module, readCudaSources(*module), assumptions); !error.empty()) {
    spdlog::error("{}", error);
    return kExitUsageError;
  }
  analysis::ExpansionOptions expansion = toExpansionOptions(options.launch);
  nlohmann::json kernels = nlohmann::json::array();
  std::size_t selected = 0;
  for (const ptx::Function *kernel : module->kernels()) {
    if (!kernelSelected(kernel->name, options.kernels))
      continue;
    ++selected;
    analysis::ExecutedKernel executed = analysis::expandKernel(*module, *kernel, assumptions, expansion);
    printDiagnostics(executed.warnings, std::cerr);
    if (options.json)
      kernels.push_back(toJson(*module, executed));
    else
      printKernel(*module, executed, std::cout);
  }
  if (selected == 0 && !options.kernels.empty() && !module->kernels().empty()) {
    spdlog::error("{}: {}", options.file, noKernelSelected(options.kernels, "to analyse"));
    return kExitInputError; // before --json prints an empty list that reads as success
  }
  if (options.json)
    std::cout << nlohmann::json{{"path", module->path}, {"kernels", kernels}}.dump(2) << '\n';
  else if (module->kernels().empty())
    spdlog::warn("{}: {}", options.file, noKernelSelected({}, "to analyse"));
  return kExitSuccess;
}

} // namespace

void setupLoopsCommand(CLI::App &app, int &exitCode) {
  auto options = std::make_shared<LoopsOptions>();
  CLI::App *command = app.add_subcommand(
      "loops", "List each kernel's loops with their trip counts, and its executed length");
  command->footer(
      "Examples:\n"
      "  ptxdvfs loops kernel.ptx\n"
      "  ptxdvfs loops --grid 4096 --block 256 --assume n=1048576 kernel.ptx\n"
      "  ptxdvfs loops --assume dt=0.01 --assume T=1 kernel.ptx   (float parameters)\n"
      "  ptxdvfs loops --json kernel.ptx\n"
      "  ptxdvfs loops --kernel '*stencil*' kernel.ptx\n"
      "A count is 'constant' when it follows from the PTX alone, 'assumed' when it uses\n"
      "--assume/--grid/--block or a launch in the CUDA source (with -lineinfo, the host\n"
      "code beside the kernel's file is read: kernel<<<64, 128>>>(x, 4096); in a helper,\n"
      "what its calls pass for its parameters; a host loop's counter, its middle value),\n"
      "'default' when it uses a default (launch geometry, or --default-trip-count for a bound\n"
      "read from memory or an unset parameter).\n"
      "'at most N' marks a count that is only a bound: nvcc's remainder loop after\n"
      "unrolling by 4 runs n & 3 times, read as 3 when n is not known; a binary search\n"
      "runs its longest search, log2 of the range; a loop that may also break on data\n"
      "runs as its counted exit says.\n"
      "A branch on a magnitude against a huge bound (sinf's large-argument path,\n"
      "infinity and NaN cases) is read on its ordinary side and listed.\n"
      "A loop the branches lead past for these values (a remainder loop when n is a\n"
      "multiple of 4, a tail path) is listed at 0 iterations, with what skips it.\n"
      "The thread analysed is thread 0 of block 0. Each kernel's line ends with the\n"
      "threads of one launch: in a file of several kernels, each weighs by them, times its\n"
      "launches where it has several (a launch file's, or its launch sites in the host code\n"
      "times the host loops around them and around the calls of a helper that launches;\n"
      "a loop whose count the source does not fix runs 16 times, 'default'). A kernel\n"
      "that host code launching the others launches nowhere, directly or through a\n"
      "function pointer, is 'not launched' and weighs nothing. See docs/loops.md.");
  command->add_option("file", options->file, "PTX file")->required()->check(CLI::ExistingFile);
  addLaunchFlags(*command, options->launch);
  addKernelOption(*command, options->kernels, "Input");
  command->add_flag("--json", options->json, "Print the loops as JSON on stdout");
  command->callback([options, &exitCode] { exitCode = runLoopsCommand(*options); });
}

} // namespace ptxdvfs::tools
