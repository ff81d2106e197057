// CudaDefinitions.h - what the constant folder's lookups give and pass
// around: a name's definition (the text to fold, and where), a one-return
// function, what a call passes, a switch read once. Private to the folder.
#pragma once

#include "CudaExpression.h"
#include "CudaLoopHeaders.h"

#include "ptxdvfs/ptx/analysis/Values.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ptxdvfs::tools {
namespace constants {

/// How many occurrences of names, and tokens of expanded macros, all
/// lookups together may look at (about a second even in pathological
/// files); past it, a size is left open.
constexpr std::size_t kMaxNamesExamined = 2'000'000;

/// What a name stands for: the text to fold, and where to fold it (the
/// names in it are looked up from there).
struct Definition {
  Definition() = default;
  Definition(std::string text, std::size_t file, std::size_t offset, bool dim3)
      : text(std::move(text)), file(file), offset(offset), dim3(dim3) {}

  std::string text;
  std::size_t file = 0, offset = 0;
  bool dim3 = false;
  /// The value itself, where it is not one text but what several agree
  /// on (a parameter: the argument all calls of its function pass).
  std::optional<expression::Number> number;
  std::optional<ptx::analysis::Dim3> dims;
};

/// A host function whose body is one `return` of an expression, as
/// `int iDivUp(int a, int b) { return (a % b != 0) ? (a / b + 1) : (a / b); }`.
struct ReturnFunction {
  std::vector<std::string> returnType;
  std::vector<std::pair<std::vector<std::string>, std::string>> parameters; ///< type words, name
  std::vector<expression::Token> expression;
  std::size_t file = 0, offset = 0; ///< its body, where the names in it are looked up
};

/// The struct a declaration's type words name (`Params` of `static const
/// struct Params`); empty where they name none (`auto`).
std::string structNamedBy(const std::vector<std::string> &words);

/// `p.grid.x` for the tokens of a member path written so; empty for any other tokens.
std::string memberPathOf(const std::vector<expression::Token> &tokens);

/// 0, 1 or 2 where a member path ends in `.x`, `.y` or `.z` (`grid.y`), a
/// `dim3`'s component where the rest is one; -1 otherwise.
int componentOf(const std::string &path);

/// `value` as one dimension of a launch: a whole number from 1 to 2^31 - 1.
std::optional<std::uint32_t> dimensionOf(const expression::Number &value);

/// What a call passes for a parameter: the text, and where to fold it
/// (the call, or the declaration of a default).
struct PassedArgument {
  std::string text;
  std::size_t file = 0, offset = 0;
};

/// What a function of several statements returns: the expression of its
/// one `return`, which ends its body, where it is written, and the words
/// of its return type (`static unsigned int`).
struct ReturnedValue {
  std::string text;
  std::size_t file = 0, offset = 0;
  std::vector<std::string> type;
};

/// A `switch` read once: its body, and where each value jumps.
struct Switch {
  SwitchBody body;
  bool folds = true;                          ///< whether every `case` folds to a whole number
  std::map<std::int64_t, std::size_t> jumps;  ///< each `case` value, to the first label of it
  std::size_t fallback = 0;                   ///< the `default:` label; labels.size() without one
};

/// A host loop's counter that stood for all its values (its middle, or
/// their mean): its loop, by file and offset, its head as reasons quote
/// it, and its values.
struct CounterRead {
  std::size_t file = 0, loop = 0;
  std::string counter, header;
  CountedRange range;
};

/// A one-dimension array declared with a braced list (`const int sizes[4]
/// = {1, 8, 32, 64};`): where its name is, its type words, the list's
/// elements as written, and its length (the list's where `[]` leaves it
/// out; nullopt where it does not fold).
struct ArrayDeclaration {
  std::size_t file = 0, at = 0;
  std::vector<std::string> type, listed;
  std::optional<std::int64_t> length;
};

/// `value` as reasons write it: `4096`, `0.5`.
inline std::string shownNumber(const expression::Number &value) {
  return value.real ? ptx::analysis::AssumedValue::real(value.value).text() : std::to_string(value.whole);
}

/// Whether two folded values are the same number of the same kind.
inline bool sameNumber(const expression::Number &a, const expression::Number &b) {
  return a.real == b.real && (a.real ? a.value == b.value : a.whole == b.whole);
}

} // namespace constants

} // namespace ptxdvfs::tools
