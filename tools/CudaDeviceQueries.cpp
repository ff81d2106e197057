// CudaDeviceQueries.cpp - what the CUDA runtime's device queries leave in
// the names host code passes them (`cudaGetDeviceProperties(&prop, dev)`,
// `cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)`):
// the target device's values (CudaDevice.h), for a local where the query
// runs once before the use, for a global that nothing else changes.
#include "CudaConstantsImpl.h"
#include "CudaStatements.h"

#include <string_view>

namespace ptxdvfs::tools {

using namespace expression;
using namespace constants;

std::optional<ConstantFolder::Impl::DeviceQuery> ConstantFolder::Impl::deviceQueryAt(std::size_t file, std::size_t at,
                                                                                     std::size_t length,
                                                                                     const std::string &member) const {
  const std::string &code = files_[file].code();
  const std::optional<CallArgument> passed = addressArgumentAt(code, at, length);
  const bool properties = passed && (passed->callee == "cudaGetDeviceProperties" ||
                                     passed->callee == "cudaGetDeviceProperties_v2");
  const bool attribute = passed && passed->callee == "cudaDeviceGetAttribute";
  if ((!properties && !attribute) || passed->index != 0 || !passed->whole)
    return std::nullopt;
  DeviceQuery query{passed->callee, std::nullopt};
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
  const std::optional<DeviceQuery> query = deviceQueryAt(file, at, length, member);
  if (!query)
    return Lookup::Absent;
  if (!query->value || !runsBeforeEachUse(file, at, before, false, depth))
    return Lookup::Unknown;
  found = deviceValue(file, at, length, member, *query, "");
  return Lookup::Found;
}

bool ConstantFolder::Impl::queriedElsewhere(std::size_t file, std::size_t at, std::size_t length,
                                            std::size_t before) const {
  const CudaCode &source = files_[file];
  // A lambda's use reads the queries of the function that defines it.
  return !source.encloses(source.functionBodyAt(at), source.blockAt(before)) && deviceQueryAt(file, at, length, "");
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
    const std::optional<DeviceQuery> query = deviceQueryAt(file, at, name.size(), member);
    if (!query || !query->value || (first && std::get<2>(*first).value != query->value))
      return false; // changed another way, or to another value
    first = first ? first : std::tuple{file, at, *query};
    return true;
  });
  if (!onlyQueries || !first)
    return Lookup::Unknown;
  found = deviceValue(std::get<0>(*first), std::get<1>(*first), name.size(), member, std::get<2>(*first),
                      ", the only change of the global, taken to run first");
  return Lookup::Found;
}

} // namespace ptxdvfs::tools
