// GpuClocks.h - the voltage-frequency points of a GPU and its reference points.
#pragma once

#include "ptxdvfs/ptx/Expected.h"

#include <map>
#include <string>
#include <vector>

namespace ptxdvfs::embeddings {

/// One voltage-frequency point, as its two clocks in MHz.
struct VfPoint {
  unsigned memoryMHz = 0;
  unsigned coreMHz = 0;

  friend bool operator==(const VfPoint &a, const VfPoint &b) {
    return a.memoryMHz == b.memoryMHz && a.coreMHz == b.coreMHz;
  }
  friend bool operator<(const VfPoint &a, const VfPoint &b) {
    return a.memoryMHz != b.memoryMHz ? a.memoryMHz < b.memoryMHz : a.coreMHz < b.coreMHz;
  }
};

/// The clock tables of one GPU. Invariants: `memoryMHz` ascending and
/// unique; `coreMHz` has an ascending, unique list for each memory clock;
/// `defaultPoint` and `fmax` are points of the grid.
struct GpuClocks {
  std::string gpu;                                  ///< e.g. "gtxtitanx"
  std::vector<unsigned> memoryMHz;
  std::map<unsigned, std::vector<unsigned>> coreMHz; ///< by memory clock
  VfPoint defaultPoint; ///< the clocks the GPU runs at unless told otherwise
  VfPoint fmax;         ///< highest memory clock with its highest core clock

  /// Every point, memory clock ascending, then core clock ascending (the
  /// row order of the measurement files).
  std::vector<VfPoint> grid() const;
  bool contains(VfPoint point) const;
};

/// Reads `clks_mem_<gpu>.txt` and `clks_core_<gpu>_<fmem>.txt` from `dir`.
/// In each file the last line repeats the default clock; the other lines
/// are the allowed clocks in any order.
ptx::Expected<GpuClocks> loadGpuClocks(const std::string &dir, const std::string &gpu);

} // namespace ptxdvfs::embeddings
