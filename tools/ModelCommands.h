// ModelCommands.h - the subcommands that need LibTorch, and how the light `ptxdvfs` hands them over.
#pragma once

namespace CLI {
class App;
}

namespace ptxdvfs::tools {

/// Registers train, evaluate, predict, recommend and lint. In `ptxdvfs`
/// itself (built without LibTorch, so that parse, encode, loops and
/// dataset start in milliseconds) each is a stub that re-executes the
/// whole command line with `ptxdvfs-model`, the same program with the
/// model linked in; there they are the real commands.
void setupModelCommands(CLI::App &app, int argc, char **argv, int &exitCode);

} // namespace ptxdvfs::tools
