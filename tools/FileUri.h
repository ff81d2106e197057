// FileUri.h - file: URIs (RFC 3986, RFC 8089) for SARIF locations and the language server.
#pragma once

#include <string>

namespace ptxdvfs::tools {

/// `path` with unreserved characters and '/' kept and every other byte
/// percent-encoded: `a b/c.cu` -> `a%20b/c.cu`.
std::string percentEncodedPath(const std::string &path);

/// `file:///abs/path` of `path` (made absolute and normal).
std::string fileUri(const std::string &path);

/// `file:///a%20b/x.cu` (or `file://localhost/...`) -> `/a b/x.cu`; empty
/// for any other scheme or host.
std::string pathOfFileUri(const std::string &uri);

} // namespace ptxdvfs::tools
