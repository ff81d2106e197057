// CudaCommandLine.h - the command line the host program is read as run
// with (--program-args): its arguments split as a shell splits them, what
// C's and C++'s conversions (`atoi(argv[1])`, `std::stoul(argv[2])`) make
// of one, and what the option parsers (`getopt`, the CUDA samples'
// helpers) find in them. Without arguments the program is read as run
// bare, argc 1.
#pragma once

#include "CudaExpression.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ptxdvfs::tools {

/// `text` split into arguments as a POSIX shell splits a command line:
/// at unquoted blanks, with '...' taken as written, "..." with `\"` and
/// `\\` escaped, and `\` escaping one character outside quotes. nullopt
/// with `error` set for an unclosed quote or a trailing `\`.
std::optional<std::vector<std::string>> splitProgramArguments(std::string_view text, std::string &error);

/// Whether `function` (without `std::`) converts a string to a number as
/// `atoi`, `strtol`, `stoi` or `atof` do: the calls whose `argv[N]`
/// argument the folder reads.
bool convertsArgument(std::string_view function);

/// What `function` (convertsArgument()) returns for the argument `text`
/// in base `base` (10 for those that take none; 0 reads 0x and 0 as C
/// does): C's prefix rule (`atoi("64k")` is 64, `atoi("k")` 0), C++'s
/// throw (`stoi("k")`) as nullopt, and nullopt where the value is out of
/// the function's range (undefined for `atoi`, ERANGE for `strtol`).
std::optional<expression::Number> convertedArgument(std::string_view function, const std::string &text, int base);

/// The text of a plain string literal as written (`"n:v"`, blanks
/// around it allowed); nullopt for anything else, and for one with an
/// escape.
std::optional<std::string> plainStringLiteral(std::string_view written);

/// `argv[N]` as tokens: the array's name and the tokens of its index
/// (`N`); nullopt for anything else.
std::optional<std::pair<std::string, std::vector<expression::Token>>> subscripted(
    const std::vector<expression::Token> &tokens);

/// The range `first, last` built from one pointer, `p + K, p + N` (`p`
/// alone for a K of 0): `p`, K and N as written (K "0" where not written);
/// nullopt for anything else (`n, value`, two pointers).
struct PointerRange {
  std::string base, from, to;
};
std::optional<PointerRange> pointerRange(std::string_view first, std::string_view last);

/// What the call `function(arguments...)` (convertsArgument(); each
/// argument's tokens) returns where its first argument is a command-line
/// argument, `argv[N]` or `std::string(argv[N])`, whose text `names`
/// gives (ExpressionNames::commandLineArgument()), or `argv[N] + K`, its
/// text past K characters (`atoi(argv[i] + 4)` past `--n=`); the base is
/// the third argument where there is one (`strtol(argv[1], NULL, 16)`).
/// nullopt for anything else.
std::optional<expression::Number> convertedCommandLine(const expression::ExpressionNames &names,
                                                       std::string_view function,
                                                       std::vector<std::vector<expression::Token>> arguments,
                                                       int depth);

/// The character `argv[N][K]` reads, as C promotes it (`switch
/// (argv[1][1])` outside an option loop): `name[index]` is a command-line
/// argument whose text `names` gives, and `character` folds to K, from 0
/// up to its length (where the terminating 0 is). nullopt where the text
/// is not known, K lies past it, or the character is not ASCII (whose sign
/// the host's `char` decides).
std::optional<expression::Number> commandLineCharacter(const expression::ExpressionNames &names,
                                                       const std::string &name, std::vector<expression::Token> index,
                                                       std::vector<expression::Token> character, int depth);

/// `code` (codeOf(`text`), offsets shared) with each call of the CUDA
/// samples' command-line helpers whose flag is a string literal replaced
/// by what it returns for `arguments`, in parentheses and padded with
/// blanks to the call's length: `checkCmdLineFlag(argc, (const char
/// **)argv, "n")` 1 where an argument is `-n` or `--N=...` (dashes
/// dropped, case ignored, up to `=`), `getCmdLineArgumentInt` and
/// `getCmdLineArgumentFloat` the number after the last argument that
/// starts with the flag (and `=`), 0 where none does. Unchanged without
/// arguments.
std::string withCommandLineHelpers(std::string code, const std::string &text,
                                   const std::vector<std::string> &arguments);

/// [`from`, `end`) of `code` (a call the pre-passes read: withCommandLineHelpers(), withOptionParserReads())
/// replaced by `value` in parentheses, padded with blanks to its length so that offsets shared with the text
/// hold; unchanged where it does not fit.
void replaceWithValue(std::string &code, std::size_t from, std::size_t end, const std::string &value);

/// `condition` with each call that is passed `argv` replaced by what it
/// returns for a program run without arguments: -1 for POSIX's `getopt`s
/// (no option left), 0 for other helpers (`checkCmdLineFlag(argc, (const
/// char **)argv, "n")` finds no flag). Run with `arguments`, none of them
/// an option (`-n`), only `getopt`s and `checkCmdLineFlag` are replaced,
/// as they find none; with an option among them, no call is.
std::string withoutCommandLineCalls(std::string condition, const std::vector<std::string> &arguments = {});

/// The values `sscanf(text, format, ...)` stores, in order, as far as its
/// scan gets: conversions `%d`, `%i`, `%u`, `%x` and `%f`, `%e`, `%g`
/// (with `h`, `l`, `ll`, `z` or `j` sizes), `%%`, literal characters and
/// blanks. nullopt for a format with anything else (`%s`, `%*d`, a width).
std::optional<std::vector<expression::Number>> scannedValues(std::string_view text, std::string_view format);

/// "the program run without arguments", or "... run with the arguments
/// `4096 10`": what a value read from the command line rests on.
std::string programRun(const std::vector<std::string> &arguments);

/// `arguments` as a command line would show them, each quoted where a
/// blank or a quote in it needs it: `4096 'a b'`.
std::string shownArguments(const std::vector<std::string> &arguments);

} // namespace ptxdvfs::tools
