// ThreadZeroPathTest.cpp - loops whose start thread 0's own path decides:
// an unrolled part that thread 0's peeled copies leave nothing for, behind
// a branch nothing decides.
//
// tests/fixtures/loops/realistic.cu, box_sweep_100 (lavaMD's particle
// loop): for each of 1 + nn boxes, thread 0 runs one body.
#include "LoopFixtures.h"

#include <gtest/gtest.h>

namespace ptxdvfs::test {
namespace {

using namespace ptx::analysis;

TEST(ThreadZeroPathTest, ThePeeledCopiesCanLeaveTheUnrolledPartNothing) {
  // 100 particles 128 apart: thread 0 runs one peeled copy per box, and a
  // guard leads it past the part unrolled by 4. Which box a pass reads is
  // chosen by a branch on loaded data before the loop, which sets neither
  // the index nor whether the loop is reached: it stays undecided, and the
  // count must not depend on it.
  for (std::optional<std::int64_t> nn : {std::optional<std::int64_t>{0}, {5}, {}}) {
    SCOPED_TRACE(nn ? "nn = " + std::to_string(*nn) : std::string("nn unknown"));
    ExecutedKernel kernel = expandWithParameter("realistic.ptx", "box_sweep_100", nn ? "param_4" : "", nn.value_or(0));
    ASSERT_EQ(kernel.loops.size(), 2u);
    EXPECT_EQ(kernel.loops[0].usedDefault, !nn.has_value());
    const LoopReport &unrolled = kernel.loops[1];
    EXPECT_FALSE(unrolled.usedDefault) << unrolled.why.front();
    EXPECT_EQ(unrolled.maxTripCount, 0u);
    const double boxes = nn ? static_cast<double>(*nn + 1) : 16.0; // the default count
    EXPECT_DOUBLE_EQ(executedCount(kernel, "st.global.f32"), 3 * boxes); // the peeled copies alone
  }
}

} // namespace
} // namespace ptxdvfs::test
