// CudaDevice.cpp - the devices' tables. Values as `deviceQuery` reports
// them for each GPU (compute capability 5.2 for the GTX Titan X, GM200).
#include "CudaDevice.h"

#include <algorithm>

namespace ptxdvfs::tools {

std::optional<std::int64_t> TargetDevice::property(std::string_view member) const {
  const auto found = properties.find(member);
  return found == properties.end() ? std::nullopt : std::optional<std::int64_t>(found->second);
}

namespace {

const std::vector<TargetDevice> &devices() {
  static const std::vector<TargetDevice> kDevices{
      {"gtxtitanx",
       "the GTX Titan X",
       {{"multiProcessorCount", 24},
        {"maxThreadsPerBlock", 1024},
        {"maxThreadsPerMultiProcessor", 2048},
        {"maxBlocksPerMultiProcessor", 32},
        {"warpSize", 32},
        {"regsPerBlock", 65536},
        {"regsPerMultiprocessor", 65536},
        {"sharedMemPerBlock", 49152},
        {"sharedMemPerBlockOptin", 49152},
        {"sharedMemPerMultiprocessor", 98304},
        {"totalConstMem", 65536},
        {"l2CacheSize", 3145728},
        {"memoryBusWidth", 384},
        {"major", 5},
        {"minor", 2},
        {"maxThreadsDim[0]", 1024},
        {"maxThreadsDim[1]", 1024},
        {"maxThreadsDim[2]", 64},
        {"maxGridSize[0]", 2147483647},
        {"maxGridSize[1]", 65535},
        {"maxGridSize[2]", 65535}}},
  };
  return kDevices;
}

} // namespace

const TargetDevice *targetDeviceNamed(std::string_view gpu) {
  const std::vector<TargetDevice> &known = devices();
  const auto found =
      std::find_if(known.begin(), known.end(), [&](const TargetDevice &device) { return device.gpu == gpu; });
  return found == known.end() ? nullptr : &*found;
}

std::vector<std::string> knownTargetDevices() {
  std::vector<std::string> names;
  for (const TargetDevice &device : devices())
    names.push_back(device.gpu);
  return names;
}

std::optional<std::string> propertyOfAttribute(std::string_view attribute) {
  static const std::map<std::string_view, std::string_view> kAttributes{
      {"cudaDevAttrMultiProcessorCount", "multiProcessorCount"},
      {"cudaDevAttrMaxThreadsPerBlock", "maxThreadsPerBlock"},
      {"cudaDevAttrMaxThreadsPerMultiProcessor", "maxThreadsPerMultiProcessor"},
      {"cudaDevAttrMaxBlocksPerMultiprocessor", "maxBlocksPerMultiProcessor"},
      {"cudaDevAttrWarpSize", "warpSize"},
      {"cudaDevAttrMaxRegistersPerBlock", "regsPerBlock"},
      {"cudaDevAttrMaxRegistersPerMultiprocessor", "regsPerMultiprocessor"},
      {"cudaDevAttrMaxSharedMemoryPerBlock", "sharedMemPerBlock"},
      {"cudaDevAttrMaxSharedMemoryPerBlockOptin", "sharedMemPerBlockOptin"},
      {"cudaDevAttrMaxSharedMemoryPerMultiprocessor", "sharedMemPerMultiprocessor"},
      {"cudaDevAttrTotalConstantMemory", "totalConstMem"},
      {"cudaDevAttrL2CacheSize", "l2CacheSize"},
      {"cudaDevAttrGlobalMemoryBusWidth", "memoryBusWidth"},
      {"cudaDevAttrComputeCapabilityMajor", "major"},
      {"cudaDevAttrComputeCapabilityMinor", "minor"},
      {"cudaDevAttrMaxBlockDimX", "maxThreadsDim[0]"},
      {"cudaDevAttrMaxBlockDimY", "maxThreadsDim[1]"},
      {"cudaDevAttrMaxBlockDimZ", "maxThreadsDim[2]"},
      {"cudaDevAttrMaxGridDimX", "maxGridSize[0]"},
      {"cudaDevAttrMaxGridDimY", "maxGridSize[1]"},
      {"cudaDevAttrMaxGridDimZ", "maxGridSize[2]"}};
  const auto found = kAttributes.find(attribute);
  return found == kAttributes.end() ? std::nullopt : std::optional<std::string>(found->second);
}

} // namespace ptxdvfs::tools
