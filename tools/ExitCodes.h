// ExitCodes.h - the exit statuses scripts can rely on, for every subcommand.
#pragma once

namespace ptxdvfs::tools {

/// Every input was processed without errors.
inline constexpr int kExitSuccess = 0;
/// At least one input had errors (syntax errors, unreadable file); they were
/// reported as `file:line:col: error: ...` on stderr.
inline constexpr int kExitInputError = 1;
/// The command line itself was wrong (unknown flag, missing argument).
inline constexpr int kExitUsageError = 2;

} // namespace ptxdvfs::tools
