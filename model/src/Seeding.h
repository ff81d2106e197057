// Seeding.h - reproducible initialisation while other threads train.
#pragma once

#include <torch/utils.h>

#include <cstdint>
#include <mutex>

namespace ptxdvfs::model {

/// torch's default generator is global: modules are initialised from it
/// under one lock, so a model built with a seed gets the same weights
/// whether or not other models are being trained in other threads.
template <typename Make> auto seeded(std::uint64_t seed, Make &&make) {
  static std::mutex lock;
  std::lock_guard<std::mutex> guard(lock);
  torch::manual_seed(seed);
  return make();
}

} // namespace ptxdvfs::model
