// ComputeThreads.cpp - finds OpenBLAS's thread setter at run time, so another BLAS still works.
#include "ptxdvfs/model/ComputeThreads.h"

#include <torch/torch.h>

#include <dlfcn.h>

namespace ptxdvfs::model {

namespace {

using SetThreads = void (*)(int);
using GetThreads = int (*)();

template <typename Function> Function blasFunction(const char *name) {
  return reinterpret_cast<Function>(::dlsym(RTLD_DEFAULT, name));
}

} // namespace

ComputeThreads currentComputeThreads() {
  static const GetThreads get = blasFunction<GetThreads>("openblas_get_num_threads");
  return {torch::get_num_threads(), get ? get() : 0};
}

void setComputeThreads(int threads) { restoreComputeThreads({threads, threads}); }

void restoreComputeThreads(const ComputeThreads &saved) {
  static const SetThreads set = blasFunction<SetThreads>("openblas_set_num_threads");
  torch::set_num_threads(saved.torch);
  if (set && saved.blas > 0)
    set(saved.blas);
}

} // namespace ptxdvfs::model
