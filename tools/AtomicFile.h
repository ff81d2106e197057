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

/// Writes `files` (name inside `dir`, content) as one change. A folder that
/// does not exist yet is built beside it under a temporary name, flushed,
/// and renamed into place: one rename instead of one per file, which halves
/// the file-system work of a fresh `encode -o`. An existing folder gets
/// writeFilesAtomically and keeps its other files. `existed` says which.
/// Returns an error message naming the file, empty on success; on failure
/// nothing visible changed.
std::string writeFolderAtomically(const std::string &dir,
                                  const std::vector<std::pair<std::string, std::string>> &files,
                                  bool &existed);

} // namespace ptxdvfs::tools
