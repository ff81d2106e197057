// LaunchFlags.cpp - parsing --assume/--grid/--block into the loop analysis's assumptions.
#include "LaunchFlags.h"

#include "CountText.h"
#include "CudaCommandLine.h"
#include "CudaConstants.h"
#include "CudaLaunches.h"
#include "CudaSource.h"
#include "CudaStructLayout.h"
#include "CudaSymbolCopies.h"
#include "LaunchFile.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <set>
#include <sstream>

namespace ptxdvfs::tools {

namespace {

std::string parseDim3(const std::string &text, const char *flag, ptx::analysis::Dim3 &dims) {
  std::stringstream stream(text);
  std::string part;
  std::uint32_t *fields[] = {&dims.x, &dims.y, &dims.z};
  int index = 0;
  while (std::getline(stream, part, ',')) {
    if (index == 3)
      return std::string(flag) + " takes at most three numbers, as X[,Y[,Z]]: '" + text + "'";
    try {
      std::size_t used = 0;
      unsigned long value = std::stoul(part, &used);
      if (used != part.size() || value == 0 || value > UINT32_MAX)
        throw std::invalid_argument(part);
      *fields[index++] = static_cast<std::uint32_t>(value);
    } catch (const std::exception &) {
      return std::string(flag) + " needs positive integers, as X[,Y[,Z]]: '" + text + "'";
    }
  }
  return index == 0 ? std::string(flag) + " is empty" : "";
}

/// An integer (decimal, 0x hex or 0 octal, as C reads it) or a finite real
/// number (a float parameter's value: 0.01, 2.5e-3).
std::optional<ptx::analysis::AssumedValue> parseAssumedValue(const std::string &text) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text.front())))
    return std::nullopt;
  try {
    std::size_t used = 0;
    long long whole = std::stoll(text, &used, 0);
    if (used == text.size())
      return ptx::analysis::AssumedValue(whole);
  } catch (const std::exception &) {
    // Not an integer; perhaps a real number, or out of range.
  }
  char *end = nullptr;
  errno = 0;
  double real = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(real))
    return std::nullopt;
  return ptx::analysis::AssumedValue::real(real);
}

/// Insertions, deletions and substitutions that turn `a` into `b`.
std::size_t editDistance(const std::string &a, const std::string &b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

void addSourceNames(const std::string &text, const ptx::Module &module,
                    ptx::analysis::LaunchAssumptions &assumptions) {
  CudaStructs structs(text);
  const std::string code = codeOf(text);
  for (const ptx::Function &function : module.functions) {
    std::vector<CudaDeclaration> parameters = cudaParameters(code, baseNameOf(function.name));
    if (parameters.size() != function.parameters.size())
      continue;
    std::vector<std::string> &names = assumptions.sourceParameterNames[function.name];
    std::vector<std::map<std::int64_t, std::string>> &fields = assumptions.sourceFieldNames[function.name];
    for (const CudaDeclaration &parameter : parameters) {
      names.push_back(parameter.name);
      fields.push_back(structs.fieldNames(parameter.type, parameter.name));
    }
  }
  for (const CudaDeclaration &variable : cudaConstantVariables(text))
    if (auto fields = structs.fieldNames(variable.type, variable.name); !fields.empty())
      assumptions.constantFieldNames[variable.name] = std::move(fields);
}

void warnOfUnknownNames(const ptx::Module &module, const ptx::analysis::LaunchAssumptions &assumptions) {
  // What --assume can name: parameters (PTX name, param_N, CUDA name) and
  // __constant__ variables, their fields by CUDA name, or either plus BYTES.
  std::set<std::string> known;
  std::vector<std::string> shown; // the names a user would write, for the message
  for (const ptx::Function &function : module.functions) {
    auto cudaNames = assumptions.sourceParameterNames.find(function.name);
    for (std::size_t i = 0; i < function.parameters.size(); ++i) {
      const std::string &name = function.parameters[i].name;
      known.insert(name);
      std::string_view shortName = ptx::analysis::shortParameterName(name);
      std::string suffix(shortName.empty() ? std::string_view(name) : shortName);
      known.insert(suffix);
      bool hasCudaName = cudaNames != assumptions.sourceParameterNames.end() && i < cudaNames->second.size();
      if (hasCudaName)
        known.insert(cudaNames->second[i]);
      if (function.kind == ptx::FunctionKind::Entry)
        shown.push_back(hasCudaName ? cudaNames->second[i] : suffix);
    }
    if (auto fields = assumptions.sourceFieldNames.find(function.name); fields != assumptions.sourceFieldNames.end())
      for (const auto &parameterFields : fields->second)
        for (const auto &[offset, name] : parameterFields)
          known.insert(name);
  }
  for (const ptx::VariableDecl &variable : module.globals)
    if (variable.space == ptx::StateSpace::Const) {
      known.insert(variable.name);
      shown.push_back(variable.name);
    }
  for (const auto &[variable, fields] : assumptions.constantFieldNames)
    for (const auto &[offset, name] : fields)
      known.insert(name);
  auto isKnown = [&](const std::string &name) {
    auto split = ptx::analysis::splitFieldOffset(name);
    return known.count(name) || (split && known.count(std::string(split->first)));
  };
  std::sort(shown.begin(), shown.end());
  shown.erase(std::unique(shown.begin(), shown.end()), shown.end());
  std::string listed;
  for (std::size_t i = 0; i < shown.size() && i < 12; ++i)
    listed += (i == 0 ? "" : ", ") + shown[i];
  if (shown.size() > 12)
    listed += ", ...";
  for (const auto &[name, value] : assumptions.parameters) {
    if (isKnown(name))
      continue;
    // A typo is one or two edits from the name meant.
    std::string closest;
    std::size_t fewest = 3;
    for (const std::string &candidate : known)
      if (std::size_t edits = editDistance(name, candidate); edits < fewest) {
        fewest = edits;
        closest = candidate;
      }
    std::string hint = !closest.empty() ? " (did you mean " + closest + "?)"
                       : listed.empty() ? ""
                                        : " (names here: " + listed + ")";
    spdlog::warn("{}: --assume {}: no kernel parameter or __constant__ variable is named so; it is ignored{}",
                 module.path, name, hint);
  }
}

} // namespace

