// ChildProcess.cpp - fork, exec, wait.
#include "ChildProcess.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

namespace ptxdvfs::test {

pid_t startProgram(const std::vector<std::string> &arguments,
                   const std::vector<std::pair<std::string, std::string>> &environment,
                   const std::string &outputPath) {
  pid_t child = fork();
  if (child == 0) {
    for (const auto &[name, value] : environment)
      setenv(name.c_str(), value.c_str(), 1);
    std::vector<char *> args;
    for (const std::string &argument : arguments)
      args.push_back(const_cast<char *>(argument.c_str()));
    args.push_back(nullptr);
    int output = outputPath.empty() ? open("/dev/null", O_WRONLY)
                                    : open(outputPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(output, STDOUT_FILENO);
    dup2(output, STDERR_FILENO);
    execv(args[0], args.data());
    _exit(127);
  }
  return child;
}

int waitForExit(pid_t child) {
  int status = 0;
  waitpid(child, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

} // namespace ptxdvfs::test
