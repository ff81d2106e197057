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

std::vector<int> groupedFolds(const std::vector<std::string> &names, const std::vector<bool> &rare,
                              int folds, std::uint64_t seed) {
  struct Family {
    std::vector<std::size_t> members;
    std::size_t rare = 0;
  };
  std::map<std::string, Family> byName;
  for (std::size_t i = 0; i < names.size(); ++i) {
    Family &family = byName[familyOf(names[i])];
    family.members.push_back(i);
    family.rare += rare[i] ? 1 : 0;
  }
  std::vector<Family> families;
  for (auto &[name, family] : byName)
    families.push_back(std::move(family));
  std::mt19937_64 random(seed);
  std::shuffle(families.begin(), families.end(), random);
  std::stable_sort(families.begin(), families.end(), [](const Family &a, const Family &b) {
    return a.rare != b.rare ? a.rare > b.rare : a.members.size() > b.members.size();
  });
  std::vector<std::size_t> size(static_cast<std::size_t>(folds)), rareCount(size);
  std::vector<int> fold(names.size());
  for (const Family &family : families) {
    std::size_t target = 0;
    for (std::size_t f = 1; f < size.size(); ++f) {
      bool fewerRare = rareCount[f] < rareCount[target];
      bool sameRare = rareCount[f] == rareCount[target];
      if ((family.rare > 0 && (fewerRare || (sameRare && size[f] < size[target]))) ||
          (family.rare == 0 && size[f] < size[target]))
        target = f;
    }
    for (std::size_t i : family.members)
      fold[i] = static_cast<int>(target);
    size[target] += family.members.size();
    rareCount[target] += family.rare;
  }
  return fold;
}

} // namespace ptxdvfs::model