void addLaunchFlags(CLI::App &command, LaunchFlags &flags, bool readingFlags) {
  const char *group = "Loop analysis (what the PTX cannot tell)";
  command.add_option("--assume", flags.assume,
                     "Value of a kernel parameter or __constant__ variable, NAME=VALUE (repeatable). "
                     "NAME: the CUDA name (found through -lineinfo's .file), the PTX name, or "
                     "param_N; a field of a struct passed by value, or of one in constant memory, "
                     "is NAME.FIELD as the CUDA source names it (d_dim.number_boxes), else "
                     "NAME+BYTES (param_3+24, d_common+8), as 'loops' names it; VALUE: an "
                     "integer, or a decimal for a float parameter (dt=0.01). Unset, a parameter "
                     "takes the constant its launches in the CUDA source pass, if any, and a "
                     "__constant__ variable what the source's cudaMemcpyToSymbol writes into it")
      ->allow_extra_args(false) // one value per flag: `--assume n=1 app.ptx --json` keeps app.ptx a file
      ->group(group);
  command.add_option("--grid", flags.grid,
                     "Blocks per grid, X[,Y[,Z]] (%nctaid; default: the kernel's launch in the CUDA "
                     "source where its sizes are constants, else 1024)")
      ->group(group);
  command.add_option("--block", flags.block,
                     "Threads per block, X[,Y[,Z]] (%ntid; default .reqntid, else the launch in the "
                     "CUDA source, else .maxntid, else 256)")
      ->group(group);
  command.add_option("--launch", flags.launchFile,
                     "Each kernel's grid, block and arguments from a launch file, as a harness "
                     "records them: {\"format\": \"ptxdvfs-launch/1\", \"kernels\": {KERNEL: "
                     "{\"grid\": [X,Y,Z], \"block\": [X,Y,Z], \"launches\": N, \"arguments\": {NAME: VALUE}}}, "
                     "\"constants\": {NAME: VALUE}} (KERNEL: the PTX or CUDA name; NAME as for --assume: "
                     "a parameter or field, or a __constant__ variable the host wrote). It replaces the launches "
                     "in the CUDA source; --grid, --block and --assume still win. Default: a "
                     "launch.json beside the PTX file or its CUDA source, if there is one")
      ->check(CLI::ExistingFile)
      ->group(group);
  command.add_option("--program-args", flags.programArguments,
                     "The command line the program is run with, after its name, as one string a shell would "
                     "split (\"4096 10\"; one starting with - is written --program-args=\"-n 4096\"). The host "
                     "code is read with argc one more than their number and atoi(argv[1]), strtol, std::stoi, "
                     "atof and sscanf converting them, and the CUDA samples' checkCmdLineFlag and "
                     "getCmdLineArgumentInt finding -flag=VALUE, SHOC's op.getOptionInt(\"passes\") (--passes "
                     "3, else its addOption default), getopt and getopt_long loops' cases (case 'n': n = "
                     "atoi(optarg)) and optind, loops over argv comparing it by strcmp or == (n = "
                     "atoi(argv[++i])) or by letter (switch (argv[i][1])), and copies of argv in a "
                     "std::vector<std::string>; other option parsing is left open. Default: none, the program "
                     "run bare")
      ->group(group);
  command.add_option("--host-source", flags.hostSources,
                     "A host file, or a folder of them (.cu, .cuh, .h, .hpp, .c, .cpp, .cc, .cxx), read with the "
                     "kernel's CUDA sources for its launches and the options its program reads (repeatable): a "
                     "driver's main.cpp kept apart from the kernels, as SHOC's common/main.cpp declares --size "
                     "and --passes. -lineinfo names only files with device code; the host files beside them are "
                     "read without this flag")
      ->allow_extra_args(false)
      ->check(CLI::ExistingPath)
      ->group(group);
  std::vector<std::string> devices = knownTargetDevices();
  std::string deviceList;
  for (const std::string &device : devices)
    deviceList += device + ", ";
  devices.push_back("none");
  command.add_option("--device", flags.device,
                     "The GPU the program runs on, whose properties the host code's device queries give "
                     "(cudaGetDeviceProperties' prop.multiProcessorCount, cudaDeviceGetAttribute): " +
                         deviceList + "or none to leave them open. Default: " +
                         (readingFlags ? "gtxtitanx, the shipped model's GPU" : "the model's GPU"))
      ->check(CLI::IsMember(devices))
      ->group(group);
  if (!readingFlags) {
    // The model fixes how kernels are read; only what the PTX cannot tell is asked.
    flags.defaultTripCount = 0;
    command.add_option("--default-trip-count", flags.defaultTripCount,
                       "Iterations of a loop whose count cannot be found (default: the count "
                       "the model was trained with)")
        ->check(CLI::PositiveNumber)
        ->group(group);
    return;
  }
  command.add_option("--default-trip-count", flags.defaultTripCount,
                     "Iterations of a loop whose count cannot be found")
      ->check(CLI::PositiveNumber)
      ->capture_default_str()
      ->group(group);
  command.add_option("--budget", flags.budget,
                     "Most instructions written out per kernel; longer runs sample iterations")
      ->check(CLI::PositiveNumber)
      ->capture_default_str()
      ->group(group);
  command.add_flag("--keep-loop-control", flags.keepLoopControl,
                   "Repeat counter updates, exit tests and branches in every iteration (as the "
                   "hardware runs them) instead of reading loops as full unrolling would")
      ->group(group);
}

