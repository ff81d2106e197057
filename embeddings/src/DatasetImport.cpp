// DatasetImport.cpp - the gpuPTXModel folder layout: measurements CSV plus sequence folders.
#include "ptxdvfs/embeddings/Dataset.h"

#include "ptxdvfs/embeddings/EncodingScheme.h"
#include "ptxdvfs/ptx/Parser.h"
#include "ptxdvfs/ptx/WorkQueue.h"

#include "Text.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <thread>

namespace ptxdvfs::embeddings {

namespace fs = std::filesystem;

namespace {

constexpr const char *kSequencePrefix = "outputSequence_kernel_depend_";
constexpr const char *kOccurrencesFile = "outputOccurrences_per_kernel.csv";

std::vector<std::string> splitFields(const std::string &line) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (std::size_t comma; (comma = line.find(',', start)) != std::string::npos; start = comma + 1)
    fields.push_back(trimmed(line.substr(start, comma - start)));
  fields.push_back(trimmed(line.substr(start)));
  return fields;
}

std::optional<double> positiveNumber(const std::string &text) {
  char *end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value) || value <= 0)
    return std::nullopt;
  return value;
}

std::optional<unsigned> clockValue(const std::string &text) {
  auto value = positiveNumber(text);
  if (!value || *value != std::floor(*value) || *value > 1e6)
    return std::nullopt;
  return static_cast<unsigned>(*value);
}

/// Collects irregularities; one per benchmark problem.
class Report {
public:
  void warn(const std::string &path, unsigned line, std::string message) {
    diagnostics_.push_back({path, {line, 0}, ptx::Severity::Warning, std::move(message)});
  }
  void append(Report &other) {
    for (auto &diagnostic : other.diagnostics_)
      diagnostics_.push_back(std::move(diagnostic));
    other.diagnostics_.clear();
  }
  ptx::Diagnostics take(bool strict) {
    if (strict)
      for (auto &diagnostic : diagnostics_)
        diagnostic.severity = ptx::Severity::Error;
    return std::move(diagnostics_);
  }

private:
  ptx::Diagnostics diagnostics_;
};

struct MeasurementBlock {
  std::string name;
  unsigned line = 0;
  std::map<VfPoint, Measurement> rows;
  bool rejected = false;
};

struct MeasurementTable {
  /// Complete, valid blocks, rows in grid order.
  std::map<std::string, std::vector<Measurement>> measured;
  /// Names whose block was reported and left out (warned about once).
  std::set<std::string> rejected;
};

