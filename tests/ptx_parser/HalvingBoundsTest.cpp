// HalvingBoundsTest.cpp - counters divided by 2 or 4 as signed integers
// (rounding toward zero, which nvcc writes as a shift with a sign fix),
// and warpSize (PTX's WARP_SZ), compared with the same loops run on the
// host (tests/fixtures/loops/halving.cu).
#include "LoopFixtures.h"

#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace ptxdvfs::test {
namespace {

using namespace ptx::analysis;

std::vector<std::int64_t> samples() {
  std::vector<std::int64_t> values;
  for (std::int64_t n = -300; n <= 300; ++n)
    values.push_back(n);
  for (std::int64_t n : {1023LL, 1024LL, 65535LL, 65536LL, 0x7fffffffLL, -0x7fffffffLL - 1, -1000LL, -1024LL})
    values.push_back(n);
  return values;
}

double storesWith(const char *kernel, std::int64_t value) { return storesPerThreadWith("halving.ptx", kernel, value); }

template <typename Integer> int passes(Integer k, Integer divisor, bool whileNonZero) {
  int count = 0;
  for (; whileNonZero ? k != 0 : k > 0; k /= divisor)
    ++count;
  return count;
}

TEST(HalvingBoundsTest, ASignedDivisionBoundsItsLoopAsTheHostCountsIt) {
  for (std::int64_t value : samples()) {
    const auto narrow = static_cast<std::int32_t>(value);
    EXPECT_DOUBLE_EQ(storesWith("quarter_steps", value), passes<std::int32_t>(narrow, 4, true)) << value;
    EXPECT_DOUBLE_EQ(storesWith("halve_to_zero", value), passes<std::int32_t>(narrow, 2, true)) << value;
  }
}

TEST(HalvingBoundsTest, ASixtyFourBitCounterIsHalvedInItsOwnWidth) {
  std::vector<std::int64_t> values = samples();
  for (std::int64_t big : {0x100000000LL, 0x7fffffffffffffffLL, 5000000000LL})
    values.push_back(big);
  for (std::int64_t value : values)
    EXPECT_DOUBLE_EQ(storesWith("wide_halving", value), passes<std::int64_t>(value, 2, true)) << value;
}

TEST(HalvingBoundsTest, WarpSizeIsThirtyTwoAndItsHalvingsFivePasses) {
  // for (offset = warpSize / 2; offset > 0; offset /= 2): 16, 8, 4, 2, 1.
  ExecutedKernel executed = expandWithParameter("halving.ptx", "warp_halving");
  ASSERT_EQ(executed.loops.size(), 1u);
  EXPECT_FALSE(executed.loops[0].usedDefault) << executed.loops[0].why.front();
  EXPECT_EQ(executed.loops[0].origin, ValueOrigin::Constant);
  EXPECT_EQ(executed.loops[0].maxTripCount, 5u);
  EXPECT_DOUBLE_EQ(executedCount(executed, "shfl.sync.down.b32"), 5);
  EXPECT_NE(executed.loops[0].rule.find("/2 per iteration"), std::string::npos) << executed.loops[0].rule;
}

} // namespace
} // namespace ptxdvfs::test
