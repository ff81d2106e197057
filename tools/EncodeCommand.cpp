// EncodeCommand.cpp - `ptxdvfs encode --scheme NAME FILE.ptx [-o DIR]`.
#include "EncodeCommand.h"

#include "AtomicFile.h"
#include "CountText.h"
#include "DiagnosticPrinter.h"
#include "ExitCodes.h"
#include "ShippedModel.h"
#include "LaunchFlags.h"

#include "ptxdvfs/embeddings/EncodingScheme.h"
#include "ptxdvfs/ptx/Parser.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <regex>
#include <sstream>

namespace ptxdvfs::tools {

namespace fs = std::filesystem;
using embeddings::DependencyKind;
using embeddings::EncodedKernel;
using embeddings::InstructionRecord;

namespace {

const char *kindName(DependencyKind kind) {
  switch (kind) {
  case DependencyKind::Core: return "core";
  case DependencyKind::Memory: return "memory";
  case DependencyKind::Shared: return "shared";
  }
  return "core";
}

std::vector<std::string_view> sourceLines(const ptx::Module &module) {
  std::vector<std::string_view> lines;
  std::string_view text = *module.source;
  lines.reserve(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1);
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos)
      end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string trimmedLine(const std::vector<std::string_view> &lines, std::uint32_t line) {
  if (line == 0 || line > lines.size())
    return "";
  std::string_view text = lines[line - 1];
  std::size_t begin = text.find_first_not_of(" \t");
  std::size_t end = text.find_last_not_of(" \t\r");
  if (begin == std::string_view::npos)
    return "";
  std::string trimmed(text.substr(begin, end - begin + 1));
  std::replace(trimmed.begin(), trimmed.end(), '\t', ' ');
  return trimmed;
}

/// `text` left-aligned in a column of `width` characters (as std::left and
/// std::setw: never cut).
void appendPadded(std::string &row, std::string_view text, std::size_t width) {
  row.append(text);
  if (text.size() < width)
    row.append(width - text.size(), ' ');
}

void printTable(const std::vector<EncodedKernel> &kernels, const embeddings::EncodingScheme &scheme,
                const ptx::Module &module, bool asExecuted, std::ostream &out) {
  auto lines = sourceLines(module);
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    out << "kernel " << k << ": " << kernels[k].name << " (" << kernels[k].instructions.size()
        << " instructions encoded, scheme " << scheme.name();
    if (asExecuted)
      out << ", as executed: " << wholeCountText(kernels[k].executedInstructions())
          << " per thread, " << kernels[k].loops.size() << " loop(s)";
    out << ")\n";
    out << "  " << std::left << std::setw(6) << "line" << std::setw(11) << "code"
        << std::setw(20) << "readable" << std::setw(16) << "dependency";
    if (asExecuted)
      out << std::setw(14) << "loop (line)" << std::setw(9) << "weight";
    out << "PTX\n";
    std::string row; // built by hand: iostream padding was a fifth of a large table's time
    for (const InstructionRecord &record : kernels[k].instructions) {
      row.assign("  ");
      appendPadded(row, std::to_string(record.location.line), 6);
      appendPadded(row, toCode(record), 11);
      appendPadded(row, scheme.readable(record), 20);
      appendPadded(row, record.dependencyDistance == 0
                            ? std::string("-")
                            : std::to_string(record.dependencyDistance) + " back, " +
                                  kindName(record.dependencyKind),
                   16);
      if (asExecuted) {
        std::string loop = record.loop < 0 ? "-"
            : std::to_string(record.loop) + " (" +
                  std::to_string(kernels[k].loops[static_cast<std::size_t>(record.loop)].location.line) + ")";
        std::ostringstream weight;
        weight << std::setprecision(4) << record.weight;
        appendPadded(row, loop, 14);
        appendPadded(row, weight.str(), 9);
      }
      row += trimmedLine(lines, record.location.line);
      row += '\n';
      out.write(row.data(), static_cast<std::streamsize>(row.size()));
    }
  }
}

nlohmann::json toJson(const std::vector<EncodedKernel> &kernels,
                      const embeddings::EncodingScheme &scheme, const ptx::Module &module,
                      bool asExecuted) {
  nlohmann::json list = nlohmann::json::array();
  for (const EncodedKernel &kernel : kernels) {
    nlohmann::json instructions = nlohmann::json::array();
    for (const InstructionRecord &record : kernel.instructions) {
      nlohmann::json entry = {{"line", record.location.line},
                              {"column", record.location.column},
                              {"code", toCode(record)},
                              {"readable", scheme.readable(record)},
                              {"opcode", record.opcode},
                              {"state_space", record.stateSpace},
                              {"type", record.type},
                              {"operands", record.operandCount},
                              {"dependency_distance", record.dependencyDistance},
                              {"dependency_kind", kindName(record.dependencyKind)},
                              {"unit", std::string(embeddings::executionUnitName(record.unit))}};
      if (asExecuted) {
        entry["weight"] = record.weight;
        entry["loop"] = record.loop;
      }
      if (record.debugLocation)
        entry["source"] = {{"file", std::string(module.sourcePath(*record.debugLocation))},
                           {"line", record.debugLocation->line},
                           {"column", record.debugLocation->column}};
      instructions.push_back(std::move(entry));
    }
    nlohmann::json entry = {{"name", kernel.name}, {"instructions", std::move(instructions)}};
    if (asExecuted) {
      entry["executed_instructions"] = kernel.executedInstructions();
      nlohmann::json loops = nlohmann::json::array();
      for (const auto &loop : kernel.loops)
        loops.push_back({{"line", loop.location.line},
                         {"depth", loop.depth},
                         {"trip_count", loop.meanTripCount},
                         {"trip_count_is_upper_bound", loop.atMost},
                         {"origin", std::string(ptx::analysis::originName(loop))}});
      entry["loops"] = std::move(loops);
    }
    list.push_back(std::move(entry));
  }
  return {{"path", module.path},
          {"scheme", std::string(scheme.name())},
          {"as_executed", asExecuted},
          {"kernels", list}};
}

/// Removes `kernel_<k>.codes`/`.readable` for every k >= `count`.
void removeStaleKernelFiles(const std::string &dir, std::size_t count) {
  static const std::regex kernelFile(R"(kernel_(\d+)\.(codes|readable|weights))");
  std::error_code error;
  for (const auto &entry : fs::directory_iterator(dir, error)) {
    std::smatch match;
    std::string name = entry.path().filename().string();
    if (std::regex_match(name, match, kernelFile) && std::stoull(match[1]) >= count)
      fs::remove(entry.path(), error);
  }
}

/// Appends `line` and a newline to `text`.
void appendLine(std::string &text, std::string_view line) {
  text.append(line);
  text += '\n';
}

/// Writes the conformance layout; in a folder an earlier run wrote, removes
/// the kernel files it left for kernels this file does not have, so the
/// folder describes this file only.
int writeOutput(const std::vector<EncodedKernel> &kernels, const embeddings::EncodingScheme &scheme,
                bool asExecuted, const std::string &dir) {
  std::vector<std::pair<std::string, std::string>> files; // name in dir, content
  files.reserve(3 * kernels.size() + 1);
  std::string names;
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    std::string codes, readable, weights;
    codes.reserve(10 * kernels[k].instructions.size());
    for (const InstructionRecord &record : kernels[k].instructions) {
      appendLine(codes, toCode(record));
      appendLine(readable, scheme.readable(record));
      if (asExecuted) {
        std::ostringstream weight;
        weight << std::setprecision(17) << record.weight;
        appendLine(weights, weight.str());
      }
    }
    std::string base = "kernel_" + std::to_string(k);
    files.emplace_back(base + ".codes", std::move(codes));
    files.emplace_back(base + ".readable", std::move(readable));
    if (asExecuted)
      files.emplace_back(base + ".weights", std::move(weights));
    appendLine(names, kernels[k].name);
  }
  files.emplace_back("kernel_names.txt", std::move(names));
  bool existed = false;
  if (std::string failure = writeFolderAtomically(dir, files, existed); !failure.empty()) {
    spdlog::error("{}", failure);
    return kExitInputError;
  }
  if (existed)
    removeStaleKernelFiles(dir, kernels.size());
  spdlog::info("wrote {} kernel(s) to {}", kernels.size(), dir);
  return kExitSuccess;
}

} // namespace