/// Reads the blocks of the measurements file.
MeasurementTable readMeasurements(const std::string &path, const GpuClocks &clocks,
                                  Report &report) {
  MeasurementTable table;
  auto &measured = table.measured;
  std::map<std::string, unsigned> firstSeenAt;
  std::vector<VfPoint> grid = clocks.grid();
  std::optional<MeasurementBlock> block;

  auto finish = [&] {
    if (!block)
      return;
    if (auto seen = firstSeenAt.find(block->name); seen != firstSeenAt.end()) {
      report.warn(path, block->line,
                  "benchmark '" + block->name + "' is measured twice (first at line " +
                      std::to_string(seen->second) + "); keeping the first block");
      return;
    }
    firstSeenAt[block->name] = block->line;
    if (block->rejected) {
      table.rejected.insert(block->name);
      return;
    }
    for (VfPoint point : grid) {
      if (block->rows.count(point))
        continue;
      report.warn(path, block->line,
                  "benchmark '" + block->name + "' has no row for V-F point (" +
                      std::to_string(point.memoryMHz) + ", " + std::to_string(point.coreMHz) +
                      ") MHz; left out");
      table.rejected.insert(block->name);
      return;
    }
    std::vector<Measurement> &rows = measured[block->name];
    for (VfPoint point : grid)
      rows.push_back(block->rows.at(point));
  };
  auto reject = [&](unsigned line, const std::string &message) {
    if (!block->rejected)
      report.warn(path, line, "benchmark '" + block->name + "': " + message + "; left out");
    block->rejected = true;
  };

  std::ifstream in(path);
  std::string raw;
  for (unsigned number = 1; std::getline(in, raw); ++number) {
    std::string line = trimmed(raw);
    if (line.empty())
      continue;
    if (line.find(',') == std::string::npos) {
      finish();
      block = MeasurementBlock{line, number, {}, false};
      continue;
    }
    if (!block) {
      report.warn(path, number, "measurement row before any benchmark name; ignored");
      continue;
    }
    std::vector<std::string> fields = splitFields(line);
    if (fields.size() != 5) {
      reject(number, "a row needs 5 fields (fmem,fcore,time,power,energy), found " +
                         std::to_string(fields.size()));
      continue;
    }
    auto memory = clockValue(fields[0]), core = clockValue(fields[1]);
    auto time = positiveNumber(fields[2]), power = positiveNumber(fields[3]),
         energy = positiveNumber(fields[4]);
    if (!memory || !core || !time || !power || !energy) {
      reject(number, "'" + line + "' holds a non-numeric or non-positive value");
      continue;
    }
    VfPoint point{*memory, *core};
    if (!clocks.contains(point)) {
      reject(number, "(" + fields[0] + ", " + fields[1] + ") MHz is not a V-F point of " +
                         clocks.gpu);
      continue;
    }
    if (!block->rows.emplace(point, Measurement{*time, *power, *energy}).second)
      reject(number, "V-F point (" + fields[0] + ", " + fields[1] + ") MHz appears twice");
  }
  finish();
  return table;
}

/// Kernel names from the occurrences file (first field of each line), if
/// it has one line per kernel.
std::vector<std::string> kernelNames(const fs::path &folder, std::size_t kernels) {
  std::ifstream in(folder / kOccurrencesFile);
  std::vector<std::string> names;
  for (std::string line; std::getline(in, line);)
    if (!trimmed(line).empty())
      names.push_back(trimmed(line.substr(0, line.find(','))));
  if (names.size() != kernels)
    names.clear();
  return names;
}

