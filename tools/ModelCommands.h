// ModelCommands.h - the subcommands that need LibTorch, and how the light `ptxdvfs` hands them over.
#pragma once

namespace CLI {
class App;
}

namespace ptxdvfs::tools {

/// Registers train and evaluate. In `ptxdvfs` itself (built without
/// LibTorch, so that it starts in milliseconds) each is a stub that
/// re-executes the whole command line with `ptxdvfs-model`, the same
/// program with LibTorch linked in; there they are the real commands.
/// (predict, recommend and lint are in both; see PredictorSource.h.)
void setupModelCommands(CLI::App &app, int argc, char **argv, int &exitCode);

} // namespace ptxdvfs::tools
