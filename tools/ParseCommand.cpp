// ParseCommand.cpp - `ptxdvfs parse FILE...`.
#include "ParseCommand.h"

#include "DiagnosticPrinter.h"
#include "ExitCodes.h"

#include "ptxdvfs/ptx/Parser.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <chrono>
#include <iostream>
#include <memory>

namespace ptxdvfs::tools {

namespace {

nlohmann::json describeFunction(const ptx::Function &function) {
  return {{"name", function.name},
          {"kind", std::string(ptx::toString(function.kind))},
          {"line", function.location.line},
          {"instructions", function.instructionCount()},
          {"parameters", function.parameters.size()},
          {"has_body", function.hasBody}};
}

nlohmann::json describeModule(const ptx::Module &module) {
  nlohmann::json kernels = nlohmann::json::array();
  nlohmann::json functions = nlohmann::json::array();
  for (const ptx::Function &function : module.functions)
    (function.kind == ptx::FunctionKind::Entry ? kernels : functions)
        .push_back(describeFunction(function));
  return {{"version", module.version},
          {"targets", module.targets},
          {"address_size", module.addressSize},
          {"kernels", kernels},
          {"functions", functions}};
}

void printModule(const ptx::Module &module, std::ostream &out) {
  out << module.path << ": PTX " << (module.version.empty() ? "?" : module.version);
  for (std::size_t i = 0; i < module.targets.size(); ++i)
    out << (i == 0 ? ", target " : ", ") << module.targets[i];
  if (module.addressSize)
    out << ", " << module.addressSize << "-bit addresses";
  out << '\n';
  if (module.functions.empty())
    out << "  (no kernels or functions)\n";
  for (const ptx::Function &function : module.functions) {
    out << "  " << (function.kind == ptx::FunctionKind::Entry ? "kernel   " : "function ")
        << function.name;
    if (function.hasBody)
      out << "  " << function.instructionCount() << " instructions";
    else
      out << "  (declaration)";
    out << "  (line " << function.location.line << ")\n";
  }
}

} // namespace

void setupParseCommand(CLI::App &app, int &exitCode) {
  auto options = std::make_shared<ParseOptions>();
  CLI::App *command = app.add_subcommand(
      "parse", "Check PTX files and list their kernels and functions");
  command->footer(
      "Examples:\n"
      "  ptxdvfs parse kernel.ptx                 kernels and instruction counts\n"
      "  ptxdvfs parse --json build/*.ptx > out.json\n"
      "Syntax errors are printed as file:line:col: error: message.\n"
      "Exit status: 0 all files parse, 1 some file has errors, 2 usage error.");
  command->add_option("files", options->files, "PTX files to parse")
      ->required()
      ->check(CLI::ExistingFile);
  command->add_flag("--json", options->json, "Print the result as JSON on stdout");
  command->add_option("-j,--jobs", options->jobs,
                      "Threads that parse one file (default: all cores)");
  command->callback([options, &exitCode] { exitCode = runParseCommand(*options); });
}

int runParseCommand(const ParseOptions &options) {
  ptx::ParseOptions parseOptions;
  parseOptions.threads = options.jobs;
  nlohmann::json report = nlohmann::json::array();
  bool anyErrors = false;
  for (const std::string &path : options.files) {
    auto start = std::chrono::steady_clock::now();
    ptx::Expected<ptx::Module> module = ptx::parseFile(path, parseOptions);
    auto elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start);
    spdlog::debug("parsed {} in {:.3f} s", path, elapsed.count());
    printDiagnostics(module.diagnostics(), std::cerr);
    nlohmann::json entry = {{"path", path}, {"ok", module.hasValue()}};
    entry["diagnostics"] = diagnosticsToJson(module.diagnostics());
    if (!module) {
      anyErrors = true;
    } else if (options.json) {
      entry.update(describeModule(*module));
    } else {
      printModule(*module, std::cout);
    }
    report.push_back(std::move(entry));
  }
  if (options.json)
    std::cout << nlohmann::json{{"files", report}}.dump(2) << '\n';
  return anyErrors ? kExitInputError : kExitSuccess;
}

} // namespace ptxdvfs::tools
