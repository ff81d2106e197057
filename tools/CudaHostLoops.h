// CudaHostLoops.h - the host loops around a kernel's launch, and how many
// times they run: how many times the kernel is launched from there.
#pragma once

#include "CudaConstants.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ptxdvfs::tools {

/// The iterations a host loop is read with where the source does not fix
/// its count (`while (!done)`, `for (t = 0; t < steps; ++t)` with `steps`
/// read at run time): the device loops' default trip count
/// (ExpansionOptions::defaultTripCount), so that a kernel launched in such
/// a loop weighs as its own unknown loops would.
inline constexpr std::uint64_t kDefaultHostLoopCount = 16;

/// A loop of host code around a launch.
struct HostLoop {
  std::size_t at = 0;                 ///< the offset of its `for`, `while` or `do`
  std::optional<std::uint64_t> count; ///< its iterations (0 where it runs none), where the source fixes them
  std::string header;                 ///< `for (int t = 0; t < STEPS; ++t)`, for reasons
};

/// The loops of file `file` whose body, braced or not, holds the statement
/// that starts at `statement`, innermost first. A `for` whose counter is
/// given a start, compared with `<`, `<=`, `>`, `>=` or `!=`, and stepped
/// by `++`, `--`, `+=` or `-=` (or `i = i + step`), with the start, the
/// bound and the step folded at the loop (ConstantFolder::value, whole
/// numbers), gets its count; any other loop (`while`, `do`, a range `for`,
/// a bound read at run time, a step that never reaches the bound) gets none. Loops in the
/// functions that call the one holding `statement` are not read.
std::vector<HostLoop> hostLoopsAround(const ConstantFolder &folder, std::size_t file, std::size_t statement);

} // namespace ptxdvfs::tools