std::string toAssumptions(const LaunchFlags &flags, const ptx::Module &module,
                          const std::vector<CudaSourceFile> &sources,
                          ptx::analysis::LaunchAssumptions &assumptions, LaunchFileApplication *shared) {
  for (const std::string &item : flags.assume) {
    auto equals = item.find('=');
    if (equals == std::string::npos || equals == 0)
      return "--assume needs NAME=VALUE: '" + item + "'";
    auto value = parseAssumedValue(item.substr(equals + 1));
    if (!value)
      return "--assume needs a number (an integer, or a decimal for a floating-point "
             "parameter): '" + item + "'";
    assumptions.parameters.insert_or_assign(item.substr(0, equals), *value);
  }
  if (!flags.grid.empty()) {
    ptx::analysis::Dim3 dims;
    if (std::string error = parseDim3(flags.grid, "--grid", dims); !error.empty())
      return error;
    assumptions.grid = dims;
  }
  if (!flags.block.empty()) {
    ptx::analysis::Dim3 dims;
    if (std::string error = parseDim3(flags.block, "--block", dims); !error.empty())
      return error;
    assumptions.block = dims;
  }
  const TargetDevice *device =
      flags.device == "none" ? nullptr : targetDeviceNamed(flags.device.empty() ? kDefaultTargetGpu : flags.device);
  std::string error;
  const std::optional<std::vector<std::string>> arguments = splitProgramArguments(flags.programArguments, error);
  if (!arguments)
    return "--program-args '" + flags.programArguments + "': " + error;
  std::vector<CudaSourceFile> hostFiles;
  if (std::string unread = readHostSources(flags.hostSources, hostFiles); !unread.empty())
    return "--host-source " + unread;
  addSourceKnowledge(module, sources, assumptions, device, *arguments, hostFiles);
  if (!flags.launchFile.empty() && shared) {
    // What no input used, the caller reports once every input is read.
    if (std::string error = shared->apply({&module, &assumptions}); !error.empty())
      return error;
  } else {
    std::string launchFile = flags.launchFile.empty()
                                 ? launchFileBeside(std::filesystem::path(module.path).parent_path().string(), sources)
                                 : flags.launchFile;
    std::string unused;
    if (!launchFile.empty())
      if (std::string error = applyLaunchFileAt(launchFile, {{&module, &assumptions}}, "in " + module.path, unused);
          !error.empty())
        return error;
    if (!unused.empty())
      spdlog::warn("{}; it is ignored", unused);
  }
  warnOfUnknownNames(module, assumptions);
  return "";
}

