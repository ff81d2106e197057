// CudaSymbolCopies.h - what the host code writes into `__constant__`
// variables before the launches, `cudaMemcpyToSymbol(c_n, &n, sizeof(int))`,
// read from its CUDA source: a bound a kernel reads from constant memory.
#pragma once

#include "CudaConstants.h"

#include "ptxdvfs/ptx/Module.h"
#include "ptxdvfs/ptx/analysis/Values.h"

#include <map>
#include <string>
#include <vector>

namespace ptxdvfs::tools {

/// A value the host code writes into constant memory, and where (for reasons).
struct SymbolWrite {
  ptx::analysis::AssumedValue value;
  std::string how; ///< "`cudaMemcpyToSymbol` at main.cu:40 writes `n` = 4096"
};

/// Per `__constant__` variable of `module`, by the names `--assume` takes
/// (NAME for the variable or its first bytes, NAME+BYTES past them), what
/// every `cudaMemcpyToSymbol` and `cudaMemcpyToSymbolAsync` of it in
/// the folder's files writes, at no offset: a scalar the source fixes (`&n`), the
/// elements of an array with a braced list (`h_dims`, `&h_dims[0]`), each
/// at its offset, or the fields of a struct (`&params`, of the variable's
/// type as the source declares it). A variable some copy writes otherwise
/// (an open value, at an offset, from a pointer) gets nothing, and so does
/// a part two copies write differently. Read as the program run without
/// arguments reads it, by `folder` over the files where the launches are
/// (launchingSources()), which sourceLaunches() may share.
std::map<std::string, SymbolWrite, std::less<>> sourceSymbolWrites(const ptx::Module &module,
                                                                   const ConstantFolder &folder);

} // namespace ptxdvfs::tools
