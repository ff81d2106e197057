// CudaCallScope.h - one call of a host function read apart from its
// others: `getIntArg(argc, argv, "-b", 128)` returns what its body makes
// of 128, whatever the call beside it passes. Private to the folder.
#pragma once

#include "CudaConstantsImpl.h"

#include <cstddef>
#include <string>
#include <utility>

namespace ptxdvfs::tools {

/// While it lives, callsOf(`function`) is the call at (`file`, `call`)
/// alone. What the folder remembers that may rest on the parameters'
/// values is swapped out on entry and back on exit: what was remembered
/// before stays where references to it point, and what is remembered
/// while it lives, for this call, is dropped with it.
class ConstantFolder::Impl::CallScope {
public:
  CallScope(const Impl &folder, std::string function, std::size_t file, std::size_t call)
      : folder_(folder), function_(std::move(function)) {
    folder_.callsBound_[function_] = {{file, call}};
    swapRemembered();
  }
  ~CallScope() {
    swapRemembered();
    folder_.callsBound_.erase(function_);
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
  }

  const Impl &folder_;
  std::string function_;
  constants::Remembered kept_; ///< only its parameter-bound parts are used
};

} // namespace ptxdvfs::tools
