// CudaWordIndex.h - where each name is written in a file's code, found
// once per name: the readers look a name up backwards from each use, and
// a scan of the whole text per lookup made a program with hundreds of
// launches slow (every launch's arguments folded, each a scan).
#pragma once

#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ptxdvfs::tools {

class WordIndex {
public:
  /// The offsets before `before`, last first.
  struct Before {
    std::vector<std::size_t>::const_reverse_iterator first, last;
    auto begin() const { return first; }
    auto end() const { return last; }
  };

  /// Where `name` is written in `code` as a whole word (isWholeWord()), in order. `code` must be the text
  /// every call gives, unchanged: the offsets are found on a name's first lookup and kept.
  const std::vector<std::size_t> &wordsNamed(std::string_view code, const std::string &name) const;

  /// wordsNamed() before the offset `before`, the nearest first: `for (std::size_t at : index.before(...))`.
  Before before(std::string_view code, const std::string &name, std::size_t before) const;

private:
  mutable std::unordered_map<std::string, std::vector<std::size_t>> offsets_;
};

} // namespace ptxdvfs::tools
