// KernelInputs.h - what predict, recommend and lint read: PTX files, CUDA sources (via nvcc), binaries (via cuobjdump).
#pragma once

#include "CudaSource.h"

#include "ptxdvfs/ptx/Module.h"

#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace ptxdvfs::tools {

struct InputFlags {
  std::vector<std::string> files;
  bool fromBinary = false;            ///< files are CUDA executables or objects
  std::string arch;                   ///< nvcc -arch for .cu files; empty: nvcc's default
  std::vector<std::string> nvccFlags; ///< passed to nvcc as they are
  std::vector<std::string> kernels;   ///< --kernel globs; empty: every kernel
};

/// Adds the positional FILE..., --from-binary, --arch, --nvcc-flag and
/// --kernel; without `files` (the language server, whose files come from
/// the editor) only the last three.
void addInputFlags(CLI::App &command, InputFlags &flags, bool files = true);

/// Adds --kernel GLOB (repeatable) to `command`, in `group`: see kernelSelected().
void addKernelOption(CLI::App &command, std::vector<std::string> &patterns, const std::string &group);

/// One PTX module read from an input.
struct InputModule {
  std::string input; ///< the file as the user named it
  ptx::Module module;
  std::vector<std::string> nvccFlags; ///< a .cu input's, as nvcc compiled it; empty for PTX
};

/// The CUDA sources of `input` (readCudaSources()), and for a .cu input
/// the macros its nvcc flags set (nvccFlagsFile()), which its host code
/// is read with.
std::vector<CudaSourceFile> sourcesOf(const InputModule &input);

struct Inputs {
  std::vector<InputModule> modules;
  bool allRead = true; ///< false when some input failed (its errors are on stderr)
};

/// Reads every input: a `.ptx` file is parsed; a `.cu` file is compiled to
/// PTX by nvcc (`$CUDACXX`, else `PATH`, else /usr/local/cuda/bin) with
/// -lineinfo, whose own messages reach stderr as they are; with
/// `fromBinary`, every PTX embedded in the file is extracted by
/// `cuobjdump -xptx all`. Errors name the input; nothing is written
/// outside a temporary folder, which is removed.
Inputs readInputs(const InputFlags &flags);

/// Lets another thread stop a compilation while nvcc runs (an editor's
/// newer save makes the running one useless). Thread-safe.
class Cancellation {
public:
  /// Terminates the tool running now, if any, and any started later.
  void cancel();
  bool cancelled() const;
  /// For the runner: registers its child; false if already cancelled.
  bool attach(int pid);
  void detach();

private:
  mutable std::mutex mutex_;
  int child_ = 0;
  bool cancelled_ = false;
};

/// One `.cu` compiled as readInputs() compiles it, for a caller that shows
/// nvcc's messages itself (the language server).
struct CompiledCuda {
  std::optional<InputModule> module; ///< empty when nvcc or the parse failed, or on cancel
  std::string nvccOutput;            ///< what nvcc printed
  ptx::Diagnostics diagnostics;      ///< the PTX parse's, if it got that far
  std::string error;                 ///< why there is no module (empty on cancel)
  bool cancelled = false;
};
CompiledCuda compileCudaFile(const std::string &file, const InputFlags &flags,
                             Cancellation *cancellation = nullptr);

/// Whether kernel `name` (PTX, possibly mangled) is selected by `patterns`
/// (shell globs, matched against the mangled and the demangled name, the
/// demangled name without its parameter list, and for a template instance
/// without its return type, `scale<float>`, also with its integer
/// arguments written without suffixes, `reduce<512>` for `reduce<512u>`,
/// and without its template arguments, `scale`); every kernel when
/// `patterns` is empty.
bool kernelSelected(const std::string &name, const std::vector<std::string> &patterns);

/// The error for an input where nothing was selected: "no kernel (.entry)
/// matches --kernel" when `patterns` filtered, else "no kernel (.entry) "
/// followed by `purpose` ("to predict").
std::string noKernelSelected(const std::vector<std::string> &patterns, const std::string &purpose);

/// `_Z5saxpyifPKfPf` -> `saxpy(int, float, const float *, float *)`; the
/// name itself when it is not mangled.
std::string demangle(const std::string &name);

/// demangle() without the parameter list: `saxpy`; `void reduce<float>`
/// for a template instance, whose demangled name starts with its return type.
std::string demangledWithoutParameters(const std::string &name);

} // namespace ptxdvfs::tools
