// CudaLaunches.cpp - finding a kernel's launches in host code, and what
// grid and block they agree on.
#include "CudaLaunches.h"

#include "CudaCode.h"
#include "CudaCommandLine.h"
#include "CudaConstants.h"
#include "CudaHostLoops.h"
#include "CudaLaunchAgreement.h"
#include "CudaLaunchSites.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <iterator>
#include <set>
#include <string_view>

namespace ptxdvfs::tools {

using ptx::analysis::Dim3;

namespace {

/// Where `site` is, as reasons name it: `main.cu:57`.
std::string locationOf(const ConstantFolder &folder, const LaunchSite &site) {
  return folder.files()[site.file].where(site.offset);
}

/// Where `site` is and, for one bound to calls (sitesPerCall()), through
/// which: "main.cu:57 (`run`'s call at main.cu:80)".
std::string shownAt(const ConstantFolder &folder, const LaunchSite &site) {
  return locationOf(folder, site) + (site.calls.empty() ? "" : " (" + site.calls + ")");
}

std::string shownValue(const ptx::analysis::AssumedValue &value) { return value.text(); }

/// How many times `sites` launch their kernel, into `launch`: each site
/// as many times as it runs (HostRunCounter: the host loops around it and
/// the calls of the function it is in), the sites added up. Returns the
/// sites that run at all, or all of them where none does, each with its runs.
std::vector<std::pair<const LaunchSite *, std::uint64_t>>
countLaunches(const ConstantFolder &folder, HostRunCounter &runs, const std::vector<const LaunchSite *> &sites,
              ptx::analysis::SourceLaunch &launch) {
  constexpr std::size_t kSitesNamed = 4;
  constexpr std::size_t kLongestReason = 1000;
  std::vector<HostStatement> statements;
  for (const LaunchSite *site : sites)
    statements.push_back({site->file, site->statement, site->offset, site->instance, site->sharedBy,
                          site->calls.empty() ? site->through
                                              : site->through + (site->through.empty() ? "" : "; ") + "through " +
                                                    site->calls});
  std::vector<std::uint64_t> times;
  const HostRuns all = runs.runsOfEach(statements, kSitesNamed, "launch sites", &times);
  if (all.defaulted)
    launch.launchesOrigin = ptx::analysis::ValueOrigin::Defaulted;
  launch.launches = std::max<std::uint64_t>(all.times, 1);
  if (all.times == 0) // as a kernel launched nowhere in the source counts
    launch.launchesWhy = "never launched by " + programRun(folder.arguments()) + ", counted once: " + all.why;
  else if (launch.launches != 1)
    launch.launchesWhy = "launched " + std::to_string(launch.launches) + " times: " + all.why;
  else if (sites.size() > 1) // one site runs once: the reason says why the others do not
    launch.launchesWhy = "launched once: " + all.why;
  if (launch.launchesWhy.size() > kLongestReason)
    launch.launchesWhy = launch.launchesWhy.substr(0, kLongestReason - 3) + "...";
  std::vector<std::pair<const LaunchSite *, std::uint64_t>> running;
  for (std::size_t i = 0; i < sites.size(); ++i)
    if (times[i] > 0 || all.times == 0)
      running.emplace_back(sites[i], times[i]);
  return running;
}

/// Each of `count` launches with the sizes and arguments it gives, where
/// they differ and every one is read (SourceLaunch::bindings); none
/// otherwise.
std::vector<ptx::analysis::SourceLaunch::Binding>
eachLaunch(std::size_t count, const Agreement<Dim3> &grid, const Agreement<Dim3> &block,
           const std::vector<Agreement<ptx::analysis::AssumedValue>> &arguments, bool argumentsRead) {
  const auto read = [&](const auto &agreement) { return agreement.eachRead && agreement.each.size() == count; };
  const auto sized = [&](const Agreement<Dim3> &size) {
    return read(size) && std::all_of(size.each.begin(), size.each.end(), [](const auto &one) { return one.value; });
  };
  bool differ = grid.differs || block.differs, all = argumentsRead && sized(grid) && sized(block);
  for (const Agreement<ptx::analysis::AssumedValue> &argument : arguments) {
    differ = differ || argument.differs;
    all = all && read(argument);
  }
  std::vector<ptx::analysis::SourceLaunch::Binding> bindings;
  for (std::size_t i = 0; differ && all && count > 1 && i < count; ++i) {
    ptx::analysis::SourceLaunch::Binding &one = bindings.emplace_back();
    one.grid = *grid.each[i].value;
    one.block = *block.each[i].value;
    one.launches = grid.each[i].runs;
    one.at = grid.each[i].at;
    for (const Agreement<ptx::analysis::AssumedValue> &argument : arguments)
      one.arguments.push_back(argument.each[i].value);
  }
  return bindings;
}

/// What every launch site of one kernel of `parameters` parameters agrees
/// on, and why the rest is open. Arguments are read only when every launch
/// passes `parameters` of them.
ptx::analysis::SourceLaunch agreedLaunch(const ConstantFolder &folder, HostRunCounter &runs,
                                         const std::vector<const LaunchSite *> &written, std::size_t parameters) {
  ptx::analysis::SourceLaunch agreed;
  // A launch in a helper whose calls pass different sizes counts once per call, each with its own;
  // past one whose sizes stay open, or kMostLaunchesAveraged, the sizes are open anyway.
  std::deque<LaunchSite> perCall;
  std::vector<const LaunchSite *> sites;
  bool open = false;
  for (const LaunchSite *site : written) {
    std::optional<std::vector<LaunchSite>> bound =
        open || perCall.size() > kMostLaunchesAveraged ? std::vector<LaunchSite>{} : sitesPerCall(folder, *site);
    open = open || !bound;
    if (!bound || bound->empty())
      sites.push_back(site);
    else
      for (LaunchSite &one : *bound)
        sites.push_back(&perCall.emplace_back(std::move(one)));
  }
  // A launch under a branch the program does not take gives no size (unless none is taken).
  const std::vector<std::pair<const LaunchSite *, std::uint64_t>> running = countLaunches(folder, runs, sites, agreed);
  Agreement<Dim3> grid, block;
  std::vector<Agreement<ptx::analysis::AssumedValue>> arguments(parameters);
  bool argumentsRead = true;
  for (const auto &[site, times] : running) {
    const ConstantFolder::InstanceScope scope(folder, site->instance);
    const std::string at = shownAt(folder, *site);
    grid.add([&](std::string *how) { return folder.dimension(site->file, site->offset, site->grid, how); },
             shownDims, site->grid, at, times, false);
    block.add(
        [&](std::string *how) {
          std::optional<Dim3> dims = folder.dimension(site->file, site->offset, site->block, how);
          if (dims && !fitsOneBlock(*dims))
            dims.reset(); // not a launch that can run
          return dims;
        },
        shownDims, site->block, at, times, false);
    argumentsRead = argumentsRead && site->arguments && site->arguments->size() == parameters;
    for (std::size_t i = 0; argumentsRead && i < parameters; ++i)
      arguments[i].add(
          [&](std::string *how) { return folder.value(site->file, site->offset, (*site->arguments)[i], how); },
          shownValue, (*site->arguments)[i], at, times, true);
  }
  agreed.grid = meanDims(grid, false, agreed.gridIsMean);
  agreed.block = meanDims(block, true, agreed.blockIsMean);
  agreed.gridOpen = grid.open;
  agreed.blockOpen = block.open;
  agreed.gridHow = grid.how;
  agreed.blockHow = block.how;
  if (argumentsRead)
    for (const Agreement<ptx::analysis::AssumedValue> &argument : arguments) {
      agreed.arguments.push_back(argument.first());
      agreed.argumentsOpen.push_back(argument.open);
      agreed.argumentsHow.push_back(argument.how);
    }
  agreed.bindings = eachLaunch(running.size(), grid, block, arguments, argumentsRead);
  if (!running.empty())
    agreed.at = locationOf(folder, *running.front().first);
  return agreed;
}

/// The template arguments written at `site` in templateArgumentsOf()'s
/// form; nullopt where one is not fixed by the source (`T`), or none is
/// written (deduced from the call's arguments).
std::optional<std::vector<std::string>> writtenTemplateArguments(const ConstantFolder &folder, const LaunchSite &site) {
  if (site.templateArguments.empty())
    return std::nullopt;
  std::vector<std::string> arguments;
  for (const std::string &written : site.templateArguments) {
    if (std::optional<std::string> fixed = builtinTemplateArgument(written);
        fixed || (fixed = folder.templateArgument(site.file, site.offset, written))) {
      arguments.push_back(*fixed); // a built-in type, or what the calls of the template around it pass
      continue;
    }
    std::optional<ptx::analysis::AssumedValue> value = folder.value(site.file, site.offset, written);
    if (!value || !value->whole())
      return std::nullopt;
    arguments.push_back("value:" + std::to_string(*value->whole()));
  }
  return arguments;
}

/// How deep a launch's template arguments are followed through the
/// templates that call each other, and how many chains of calls at most.
constexpr int kTemplateDepth = 4;
constexpr std::size_t kMostTemplateChains = 1 << 16;

/// A launch in function templates, bound to one chain of their calls: the
/// calls of the templates inside (`outer`), and the calls of the outermost
/// that give the same template arguments.
struct BoundLaunch {
  LaunchSite site;                 ///< with `instance` the whole chain
  std::vector<std::string> written; ///< its template arguments, as the chain fixes them
  TemplateCalls outer;              ///< the chain without its outermost template
  std::string outermost;
};

/// Binds `site` to each chain of calls of the templates around it, from
/// the one around `offset` of `file` outwards, `inner` the calls bound
/// so far; false where some chain does not fix the arguments.
bool bindChains(const ConstantFolder &folder, const LaunchSite &site, const TemplateCalls &inner, std::size_t file,
                std::size_t offset, int depth, std::vector<BoundLaunch> &bound, std::size_t &chains) {
  const std::optional<TemplateCalls> around = folder.templateCallsAround(file, offset);
  if (!around || depth >= kTemplateDepth)
    return false;
  const std::string &function = around->begin()->first; // named so that the lambda below may capture it
  for (const std::pair<std::size_t, std::size_t> &call : around->begin()->second) {
    if (++chains > kMostTemplateChains)
      return false;
    TemplateCalls chain = inner;
    chain[function] = {call};
    std::optional<std::vector<std::string>> written;
    {
      const ConstantFolder::InstanceScope scope(folder, chain);
      written = writtenTemplateArguments(folder, site);
    }
    if (!written) { // they rest on the template around this call: one instance of it at a time
      if (!bindChains(folder, site, chain, call.first, call.second, depth + 1, bound, chains))
        return false;
      continue;
    }
    const auto same = std::find_if(bound.begin(), bound.end(), [&](const BoundLaunch &launch) {
      return launch.written == *written && launch.outermost == function && launch.outer == inner;
    });
    if (same != bound.end()) {
      same->site.instance[function].push_back(call);
      continue;
    }
    LaunchSite instance = site;
    instance.instance = std::move(chain);
    bound.push_back({std::move(instance), std::move(*written), inner, function});
  }
  return true;
}

/// A launch in a function template whose template arguments are the
/// template's own parameters (`scale<BLOCK><<<...>>>` in `template <int
/// BLOCK> void run(...)`), once per instance of it: each with the calls
/// of that instance (`run<256>(...)`, and where those pass the parameters
/// of a template around them, `run<B>(...)` in `outer<B>`, one chain of
/// calls each) and the arguments they fix. Empty where a call does not fix them.
std::vector<std::pair<LaunchSite, std::vector<std::string>>> instancesOf(const ConstantFolder &folder,
                                                                         const LaunchSite &site) {
  std::vector<BoundLaunch> bound;
  std::size_t chains = 0;
  if (site.templateArguments.empty() || !bindChains(folder, site, {}, site.file, site.offset, 0, bound, chains))
    return {};
  std::vector<std::pair<LaunchSite, std::vector<std::string>>> instances;
  for (BoundLaunch &launch : bound)
    instances.emplace_back(std::move(launch.site), std::move(launch.written));
  return instances;
}

/// `launch` as a kernel's that the host code read never launches, for
/// the reason `why`: nothing of it runs, so it weighs nothing in its
/// application (model::kernelsRead), and it still reads at the default size.
void notLaunched(ptx::analysis::SourceLaunch &launch, const std::string &why) {
  launch.launches = 0;
  launch.launchesOrigin = ptx::analysis::ValueOrigin::Assumed;
  launch.launchesWhy = "not launched: " + why;
}

/// The launches of `name` where several PTX kernels share it: template
/// instances each take the launches written with their own template
/// arguments, when every launch of the name writes arguments the source
/// fixes, or sits in function templates whose calls fix them
/// (instancesOf()). Otherwise (deduced arguments, overloads) which launch
/// is which is not known, and none is taken. An instance that no launch
/// is of runs none, where `launchesKnown` (every launch is of a kernel).
void addInstanceLaunches(const ConstantFolder &folder, HostRunCounter &runs, const std::string &name,
                         const std::vector<const LaunchSite *> &sites,
                         const std::vector<const ptx::Function *> &instances, bool launchesKnown,
                         std::map<std::string, ptx::analysis::SourceLaunch, std::less<>> &result) {
  const std::string first = locationOf(folder, *sites.front());
  // Each launch with the template arguments it writes; one in a template, once per instance of that.
  std::vector<std::pair<LaunchSite, std::vector<std::string>>> written;
  std::string unmatched; // why launches cannot be matched to instances
  for (const LaunchSite *site : sites) {
    if (std::optional<std::vector<std::string>> arguments = writtenTemplateArguments(folder, *site)) {
      written.emplace_back(*site, std::move(*arguments));
      continue;
    }
    std::vector<std::pair<LaunchSite, std::vector<std::string>>> perInstance = instancesOf(folder, *site);
    std::move(perInstance.begin(), perInstance.end(), std::back_inserter(written));
    if (perInstance.empty()) {
      unmatched = site->templateArguments.empty() ? "the launches of the " + std::to_string(instances.size()) +
                                                        " kernels named `" + name + "`, the first at " + first +
                                                        ", are not told apart"
                                                  : "the launch at " + locationOf(folder, *site) +
                                                        " passes template arguments that are not built-in "
                                                        "types or constants, so its instances are not told apart";
      break;
    }
  }
  for (const ptx::Function *instance : instances) {
    std::optional<std::vector<std::string>> own = templateArgumentsOf(instance->name);
    std::vector<const LaunchSite *> matched;
    for (std::size_t i = 0; own && unmatched.empty() && i < written.size(); ++i)
      if (written[i].second == *own)
        matched.push_back(&written[i].first);
    if (!matched.empty()) {
      result.emplace(instance->name, agreedLaunch(folder, runs, matched, instance->parameters.size()));
      continue;
    }
    ptx::analysis::SourceLaunch open;
    open.at = first;
    open.gridOpen = open.blockOpen =
        !unmatched.empty() ? unmatched
        : own ? "no launch of `" + name + "`, the first at " + first + ", is of this instance"
              : "its template arguments are not built-in types or integers, so its launches are not told apart";
    if (unmatched.empty() && own && launchesKnown)
      notLaunched(open, open.gridOpen);
    result.emplace(instance->name, open);
  }
}

} // namespace

namespace {

/// Whether `source` defines `__global__ ... name(...) { ... }`, not only declares it.
bool definesKernel(const CudaCode &source, const std::string &name) {
  const std::vector<int> bodies = source.functionBodiesNamed(name);
  return std::any_of(bodies.begin(), bodies.end(),
                     [&](int body) { return inKernelDeclaration(source.code(), source.openBraceOf(body)); });
}

/// Whether the launch `site` is in another program than the module's:
/// none of its files is one the module names (the first `ownFiles`), and
/// one of them defines the kernel it launches (`defining`, by file, worked
/// out on first use).
bool inAnotherProgram(const ConstantFolder &folder, const std::vector<CudaSourceFile> &files, const LaunchSite &site,
                      std::size_t ownFiles, std::optional<std::vector<bool>> &defining) {
  std::vector<std::size_t> seen;
  for (std::size_t file = 0; file < files.size(); ++file)
    if (folder.sees(site.file, file) && files[file].declared != kNvccFlagsPath) {
      if (file < ownFiles)
        return false;
      seen.push_back(file);
    }
  if (!defining) {
    defining.emplace();
    for (const CudaCode &source : folder.files())
      defining->push_back(definesKernel(source, site.kernel));
  }
  return std::any_of(seen.begin(), seen.end(), [&](std::size_t file) { return (*defining)[file]; });
}

} // namespace

std::map<std::string, ptx::analysis::SourceLaunch, std::less<>> sourceLaunches(
    const ptx::Module &module, const std::vector<CudaSourceFile> &files, std::size_t ownFiles,
    const TargetDevice *device) {
  if (files.empty())
    return {};
  const ConstantFolder folder(files, device);
  return sourceLaunches(module, folder, files, ownFiles);
}

std::map<std::string, ptx::analysis::SourceLaunch, std::less<>> sourceLaunches(const ptx::Module &module,
                                                                              const ConstantFolder &folder,
                                                                              const std::vector<CudaSourceFile> &files,
                                                                              std::size_t ownFiles) {
  std::map<std::string, ptx::analysis::SourceLaunch, std::less<>> result;
  if (files.empty())
    return result;
  std::map<std::string, std::vector<const ptx::Function *>> kernelsByName;
  for (const ptx::Function *kernel : module.kernels())
    kernelsByName[baseNameOf(kernel->name)].push_back(kernel);
  HostRunCounter runs(folder);
  std::set<std::string, std::less<>> names;
  for (const auto &entry : kernelsByName)
    names.insert(entry.first);
  const std::vector<LaunchSite> sites = launchSitesIn(folder, names);
  // A launch of something else than a kernel (a parameter) may be of any: then none is taken for not launched.
  const bool launchesKnown = everyLaunchNamesAKernel(folder, sites);
  for (const auto &[name, kernels] : kernelsByName) {
    std::vector<const LaunchSite *> ofKernel;
    std::optional<std::vector<bool>> defining; // which files define a kernel of this name
    for (const LaunchSite &site : sites)
      if (site.kernel == name && !inAnotherProgram(folder, files, site, ownFiles, defining))
        ofKernel.push_back(&site);
    if (ofKernel.empty())
      continue;
    if (kernels.size() == 1) // what is open says why, even where nothing is fixed
      result.emplace(kernels.front()->name,
                     agreedLaunch(folder, runs, ofKernel, kernels.front()->parameters.size()));
    else
      addInstanceLaunches(folder, runs, name, ofKernel, kernels, launchesKnown, result);
  }
  // Where the host code read launches some of the kernels, a kernel it launches nowhere, and names
  // nowhere else, does not run.
  if (result.empty() || !launchesKnown)
    return result;
  std::set<std::string, std::less<>> unlaunched;
  for (const ptx::Function *kernel : module.kernels())
    if (!result.count(kernel->name))
      unlaunched.insert(baseNameOf(kernel->name));
  const std::set<std::string, std::less<>> named = kernelsNamedOtherwise(folder, unlaunched);
  const std::string launching =
      "the host code read, which launches `" + baseNameOf(result.begin()->first) + "` at " + result.begin()->second.at;
  for (const ptx::Function *kernel : module.kernels())
    if (!result.count(kernel->name) && !named.count(baseNameOf(kernel->name))) {
      ptx::analysis::SourceLaunch none;
      none.gridOpen = none.blockOpen = "no launch of `" + baseNameOf(kernel->name) + "` in " + launching;
      notLaunched(none, none.gridOpen);
      result.emplace(kernel->name, std::move(none));
    }
  return result;
}

} // namespace ptxdvfs::tools