/// The encoded kernels of one benchmark folder; nullopt (with a warning)
/// when a file holds something that is not a code.
std::optional<std::vector<EncodedKernel>> readSequences(const fs::path &folder,
                                                        KernelSelection selection,
                                                        Report &report) {
  static const std::regex sequenceFile(std::string(kSequencePrefix) + R"((\d+)\.csv)");
  std::vector<std::pair<std::size_t, std::string>> files; // kernel index, file name
  bool hasPtx = false;
  for (const auto &entry : fs::directory_iterator(folder)) {
    std::smatch match;
    std::string name = entry.path().filename().string();
    if (std::regex_match(name, match, sequenceFile))
      files.emplace_back(std::stoull(match[1]), name);
    hasPtx |= entry.path().extension() == ".ptx";
  }
  std::string benchmark = folder.filename().string();
  if (files.empty()) {
    // A PTX dataset (what `ptxdvfs collect` writes) read without --ptx.
    std::string hint = hasPtx ? " (it holds PTX: read it with --ptx DIR)" : "";
    report.warn(folder.string(), 0,
                "benchmark '" + benchmark + "' has no " + kSequencePrefix + "<k>.csv" + hint + "; left out");
    return std::nullopt;
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> names = kernelNames(folder, files.size());
  if (selection == KernelSelection::LastFileOnly) {
    // quirk: the original tool kept the last file in name order (`_9` after `_10`).
    auto last = std::max_element(files.begin(), files.end(),
                                 [](const auto &a, const auto &b) { return a.second < b.second; });
    files = {*last};
  }

  std::vector<EncodedKernel> kernels;
  for (const auto &[index, file] : files) {
    std::string path = (folder / file).string();
    EncodedKernel kernel;
    kernel.name = index < names.size() ? names[index] : "kernel_" + std::to_string(index);
    std::ifstream in(path);
    std::string raw;
    for (unsigned number = 1; std::getline(in, raw); ++number) {
      std::string code = trimmed(raw);
      if (code.empty())
        continue;
      auto record = parseCode(code);
      if (!record) {
        report.warn(path, number,
                    "benchmark '" + benchmark + "': " + record.diagnostics()[0].message +
                        "; left out");
        return std::nullopt;
      }
      kernel.instructions.push_back(*record);
    }
    kernels.push_back(std::move(kernel));
  }
  return kernels;
}

/// The kernels of every `.ptx` file in `folder`, encoded; nullopt (with a
/// warning) when there is none or one does not parse.
std::optional<std::vector<EncodedKernel>> readPtxKernels(const fs::path &folder, const std::string &gpu,
                                                         const ImportOptions &options,
                                                         Report &report) {
  std::vector<fs::path> files;
  for (const auto &entry : fs::directory_iterator(folder))
    if (entry.is_regular_file() && entry.path().extension() == ".ptx")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::string benchmark = folder.filename().string();
  if (files.empty()) {
    report.warn(folder.string(), 0, "benchmark '" + benchmark + "' has no .ptx file; left out");
    return std::nullopt;
  }
  std::vector<PtxFile> parsed;
  for (const fs::path &file : files) {
    auto module = ptx::parseFile(file.string());
    if (!module) {
      const ptx::Diagnostic &first = module.diagnostics().front();
      report.warn(first.path, first.location.line,
                  "benchmark '" + benchmark + "': " + first.message + "; left out");
      return std::nullopt;
    }
    parsed.push_back({file.string(), std::move(*module), options.encode.launch});
  }
  if (options.completeLaunches)
    if (std::string problem = options.completeLaunches(folder.string(), gpu, parsed); !problem.empty()) {
      report.warn(folder.string(), 0, "benchmark '" + benchmark + "': " + problem + "; left out");
      return std::nullopt;
    }
  std::vector<EncodedKernel> kernels;
  for (PtxFile &file : parsed) {
    EncodeOptions encode = options.encode;
    encode.launch = std::move(file.launch);
    for (EncodedKernel &kernel : options.ptxScheme->encode(file.module, encode)) {
      for (ptx::analysis::LoopReport &loop : kernel.loops)
        loop.function = nullptr; // the module ends here; a dataset keeps the counts, not the code
      kernels.push_back(std::move(kernel));
    }
  }
  if (options.kernels == KernelSelection::LastFileOnly && !kernels.empty())
    kernels.erase(kernels.begin(), kernels.end() - 1);
  return kernels;
}

std::vector<Measurement> scalingFactors(const std::vector<Measurement> &measurements,
                                        std::size_t referenceIndex) {
  const Measurement &reference = measurements[referenceIndex];
  std::vector<Measurement> factors;
  factors.reserve(measurements.size());
  for (const Measurement &m : measurements)
    factors.push_back(
        {m.time / reference.time, m.power / reference.power, m.energy / reference.energy});
  return factors;
}

ptx::Expected<Dataset> failure(const std::string &path, std::string message) {
  return ptx::Expected<Dataset>::failure(
      ptx::Diagnostic{path, {}, ptx::Severity::Error, std::move(message)});
}

} // namespace

