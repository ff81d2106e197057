// CudaWordIndex.cpp - where each name is written; see CudaWordIndex.h.
#include "CudaWordIndex.h"

#include "CudaSource.h"

#include <algorithm>

namespace ptxdvfs::tools {

const std::vector<std::size_t> &WordIndex::wordsNamed(std::string_view code, const std::string &name) const {
  const auto [found, added] = offsets_.try_emplace(name);
  if (added && !name.empty())
    for (std::size_t at = code.find(name); at != std::string_view::npos; at = code.find(name, at + 1))
      if (isWholeWord(code, at, name.size()))
        found->second.push_back(at);
  return found->second;
}

WordIndex::Before WordIndex::before(std::string_view code, const std::string &name, std::size_t before) const {
  const std::vector<std::size_t> &all = wordsNamed(code, name);
  return {std::make_reverse_iterator(std::lower_bound(all.begin(), all.end(), before)), all.rend()};
}

} // namespace ptxdvfs::tools
