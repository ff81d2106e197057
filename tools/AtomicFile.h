// AtomicFile.h - write a file so that readers see the old content or the new, never half.
#pragma once

#include <string>

namespace ptxdvfs::tools {

/// Writes `content` to `path` through a temporary file in the same folder,
/// then renames it over `path`. On failure `path` is untouched and the
/// returned message (empty on success) names the file and the reason.
std::string writeFileAtomically(const std::string &path, const std::string &content);

} // namespace ptxdvfs::tools
