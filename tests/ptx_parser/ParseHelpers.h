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

/// A module and its first instruction. It owns the module because an
/// instruction's string views point into the module's source text.
struct ParsedInstruction {
  ptx::Module module;
  const ptx::Instruction *instruction = nullptr;

  const ptx::Instruction *operator->() const { return instruction; }
};

/// The first instruction of the first function (fails the test if none).
inline ParsedInstruction firstInstruction(ptx::Module module) {
  ParsedInstruction parsed{std::move(module), nullptr};
  if (!parsed.module.functions.empty())
    parsed.module.functions.front().forEachInstruction([&](const ptx::Instruction &instruction) {
      if (!parsed.instruction)
        parsed.instruction = &instruction;
    });
  EXPECT_NE(parsed.instruction, nullptr) << "no instruction parsed";
  static const ptx::Instruction kNone;
  if (!parsed.instruction)
    parsed.instruction = &kNone;
  return parsed;
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
