// ChildProcess.h - a program a test starts in the background, to interrupt, kill or wait for.
#pragma once

#include <sys/types.h>

#include <string>
#include <utility>
#include <vector>

namespace ptxdvfs::test {

/// Starts `arguments` (the program's path first) with `environment`
/// (NAME, VALUE pairs) added to the test's own; its standard output and
/// error go to `outputPath`, or nowhere when it is empty.
pid_t startProgram(const std::vector<std::string> &arguments,
                   const std::vector<std::pair<std::string, std::string>> &environment = {},
                   const std::string &outputPath = "");

/// Waits for the program: its exit status, or 128 + the signal that ended it.
int waitForExit(pid_t child);

} // namespace ptxdvfs::test
