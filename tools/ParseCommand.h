// ParseCommand.h - `ptxdvfs parse`: check PTX files and list their kernels.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace ptxdvfs::tools {

struct ParseOptions {
  std::vector<std::string> files;
  bool json = false;
  unsigned jobs = 0; ///< threads per file; 0 = all cores
};

/// Registers the subcommand; running it stores its exit code in `exitCode`.
void setupParseCommand(CLI::App &app, int &exitCode);

/// Parses each file and prints its kernels and functions with instruction
/// counts (or JSON). Returns kExitSuccess, or kExitInputError when any file
/// failed to read or parse.
int runParseCommand(const ParseOptions &options);

} // namespace ptxdvfs::tools