ptx::Expected<Dataset> importDataset(const std::string &dir, const ImportOptions &options) {
  if (!fs::is_directory(dir))
    return failure(dir, "not a dataset folder (no such directory)");
  std::vector<std::string> csvFiles;
  static const std::regex aggregated(R"(aggregated_dataset_(.+)\.csv)");
  std::string gpu;
  for (const auto &entry : fs::directory_iterator(dir)) {
    std::smatch match;
    std::string name = entry.path().filename().string();
    if (std::regex_match(name, match, aggregated)) {
      csvFiles.push_back(entry.path().string());
      gpu = match[1];
    }
  }
  if (csvFiles.size() != 1)
    return failure(dir, csvFiles.empty()
                            ? "no aggregated_dataset_<gpu>.csv in the dataset folder"
                            : "several aggregated_dataset_<gpu>.csv files; keep one per folder");

  std::string clockDir = options.gpuInfoDir;
  if (clockDir.empty())
    clockDir = fs::is_directory(fs::path(dir) / "gpu_info") ? (fs::path(dir) / "gpu_info").string()
                                                            : (fs::path(dir) / ".." / "gpu_info").string();
  auto clocks = loadGpuClocks(clockDir, gpu);
  if (!clocks)
    return ptx::Expected<Dataset>::failure(clocks.takeDiagnostics());

  Dataset dataset;
  dataset.directory = dir;
  dataset.scheme = options.ptxScheme
                       ? readingName(options.ptxScheme->name(), options.encode)
                       : std::string(kGpuPtxModelV1);
  dataset.clocks = std::move(*clocks);
  dataset.reference = options.reference == ReferenceKind::Fmax ? dataset.clocks.fmax
                                                               : dataset.clocks.defaultPoint;
  std::vector<VfPoint> grid = dataset.clocks.grid();
  std::size_t referenceIndex =
      static_cast<std::size_t>(std::find(grid.begin(), grid.end(), dataset.reference) - grid.begin());

  Report report;
  MeasurementTable table = readMeasurements(csvFiles.front(), dataset.clocks, report);
  std::string sequenceRoot = options.ptxScheme && !options.ptxDir.empty() ? options.ptxDir : dir;
  if (!fs::is_directory(sequenceRoot))
    return failure(sequenceRoot, "not a folder of benchmark PTX (no such directory)");
  std::vector<fs::path> folders;
  for (const auto &entry : fs::directory_iterator(sequenceRoot))
    if (entry.is_directory() && entry.path().filename() != "gpu_info")
      folders.push_back(entry.path());
  std::sort(folders.begin(), folders.end());

  // Parsing and expanding PTX is the slow part: one job per folder, each
  // with its own report, merged in folder order so the output is stable.
  std::vector<std::optional<std::vector<EncodedKernel>>> read(folders.size());
  std::vector<Report> reports(folders.size());
  unsigned threads = options.ptxScheme ? options.threads : 1;
  if (threads == 0)
    threads = std::max(1u, std::thread::hardware_concurrency());
  ptx::runJobs(folders.size(), threads, [&](std::size_t i) {
    read[i] = options.ptxScheme ? readPtxKernels(folders[i], gpu, options, reports[i])
                                : readSequences(folders[i], options.kernels, reports[i]);
  });
  for (Report &folderReport : reports)
    report.append(folderReport);
  if (!options.ptxScheme && options.vocabulary) {
    ExecutionUnitTable units(*options.vocabulary);
    for (auto &kernels : read)
      if (kernels)
        units.assign(*kernels);
  }

  std::map<std::string, bool> hasSequences;
  for (std::size_t i = 0; i < folders.size(); ++i) {
    const fs::path &folder = folders[i];
    std::string name = folder.filename().string();
    auto &kernels = read[i];
    hasSequences[name] = true;
    if (!kernels)
      continue;
    auto measurements = table.measured.find(name);
    if (measurements == table.measured.end()) {
      if (!table.rejected.count(name))
        report.warn(folder.string(), 0,
                    "benchmark '" + name + "' has " + (options.ptxScheme ? "PTX" : "sequences") +
                        " but no measurements; left out");
      continue;
    }
    dataset.benchmarks.push_back({name, std::move(*kernels), measurements->second,
                                  scalingFactors(measurements->second, referenceIndex)});
  }
  for (const auto &[name, rows] : table.measured)
    if (!hasSequences.count(name))
      report.warn(csvFiles.front(), 0,
                  "benchmark '" + name + "' is measured but has no sequence folder; left out");

  ptx::Diagnostics diagnostics = report.take(options.strict);
  if (ptx::hasErrors(diagnostics))
    return ptx::Expected<Dataset>::failure(std::move(diagnostics));
  return ptx::Expected<Dataset>(std::move(dataset), std::move(diagnostics));
}

} // namespace ptxdvfs::embeddings
