// BitBoundsTest.cpp - loops bounded by a count of bits (clz, popc, brev,
// bfind), compared with the same counts taken on the host
// (tests/fixtures/loops/bit_bounds.cu).
#include "LoopFixtures.h"

#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace ptxdvfs::test {
namespace {

using namespace ptx::analysis;

int highestSetBit(std::uint64_t bits) {
  int highest = -1;
  for (int bit = 0; bit < 64; ++bit)
    if ((bits >> bit) & 1)
      highest = bit;
  return highest;
}

int setBits(std::uint64_t bits) {
  int count = 0;
  for (int bit = 0; bit < 64; ++bit)
    count += (bits >> bit) & 1;
  return count;
}

int lowestSetBitFromOne(std::uint32_t bits) {
  for (int bit = 0; bit < 32; ++bit)
    if ((bits >> bit) & 1)
      return bit + 1;
  return 0;
}

std::vector<std::int64_t> samples() {
  std::vector<std::int64_t> values;
  for (std::int64_t n = 0; n <= 300; ++n)
    values.push_back(n);
  for (std::int64_t n : {1023LL, 1024LL, 65535LL, 65536LL, 0x7fffffffLL, -1LL, -1024LL, 0x80000000LL})
    values.push_back(n);
  return values;
}

double storesWith(const char *kernel, std::int64_t value) { return storesPerThreadWith("bit_bounds.ptx", kernel, value); }

TEST(BitBoundsTest, EachBitCountBoundsItsLoopAsTheHostCountsIt) {
  for (std::int64_t value : samples()) {
    const auto low = static_cast<std::uint32_t>(value);
    EXPECT_DOUBLE_EQ(storesWith("levels", value), highestSetBit(low) + 1) << value;
    EXPECT_DOUBLE_EQ(storesWith("set_bits", value), setBits(low)) << value;
    EXPECT_DOUBLE_EQ(storesWith("below_lowest_bit", value), lowestSetBitFromOne(low)) << value;
  }
}

TEST(BitBoundsTest, A64BitCountReadsAllSixtyFourBits) {
  for (std::int64_t value : {std::int64_t{1}, std::int64_t{1000}, std::int64_t{1} << 40, std::int64_t{-1}}) {
    EXPECT_DOUBLE_EQ(storesWith("wide_levels", value), highestSetBit(static_cast<std::uint64_t>(value)) + 1)
        << value;
  }
}

TEST(BitBoundsTest, BfindWithoutShiftAmountGivesTheHighestBitsIndex) {
  // for (i = 0; i < bfind(n); ++i), as written by hand: floor(log2 n)
  // passes, none for n = 0 (bfind's 0xffffffff is -1 as an s32).
  ptx::Module module = storePerPassKernel("", "  ld.param.u32 %r3, [n];\n  bfind.u32 %r1, %r3;\n  mov.u32 %r2, 0;",
                                          "lt.s32");
  for (std::int64_t n : {0, 1, 2, 3, 1000, 65536}) {
    ExecutedKernel executed = expandFirstKernel(module, {{"n", n}});
    EXPECT_DOUBLE_EQ(executedCount(executed, "st.global.u32"), std::max(highestSetBit(n), 0)) << n;
  }
}

/// Passes of the store-per-pass loop from 0 while `setp.<compare>` holds
/// against the bound `instruction` computes from n into %r1 (n in %r3).
double passesBoundBy(const std::string &instruction, const std::string &compare, std::int64_t n) {
  ptx::Module module = storePerPassKernel(
      "", "  ld.param.u32 %r3, [n];\n  " + instruction + "\n  mov.u32 %r2, 0;", compare);
  ExecutedKernel executed = expandFirstKernel(module, {{"n", n}});
  for (const LoopReport &loop : executed.loops)
    EXPECT_FALSE(loop.usedDefault) << instruction << " " << n << ": " << loop.why.front();
  return executedCount(executed, "st.global.u32");
}

TEST(BitBoundsTest, ASignedBfindFindsTheHighestBitThatDiffersFromTheSign) {
  // For a negative n, the highest clear bit; none (-1: no pass) for 0 and -1.
  for (std::int32_t n : {0, 1, 2, 1000, -1, -2, -3, -1000, -2147483647 - 1}) {
    const std::uint32_t magnitude = static_cast<std::uint32_t>(n < 0 ? ~n : n);
    int highest = -1;
    for (int bit = 0; bit < 32; ++bit)
      if ((magnitude >> bit) & 1)
        highest = bit;
    EXPECT_DOUBLE_EQ(passesBoundBy("bfind.s32 %r1, %r3;", "lt.s32", n), std::max(highest, 0)) << n;
  }
}

TEST(BitBoundsTest, FunnelShiftsSadAndBytePermutesAreEvaluated) {
  for (std::uint32_t n : {0u, 1u, 7u, 300u, 0x10000001u, 0x0000ff80u}) {
    const std::uint32_t rotatedLeft4 = (n << 4) | (n >> 28);
    EXPECT_TRUE(sameCount(passesBoundBy("shf.l.wrap.b32 %r1, %r3, %r3, 36;", "lt.u32", n), rotatedLeft4)) << n;
    EXPECT_TRUE(sameCount(passesBoundBy("shf.r.wrap.b32 %r1, %r3, %r3, 28;", "lt.u32", n), rotatedLeft4)) << n;
    // .clamp shifts by at most 32: left by 40 is the low word, a.
    EXPECT_TRUE(sameCount(passesBoundBy("shf.l.clamp.b32 %r1, %r3, 0, 40;", "lt.u32", n), n)) << n;
    const auto signedN = static_cast<std::int32_t>(n);
    EXPECT_TRUE(sameCount(passesBoundBy("sad.s32 %r1, %r3, 100, 7;", "lt.u32", n),
                                   (signedN < 100 ? 100 - signedN : signedN - 100) + 7))
        << n;
    // Byte 1 of n, then byte 0's sign replicated into the low byte.
    EXPECT_TRUE(sameCount(passesBoundBy("prmt.b32 %r1, %r3, 0, 0x4441;", "lt.u32", n), (n >> 8) & 0xff)) << n;
    EXPECT_TRUE(sameCount(passesBoundBy("prmt.b32 %r1, %r3, 0, 0x4448;", "lt.u32", n), (n & 0x80) ? 0xff : 0)) << n;
  }
  // prmt's other modes are not modelled: the default, with the instruction named.
  ptx::Module module =
      storePerPassKernel("", "  ld.param.u32 %r3, [n];\n  prmt.b32.f4e %r1, %r3, 0, 1;\n  mov.u32 %r2, 0;", "lt.u32");
  ExecutedKernel executed = expandFirstKernel(module, {{"n", 5}});
  ASSERT_EQ(executed.loops.size(), 1u);
  EXPECT_TRUE(executed.loops[0].usedDefault);
  EXPECT_NE(executed.loops[0].why.front().find("the result of prmt.b32.f4e"), std::string::npos)
      << executed.loops[0].why.front();
}

TEST(BitBoundsTest, AByteOfAParameterIsThatByteOfItsAssumedValue) {
  // nvcc loads (n >> 8) & 0xff as ld.param.u8 [n+1]: the parameter n, not a struct field n+1.
  for (std::int64_t n : {0, 0xff, 0x100, 0x1234, 0xffff, 0x7fffff00, 1000000})
    EXPECT_DOUBLE_EQ(storesWith("byte_field", n), (n >> 8) & 0xff) << n;
  ExecutedKernel unset = expandWithParameter("bit_bounds.ptx", "byte_field");
  ASSERT_EQ(unset.loops.size(), 1u);
  EXPECT_EQ(unset.loops[0].why.front(), "parameter param_1 (no --assume param_1=VALUE)");
}

TEST(BitBoundsTest, ASignedPartialLoadIsSignExtended) {
  // ld.param.s8 of the high byte: -0x10 for n = 0xf0000000, so 64 - 16 passes from -64.
  ptx::Module module = storePerPassKernel("", "  ld.param.s8 %r1, [n+3];\n  mov.u32 %r2, -64;", "lt.s32");
  for (std::int64_t n : {std::int64_t{0xf0000000}, std::int64_t{0x10000000}, std::int64_t{0x00ffffff}}) {
    ExecutedKernel executed = expandFirstKernel(module, {{"n", n}});
    const auto high = static_cast<std::int8_t>(static_cast<std::uint32_t>(n) >> 24);
    EXPECT_DOUBLE_EQ(executedCount(executed, "st.global.u32"), std::max(high + 64, 1)) << n;
  }
}

TEST(BitBoundsTest, AnUnsetOperandNamesWhatTheCountWaitsFor) {
  ExecutedKernel executed = expandWithParameter("bit_bounds.ptx", "set_bits");
  ASSERT_EQ(executed.loops.size(), 1u);
  EXPECT_TRUE(executed.loops[0].usedDefault);
  EXPECT_EQ(executed.loops[0].why.front(), "parameter param_1 (no --assume param_1=VALUE)");
}

} // namespace
} // namespace ptxdvfs::test
