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
#include <utility>
#include <vector>

namespace ptxdvfs::tools {

/// The head of a loop or a branch, as written: `for (...)`, `while
/// (...)`, `do`, `if (...)`, the `else` of an `if (...)` (whose `at`,
/// `open` and `close` are the `if`'s, and `text` the `if`'s head), or the
/// `case` of a `switch (...)` that leads to one statement of its body
/// (whose `at`, `open` and `close` are the `switch`'s, its body the
/// switch's whole body).
struct LoopHeader {
  std::string keyword; ///< `for`, `while`, `do`, `if`, `else` or `case`
  std::size_t at = 0;  ///< the offset of its keyword (an `else`'s `if`, a `case`'s `switch`)
  std::size_t open = std::string::npos, close = std::string::npos; ///< its parentheses; npos for `do`
  std::size_t headEnd = 0; ///< its last character, after which its body starts
  std::size_t reached = std::string::npos; ///< a `case`'s: the statement of the switch's body it leads to

  /// `for (int t = 0; t < n; t++)`, or `do`.
  std::string text(const std::string &code) const {
    return close == std::string::npos ? keyword : code.substr(at, close + 1 - at);
  }
  /// What its parentheses hold: `int t = 0; t < n; t++`.
  std::string_view inside(const std::string &code) const {
    return std::string_view(code).substr(open + 1, close - open - 1);
  }
};

/// Whether `header` heads a branch (`if`, `else`, `case`) rather than a loop.
bool isBranch(const LoopHeader &header);

/// The loops (`for`, `while`, `do`) and branches (`if`, `else` after an
/// `if` body that is a block or one plain statement, and the `case` of a
/// braced `switch` body) of `code` whose body, braced or not, holds the
/// statement that starts at `statement`, innermost first, up to the body
/// of the function.
std::vector<LoopHeader> headersAround(const CudaCode &code, std::size_t statement);

/// The braced body of a `switch`, read once: its labels, and for each of
/// its statements which labels lead to it.
struct SwitchBody {
  /// A label, `case E:` or `default:`.
  struct Label {
    /// `E`, as code() has it (a character literal as its code, see
    /// codeOf()); empty for `default`
    std::string expression;
    std::size_t at = 0, end = 0; ///< its `case` or `default`, and just past its `:`
    bool fallback = false;       ///< `default:`
  };
  /// How a jump to a label leads to a statement: Yes where only plain
  /// statements lie between them (other labels fall through); Maybe where
  /// one of them may leave the switch (`if (c) break;`, a loop with a
  /// `break`); No past a `break`, `return`, `continue`, `goto` or `throw`
  /// (or a braced case body that ends in one), or from a later label.
  enum class Leads { No, Maybe, Yes };

  std::vector<Label> labels; ///< in order

  /// How a jump to `labels[label]` leads to the statement that holds `offset`.
  Leads leads(std::size_t label, std::size_t offset) const;

  /// Where the switch jumps: to the first label (not `default:`) that `matches(label)` says holds, else to its
  /// `default:`; labels.size() where there is none; nullopt where a `matches` before the jump is not known.
  template <typename Matches> std::optional<std::size_t> jumpTo(const Matches &matches) const {
    std::size_t fallback = labels.size();
    for (std::size_t i = 0; i < labels.size(); ++i) {
      if (labels[i].fallback) {
        fallback = i;
        continue;
      }
      const std::optional<bool> match = matches(labels[i]);
      if (!match || *match)
        return match ? std::optional<std::size_t>(i) : std::nullopt;
    }
    return fallback;
  }

  /// One statement of the body (labels apart), and the labels that lead
  /// to it: those from `firstLeading` up to `labelsBefore`, surely from `firstSure`.
  struct Statement {
    std::size_t start = 0, end = 0;
    std::size_t firstLeading = 0, firstSure = 0, labelsBefore = 0;
  };
  std::vector<Statement> statements; ///< in order
};

/// Whether the statement word `word` may end the program: `return`, `exit`, `_exit`, `quick_exit`, `abort`,
/// `throw`.
bool endsProgram(std::string_view word);

/// The character of a label as written, `case 'n':` (or `'n'` alone,
/// `'\n'` too); nullopt for any other label (`case 'a' + 1:`), and where
/// characterCode() has no code.
std::optional<char> labelCharacter(std::string_view label);

/// What the label `label` (not `default:`) compares with, as code to fold:
/// its expression as code() has it, a character literal as its code
/// (`case 'a' + 1:` gives `97  + 1`); nullopt where it holds a string
/// literal. `text` is the file's text, its offsets those of the code the
/// label was read from.
std::optional<std::string> labelValue(const SwitchBody::Label &label, std::string_view text);

/// The body of the `switch` of the `case` header `header`; no labels
/// where it is not braced or not closed.
SwitchBody switchBodyOf(const std::string &code, const LoopHeader &header);

/// headersAround() without the branches.
std::vector<LoopHeader> loopsAround(const CudaCode &code, std::size_t statement);

/// Where the body of the loop or `if` whose head ends at `close` ends:
/// past its `}`, or past the `;` of its one statement (npos where the
/// file ends first).
std::size_t bodyEndAfter(const std::string &code, std::size_t close);

/// bodyEndAfter() in `code`, a braced body's end found from its matched
/// braces: read many times over, a long body costs nothing more.
std::size_t bodyEndAfter(const CudaCode &code, std::size_t close);

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

/// The branches, innermost first, under which the `continue` or `break`
/// (`breaks`) at `at` of `code` leaves the loop headed at `loop`; nullopt
/// where it leaves another: a loop inside it (or, for a `break`, a `switch`).
std::optional<std::vector<LoopHeader>> branchesLeaving(const CudaCode &code, std::size_t at, std::size_t loop,
                                                       bool breaks);

/// A `while` that counts as a `for` does: its condition compares a name
/// with a bound (`iter < kMaxIterations`), and its braced body steps that
/// name in a statement of its own at its top level (`++iter;`, `iter +=
/// 2;`), changes it nowhere else, and has no `continue`. Read as `for (;
/// iter < kMaxIterations; ++iter)`; nullopt for any other loop.
std::optional<CountedFor> countedWhile(const CudaCode &source, const LoopHeader &header);

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
std::optional<std::pair<std::uint64_t, std::int64_t>> scaledIterations(std::int64_t start, const std::string &comparison,
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
      *count == 0 ? *start : static_cast<Int128>(*start) + static_cast<Int128>(*step) * static_cast<Int128>((*count - 1) / 2);
  return CountedRange{*start, static_cast<std::int64_t>(middle), *count, false, *step, loop.scaling};
}

} // namespace ptxdvfs::tools
