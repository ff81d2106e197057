// CudaLaunchSites.h - where host code launches kernels: `name<<<...>>>`,
// `cudaLaunchKernel(name, ...)`, `cudaLaunchKernelEx(&config, name, ...)`,
// and launches through a function pointer.
#pragma once

#include "CudaConstants.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ptxdvfs::tools {

/// Where a kernel is launched, by its unmangled name, and the grid and
/// block as written there.
struct LaunchSite {
  std::string kernel;
  std::size_t file = 0, offset = 0;
  std::size_t statement = 0; ///< where the launching statement starts: the kernel's name, or the API's
  std::string grid, block;
  /// The arguments of `<<<...>>>(...)` or after cudaLaunchKernelEx's
  /// kernel, or the names whose addresses cudaLaunchKernel's array holds
  /// (argumentArrayNames()); nullopt where they are not read.
  std::optional<std::vector<std::string>> arguments;
  /// The template arguments written before `<<<` (`scale<float, 4>`);
  /// empty where none are.
  std::vector<std::string> templateArguments;
  /// For a launch in a function template that passes its own parameters
  /// (`scale<BLOCK><<<...>>>`): the calls of the instance it stands for;
  /// for one through a function's parameter, the calls that pass its kernel.
  TemplateCalls instance;
  /// For a launch through a pointer (`kernel<<<...>>>` after `kernel =
  /// &copy;`): how many kernels it is assigned, each of which stands for
  /// an equal part of its runs (HostStatement::sharedBy).
  std::uint64_t sharedBy = 1;
  /// For a launch through a function's parameter: "through `timed`'s
  /// parameter `kernel`" (HostStatement::through).
  std::string through;  /// For a launch bound to one call of each function around it
  /// (sitesPerCall()): those calls, "`run`'s call at main.cu:40", which
  /// reasons name beside its own place; empty for any other.
  std::string calls;
};

/// Every launch in `folder`'s files, in file order: by the name written
/// (`scale<<<...>>>`, `scale<float, 4><<<...>>>`, `cudaLaunchKernelEx(&config,
/// scale, ...)` with the config's gridDim and blockDim, `cudaLaunchKernel(scale,
/// ...)`), or, where that name is none of `kernels` (the module's kernels,
/// unmangled), through a function pointer: one launch of each of
/// `kernels` the pointer is given in the launch's function or at file
/// scope (`kernel = &copy;`, `void (*kernel)(float *) = copy;`, either
/// side of `?:`, `&reduce<256>` with its template arguments), each
/// `sharedBy` their number; or, for a parameter of the launching function,
/// one launch of each kernel its calls pass, with `instance` the calls
/// that pass it.
std::vector<LaunchSite> launchSitesIn(const ConstantFolder &folder, const std::set<std::string, std::less<>> &kernels);

/// `site` once per chain of calls of the functions around it, innermost
/// outwards, each chain (in `instance`, with `site`'s own) the first
/// whose calls fix its grid and block: a helper `run(float *x, int n)`
/// launching `<<<n / 256, 256>>>`, called as `run(x, 4096)` and `run(x,
/// 8192)`, is one launch of 16 blocks and one of 32, where together its
/// grid is open. Empty where `site` is in no function but `main` (whose
/// sizes are not folded here), or its sizes are not open; nullopt where
/// they are open and a chain of kCallDepth functions (or past
/// kMostCallChains chains, or a recursive function) still leaves them so.
std::optional<std::vector<LaunchSite>> sitesPerCall(const ConstantFolder &folder, const LaunchSite &site);

/// Whether every launch of `sites` names a kernel that `folder`'s files
/// declare or define `__global__` (the module's or another program's);
/// false where one names something else: a function's parameter
/// (`void time(void (*k)(float *)) { k<<<...>>>(x); }`), a pointer not
/// followed, a kernel of files not read. Such a launch may be of any kernel.
bool everyLaunchNamesAKernel(const ConstantFolder &folder, const std::vector<LaunchSite> &sites);

/// Those of `kernels` (unmangled names) that `folder`'s code names
/// anywhere but in a `__global__` declaration or definition: passed to a
/// function (`timed(scale)`), cast for a graph node (`params.func =
/// (void *)scale`), in a table of pointers. A kernel named so may be
/// launched in a way launchSitesIn() does not read.
std::set<std::string, std::less<>> kernelsNamedOtherwise(const ConstantFolder &folder,
                                                          const std::set<std::string, std::less<>> &kernels);

} // namespace ptxdvfs::tools
