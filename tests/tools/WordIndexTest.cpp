// Where a name is written, as the host readers look it up backwards from a use (WordIndex).
#include "CudaWordIndex.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ptxdvfs::tools {
namespace {

std::vector<std::size_t> before(const WordIndex &index, const std::string &code, const std::string &name,
                                std::size_t offset) {
  const WordIndex::Before found = index.before(code, name, offset);
  return {found.begin(), found.end()};
}

TEST(WordIndexTest, WholeWordsBeforeAnOffsetComeNearestFirst) {
  const std::string code = "int s1 = 2, s10 = s1; s1++; xs1 = s1;";
  const WordIndex index;
  EXPECT_EQ(before(index, code, "s1", code.size()), (std::vector<std::size_t>{34, 22, 18, 4}));
  // Strictly before: a use does not find itself.
  EXPECT_EQ(before(index, code, "s1", 22), (std::vector<std::size_t>{18, 4}));
  EXPECT_EQ(before(index, code, "s1", 4), std::vector<std::size_t>{});
  EXPECT_EQ(before(index, code, "s10", code.size()), std::vector<std::size_t>{12});
  EXPECT_EQ(before(index, code, "s", code.size()), std::vector<std::size_t>{});
}

TEST(WordIndexTest, QualifiedAndEmptyNames) {
  const std::string code = "ns::n = 1; other_ns::n = 2; ns::n2 = 3; ns::n;";
  const WordIndex index;
  EXPECT_EQ(before(index, code, "ns::n", code.size()), (std::vector<std::size_t>{40, 0}));
  EXPECT_EQ(before(index, code, "", code.size()), std::vector<std::size_t>{});
  // Found once and kept: the same offsets on a second lookup.
  EXPECT_EQ(&index.wordsNamed(code, "ns::n"), &index.wordsNamed(code, "ns::n"));
}

} // namespace
} // namespace ptxdvfs::tools
