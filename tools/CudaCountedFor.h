// CudaCountedFor.h - the parts of a counted `for` of host code, as
// written (`for (int i = 0; i < n; i += 2)`), and how many times it runs
// once they fold. Which loops hold a statement: CudaLoopHeaders.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace ptxdvfs::tools {

/// `for (counter = start; counter OP bound; counter += step)`, as written.
struct CountedFor {
  std::string counter, start, comparison, bound;
  /// What one iteration adds, negated for `--`, `-=` and `i = i - s`; for a
  /// scaling step, what it multiplies or divides by (a shift's power of 2).
  std::string step;
  /// How the step applies: added, or (`i *= 2`, `i <<= 1`, `i /= 2`,
  /// `i >>= 1`) multiplied or divided by.
  enum class Scaling { None, Multiply, Divide } scaling = Scaling::None;
};

/// The parts of a `for` whose parentheses hold `header`, where its counter
/// is given a start (or, with nothing before the first `;`, starts from
/// its value before the loop: `start` is its name), compared with `<`,
/// `<=`, `>`, `>=` or `!=` (either side, alone or with a sum after it:
/// `i + 1 < n` is read as `i < (n) - (0 + 1)`), and stepped by `++`, `--`, `+=`,
/// `-=`, `i = i + s`, or scaled by `*=`, `/=`, `<<=`, `>>=` (or `i = i *
/// s`, `i = i / s`), alone or beside other variables' steps (`log2N -= 2,
/// N >>= 2`); nullopt for any other `for` (a range `for`, a condition with
/// `&&`, a counter stepped twice).
std::optional<CountedFor> countedFor(std::string_view header);

/// The head of a range `for`: the name it declares (`n` of `const int &n
/// : sizes`) and the range, with where the range starts in the head.
struct RangeFor {
  std::string name, range;
  std::size_t rangeAt = 0;
};

/// `header`, the inside of a `for`'s parentheses, as a range `for`'s head;
/// nullopt for a counted `for`'s (with `;`) or anything else.
std::optional<RangeFor> rangeFor(std::string_view header);

/// Whether `value` `comparison` `bound` holds, `comparison` a counted
/// `for`'s (`<`, `<=`, `>`, `>=`, else `!=`).
template <typename Value> bool comparisonHolds(Value value, const std::string &comparison, Value bound) {
  return comparison == "<"    ? value < bound
         : comparison == "<=" ? value <= bound
         : comparison == ">"  ? value > bound
         : comparison == ">=" ? value >= bound
                              : value != bound;
}

/// The iterations of `for (i = start; i OP bound; i += step)` (0 where it
/// runs none, saturating at 2^64 - 1); nullopt where counting never ends it.
std::optional<std::uint64_t> iterations(std::int64_t start, const std::string &comparison, std::int64_t bound,
                                        std::int64_t step);

/// The iterations of `for (i = start; i OP bound; i *= factor)` (or `/=`
/// with `divides`), and the mean of the values `i` takes (0 where it takes
/// none); nullopt where scaling never ends it (a factor of 1, a start of 0)
/// or it would run past 64 iterations, which no whole number survives.
std::optional<std::pair<std::uint64_t, std::int64_t>> scaledIterations(std::int64_t start,
                                                                       const std::string &comparison,
                                                                       std::int64_t bound, std::int64_t factor,
                                                                       bool divides);

/// The values a counted `for`'s counter takes: `count` of them from
/// `start`, each the one before it stepped by `step` as `scaling` says
/// (next()), and the one that stands for them all (`middle`): the middle
/// one of an added step, the mean of a scaling one's.
struct CountedRange {
  std::int64_t start = 0, middle = 0;
  std::uint64_t count = 0;
  bool scaled = false;
  std::int64_t step = 0;
  CountedFor::Scaling scaling = CountedFor::Scaling::None;

  /// The value after `value`; only asked between values of the range, so
  /// it does not overflow.
  std::int64_t next(std::int64_t value) const {
    return scaling == CountedFor::Scaling::None       ? value + step
           : scaling == CountedFor::Scaling::Multiply ? value * step
                                                      : value / step;
  }
};

/// `loop`'s range, its start, bound and step folded by `whole` (text ->
/// optional whole number, each asked once); nullopt where one of them does
/// not fold or counting never ends the loop.
template <typename Whole> std::optional<CountedRange> countedRange(const CountedFor &loop, Whole whole) {
  const std::optional<std::int64_t> start = whole(loop.start), bound = whole(loop.bound), step = whole(loop.step);
  if (!start || !bound || !step)
    return std::nullopt;
  if (loop.scaling != CountedFor::Scaling::None) {
    const auto scaled =
        scaledIterations(*start, loop.comparison, *bound, *step, loop.scaling == CountedFor::Scaling::Divide);
    if (!scaled)
      return std::nullopt;
    return CountedRange{*start, scaled->second, scaled->first, true, *step, loop.scaling};
  }
  const std::optional<std::uint64_t> count = iterations(*start, loop.comparison, *bound, *step);
  if (!count)
    return std::nullopt;
  __extension__ using Int128 = __int128; // start + step * ((count - 1) / 2) lies between start and the bound
  const Int128 middle =
      *count == 0 ? *start
                  : static_cast<Int128>(*start) + static_cast<Int128>(*step) * static_cast<Int128>((*count - 1) / 2);
  return CountedRange{*start, static_cast<std::int64_t>(middle), *count, false, *step, loop.scaling};
}

} // namespace ptxdvfs::tools
