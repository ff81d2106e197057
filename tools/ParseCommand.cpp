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

/// What `parse` reports of a function; kept instead of the function, so
/// that a file of any size is read a piece at a time.
struct FunctionSummary {
  std::string name;
  ptx::FunctionKind kind;
  std::uint32_t line;
  std::size_t instructions;
  std::size_t parameters;
  bool hasBody;
};

FunctionSummary summarize(const ptx::Function &function) {
  return {function.name,
          function.kind,
          function.location.line,
          function.instructionCount(),
          function.parameters.size(),
          function.hasBody};
}

nlohmann::json describeFunction(const FunctionSummary &function) {
  return {{"name", function.name},
          {"kind", std::string(ptx::toString(function.kind))},
          {"line", function.line},
          {"instructions", function.instructions},
          {"parameters", function.parameters},
          {"has_body", function.hasBody}};
}

nlohmann::json describeModule(const ptx::Module &header, const std::vector<FunctionSummary> &functions) {
  nlohmann::json kernels = nlohmann::json::array();
  nlohmann::json others = nlohmann::json::array();
  for (const FunctionSummary &function : functions)
    (function.kind == ptx::FunctionKind::Entry ? kernels : others)
        .push_back(describeFunction(function));
  return {{"version", header.version},
          {"targets", header.targets},
          {"address_size", header.addressSize},
          {"kernels", kernels},
          {"functions", others}};
}

void printModule(const ptx::Module &header, const std::vector<FunctionSummary> &functions,
                 std::ostream &out) {
  out << header.path << ": PTX " << (header.version.empty() ? "?" : header.version);
  for (std::size_t i = 0; i < header.targets.size(); ++i)
    out << (i == 0 ? ", target " : ", ") << header.targets[i];
  if (header.addressSize)
    out << ", " << header.addressSize << "-bit addresses";
  out << '\n';
  if (functions.empty())
    out << "  (no kernels or functions)\n";
  for (const FunctionSummary &function : functions) {
    out << "  " << (function.kind == ptx::FunctionKind::Entry ? "kernel   " : "function ")
        << function.name;
    if (function.hasBody)
      out << "  " << function.instructions << " instructions";
    else
      out << "  (declaration)";
    out << "  (line " << function.line << ")\n";
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
    std::vector<FunctionSummary> functions;
    ptx::ParseResult parsed = ptx::parseFileInPieces(path, parseOptions, [&](ptx::Module &piece) {
      for (const ptx::Function &function : piece.functions)
        functions.push_back(summarize(function));
    });
    auto elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start);
    spdlog::debug("parsed {} in {:.3f} s", path, elapsed.count());
    printDiagnostics(parsed.diagnostics, std::cerr);
    bool ok = !ptx::hasErrors(parsed.diagnostics);
    nlohmann::json entry = {{"path", path}, {"ok", ok}};
    entry["diagnostics"] = diagnosticsToJson(parsed.diagnostics);
    if (!ok) {
      anyErrors = true;
    } else if (options.json) {
      entry.update(describeModule(parsed.module, functions));
    } else {
      printModule(parsed.module, functions, std::cout);
    }
    report.push_back(std::move(entry));
  }
  if (options.json)
    std::cout << nlohmann::json{{"files", report}}.dump(2) << '\n';
  return anyErrors ? kExitInputError : kExitSuccess;
}

} // namespace ptxdvfs::tools
