// LintCommand.h - `ptxdvfs lint`: DVFS hints on the kernel's source line, for editors and CI.
#pragma once

namespace CLI {
class App;
}

namespace ptxdvfs::tools {

void setupLintCommand(CLI::App &app, int &exitCode);

} // namespace ptxdvfs::tools