void warnOfUnusedLaunches(const LaunchFileApplication &shared, const std::vector<std::string> &inputs) {
  const std::string where = inputs.size() == 1 ? "in " + inputs.front()
                                               : "in any of the " + std::to_string(inputs.size()) + " inputs";
  if (std::string unused = shared.unused(where); !unused.empty())
    spdlog::warn("{}; it is ignored", unused);
}

void addSourceKnowledge(const ptx::Module &module, const std::vector<CudaSourceFile> &sources,
                        ptx::analysis::LaunchAssumptions &assumptions, const TargetDevice *device,
                        const std::vector<std::string> &arguments, const std::vector<CudaSourceFile> &hostFiles) {
  if (sources.empty() && hostFiles.empty())
    return;
  std::string text;
  for (const CudaSourceFile &file : sources)
    text += file.text + "\n";
  addSourceNames(text, module, assumptions);
  // --grid and --block, when given, still win: LaunchAssumptions ranks them first.
  const std::vector<CudaSourceFile> launching = launchingSources(sources, hostFiles);
  const ConstantFolder folder(launching, device, arguments); // one reading of the host code for both
  if (const std::vector<std::string> undeclared = folder.undeclaredOptionReads(); !undeclared.empty()) {
    std::string options;
    for (std::size_t i = 0; i < undeclared.size(); ++i)
      options += (i == 0 ? "" : i + 1 == undeclared.size() ? " and " : ", ") + undeclared[i];
    const bool one = undeclared.size() == 1;
    spdlog::warn("{}: the host code reads the option{} {}, which no addOption in the files read declares, so {} left "
                 "open; name the file that declares {} (a driver's main.cpp in another folder) with --host-source",
                 module.path, one ? "" : "s", options, one ? "it is" : "they are", one ? "it" : "them");
  }
  assumptions.sourceLaunches = sourceLaunches(module, folder, launching, sources.size());
  for (auto &[name, write] : sourceSymbolWrites(module, folder)) {
    assumptions.sourceConstants.insert_or_assign(name, write.value);
    assumptions.sourceConstantsHow.insert_or_assign(name, std::move(write.how));
  }
}

ptx::analysis::ExpansionOptions toExpansionOptions(const LaunchFlags &flags) {
  ptx::analysis::ExpansionOptions options;
  options.budget = flags.budget;
  options.defaultTripCount = flags.defaultTripCount;
  options.keepLoopControl = flags.keepLoopControl;
  return options;
}

std::string threadsPerLaunchText(const ptx::analysis::LaunchSize &launch) {
  const std::string launches = launch.launches == 0 ? "not launched" : std::to_string(launch.launches) + " launches";
  return wholeCountText(launch.threads()) + " threads per launch (" + std::string(toString(launch.origin)) + ")" +
         (launch.launches == 1 ? "" : ", " + launches + " (" + std::string(toString(launch.launchesOrigin)) + ")");
}

nlohmann::json launchSizeJson(const ptx::analysis::LaunchSize &launch) {
  auto dims = [](const ptx::analysis::Dim3 &d) { return nlohmann::json::array({d.x, d.y, d.z}); };
  return {{"grid", dims(launch.grid)},
          {"block", dims(launch.block)},
          {"threads", launch.threads()},
          {"launches", launch.launches},
          {"launches_origin", std::string(toString(launch.launchesOrigin))},
          {"origin", std::string(toString(launch.origin))},
          {"why", launch.why}};
}

} // namespace ptxdvfs::tools
