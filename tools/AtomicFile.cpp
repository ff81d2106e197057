// AtomicFile.cpp - temporary file plus rename.
#include "AtomicFile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace ptxdvfs::tools {

std::string writeFileAtomically(const std::string &path, const std::string &content) {
  std::string temporary = path + ".tmp." + std::to_string(::getpid());
  std::FILE *file = std::fopen(temporary.c_str(), "wb");
  if (!file)
    return path + ": cannot write: " + std::strerror(errno);
  bool written = std::fwrite(content.data(), 1, content.size(), file) == content.size();
  written = std::fflush(file) == 0 && written;
  written = ::fsync(::fileno(file)) == 0 && written;
  int error = errno;
  written = std::fclose(file) == 0 && written;
  if (!written) {
    std::remove(temporary.c_str());
    return path + ": cannot write: " + std::strerror(error ? error : errno);
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    error = errno;
    std::remove(temporary.c_str());
    return path + ": cannot replace: " + std::strerror(error);
  }
  return "";
}

} // namespace ptxdvfs::tools
