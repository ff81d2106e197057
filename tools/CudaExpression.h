// CudaExpression.h - folding one constant expression of host code as C
// folds it: integer and real arithmetic, comparisons, ?:, casts, `ceil`,
// `floor`, `min`, `max` and function-like macros. What its names stand for
// is the caller's lookup (CudaConstants.h).
#pragma once

#include "ptxdvfs/ptx/analysis/Values.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ptxdvfs::tools::expression {

/// How many names deep a value may be defined through others.
constexpr int kMaxDepth = 16;

/// A value as C folds it: integers stay integers (division truncates)
/// until a cast or a floating-point operand makes them real.
struct Number {
  bool real = false;
  std::int64_t whole = 0;
  double value = 0;
  double asReal() const { return real ? value : static_cast<double>(whole); }
};

/// A real number converted to an integer as C does, toward zero; nullopt
/// where C's conversion would be undefined (out of range, NaN).
std::optional<std::int64_t> truncated(double real);

/// What the C library's function `name` (without `std::`) returns for
/// `arguments`, where it is one the folder computes: `ceil`, `floor`,
/// `round`, `trunc`, `sqrt`, `cbrt`, `log2`, `exp2`, `fabs` and their
/// `f` forms, `pow` and `powf` (a real, as C's), `abs`, `labs`, `llabs`,
/// `min` and `max` (of the arguments' kind); nullopt for any other
/// function, or where the result is not a finite number (`sqrt(-1)`).
std::optional<Number> libraryFunction(const std::string &name, const std::vector<Number> &arguments);

/// `value` converted to the type `type` names (its words), as an
/// assignment or a cast converts it: to 0 or 1 for `bool`, to a real for
/// `float`/`double`, else toward zero to an integer (nullopt out of range).
std::optional<Number> converted(Number value, const std::vector<std::string> &type);

/// One token of C: a number, a name (`std::min` is one) or punctuation
/// (`<<`, `<=`, `&&` and the like are one).
struct Token {
  enum Kind { Number, Name, Punct } kind;
  std::string text;
  bool operator==(const Token &other) const { return kind == other.kind && text == other.text; }
};

std::vector<Token> tokensOf(std::string_view text);

/// A word of a declaration's type or a cast: `unsigned`, `size_t`, `const`.
bool isTypeWord(std::string_view word);

/// A function-like `#define NAME(a, b) body`.
struct FunctionMacro {
  std::vector<std::string> parameters;
  std::vector<Token> body;
  bool operator==(const FunctionMacro &other) const { return parameters == other.parameters && body == other.body; }
};

/// A name's definition: found, found but not usable (defined two ways, or
/// not foldable), or not there.
enum class Lookup { Found, Unknown, Absent };

/// What the names of one expression stand for, seen from where it is written.
class ExpressionNames {
public:
  virtual ~ExpressionNames() = default;
  /// A name's value, `depth` names deep; nullopt where it is not fixed.
  virtual std::optional<Number> number(const std::string &name, int depth) const = 0;
  /// A member's value, named by its path (`block.x`, `p.n`, `cfg.grid.y`);
  /// nullopt where it is not fixed.
  virtual std::optional<Number> member(const std::string &path, int depth) const = 0;
  /// What the pointer `name` points at (`*threads`); nullopt where it is not fixed.
  virtual std::optional<Number> pointee(const std::string &name, int depth) const = 0;
  /// The element of the array `name` at the index `index` folds to, from
  /// 0 (`sizes[size - 1]`), or its member `fields` where not empty
  /// (`cases[i].n`); nullopt where it is not fixed.
  virtual std::optional<Number> element(const std::string &name, std::vector<Token> index, const std::string &fields,
                                        int depth) const = 0;
  /// The length of the array `name` and the bytes of one element, for
  /// `sizeof(sizes) / sizeof(sizes[0])`; nullopt where they are not fixed.
  virtual std::optional<std::pair<std::int64_t, std::int64_t>> arrayShape(const std::string &name,
                                                                           int depth) const = 0;
  /// The size of the container `name`, `name.size()` (`std::vector<float>
  /// v(n)`); nullopt where it is not fixed.
  virtual std::optional<Number> containerSize(const std::string &name, int depth) const = 0;
  /// What the member function `method` of the object `object` (`g` of
  /// `g.cells()`) returns for `arguments`; nullopt where it is not fixed.
  virtual std::optional<Number> method(const std::string &object, const std::string &method,
                                       const std::vector<Number> &arguments, int depth) const = 0;
  /// The text of the command-line argument `name[index]`, where `name` is
  /// `main`'s `argv` and the program is read as run with arguments
  /// (`atoi(argv[1])`); nullopt where it is not one of them.
  virtual std::optional<std::string> commandLineArgument(const std::string &name, std::vector<Token> index,
                                                         int depth) const = 0;
  /// Unknown: defined differently in two places, or not expandable (`#`, `...`).
  virtual Lookup functionMacro(const std::string &name, FunctionMacro &found) const = 0;
  /// What calling the function `name` with `arguments` returns, `depth`
  /// names deep, where its body alone says (`return (a + b - 1) / b;`).
  /// `arguments` is nullopt where one does not fold (`parse(argc, argv)`),
  /// which only a function whose parameters are read at its calls can take.
  virtual std::optional<Number> function(const std::string &name, const std::optional<std::vector<Number>> &arguments,
                                         int depth) const = 0;
  /// Counts `tokens` of expanded macros against the lookups' budget; false once it is spent.
  virtual bool spend(std::size_t tokens) const = 0;
  /// From `quiet(true)` to its `quiet(false)`, the reads note nothing of
  /// what a value rests on: the fold of an operand C does not evaluate
  /// (the side of `?:` the condition does not take, the right of an `&&`
  /// or `||` the left decides), done for its type or to skip it. Pairs
  /// nest. Nothing is noted by default.
  virtual void quiet(bool on) const { (void)on; }
};

/// All of `tokens` as one constant expression, `depth` names deep; nullopt
/// for anything C would not fold to a constant here, or that overflows.
std::optional<Number> fold(const ExpressionNames &names, std::vector<Token> tokens, int depth);

} // namespace ptxdvfs::tools::expression
