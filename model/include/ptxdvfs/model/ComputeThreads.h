// ComputeThreads.h - one knob for torch's intra-op threads and the BLAS's own thread pool.
#pragma once

namespace ptxdvfs::model {

/// OpenBLAS keeps a pool of its own that torch::set_num_threads does not
/// reach, and its idle workers spin: two models trained one thread each
/// then ran four busy threads on two cores, half the time in the kernel.
struct ComputeThreads {
  int torch = 1;
  int blas = 0; ///< 0: the BLAS has no pool we can set (not OpenBLAS)
};

ComputeThreads currentComputeThreads();
/// Sets both to `threads` (>= 1).
void setComputeThreads(int threads);
void restoreComputeThreads(const ComputeThreads &saved);

} // namespace ptxdvfs::model
