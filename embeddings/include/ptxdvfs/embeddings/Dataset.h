// Dataset.h - benchmarks with encoded kernels and measurements at every V-F point.
#pragma once

#include "ptxdvfs/embeddings/EncodingScheme.h"
#include "ptxdvfs/embeddings/GpuClocks.h"
#include "ptxdvfs/embeddings/InstructionRecord.h"

#include <functional>
#include <string>
#include <vector>

namespace ptxdvfs::embeddings {

/// What was measured at one V-F point. Units are those of the dataset
/// (for the shared GTX Titan X set: time in ms, power in W, energy in mJ);
/// a scaling factor divides each by its value at the reference point.
struct Measurement {
  double time = 0;   ///< execution time (> 0)
  double power = 0;  ///< average power, W (> 0)
  double energy = 0; ///< time x power (> 0)
};

struct Benchmark {
  std::string name;
  /// All kernels in numeric order (`_10` after `_9`), or only the
  /// lexicographically last file under KernelSelection::LastFileOnly.
  std::vector<EncodedKernel> kernels;
  /// One per point of GpuClocks::grid(), in that order.
  std::vector<Measurement> measurements;
  /// `measurements` divided by the measurement at Dataset::reference.
  std::vector<Measurement> scaling;
};

enum class ReferenceKind { Default, Fmax };

/// One `.ptx` file of a benchmark folder, parsed, with the launch its
/// kernels are to be read under.
struct PtxFile {
  std::string path;
  ptx::Module module;
  ptx::analysis::LaunchAssumptions launch;
};

enum class KernelSelection {
  AllKernels,   ///< every kernel of an application, in numeric order
  LastFileOnly, ///< what the original tool kept: the last file in name order
};

struct ImportOptions {
  /// Clock tables; empty: `DIR/gpu_info`, else `DIR/../gpu_info`.
  std::string gpuInfoDir;
  ReferenceKind reference = ReferenceKind::Default;
  KernelSelection kernels = KernelSelection::AllKernels;
  /// Make every irregularity an error instead of a warning.
  bool strict = false;
  /// Non-null: read each benchmark's kernels from its `.ptx` files (files
  /// in name order, kernels in file order) and encode them with this
  /// scheme and `encode`, instead of reading stored sequence files.
  const EncodingScheme *ptxScheme = nullptr;
  /// Where the benchmark folders with `.ptx` files are; empty: the dataset
  /// folder's own benchmark folders (the layout the harness writes).
  std::string ptxDir;
  EncodeOptions encode;
  /// With `ptxScheme`, optional: called once per benchmark folder with its
  /// parsed `.ptx` files, each holding a copy of `encode.launch`, before
  /// they are encoded, to add what the PTX cannot tell: the grid, block and
  /// arguments of the kernels' launches (recorded beside the PTX, or in the
  /// CUDA sources it names), so a dataset's kernels are read as `predict`
  /// reads the same file. Returns an error message, empty when all is well;
  /// an error leaves the benchmark out (fails the import when `strict`).
  /// Called from several threads at once.
  /// `gpu` is the dataset's (`gtxtitanx` of `aggregated_dataset_gtxtitanx.csv`).
  std::function<std::string(const std::string &folder, const std::string &gpu, std::vector<PtxFile> &files)>
      completeLaunches;
  /// The vocabulary stored sequences' codes index: with it each record gets
  /// its ExecutionUnit; without it, Unknown. (With `ptxScheme`, the
  /// scheme's vocabulary does this.)
  const Vocabulary *vocabulary = nullptr;
  /// Threads that parse and encode PTX files (0: hardware concurrency).
  unsigned threads = 0;
};

struct Dataset {
  std::string directory;
  std::string scheme; ///< the encoding and reading (see readingName()) of the sequences
  GpuClocks clocks;
  VfPoint reference;
  std::vector<Benchmark> benchmarks; ///< name order; only complete benchmarks
};

/// Reads a folder in the gpuPTXModel layout: `aggregated_dataset_<gpu>.csv`
/// (blocks of a name line and one `fmem,fcore,time,power,energy` row per
/// V-F point) and one folder per benchmark holding
/// `outputSequence_kernel_depend_<k>.csv`. Irregular input (a benchmark
/// without measurements or without sequences, a name measured twice, a
/// missing V-F row, a non-numeric or non-positive value, a malformed code)
/// gives one warning naming the benchmark and file:line, and that
/// benchmark is left out (of a name measured twice, the first block is
/// kept). Warnings travel in the result's diagnostics; with `strict` they
/// are errors and the import fails. With `ptxScheme`, a benchmark whose
/// PTX does not parse is reported (file:line:col) and left out likewise.
ptx::Expected<Dataset> importDataset(const std::string &dir, const ImportOptions &options = {});

} // namespace ptxdvfs::embeddings
