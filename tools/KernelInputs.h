// KernelInputs.h - what predict, recommend and lint read: PTX files, CUDA sources (via nvcc), binaries (via cuobjdump).
#pragma once

#include "ptxdvfs/ptx/Module.h"

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

/// Adds the positional FILE..., --from-binary, --arch, --nvcc-flag and --kernel.
void addInputFlags(CLI::App &command, InputFlags &flags);

/// One PTX module read from an input.
struct InputModule {
  std::string input; ///< the file as the user named it
  ptx::Module module;
};

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

/// Whether kernel `name` (PTX, possibly mangled) is selected by `patterns`
/// (shell globs, matched against the mangled and the demangled name and
/// the demangled name without its parameter list); every kernel when
/// `patterns` is empty.
bool kernelSelected(const std::string &name, const std::vector<std::string> &patterns);

/// `_Z5saxpyifPKfPf` -> `saxpy(int, float, const float *, float *)`; the
/// name itself when it is not mangled.
std::string demangle(const std::string &name);

} // namespace ptxdvfs::tools
