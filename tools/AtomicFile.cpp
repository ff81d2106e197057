// AtomicFile.cpp - temporary files, one flush to disk, then renames.
#include "AtomicFile.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <cstdio>
#include <cstring>

namespace ptxdvfs::tools {

namespace {

std::string temporaryOf(const std::string &path) { return path + ".tmp." + std::to_string(::getpid()); }

/// Writes `content` to `temporary`; `flush` also forces it to disk.
std::string writeTemporary(const std::string &path, const std::string &temporary,
                           const std::string &content, bool flush) {
  std::FILE *file = std::fopen(temporary.c_str(), "wb");
  if (!file)
    return path + ": cannot write: " + std::strerror(errno);
  bool written = std::fwrite(content.data(), 1, content.size(), file) == content.size();
  written = std::fflush(file) == 0 && written;
  if (flush)
    written = ::fsync(::fileno(file)) == 0 && written;
  int error = errno;
  written = std::fclose(file) == 0 && written;
  if (!written) {
    std::remove(temporary.c_str());
    return path + ": cannot write: " + std::strerror(error ? error : errno);
  }
  return "";
}

std::string replace(const std::string &path, const std::string &temporary) {
  if (std::rename(temporary.c_str(), path.c_str()) == 0)
    return "";
  int error = errno;
  std::remove(temporary.c_str());
  return path + ": cannot replace: " + std::strerror(error);
}

/// One flush of the file system holding `anyPath`; an error message naming
/// `target`, or empty.
std::string flushFileSystem(const std::string &anyPath, const std::string &target) {
  int handle = ::open(anyPath.c_str(), O_RDONLY | O_CLOEXEC);
  bool flushed = handle >= 0 && ::syncfs(handle) == 0;
  int error = errno;
  if (handle >= 0)
    ::close(handle);
  return flushed ? "" : target + ": cannot flush to disk: " + std::strerror(error);
}

/// Every file's temporary first, one flush, then the renames: `prefix` +
/// name is each target (an empty prefix: names are paths).
std::string writeThenReplace(const std::string &prefix,
                             const std::vector<std::pair<std::string, std::string>> &files) {
  std::vector<std::string> written;
  auto removeWritten = [&] {
    for (const std::string &temporary : written)
      std::remove(temporary.c_str());
  };
  for (const auto &[name, content] : files) {
    std::string path = prefix + name;
    std::string temporary = temporaryOf(path);
    if (std::string failure = writeTemporary(path, temporary, content, /*flush=*/false); !failure.empty()) {
      removeWritten();
      return failure;
    }
    written.push_back(temporary);
  }
  if (!files.empty()) {
    // Before any target changes.
    if (std::string failure = flushFileSystem(written.front(), prefix + files.front().first); !failure.empty()) {
      removeWritten();
      return failure;
    }
  }
  for (std::size_t i = 0; i < files.size(); ++i)
    if (std::string failure = replace(prefix + files[i].first, written[i]); !failure.empty()) {
      for (std::size_t j = i + 1; j < written.size(); ++j)
        std::remove(written[j].c_str());
      return failure;
    }
  return "";
}

} // namespace

std::string writeFileAtomically(const std::string &path, const std::string &content) {
  std::string temporary = temporaryOf(path);
  if (std::string failure = writeTemporary(path, temporary, content, /*flush=*/true); !failure.empty())
    return failure;
  return replace(path, temporary);
}

std::string writeFilesAtomically(const std::vector<std::pair<std::string, std::string>> &files) {
  return writeThenReplace("", files);
}

std::string writeFolderAtomically(const std::string &dir,
                                  const std::vector<std::pair<std::string, std::string>> &files,
                                  bool &existed) {
  namespace fs = std::filesystem;
  std::error_code error;
  existed = fs::exists(dir, error);
  if (existed)
    return writeThenReplace(dir + "/", files);
  fs::path parent = fs::path(dir).parent_path();
  if (!parent.empty() && (fs::create_directories(parent, error), error))
    return dir + ": cannot create its parent folder: " + error.message();
  std::string building = temporaryOf(dir);
  fs::remove_all(building, error);
  if (!fs::create_directory(building, error))
    return dir + ": cannot create a folder beside it: " + (error ? error.message() : "exists");
  auto fail = [&](std::string message) {
    fs::remove_all(building, error);
    return message;
  };
  // The folder is new: its files need no temporaries of their own.
  for (const auto &[name, content] : files)
    if (std::string failure = writeTemporary(dir + "/" + name, building + "/" + name, content, /*flush=*/false);
        !failure.empty())
      return fail(failure);
  // One flush of the file system, then the whole folder appears at once.
  if (std::string failure = flushFileSystem(building, dir); !failure.empty())
    return fail(failure);
  if (std::rename(building.c_str(), dir.c_str()) != 0)
    return fail(dir + ": cannot create: " + std::strerror(errno) +
                " (did another run create it meanwhile?)");
  return "";
}

} // namespace ptxdvfs::tools
