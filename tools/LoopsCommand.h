// LoopsCommand.h - `ptxdvfs loops`: loops, trip counts and where each count came from.
#pragma once

namespace CLI {
class App;
}

namespace ptxdvfs::tools {

void setupLoopsCommand(CLI::App &app, int &exitCode);

} // namespace ptxdvfs::tools
