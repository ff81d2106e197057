// CudaDeviceQueries.cpp - what the CUDA runtime's device queries leave in
// the names host code passes them (`cudaGetDeviceProperties(&prop, dev)`,
// `cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)`):
// the target device's values (CudaDevice.h), for a local where the query
// runs once before the use, for a global that nothing else changes.
#include "CudaConstantsImpl.h"
#include "CudaStatements.h"

#include <algorithm>
#include <string_view>

namespace ptxdvfs::tools {

using namespace expression;
using namespace constants;

namespace {

/// The CUDA runtime's occupancy queries that take the kernel's place in
/// the program's own calls: what they leave depends on the kernel only
/// through its registers and shared memory.
bool isOccupancyQuery(const std::string &callee) {
  return callee == "cudaOccupancyMaxPotentialBlockSize" || callee == "cudaOccupancyMaxActiveBlocksPerMultiprocessor";
}

} // namespace

std::optional<std::int64_t> ConstantFolder::Impl::occupancy(std::size_t file, std::size_t at,
                                                            const std::string &callee, std::size_t index,
                                                            const std::vector<std::string> &arguments,
                                                            int depth) const {
  auto argument = [&](std::size_t position, std::int64_t absent) -> std::optional<std::int64_t> {
    if (position >= arguments.size())
      return absent; // a default argument of the runtime's: 0
    const std::optional<Number> value = number(file, at, arguments[position], depth + 1);
    return value && !value->real && value->whole >= 0 ? std::optional<std::int64_t>(value->whole) : std::nullopt;
  };
  const auto property = [&](const char *name) { return device_->property(name).value_or(0); };
  const std::int64_t warp = 32, threadsPerBlock = property("maxThreadsPerBlock");
  const bool potential = callee == "cudaOccupancyMaxPotentialBlockSize";
  // (&minGridSize, &blockSize, kernel, dynamicSMemSize = 0, blockSizeLimit = 0),
  // or (&numBlocks, kernel, blockSize, dynamicSMemSize)
  const std::optional<std::int64_t> sharedMemory = argument(3, 0);
  const std::optional<std::int64_t> limit = potential ? argument(4, 0) : argument(2, -1);
  if (!sharedMemory || !limit || *limit < 0 || (!potential && *limit == 0) || arguments.size() < (potential ? 3 : 4) ||
      *sharedMemory > property("sharedMemPerBlock") || threadsPerBlock <= 0 || index > (potential ? 1 : 0))
    return std::nullopt;
  // Blocks per multiprocessor, as warps, blocks and shared memory allow (registers, taken not to limit).
  const auto activeBlocks = [&](std::int64_t block) {
    const std::int64_t warps = (block + warp - 1) / warp;
    std::int64_t blocks = std::min(property("maxBlocksPerMultiProcessor"),
                                   property("maxThreadsPerMultiProcessor") / (warps * warp));
    return *sharedMemory > 0 ? std::min(blocks, property("sharedMemPerMultiprocessor") / *sharedMemory) : blocks;
  };
  if (!potential)
    return activeBlocks(*limit);
  // The runtime's search: from the largest block down a warp at a time, the first of the most threads.
  const std::int64_t largest = *limit > 0 ? std::min(*limit, threadsPerBlock) : threadsPerBlock;
  std::int64_t best = 0, bestBlocks = 0;
  for (std::int64_t aligned = (largest + warp - 1) / warp * warp; aligned > 0; aligned -= warp) {
    const std::int64_t block = std::min(largest, aligned), blocks = activeBlocks(block);
    if (block * blocks > best * bestBlocks) {
      best = block;
      bestBlocks = blocks;
    }
    if (best * bestBlocks == property("maxThreadsPerMultiProcessor"))
      break;
  }
  return index == 1 ? best : bestBlocks * property("multiProcessorCount");
}

std::optional<ConstantFolder::Impl::DeviceQuery> ConstantFolder::Impl::deviceQueryAt(std::size_t file, std::size_t at,
                                                                                     std::size_t length,
                                                                                     const std::string &member,
                                                                                     int depth) const {
  const std::string &code = files_[file].code();
  const std::optional<CallArgument> passed = addressArgumentAt(code, at, length);
  if (passed && isOccupancyQuery(passed->callee)) { // `cudaOccupancyMaxPotentialBlockSize(&grid, &block, k)`
    if (!passed->whole || !member.empty())
      return std::nullopt;
    const std::optional<std::vector<std::string>> arguments = partsInParentheses(code, passed->open);
    DeviceQuery query{passed->callee, std::nullopt,
                      ", for a kernel that its registers do not limit (at most 32 per thread: the PTX does not "
                      "say how many ptxas gives it)"};
    query.value = device_ && arguments ? occupancy(file, passed->open, passed->callee, passed->index, *arguments, depth)
                                       : std::nullopt;
    return query;
  }
  const bool properties = passed && (passed->callee == "cudaGetDeviceProperties" ||
                                     passed->callee == "cudaGetDeviceProperties_v2");
  const bool attribute = passed && passed->callee == "cudaDeviceGetAttribute";
  if ((!properties && !attribute) || passed->index != 0 || !passed->whole)
    return std::nullopt;
  DeviceQuery query{passed->callee, std::nullopt, {}};
  std::string property = member;
  if (attribute) { // `cudaDeviceGetAttribute(&value, attribute, device)`: its attribute names the property
    const std::optional<std::vector<std::string>> arguments = partsInParentheses(code, passed->open);
    const std::optional<std::string> read = member.empty() && arguments && arguments->size() == 3
                                                ? propertyOfAttribute(trimmed((*arguments)[1]))
                                                : std::nullopt;
    property = read.value_or("");
  }
  query.value = device_ && !property.empty() ? device_->property(property) : std::nullopt;
  return query;
}

Lookup ConstantFolder::Impl::deviceQuery(std::size_t file, std::size_t at, std::size_t length,
                                         const std::string &member, std::size_t before, int depth,
                                         Definition &found) const {
  const std::optional<DeviceQuery> query = deviceQueryAt(file, at, length, member, depth);
  if (!query)
    return Lookup::Absent;
  if (!query->value || !runsBeforeEachUse(file, at, before, false, depth))
    return Lookup::Unknown;
  found = deviceValue(file, at, length, member, *query, query->assumed);
  return Lookup::Found;
}

bool ConstantFolder::Impl::queriedElsewhere(std::size_t file, std::size_t at, std::size_t length,
                                            std::size_t before) const {
  const CudaCode &source = files_[file];
  // A lambda's use reads the queries of the function that defines it.
  return !source.encloses(source.functionBodyAt(at), source.blockAt(before)) &&
         deviceQueryAt(file, at, length, "", kMaxDepth); // whether it is one, not its value
}

Definition ConstantFolder::Impl::deviceValue(std::size_t file, std::size_t at, std::size_t length,
                                             const std::string &member, const DeviceQuery &query,
                                             const std::string &assumed) const {
  const std::string name = files_[file].code().substr(at, length) + (member.empty() ? "" : "." + member);
  note({"`" + name + "` = " + std::to_string(*query.value) + ", as `" + query.callee + "` at " +
        files_[file].where(at) + " gives it for " + device_->shown + assumed});
  return Definition(std::to_string(*query.value), file, at, false);
}

Lookup ConstantFolder::Impl::queriedGlobal(const std::string &name, const std::string &member, int depth,
                                           Definition &found) const {
  if (!device_ || depth >= kMaxDepth)
    return Lookup::Unknown;
  // Every change of it anywhere is a query of the same value: `cudaGetDeviceProperties(&g_prop, dev)` in
  // an initialisation function, read in others, which are taken to run after it.
  std::optional<std::tuple<std::size_t, std::size_t, DeviceQuery>> first;
  const bool onlyQueries = eachChangeAnywhere(name, [&](std::size_t file, std::size_t at) {
    const std::optional<DeviceQuery> query = deviceQueryAt(file, at, name.size(), member, depth);
    if (!query || !query->value || (first && std::get<2>(*first).value != query->value))
      return false; // changed another way, or to another value
    first = first ? first : std::tuple{file, at, *query};
    return true;
  });
  if (!onlyQueries || !first)
    return Lookup::Unknown;
  found = deviceValue(std::get<0>(*first), std::get<1>(*first), name.size(), member, std::get<2>(*first),
                      std::get<2>(*first).assumed + ", the only change of the global, taken to run first");
  return Lookup::Found;
}

} // namespace ptxdvfs::tools
