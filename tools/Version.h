// Version.h - the version ptxdvfs reports (--version, SARIF tool.driver).
#pragma once

namespace ptxdvfs::tools {

inline constexpr const char *kVersion = "0.1.0";

} // namespace ptxdvfs::tools
