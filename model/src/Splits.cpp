// Splits.cpp - family names and grouped splits.
#include "ptxdvfs/model/Splits.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <random>

namespace ptxdvfs::model {

std::string familyOf(const std::string &benchmarkName) {
  std::string family;
  std::size_t start = 0;
  while (start <= benchmarkName.size()) {
    std::size_t end = benchmarkName.find('_', start);
    std::string part = benchmarkName.substr(start, end == std::string::npos ? std::string::npos
                                                                             : end - start);
    if (!part.empty() && std::isdigit(static_cast<unsigned char>(part[0])))
      break;
    family += (family.empty() ? "" : "_") + part;
    if (end == std::string::npos)
      break;
    start = end + 1;
  }
  return family.empty() ? benchmarkName : family;
}

Split groupedSplit(const std::vector<std::string> &names, double fraction, std::uint64_t seed) {
  std::map<std::string, std::vector<std::size_t>> families;
  for (std::size_t i = 0; i < names.size(); ++i)
    families[familyOf(names[i])].push_back(i);
  std::vector<std::string> order;
  for (const auto &[family, members] : families)
    order.push_back(family);
  std::mt19937_64 random(seed);
  std::shuffle(order.begin(), order.end(), random);

  Split split;
  auto wanted = static_cast<std::size_t>(fraction * static_cast<double>(names.size()) + 0.999);
  for (const std::string &family : order) {
    auto &target = split.validation.size() < wanted ? split.validation : split.train;
    const auto &members = families[family];
    target.insert(target.end(), members.begin(), members.end());
  }
  std::sort(split.train.begin(), split.train.end());
  std::sort(split.validation.begin(), split.validation.end());
  return split;
}

} // namespace ptxdvfs::model
