// WorkQueue.h - run a list of independent jobs on a few threads. Header-only and torch-free, so
// the parser (chunks of a file) and the model (ensemble members) share it.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace ptxdvfs::ptx {

/// Calls `job(i)` once for every i in [0, count), on up to `threads`
/// threads (the caller's among them), each taking the next free index.
/// Returns when all jobs are done. `job` must be safe to call concurrently
/// for different indices; results go wherever `job` puts them, by index,
/// so their order does not depend on scheduling.
template <typename Job> void runJobs(std::size_t count, unsigned threads, Job &&job) {
  threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(count)));
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < count;)
      job(i);
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back(work);
  work();
  for (auto &thread : pool)
    thread.join();
}

} // namespace ptxdvfs::ptx
