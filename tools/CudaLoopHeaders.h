// CudaLoopHeaders.h - the loops of host code as written: which loops and
// branches hold a statement, switches' bodies, and `while`s that count as
// a `for` does (whose parts CudaCountedFor.h reads). What their counts
// fold to is the readers' business (CudaHostLoops.h, CudaConstants.h).
#pragma once

#include "CudaCode.h"
#include "CudaCountedFor.h"

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

} // namespace ptxdvfs::tools
