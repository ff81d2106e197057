// CudaStringComparisons.h - the comparisons of a string with a literal
// in a condition as written (`strcmp(argv[i], "-n") == 0`,
// `arg.rfind("--n=", 0) == 0`, `argv[i][0] == '-'`), replaced by their
// results where the strings' texts are known: how an option loop's pass
// (CudaOptionLoops.h) and a branch on the arguments pick their way.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace ptxdvfs::tools {

/// What a string written in a condition holds (`argv[i]`, `arg`,
/// `std::string(argv[i])`); nullopt where it is not known.
using StringValue = std::function<std::optional<std::string>(std::string_view written)>;

/// The text of a character read from a string, as written: `S[K]` (K a
/// whole number as written) or `*S`, S's text given by `value`; or a name
/// `value` gives a text of at most one character (a `char` set from one).
/// One character, or empty for the terminating NUL; nullopt past it, or
/// where S is not known.
std::optional<std::string> characterText(std::string_view written, const StringValue &value);

/// `condition` (as written, literals kept) with each comparison of a
/// string with a string literal replaced by its result, in parentheses:
/// `strcmp(E, "-n")` and `strcasecmp` by the sign C's gives (-1, 0 or 1),
/// `strncmp(E, "-n", 2)` and `strncasecmp` likewise over at most 2
/// characters, `E == "-n"` and `E != "-n"` (either side) by 1 or 0, each
/// E's text given by `value`; and each comparison of a character with a
/// character literal, `argv[i][0] == '-'` (characterText()), by 1 or 0.
/// nullopt where a string or character literal is anywhere else or has an
/// escape, or `value` does not know an E.
std::optional<std::string> withStringComparisons(std::string_view condition, const StringValue &value);

/// `condition` (as written) with each plain name that `literal` gives the
/// text of a plain string literal for (a `const char *name` parameter
/// that every call passes `"-n"` for) replaced by that literal, quoted:
/// `strcmp(argv[i], name) == 0` reads `strcmp(argv[i], "-n") == 0`, which
/// withStringComparisons() reads. Names in literals, members (`o.name`),
/// qualified names and called ones are left as written.
std::string withStringNamesRead(std::string_view condition,
                                const std::function<std::optional<std::string>(const std::string &name)> &literal);

} // namespace ptxdvfs::tools
