// CudaDefinitions.h - what the constant folder's lookups give and pass
// around: a name's definition (the text to fold, and where), a one-return
// function, what a call passes, a switch read once, what a function takes
// by reference, a device query, a member function's scope, a host loop's
// counter, an array's declaration. Private to the folder.
#pragma once

#include "CudaExpression.h"
#include "CudaLoopHeaders.h"
#include "CudaStructLayout.h"

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

/// What a function of several statements returns: the expression of the
/// `return` its body reaches, where it is written, and the words of its
/// return type (`static unsigned int`).
struct ReturnedValue {
  std::string text;
  std::size_t file = 0, offset = 0;
  std::vector<std::string> type;
};

/// The `return`s of a function of several statements, in the order they
/// are written, the last of which is the last statement of its body or of
/// a block that ends the body (`else { ...; return m; } }`).
struct FunctionReturns {
  std::size_t file = 0;
  int body = -1;                    ///< the block of its body in `file`
  bool endsBody = false;            ///< whether the last `return` is the body's own last statement
  std::vector<std::size_t> returns; ///< where each `return`'s expression starts
  std::vector<std::string> texts;   ///< each `return`'s expression
  std::vector<std::string> type;    ///< the words of the return type
};

/// A `switch` read once: its body, and where each value jumps.
struct Switch {
  SwitchBody body;
  bool folds = true;                          ///< whether every `case` folds to a whole number
  std::map<std::int64_t, std::size_t> jumps;  ///< each `case` value, to the first label of it
  std::size_t fallback = 0;                   ///< the `default:` label; labels.size() without one
};

/// One definition of a function (or, body -1, a declaration of one the
/// files do not define), read once for outArgument(): per
/// parameter, its name where it is a non-const reference or a pointer
/// to non-const (else empty) and which of the two, whether it is a
/// pointer to const (`const Params *p`), and how many parameters have
/// no default.
struct ReferenceParameters {
  std::size_t definedIn = 0;
  int body = -1;
  std::size_t required = 0;
  std::vector<std::string> references;
  std::vector<bool> pointers;
  std::vector<bool> pointersToConst;
};

/// A device query: its call, and the value it leaves in
/// `member` (empty: the variable itself), nullopt where the device,
/// the attribute or the member is not known.
struct DeviceQuery {
  std::string callee;
  std::optional<std::int64_t> value;
  std::string assumed; ///< what the value takes for granted, for reasons (`, for a kernel of ...`)
};

/// A member function, seen from a use in it of its class's data member
/// `name`: its class, its body, where its parameter list opens (a name
/// found before it is not the function's own), where its member
/// initializers start (its body's `{` where it has none) and its body's `{`.
struct MethodScope {
  std::string className;
  int block = -1; ///< its body
  std::size_t parameters = 0, initializers = 0, body = 0;
  bool constructor = false;
  bool hidden = false; ///< a parameter has the member's name: in the body, only `this->name` is the member
};

/// Where a class's data member is changed outside the bare names of its
/// constructors' bodies: the one member function that sets it bare or
/// through `this->` (`void init(int n) { n_ = n; }`, by file and body, and
/// where it first does), and the first change of any other kind (in a
/// second member function, `s.n_ = 8` anywhere).
struct MemberChanges {
  std::optional<std::pair<std::size_t, std::size_t>> other;
  std::optional<std::pair<std::size_t, int>> setter;
  std::size_t setterAt = std::string::npos;
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
  bool container = false; ///< a `std::vector` or `std::array` given its elements by a braced list
};

/// `value` as reasons write it: `4096`, `0.5`.
inline std::string shownNumber(const expression::Number &value) {
  return value.real ? ptx::analysis::AssumedValue::real(value.value).text() : std::to_string(value.whole);
}

/// Whether two folded values are the same number of the same kind.
inline bool sameNumber(const expression::Number &a, const expression::Number &b) {
  return a.real == b.real && (a.real ? a.value == b.value : a.whole == b.whole);
}

/// A variable passed at `at` of `file` as a whole argument of a call of
/// a function that the files seen define, or only declare, and that
/// takes that parameter by non-const reference (`void sizes(int n, int
/// &blocks)`), or its address (`&blocks`) for a pointer to non-const
/// (`int *blocks`): where it is defined, its body (-1 where overloads of
/// the name that take as many arguments may change it, and which one the
/// call takes is not read, or where only a declaration is found), the
/// parameter's name, whether it is a pointer, and where the call starts.
struct OutArgument {
  std::string callee, parameter;
  std::size_t definedIn = 0;
  int body = -1;
  std::size_t callAt = 0;
  bool pointer = false;
};

/// The members of the struct `type` as the code of `file` sees it (its
/// own definition, or a file's it sees, or the CUDA runtime's
/// `cudaLaunchConfig_t`), read once per file, and the file whose
/// definition gives them, where their default initializers are read
/// (`file` for the runtime's); null members where none is found.
struct StructFound {
  const std::vector<StructMember> *members = nullptr;
  std::size_t file = 0;
};

/// Whether a `getopt` case's change runs (`getopt` finds its option
/// among the arguments) and what it gives, `optarg` being the last such
/// option's argument (nullopt where that does not fold).
struct OptionCase {
  bool runs;
  std::optional<expression::Number> value;
};

} // namespace constants

} // namespace ptxdvfs::tools
