// FileUri.cpp - percent-encoding both ways.
#include "FileUri.h"

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <string_view>

namespace ptxdvfs::tools {

std::string percentEncodedPath(const std::string &path) {
  std::string encoded;
  for (unsigned char c : path) {
    if (std::isalnum(c) || std::string_view("-._~/").find(static_cast<char>(c)) != std::string_view::npos) {
      encoded += static_cast<char>(c);
    } else {
      char escape[4];
      std::snprintf(escape, sizeof escape, "%%%02X", c);
      encoded += escape;
    }
  }
  return encoded;
}

std::string fileUri(const std::string &path) {
  return "file://" + percentEncodedPath(std::filesystem::absolute(path).lexically_normal().string());
}

std::string pathOfFileUri(const std::string &uri) {
  const std::string scheme = "file://";
  if (uri.compare(0, scheme.size(), scheme) != 0)
    return "";
  std::string rest = uri.substr(scheme.size());
  std::size_t slash = rest.find('/');
  if (slash == std::string::npos)
    return "";
  std::string host = rest.substr(0, slash);
  if (!host.empty() && host != "localhost")
    return "";
  std::string path;
  for (std::size_t i = slash; i < rest.size(); ++i) {
    bool escaped = rest[i] == '%' && i + 2 < rest.size() &&
                   std::isxdigit(static_cast<unsigned char>(rest[i + 1])) &&
                   std::isxdigit(static_cast<unsigned char>(rest[i + 2]));
    if (escaped) {
      path += static_cast<char>(std::stoi(rest.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      path += rest[i];
    }
  }
  return path;
}

} // namespace ptxdvfs::tools