void setupEncodeCommand(CLI::App &app, int &exitCode) {
  auto options = std::make_shared<EncodeOptions>();
  CLI::App *command = app.add_subcommand(
      "encode", "Encode each kernel of a PTX file as a sequence of instruction codes");
  command->footer(
      "Examples:\n"
      "  ptxdvfs encode kernel.ptx                     table: line, code, readable form, dependency\n"
      "  ptxdvfs encode kernel.ptx -o encoded/         kernel_<k>.codes/.readable, kernel_names.txt\n"
      "  ptxdvfs encode --json kernel.ptx\n"
      "  ptxdvfs encode --as-executed --assume n=4096 kernel.ptx   loops expanded, with weights\n"
      "Kernels are the .entry functions, numbered from 0 in file order.");
  command->add_option("file", options->file, "PTX file")->required()->check(CLI::ExistingFile);
  std::vector<std::string> schemes;
  for (std::string_view name : embeddings::schemeNames())
    schemes.emplace_back(name);
  options->scheme = schemes.front();
  command->add_option("--scheme", options->scheme, "Encoding scheme")
      ->check(CLI::IsMember(schemes))
      ->capture_default_str();
  options->vocabularyDir = shippedVocabularyDir();
  command->add_option("--vocabulary", options->vocabularyDir,
                      "Folder with ptx_isa.txt, ptx_state_spaces.txt, ptx_instruction_types.txt")
      ->check(CLI::ExistingDirectory)
      ->capture_default_str();
  command->add_option("-o,--output", options->outputDir, "Write the encoding into this folder");
  command->add_flag("--json", options->json, "Print the encoding as JSON on stdout");
  command->add_flag("--as-executed", options->asExecuted,
                    "Read each kernel as one thread executes it: loops repeated by their trip "
                    "counts, calls inlined; each record carries its weight (see 'ptxdvfs loops')");
  command->add_flag("--broadcast-loads-as-constant", options->broadcastLoads,
                    "With --as-executed: show a global load whose address is the same in every lane "
                    "of a warp as ld.const (a broadcast, not DRAM traffic), as models trained with "
                    "that setting read it")
      ->needs("--as-executed");
  command->add_option("-j,--jobs", options->jobs,
                      "Threads that parse the file; read as written, each piece is encoded while "
                      "the next is parsed (default: all cores)");
  addLaunchFlags(*command, options->launch);
  command->callback([options, &exitCode] { exitCode = runEncodeCommand(*options); });
}

