// CudaStatements.h - host-code statements read as written: where a name
// is changed or declared, what an assignment gives it, and the parts of a
// condition C evaluates. The scanners behind
// ConstantFolder's variable lookups (CudaVariables.cpp); `code` is a
// CudaCode's text, comments and literals blanked.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <string_view>
#include <vector>

namespace ptxdvfs::tools {

/// Whether the name of `length` characters at `at` of `code` is changed
/// there: assigned (`n = 2`, `n += 2`, `n++`, `dims.x = 64`), or passed
/// where it may be (`&n`, `++n`, `cin >> n`, `std::swap(n, m)`).
bool changesAt(const std::string &code, std::size_t at, std::size_t length);

/// Whether the name of `length` characters at `at`, an array's or a container's, only reads
/// an element there (`sizes[i]` read, `sizeof(sizes)`): not written
/// (`sizes[0] = 2`, `&sizes[1]`, `cin >> sizes[0]`), nor passed whole
/// (`fill(sizes)`), which may write it.
bool readsElementOnly(const std::string &code, std::size_t at, std::size_t length);

/// `condition` with each assignment in parentheses, `(opt = getopt(...))`,
/// replaced by the value it assigns, which is the value of the parentheses.
std::string withoutAssignments(std::string condition);

/// The `(` whose parentheses hold `at`; npos where `at` is in none (or in a `[` or `{` first).
std::size_t parenthesisAround(const std::string &code, std::size_t at);

/// What the statement `name = value;`, `name op= value;`, `name++;` or
/// `name--;` at `at` gives `name`, as text that reads its earlier value by
/// name (`n * (2)` for `n *= 2`); nullopt where the change at `at` is no
/// such statement (`f(n = 2)`, `n.x = 2`, `&n`, a `for`'s step).
std::optional<std::string> assignedText(const std::string &code, std::size_t at, const std::string &name);

/// A plain assignment in parentheses of its own in an `if`'s condition,
/// `if ((n = atoi(argv[1])) <= 0 || ...)`: what it assigns, the offset of
/// the condition's `(`, and the condition's top-level operands before the
/// one that holds it, which C evaluates first.
struct ConditionAssignment {
  std::string value;
  std::size_t condition = 0;
  std::vector<std::string> before;
  bool orBefore = true; ///< `||` joins them, else `&&`
};

/// The assignment to `name` at `at` as ConditionAssignment reads it;
/// nullopt for anything else, and where a `?:` or both `||` and `&&` come
/// before it at the condition's top level.
std::optional<ConditionAssignment> conditionAssignment(const std::string &code, std::size_t at,
                                                       const std::string &name);

/// `name.x = e;` (or `.y`, `.z`) at `at`, a statement of its own with a
/// plain `=` whose `e` does not read `name`: the member (0 for `x`, 1, 2)
/// and `e`; nullopt for anything else (`name.x *= 2;`, `name.x = name.y;`).
std::optional<std::pair<int, std::string>> memberAssignment(const std::string &code, std::size_t at,
                                                            const std::string &name);

/// The words written before `at` back to the start of its statement, over
/// names, spaces and `::` only: the type of a declaration of the name at
/// `at` (`static const int` of `static const int n = 4;`, `cfg::Params`),
/// a class's access label left out; something else (`return`), or
/// nothing, where `at` declares nothing (`f(n)`, `x = n`).
std::vector<std::string> declaredTypeBefore(const std::string &code, std::size_t at);

/// The return type of the function whose name starts at `nameAt`: the
/// words declaredTypeBefore() reads, without those a function's
/// declaration may carry besides its type (`static`, `inline`, `__host__`).
std::vector<std::string> returnTypeBefore(const std::string &code, std::size_t nameAt);

/// Whether the words before a name (declaredTypeBefore()) make its
/// statement a declaration of it: some words, none a statement's keyword
/// (`return`, `case`, `else`, `sizeof`) or a number (`case 0:`).
bool declaresName(const std::vector<std::string> &words);

/// The type words of the declaration whose list declares the name at
/// `at` after its first name (`int` for `b` in `int a = 1, b = 2;`);
/// nullopt where `at` follows no `,` of such a list (a call, a `for`'s
/// head, a comma expression). With `namedTypes`, the type may also be a
/// struct's name (`Params` for `b` in `Params a = {64, 1}, b;`).
std::optional<std::vector<std::string>> listedDeclarationType(const std::string &code, std::size_t at,
                                                              bool namedTypes = false);

/// A name declared by a structured binding, `auto [n, block] =
/// parse(argc, argv);` (also `const auto &[...]`): its position in the
/// brackets, and the initializer as written after `=`.
struct StructuredBinding {
  std::size_t index = 0;
  std::string initializer;
};
/// The structured binding that declares the name at `at`; nullopt for a
/// name declared or used any other way.
std::optional<StructuredBinding> structuredBindingAt(const std::string &code, std::size_t at);

/// How many arguments the call whose `(` is at `open` passes, and the
/// position of the one that holds `at` among them: top-level commas
/// counted, no text copied (this runs for every name read as an argument).
std::pair<std::size_t, std::size_t> argumentCountAndIndex(const std::string &code, std::size_t open, std::size_t at);

/// A call's argument that holds a name: its address, `&n`, or the name itself.
struct CallArgument {
  std::string callee; ///< the name before the call's `(`
  std::size_t index = 0; ///< the argument's position
  std::size_t open = 0;  ///< the call's `(`
  bool whole = false;    ///< whether the argument is `&name` alone, not `&name.n` or `&name[1]`
};

/// The call argument that starts at `start` (just after the call's `(` or
/// a `,`) and holds the name of `length` characters at `at`; nullopt where
/// `start` begins no argument of a call.
std::optional<CallArgument> argumentStartingAt(const std::string &code, std::size_t start, std::size_t at,
                                               std::size_t length);

/// The names whose addresses the kernel-argument array `array` holds, as
/// its brace initializer in `code` before `before` writes them: `void
/// *args[] = {&a, (void *)&n};` gives a and n; nullopt where it is not
/// declared so, holds anything else, or is used before `before` other
/// than as the arguments of `cudaLaunchKernel` or
/// `cudaLaunchCooperativeKernel` (CudaArgumentArrays.cpp).
std::optional<std::vector<std::string>> argumentArrayNames(const std::string &code, const std::string &array,
                                                           std::size_t before);

/// Whether the name of `length` characters at `at` is an element `&name`
/// of such an array, used in its block only as a launch's arguments,
/// which only read them.
bool inLaunchArgumentArray(const std::string &code, std::size_t at, std::size_t length);

/// The call whose argument starts with `&name`, the name of `length`
/// characters at `at` (`cudaGetDeviceProperties(&prop, 0)`); nullopt
/// where `at` is in no such argument.
std::optional<CallArgument> addressArgumentAt(const std::string &code, std::size_t at, std::size_t length);

/// Whether the member chain of a name at `at`, which ends at `end`, is
/// changed there; where `deeper`, an element (`p.v[0] = 1`, `&p.v[1]`)
/// counts, and so does anything reached through `->` or a call.
bool changesMembersAt(const std::string &code, std::size_t at, std::size_t end, bool deeper);

/// Where [`from`, `to`) of `code` changes the variable `name` (changesAt()), in order.
std::vector<std::size_t> changesWithin(const std::string &code, const std::string &name, std::size_t from,
                                       std::size_t to);

/// Whether `name` is changed (changesAt()) anywhere in [`from`, `to`) of `code`.
bool changedWithin(const std::string &code, const std::string &name, std::size_t from, std::size_t to);

/// Whether the name of `length` characters at `at` is passed by address
/// to a CUDA runtime call that only reads it (`cudaMemcpyToSymbol(c_n,
/// &n, ...)`, `cudaMemcpy(d, &n, ...)`'s source,
/// `cudaLaunchKernelEx(&config, ...)`, an element `&n` of the argument
/// array of a `cudaLaunchKernel`: inLaunchArgumentArray()), or, an
/// array's, by its name (`cudaMemcpy(d, h_sizes, ...)`): no change of it,
/// though changesAt() may see one.
bool passedToBeRead(const std::string &code, std::size_t at, std::size_t length);

/// Where the statement that holds `at` starts, `at` being in its
/// arguments or brackets (`if (c)\n  sizes(n, blocks);` from `blocks`:
/// `sizes`), as headersAround() wants it; `at` itself where it is in the
/// head of a loop, branch or `switch`.
std::size_t statementStartAround(const std::string &code, std::size_t at);

/// Where the keyword (`if`, `switch`, `for`, `while`) of the outermost
/// head whose parentheses hold `at` is (`if (sscanf(argv[i], "%d", &n) ==
/// 1)` from `n`: the `if`); npos where no head's do.
std::size_t headKeywordAround(const std::string &code, std::size_t at);

/// Whether `text` reads the name `name`.
bool readsName(std::string_view text, std::string_view name);

/// Just past the end of the statement starting at `start`: its `;` (its
/// brackets skipped), or for a block or a `for`, `while`, `switch` or `if`
/// (with its `else`) the end of its body; or past the bracket around it
/// that closes first; npos where the file ends first.
std::size_t statementEndFrom(const std::string &code, std::size_t start);

/// Where `text` assigns with a plain `=` (not `==`, `<=`, `>=`, `!=`, `+=`...); npos if it does not.
std::size_t plainAssignment(std::string_view text);

/// Whether the code at `at` is in an `#if`, `#ifdef` or `#ifndef` branch
/// that ends before `before` (the program may be built without it).
bool conditionallyCompiledBefore(const std::string &code, std::size_t at, std::size_t before);

} // namespace ptxdvfs::tools
