// ParseHelpers.h - GoogleTest helpers in the spirit of LLVM's Expected matchers.
#pragma once

#include "ptxdvfs/ptx/Parser.h"

#include <gtest/gtest.h>

#include <string>

namespace ptxdvfs::test {

inline std::string describe(const ptx::Diagnostics &diagnostics) {
  std::string text;
  for (const auto &diagnostic : diagnostics)
    text += diagnostic.format() + "\n";
  return text;
}

/// Parses `text` and fails the test (with every diagnostic) if it has errors.
inline ptx::Module parseOk(const std::string &text, const std::string &path = "test.ptx") {
  auto module = ptx::parseModule(text, path);
  EXPECT_TRUE(module.hasValue()) << describe(module.diagnostics());
  if (!module)
    return {};
  return std::move(*module);
}

/// The first instruction of the first function.
inline ptx::Instruction firstInstruction(const ptx::Module &module) {
  ptx::Instruction found;
  bool seen = false;
  if (!module.functions.empty())
    module.functions.front().forEachInstruction([&](const ptx::Instruction &instruction) {
      if (!seen)
        found = instruction;
      seen = true;
    });
  EXPECT_TRUE(seen) << "no instruction parsed";
  return found;
}

/// Wraps one instruction line in a minimal kernel; the instruction is on line 4.
inline std::string inKernel(const std::string &body) {
  return ".version 8.0\n.target sm_80\n.visible .entry k() {\n" + body + "\n}\n";
}

} // namespace ptxdvfs::test

namespace ptxdvfs::test {

/// Success when `text` fails to parse with an error at `line`:`column`
/// (column 0: any column) whose message contains `fragment`.
inline ::testing::AssertionResult parseFailsWith(const std::string &text, unsigned line,
                                                 unsigned column, const std::string &fragment) {
  auto result = ptx::parseModule(text, "bad.ptx");
  if (result.hasValue())
    return ::testing::AssertionFailure() << "parsed although it should not";
  for (const auto &d : result.diagnostics())
    if (d.location.line == line && (column == 0 || d.location.column == column) &&
        d.message.find(fragment) != std::string::npos)
      return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "wanted " << line << ":" << column << " '" << fragment
                                       << "', got:\n" << describe(result.diagnostics());
}

} // namespace ptxdvfs::test

#define EXPECT_PARSE_FAILS_WITH(text, line, column, fragment)                                  \
  EXPECT_TRUE(ptxdvfs::test::parseFailsWith((text), (line), (column), (fragment)))
