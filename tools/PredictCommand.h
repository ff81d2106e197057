// PredictCommand.h - `ptxdvfs predict`: every V-F point's time, power and energy factors.
#pragma once

namespace CLI {
class App;
}

namespace ptxdvfs::tools {

void setupPredictCommand(CLI::App &app, int &exitCode);

} // namespace ptxdvfs::tools
