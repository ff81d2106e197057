// EncodeCommand.h - `ptxdvfs encode`: PTX to instruction codes under a named scheme.
#pragma once

#include "LaunchFlags.h"

#include <string>

namespace CLI {
class App;
}

namespace ptxdvfs::tools {

struct EncodeOptions {
  std::string file;
  std::string scheme;
  std::string vocabularyDir;
  std::string outputDir; ///< empty: print a table (or JSON) instead
  bool json = false;
  bool asExecuted = false; ///< read each kernel as one thread executes it
  bool broadcastLoads = false; ///< with asExecuted: warp-uniform global loads as .const
  unsigned jobs = 0;       ///< threads that parse (as written: and encode alongside); 0 = all cores
  LaunchFlags launch;      ///< what the loop analysis needs (with asExecuted)
};

void setupEncodeCommand(CLI::App &app, int &exitCode);

/// Writes `kernel_<k>.codes`, `kernel_<k>.readable` and `kernel_names.txt`
/// into the output folder (the layout of the shared conformance cases), or
/// prints the encoding. Returns an ExitCodes value.
int runEncodeCommand(const EncodeOptions &options);

} // namespace ptxdvfs::tools
