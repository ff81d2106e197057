// CudaHostFiles.cpp - which files host code is read from; see CudaHostFiles.h.
#include "CudaHostFiles.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string_view>

namespace ptxdvfs::tools {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxFiles = 64;
constexpr std::uintmax_t kMaxFileBytes = 4u << 20;
constexpr std::uintmax_t kMaxBytesBeside = 16u << 20;

bool isHostFile(const fs::path &path) {
  static const std::set<std::string, std::less<>> kExtensions{".cu", ".cuh", ".h", ".hpp", ".c", ".cpp", ".cc", ".cxx"};
  return kExtensions.count(path.extension().string()) > 0;
}

/// The files of `folder` launchingSources() reads, in name order.
std::vector<fs::path> hostFilesIn(const fs::path &folder, std::error_code &error) {
  std::vector<fs::path> found;
  for (fs::directory_iterator entry(folder.empty() ? fs::path(".") : folder, error), end; !error && entry != end;
       entry.increment(error))
    if (std::error_code kind; entry->is_regular_file(kind) && isHostFile(entry->path()))
      found.push_back(entry->path());
  std::sort(found.begin(), found.end());
  return found;
}

} // namespace

std::vector<CudaSourceFile> launchingSources(const std::vector<CudaSourceFile> &sources,
                                             const std::vector<CudaSourceFile> &named) {
  std::vector<CudaSourceFile> files = sources;
  std::set<fs::path> seen;
  std::set<fs::path> folders;
  std::error_code error;
  for (const CudaSourceFile &source : sources) {
    seen.insert(fs::weakly_canonical(source.path, error));
    // Not beside the toolkit's headers (`sm_30_intrinsics.hpp`), which the PTX names too.
    const std::string extension = fs::path(source.path).extension().string();
    if (extension == ".cu" || extension == ".cuh")
      folders.insert(fs::path(source.path).parent_path());
  }
  for (const CudaSourceFile &file : named)
    if (files.size() < kMaxFiles && seen.insert(fs::weakly_canonical(file.path, error)).second)
      files.push_back(file);
  std::uintmax_t bytesBeside = 0;
  for (const fs::path &folder : folders)
    for (const fs::path &path : hostFilesIn(folder, error)) {
      if (files.size() >= kMaxFiles)
        return files;
      const std::uintmax_t bytes = fs::file_size(path, error);
      if (error || !seen.insert(fs::weakly_canonical(path, error)).second || bytes > kMaxFileBytes ||
          bytesBeside + bytes > kMaxBytesBeside)
        continue;
      bytesBeside += bytes;
      if (std::optional<std::string> text = fileText(path))
        files.push_back({path.string(), path.string(), std::move(*text)});
    }
  return files;
}

std::string readHostSources(const std::vector<std::string> &paths, std::vector<CudaSourceFile> &files) {
  std::vector<CudaSourceFile> read;
  for (const std::string &written : paths) {
    std::error_code error;
    std::vector<fs::path> inside;
    const bool folder = fs::is_directory(written, error);
    if (folder && (inside = hostFilesIn(written, error), error))
      return written + ": cannot list the folder: " + error.message();
    if (!folder)
      inside.push_back(written);
    for (const fs::path &path : inside) {
      if (read.size() >= kMaxFiles)
        return written + ": more than " + std::to_string(kMaxFiles) + " host files";
      const std::uintmax_t bytes = fs::file_size(path, error);
      if (error)
        return path.string() + ": cannot read: " + error.message();
      if (bytes > kMaxFileBytes)
        return path.string() + ": " + std::to_string(bytes) + " bytes, more than the " +
               std::to_string(kMaxFileBytes >> 20) + " MiB a host file is read to";
      std::optional<std::string> text = fileText(path);
      if (!text)
        return path.string() + ": cannot read";
      read.push_back({path.string(), path.string(), std::move(*text)});
    }
  }
  files.insert(files.end(), std::make_move_iterator(read.begin()), std::make_move_iterator(read.end()));
  return "";
}

} // namespace ptxdvfs::tools
