// CudaLaunchCalls.cpp - a launch in a helper function, once per call of
// the helper, where the calls pass different sizes.
#include "CudaLaunchSites.h"

#include "CudaCode.h"
#include "CudaLaunches.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ptxdvfs::tools {

namespace {

/// How many functions up a launch is bound to its calls, and how many
/// chains of calls at most.
constexpr int kCallDepth = 4;
constexpr std::size_t kMostCallChains = 1 << 12;

/// Whether `site`'s grid and block fold while the folder reads the calls
/// `chain` binds.
bool sizesFold(const ConstantFolder &folder, const LaunchSite &site, const TemplateCalls &chain) {
  const ConstantFolder::InstanceScope scope(folder, chain);
  const std::optional<ptx::analysis::Dim3> block = folder.dimension(site.file, site.offset, site.block);
  return block && fitsOneBlock(*block) && folder.dimension(site.file, site.offset, site.grid);
}

/// The object a member function of `className` is called on at `call`,
/// where its function built it before the call (`a` of `a.step(x)` after
/// `Solver a(4096);`): that construction, among the constructor's calls;
/// nullopt for a call on no such object (through a pointer, on a member).
std::optional<std::pair<std::size_t, std::size_t>>
constructionCalledOn(const ConstantFolder &folder, std::pair<std::size_t, std::size_t> call,
                     const std::string &className) {
  const CudaCode &caller = folder.files()[call.first];
  const std::string &code = caller.code();
  std::size_t objectAt = call.second;
  const std::string object = objectBefore(code, call.second, objectAt);
  if (className.empty() || object.empty())
    return std::nullopt;
  const int used = caller.blockAt(call.second);
  std::optional<std::pair<std::size_t, std::size_t>> built;
  for (const auto &construction : folder.callsOf(className, call.first)) {
    if (construction.first != call.first || construction.second >= call.second ||
        !caller.insideFunction(caller.blockAt(construction.second)) ||
        !caller.encloses(caller.blockAt(construction.second), used))
      continue; // another function's object, or one of a block closed before the call
    const std::size_t variable = constructedVariable(code, construction.second, className);
    if (variable != std::string::npos && isWholeWord(code, variable, object.size()) &&
        code.compare(variable, object.size(), object) == 0)
      built = construction; // the latest before the call
  }
  return built;
}

/// Binds `site` to each call of the function around `offset` of `file`,
/// and outwards where that call still leaves its sizes open; `chain` the
/// calls bound so far, `shown` how reasons name them. False where some
/// chain leaves them open.
bool bindCalls(const ConstantFolder &folder, const LaunchSite &site, const TemplateCalls &chain,
               const std::string &shown, std::size_t file, std::size_t offset, int depth,
               std::vector<LaunchSite> &bound, std::size_t &chains) {
  const CudaCode &code = folder.files()[file];
  const std::string function = code.functionNameAt(offset);
  if (function.empty() || function == "main" || depth >= kCallDepth || chain.count(function))
    return false;
  const std::vector<std::pair<std::size_t, std::size_t>> calls = folder.callsOf(function, file);
  if (calls.empty() || std::any_of(calls.begin(), calls.end(), [&](const auto &call) {
        return folder.files()[call.first].functionNameAt(call.second) == function;
      }))
    return false; // a recursive function launches with what each of its own calls passes too
  for (const auto &call : calls) {
    if (++chains > kMostCallChains)
      return false;
    TemplateCalls longer = chain;
    longer[function] = {call};
    // A member function called on an object: its members are what that object was built with.
    const std::string className = code.classOfFunction(code.functionBodyAt(offset));
    if (const auto built = constructionCalledOn(folder, call, className); built && !chain.count(className))
      longer[className] = {*built};
    const std::string named = shown + (shown.empty() ? "" : ", ") + "`" + function + "`'s call at " +
                              folder.files()[call.first].where(call.second);
    if (sizesFold(folder, site, longer)) {
      LaunchSite one = site;
      one.instance = std::move(longer);
      one.calls = named;
      bound.push_back(std::move(one));
    } else if (!bindCalls(folder, site, longer, named, call.first, call.second, depth + 1, bound, chains)) {
      return false;
    }
  }
  return true;
}

} // namespace

std::optional<std::vector<LaunchSite>> sitesPerCall(const ConstantFolder &folder, const LaunchSite &site) {
  const std::string function = folder.files()[site.file].functionNameAt(site.offset);
  if (function.empty() || function == "main" || sizesFold(folder, site, site.instance))
    return std::vector<LaunchSite>{}; // nothing to bind, or nothing to bind for
  std::vector<LaunchSite> bound;
  std::size_t chains = 0;
  if (!bindCalls(folder, site, site.instance, "", site.file, site.offset, 0, bound, chains))
    return std::nullopt;
  return bound;
}

} // namespace ptxdvfs::tools
