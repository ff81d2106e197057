// LspCommand.cpp - `ptxdvfs lsp`: load the model once, then read framed messages until `exit`.
#include "LspCommand.h"

#include "ExitCodes.h"
#include "lsp/Server.h"

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <iostream>
#include <memory>

namespace ptxdvfs::tools {

namespace {

int runLsp(const lsp::AnalysisSettings &settings) {
  std::shared_ptr<const PredictionModel> model;
  if (int status = loadPredictionModel(settings.prediction.model, model); status != kExitSuccess)
    return status;
  spdlog::info("language server ready: predictor {} of {}", model->predictor, model->modelDir);
  lsp::MessageWriter writer(std::cout);
  lsp::LanguageServer server(model, settings, writer);
  while (true) {
    lsp::Frame frame = lsp::readFrame(std::cin);
    if (frame.endOfStream)
      break;
    if (!frame.error.empty()) {
      spdlog::warn("{}", frame.error);
      writer.respondError(nullptr, lsp::kInvalidRequest, frame.error);
      continue;
    }
    if (!server.handle(frame.body))
      break;
  }
  return server.exitStatus();
}

} // namespace

void setupLspCommand(CLI::App &app, int &exitCode) {
  auto settings = std::make_shared<lsp::AnalysisSettings>();
  CLI::App *command = app.add_subcommand(
      "lsp", "Language server (LSP 3.17 over stdio): DVFS hints as diagnostics, numbers on hover");
  command->footer(
      "For editors; it speaks JSON-RPC on stdin/stdout and logs on stderr.\n"
      "  .ptx documents are analysed as the editor holds them, on open and on save;\n"
      "  .cu documents are compiled by nvcc (-ptx -lineinfo, --arch and --nvcc-flag added)\n"
      "  from disk on open and on save, in the background: a newer save stops the\n"
      "  running nvcc. nvcc's errors on the file are shown too.\n"
      "Each kernel's hint (as `ptxdvfs lint` prints it) is a diagnostic on the kernel's\n"
      "name; hovering the name shows the predicted time, power and energy at the chosen\n"
      "clocks against the default ones. The model is loaded once, at start.\n"
      "Neovim (0.8 or newer):\n"
      "  vim.lsp.start({ name = 'ptxdvfs', cmd = { 'ptxdvfs', 'lsp' } })\n"
      "VS Code: any generic LSP client extension, command `ptxdvfs lsp`.\n"
      "More in README.md (\"In the editor\").\n"
      "Exit status: 0 after shutdown and exit, 1 on exit without shutdown or when the\n"
      "model could not be read, 2 usage error.");
  addPredictionFlags(*command, settings->prediction, /*files=*/false);
  addHintFlags(*command, settings->lint, "Hints");
  command->callback([settings, &exitCode] { exitCode = runLsp(*settings); });
}

} // namespace ptxdvfs::tools