int runEncodeCommand(const EncodeOptions &options) {
  auto vocabulary = embeddings::loadVocabulary(options.vocabularyDir);
  if (!vocabulary) {
    printDiagnostics(vocabulary.diagnostics(), std::cerr);
    return kExitInputError;
  }
  auto scheme = embeddings::makeScheme(options.scheme, std::move(*vocabulary));
  if (!scheme) {
    printDiagnostics(scheme.diagnostics(), std::cerr);
    return kExitUsageError;
  }
  // Read as written, a kernel needs nothing outside itself: the file is
  // parsed and encoded a piece at a time, so memory stays bounded by a
  // piece. Read as executed, calls reach functions anywhere in the file.
  std::vector<EncodedKernel> kernels;
  ptx::Module module;
  ptx::ParseOptions parseOptions;
  parseOptions.threads = options.jobs;
  if (options.asExecuted) {
    auto parsed = ptx::parseFile(options.file, parseOptions);
    printDiagnostics(parsed.diagnostics(), std::cerr);
    if (!parsed)
      return kExitInputError;
    module = std::move(*parsed);
    embeddings::EncodeOptions encodeOptions;
    encodeOptions.asExecuted = true;
    encodeOptions.broadcastLoadsAsConstant = options.broadcastLoads;
    if (std::string error = toAssumptions(options.launch, module, readCudaSources(module), encodeOptions.launch); !error.empty()) {
      spdlog::error("{}", error);
      return kExitUsageError;
    }
    encodeOptions.expansion = toExpansionOptions(options.launch);
    kernels = (*scheme)->encode(module, encodeOptions);
  } else {
    embeddings::EncodingScheme::PieceEncoder encoder(**scheme);
    ptx::ParseResult parsed =
        ptx::parseFileInPieces(options.file, parseOptions, [&](ptx::Module &piece) {
          for (EncodedKernel &kernel : encoder.encode(piece))
            kernels.push_back(std::move(kernel));
        });
    printDiagnostics(parsed.diagnostics, std::cerr);
    if (ptx::hasErrors(parsed.diagnostics))
      return kExitInputError;
    module = std::move(parsed.module); // the header: path, source and .file table
  }
  for (const EncodedKernel &kernel : kernels)
    printDiagnostics(kernel.warnings, std::cerr);
  if (kernels.empty())
    spdlog::warn("{}: no kernel (.entry) to encode", options.file);
  if (!options.outputDir.empty())
    return writeOutput(kernels, **scheme, options.asExecuted, options.outputDir);
  if (options.json)
    std::cout << toJson(kernels, **scheme, module, options.asExecuted).dump(2) << '\n';
  else
    printTable(kernels, **scheme, module, options.asExecuted, std::cout);
  return kExitSuccess;
}

} // namespace ptxdvfs::tools
