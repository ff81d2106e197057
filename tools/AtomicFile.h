// AtomicFile.h - write files so that readers see the old content or the new, never half.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ptxdvfs::tools {

/// Writes `content` to `path` through a temporary file in the same folder,
/// flushed to disk, then renames it over `path`. On failure `path` is
/// untouched and the returned message (empty on success) names the file
/// and the reason.
std::string writeFileAtomically(const std::string &path, const std::string &content);

/// The same for many files at once (`encode -o` writes three per kernel):
/// every temporary file is written first, the file system is flushed once
/// (not once per file, which cost more than the encoding), and only then
/// is each renamed over its target. If any write fails, no target is
/// touched and every temporary file is removed.
std::string writeFilesAtomically(const std::vector<std::pair<std::string, std::string>> &files);

} // namespace ptxdvfs::tools
