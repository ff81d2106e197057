// CudaLoopHeaders.h - the loops of host code as written: which loops hold
// a statement, and the parts of a counted `for`. What their counts fold to
// is the readers' business (CudaHostLoops.h, CudaConstants.h).
#pragma once

#include "CudaCode.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxdvfs::tools {

/// The head of a loop or a branch, as written: `for (...)`, `while
/// (...)`, `do`, `if (...)`, or the `else` of an `if (...)` (whose
/// `at`, `open` and `close` are the `if`'s, and `text` the `if`'s head).
struct LoopHeader {
  std::string keyword; ///< `for`, `while`, `do`, `if` or `else`
  std::size_t at = 0;  ///< the offset of its keyword (an `else`'s `if`)
  std::size_t open = std::string::npos, close = std::string::npos; ///< its parentheses; npos for `do`
  std::size_t headEnd = 0; ///< its last character, after which its body starts

  /// `for (int t = 0; t < n; t++)`, or `do`.
  std::string text(const std::string &code) const {
    return close == std::string::npos ? keyword : code.substr(at, close + 1 - at);
  }
  /// What its parentheses hold: `int t = 0; t < n; t++`.
  std::string_view inside(const std::string &code) const {
    return std::string_view(code).substr(open + 1, close - open - 1);
  }
};

/// The loops (`for`, `while`, `do`) and branches (`if`, and `else` after
/// an `if` body that is a block or one plain statement) of `code` whose body, braced or not, holds the
/// statement that starts at `statement`, innermost first, up to the body
/// of the function.
std::vector<LoopHeader> headersAround(const CudaCode &code, std::size_t statement);

/// headersAround() without the branches.
std::vector<LoopHeader> loopsAround(const CudaCode &code, std::size_t statement);

/// Where the body of the loop or `if` whose head ends at `close` ends:
/// past its `}`, or past the `;` of its one statement (npos where the
/// file ends first).
std::size_t bodyEndAfter(const std::string &code, std::size_t close);

/// `for (counter = start; counter OP bound; counter += step)`, as written.
struct CountedFor {
  std::string counter, start, comparison, bound;
  std::string step; ///< what one iteration adds, negated for `--`, `-=` and `i = i - s`
};

/// The parts of a `for` whose parentheses hold `header`, where its counter
/// is given a start, compared with `<`, `<=`, `>`, `>=` or `!=` (either
/// side), and stepped by `++`, `--`, `+=`, `-=` or `i = i + s`; nullopt
/// for any other `for` (a range `for`, `t *= 2`, a condition with `&&`).
std::optional<CountedFor> countedFor(std::string_view header);

/// The iterations of `for (i = start; i OP bound; i += step)` (0 where it
/// runs none, saturating at 2^64 - 1); nullopt where counting never ends it.
std::optional<std::uint64_t> iterations(std::int64_t start, const std::string &comparison, std::int64_t bound,
                                        std::int64_t step);

/// The values a counted `for`'s counter takes: from `start`, by `step`, `count` of them.
struct CountedRange {
  std::int64_t start = 0, step = 0;
  std::uint64_t count = 0;
};

/// `loop`'s range, its start, bound and step folded by `whole` (text ->
/// optional whole number, each asked once); nullopt where one of them does
/// not fold or counting never ends the loop.
template <typename Whole> std::optional<CountedRange> countedRange(const CountedFor &loop, Whole whole) {
  const std::optional<std::int64_t> start = whole(loop.start), bound = whole(loop.bound), step = whole(loop.step);
  const std::optional<std::uint64_t> count =
      start && bound && step ? iterations(*start, loop.comparison, *bound, *step) : std::nullopt;
  if (!count)
    return std::nullopt;
  return CountedRange{*start, *step, *count};
}

} // namespace ptxdvfs::tools
