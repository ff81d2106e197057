// EmptyOptionValues.h - `--name=` on the command line as an empty value.
//
// CLI11 (2.1) reads `--name=` as `--name` alone and takes the next word
// as its value, so `--program-args= kernel.ptx` ran the program with
// the arguments `kernel.ptx` and lost the input file. A script that
// writes `--program-args="$ARGS"` with ARGS empty means "no arguments".
#pragma once

#include <string>
#include <vector>

namespace ptxdvfs::tools {

/// The words of `argv` (argv[0] first), with each `--name=` before a `--`
/// split into `--name` and an empty word, which CLI11 takes as the value.
/// Every other word is as given.
std::vector<std::string> emptyValuesApart(int argc, char **argv);

} // namespace ptxdvfs::tools
