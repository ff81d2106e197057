// CudaDevice.h - what the CUDA runtime tells host code about the GPU it
// runs on (`cudaGetDeviceProperties`, `cudaDeviceGetAttribute`), for the
// GPUs a model is made for: a launch sized `2 * prop.multiProcessorCount`
// is sized for the GPU whose clocks are predicted, not for the one that
// compiled the code.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxdvfs::tools {

/// A GPU as the CUDA runtime describes it to a program: the whole-number
/// members of its `cudaDeviceProp` that size work (counts, and sizes in
/// bytes). Clock rates are left out: they are what a V-F point sets.
struct TargetDevice {
  std::string gpu;  ///< the name a model's gpu.json gives (`gtxtitanx`)
  std::string shown; ///< for reasons: "the GTX Titan X"
  /// By `cudaDeviceProp` member name (`multiProcessorCount`); arrays
  /// (`maxGridSize`) by their elements' names (`maxGridSize[0]`).
  std::map<std::string, std::int64_t, std::less<>> properties;

  std::optional<std::int64_t> property(std::string_view member) const;
};

/// The device of `gpu` (a model's gpu.json name); null for a GPU the table
/// does not know, whose properties host code reads as values open at run time.
const TargetDevice *targetDeviceNamed(std::string_view gpu);

/// The GPUs targetDeviceNamed() knows, for --help and errors.
std::vector<std::string> knownTargetDevices();

/// The GPU the shipped model is made for: what commands that read no
/// model size host code's device queries for.
inline constexpr std::string_view kDefaultTargetGpu = "gtxtitanx";

/// The `cudaDeviceProp` member a `cudaDeviceAttr` enumerator reads
/// (`cudaDevAttrMultiProcessorCount` -> `multiProcessorCount`); nullopt
/// for one not in the table.
std::optional<std::string> propertyOfAttribute(std::string_view attribute);

} // namespace ptxdvfs::tools
