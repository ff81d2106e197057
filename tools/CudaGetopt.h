// CudaGetopt.h - POSIX's `getopt` and GNU's `getopt_long` as a host
// program's option loop calls them: the loop as written (`while ((opt =
// getopt_long(argc, argv, "n:v", long_options, &index)) != -1)`), the
// `struct option` table it is given, and what the calls return, one after
// another, for the arguments the program is run with (--program-args).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxdvfs::tools {

/// The condition of a `getopt` loop as written.
struct GetoptLoop {
  std::string result;      ///< `opt` of `(opt = getopt(...)) != -1`
  std::string optstring;   ///< its third argument, a plain string literal
  std::string longOptions; ///< `getopt_long`'s fourth argument, the `struct option` array's name; empty for `getopt`
  bool longOnly = false;   ///< `getopt_long_only`, for which `-size` may name a long option too
};

/// The length of the name of the `getopt`, `getopt_long` or
/// `getopt_long_only` written at `at` of `code` (not as a member); 0 for
/// anything else.
std::size_t getoptCallAt(const std::string &code, std::size_t at);

/// `condition` (as written, literals kept) read as `(opt = getopt(argc,
/// argv, "n:v")) != -1`, or a `getopt_long` or `getopt_long_only` call
/// given an array's name; nullopt for anything else.
std::optional<GetoptLoop> getoptLoopOf(std::string_view condition);

/// One entry of `getopt_long`'s `struct option` table.
struct LongOption {
  std::string name;
  int argument = 0; ///< 0 `no_argument`, 1 `required_argument`, 2 `optional_argument`
  int value = 0;    ///< what `getopt_long` returns for it: `val`, or 0 where `flag` is not null
};

/// The entries of the array `name` declared `struct option name[] = {...}`
/// in `code` (codeOf() of `text`, offsets shared), up to its all-zero
/// entry; nullopt where none is declared, or an entry is not plain (a
/// name that is no literal, an `argument` or `val` that is no number,
/// `*_argument` constant or character literal).
std::optional<std::vector<LongOption>> longOptionsIn(const std::string &code, const std::string &text,
                                                     const std::string &name);

/// One option the calls return: its character (`?` for one `optstring`
/// lacks or one missing its argument, `:` for the latter where
/// `optstring` starts with `:`; a long option's `value`, or `\0` where
/// that is no character), and its `optarg` (empty for none).
struct OptionFound {
  char option;
  std::string argument;
};

/// What a loop of `getopt(argc, argv, optstring)` calls meets until it
/// returns -1, as GNU's does: the options it returns, in order (every
/// argument that starts with `-`, but `-` alone, up to `--`; others passed
/// over, or, where `optstring` starts with `+`, ending the scan; `-abc` is
/// `a`, `b`, `c`; `-n4096` and `-n 4096` give `n` the argument `4096`
/// where `optstring` has `n:`), `argv` after the program's name as it
/// leaves it (the options and their arguments, then `--` where given, then
/// the operands, each in the order given), and `optind`, the index in
/// `argv` of its first operand (`argc` where none is).
struct GetoptEnd {
  std::vector<OptionFound> options;
  std::vector<std::string> permuted;
  std::size_t optind = 1;
};

/// getoptRun() of `getopt`, or with `longOptions` of `getopt_long`: `--size
/// 4096` and `--size=4096` name the entry `size`, or the one entry whose
/// name starts with `size` (several: `?`), a required argument taken from
/// after `=` or the next argument, an optional one only after `=`; with
/// `longOnly` (`getopt_long_only`), `-size` names one too where it
/// matches, and is short options where it does not. Without
/// `longOptions`, a long option is `?`.
GetoptEnd getoptRun(std::string_view optstring, const std::vector<std::string> &arguments,
                    const std::vector<LongOption> *longOptions = nullptr, bool longOnly = false);

} // namespace ptxdvfs::tools
