// ResourceLimits.cpp - flags into ptx::defaultParseLimits(), and a SIGALRM that ends a run past its time.
#include "ResourceLimits.h"

#include "ExitCodes.h"

#include <CLI/CLI.hpp>

#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>

namespace ptxdvfs::tools {

namespace {

char timeoutMessage[160];

void onTimeLimit(int) {
  // Only async-signal-safe calls here: the message was formatted in advance.
  ssize_t ignored = write(STDERR_FILENO, timeoutMessage, std::strlen(timeoutMessage));
  (void)ignored;
  _exit(kExitInputError);
}

} // namespace

void addResourceLimitFlags(CLI::App &app, ResourceLimitOptions &options) {
  const char *group = "Limits (hostile or broken input)";
  app.add_option("--max-input-mb", options.maxInputMb, "Largest PTX input read, in MiB")
      ->check(CLI::PositiveNumber)
      ->capture_default_str()
      ->group(group);
  app.add_option("--max-nesting", options.parse.maxNesting,
                 "Deepest nesting of (), [] and {} (at most " + std::to_string(ptx::kNestingCeiling) + ")")
      ->check(CLI::Range(std::size_t(1), ptx::kNestingCeiling))
      ->capture_default_str()
      ->group(group);
  app.add_option("--max-statement-tokens", options.parse.maxStatementTokens,
                 "Most tokens in one statement of a function body (operands, mostly)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str()
      ->group(group);
  app.add_option("--max-function-statements", options.parse.maxFunctionStatements,
                 "Most statements in one function body")
      ->check(CLI::PositiveNumber)
      ->capture_default_str()
      ->group(group);
  app.add_option("--time-limit", options.timeLimitSeconds,
                 "Stop with an error after this many seconds of wall time (0: no limit; not for lsp)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str()
      ->group(group);
}

void applyResourceLimits(const ResourceLimitOptions &options, const std::string &subcommand) {
  ptx::ParseLimits &limits = ptx::defaultParseLimits();
  limits = options.parse;
  limits.maxInputBytes = static_cast<std::uint64_t>(std::llround(options.maxInputMb * 1024 * 1024));
  if (options.timeLimitSeconds <= 0 || subcommand == "lsp")
    return;
  std::snprintf(timeoutMessage, sizeof timeoutMessage,
                "ptxdvfs: error: time limit of %g s exceeded (--time-limit); no output was replaced\n",
                options.timeLimitSeconds);
  struct sigaction action {};
  action.sa_handler = onTimeLimit;
  sigaction(SIGALRM, &action, nullptr);
  itimerval timer{};
  timer.it_value.tv_sec = static_cast<time_t>(options.timeLimitSeconds);
  timer.it_value.tv_usec =
      static_cast<suseconds_t>(1e6 * (options.timeLimitSeconds - std::floor(options.timeLimitSeconds)));
  setitimer(ITIMER_REAL, &timer, nullptr);
}

} // namespace ptxdvfs::tools
