// RecommendCommand.h - `ptxdvfs recommend`: the clocks to run at, what they cost, how to apply them.
#pragma once

namespace CLI {
class App;
}

namespace ptxdvfs::tools {

void setupRecommendCommand(CLI::App &app, int &exitCode);

} // namespace ptxdvfs::tools
