// CudaHostFiles.h - which files a kernel's host code is read from: those
// the PTX names, the files beside them, and those the user names
// (--host-source).
#pragma once

#include "CudaSource.h"

#include <string>
#include <vector>

namespace ptxdvfs::tools {

/// The files a kernel's launches may be in: `sources`, then `named` (the
/// files the user names, readHostSources()), then the CUDA files, headers
/// and host C and C++ files (`.cu`, `.cuh`, `.h`, `.hpp`, `.c`, `.cpp`,
/// `.cc`, `.cxx`) beside its `.cu` and `.cuh` files (not beside the
/// toolkit's headers it names). `-lineinfo` names only files that hold
/// device code, so a kernel file that `main.cu` includes is named and
/// `main.cu`, which launches it, is not; nor is the `main.cpp` that calls
/// a launcher the `.cu` defines, which sizes its launches. Each file is
/// read once; at most 64 are read, of at most 4 MiB each and 16 MiB beside
/// the named ones.
std::vector<CudaSourceFile> launchingSources(const std::vector<CudaSourceFile> &sources,
                                             const std::vector<CudaSourceFile> &named = {});

/// Reads the host files `paths` name (--host-source) into `files`: a file
/// as it is, whatever its extension, and a folder's files with the
/// extensions launchingSources() reads beside a kernel (not its
/// subfolders), in name order. A driver's `main.cpp` kept in another
/// folder than the kernels (`common/main.cpp`) sizes their launches and
/// declares the options they read. Returns what is wrong, naming the path
/// (one that cannot be read, a file over 4 MiB, more than 64 files), and
/// leaves `files` as it was; empty when all is read.
std::string readHostSources(const std::vector<std::string> &paths, std::vector<CudaSourceFile> &files);

} // namespace ptxdvfs::tools
