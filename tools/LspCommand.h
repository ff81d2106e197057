// LspCommand.h - `ptxdvfs lsp`: the language server for editors, over stdio.
#pragma once

namespace CLI {
class App;
}

namespace ptxdvfs::tools {

void setupLspCommand(CLI::App &app, int &exitCode);

} // namespace ptxdvfs::tools
