// CudaCallScope.h - one call of a host function read apart from its
// others: `getIntArg(argc, argv, "-b", 128)` returns what its body makes
// of 128, whatever the call beside it passes. Private to the folder.
#pragma once

#include "CudaConstantsImpl.h"

#include <cstddef>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ptxdvfs::tools {

/// While it lives, callsOf(`function`) is the call at (`file`, `call`)
/// alone; one made inside another's for the same function reads its own
/// call until it ends, then the outer one's again. What the folder remembers that may rest on the parameters'
/// values is swapped out on entry and back on exit: what was remembered
/// before stays where references to it point, and what is remembered
/// while it lives, for this call, is dropped with it.
class ConstantFolder::Impl::CallScope {
public:
  CallScope(const Impl &folder, std::string function, std::size_t file, std::size_t call)
      : folder_(folder), function_(std::move(function)) {
    auto bound = folder_.callsBound_.find(function_);
    if (bound != folder_.callsBound_.end())
      outer_ = std::move(bound->second); // `int b = twice(a);` reads `a = twice(1024)`: that call, then this
    folder_.callsBound_[function_] = {{file, call}};
    swapRemembered();
  }
  ~CallScope() {
    swapRemembered();
    if (outer_.empty())
      folder_.callsBound_.erase(function_);
    else
      folder_.callsBound_[function_] = std::move(outer_);
  }
  CallScope(const CallScope &) = delete;
  CallScope &operator=(const CallScope &) = delete;

private:
  void swapRemembered() {
    constants::Remembered &remembered = folder_.remembered_;
    std::swap(remembered.parametersFound, kept_.parametersFound);
    std::swap(remembered.switches, kept_.switches);
    std::swap(remembered.optionLoopRuns, kept_.optionLoopRuns);
    std::swap(remembered.meansFound, kept_.meansFound);
    std::swap(folder_.parametersOpen_, parametersOpen_); // another call's parameters: not a fold round and round
  }

  const Impl &folder_;
  std::string function_;
  constants::Remembered kept_; ///< only its parameter-bound parts are used
  std::set<std::pair<std::string, std::size_t>> parametersOpen_;
  std::vector<std::pair<std::size_t, std::size_t>> outer_; ///< the call read before it, where one was
};

} // namespace ptxdvfs::tools
