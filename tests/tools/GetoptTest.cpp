// GetoptTest.cpp - POSIX's getopt and GNU's getopt_long as the host
// program's option loops call them: the loop as written, the `struct
// option` table, and what the calls return for the arguments.
#include "CudaCode.h"
#include "CudaGetopt.h"
#include "CudaSource.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ptxdvfs::tools {
namespace {

/// getoptRun()'s options as `c[=argument]` each, spaces between (a long option's `\0` as `0`).
std::string options(std::string_view optstring, const std::vector<std::string> &arguments,
                    const std::vector<LongOption> *longOptions = nullptr, bool longOnly = false) {
  std::string shown;
  for (OptionFound option : getoptRun(optstring, arguments, longOptions, longOnly).options)
    shown += (shown.empty() ? "" : " ") + std::string(1, option.option == '\0' ? '0' : option.option) +
             (option.argument.empty() ? "" : "=" + option.argument);
  return shown;
}

TEST(GetoptTest, GetoptFindsOptionsAsGnuDoes) {
  EXPECT_EQ(options("n:v", {"-n", "4096", "-v"}), "n=4096 v");
  EXPECT_EQ(options("n:v", {"-vn4096", "file", "-n", "-1"}), "v n=4096 n=-1"); // operands passed over
  EXPECT_EQ(options("+n:v", {"file", "-v"}), ""); // stops at the first operand
  EXPECT_EQ(options("n:v", {"-v", "--", "-n", "1"}), "v");
  EXPECT_EQ(options("n:v", {"-x", "--size=4", "-n"}), "? ? ?"); // unknown, long, missing its argument
  EXPECT_EQ(options(":n:", {"-n"}), ":");
  EXPECT_EQ(options("n::", {"-n", "4", "-n8"}), "n n=8"); // an optional argument only attached
  EXPECT_EQ(options("n:", {"-", "x"}), "");
}

/// getoptRun()'s `argv` after the name, space-separated, then `| optind`.
std::string leftBy(const char *optstring, const std::vector<std::string> &arguments) {
  const GetoptEnd end = getoptRun(optstring, arguments);
  std::string shown;
  for (const std::string &argument : end.permuted)
    shown += argument + " ";
  return shown + "| " + std::to_string(end.optind);
}

TEST(GetoptTest, GetoptLeavesTheOperandsLastAsGnuDoes) {
  EXPECT_EQ(leftBy("n:v", {"a", "-n", "4", "b", "-v"}), "-n 4 -v a b | 4");
  EXPECT_EQ(leftBy("n:v", {"-n4", "a", "--", "-v", "b"}), "-n4 -- a -v b | 3");
  EXPECT_EQ(leftBy("+n:v", {"-v", "a", "-n", "4"}), "-v a -n 4 | 2"); // stops at the first operand
  EXPECT_EQ(leftBy("-n:v", {"a", "-v"}), "a -v | 3");                  // operands returned in place
  EXPECT_EQ(leftBy("n:v", {"-v"}), "-v | 2");                           // none: `argc`
  EXPECT_EQ(leftBy("n:v", {}), "| 1");
}

const std::string kTable = "static struct option long_options[] = {\n"
                           "  {\"size\", required_argument, NULL, 's'},\n"
                           "  {\"sweep\", optional_argument, 0, 'w'},\n"
                           "  {\"verify\", no_argument, &verify, 1},\n"
                           "  {\"iterations\", 1, nullptr, 256},\n"
                           "  {0, 0, 0, 0}\n};";

TEST(GetoptTest, TheLongOptionTableIsReadAsWritten) {
  const auto table = longOptionsIn(codeOf(kTable), kTable, "long_options");
  ASSERT_TRUE(table);
  std::string shown;
  for (const LongOption &option : *table)
    shown += option.name + ":" + std::to_string(option.argument) + ":" + std::to_string(option.value) + " ";
  EXPECT_EQ(shown, "size:1:115 sweep:2:119 verify:0:0 iterations:1:256 ");
  EXPECT_FALSE(longOptionsIn(codeOf(kTable), kTable, "other"));
  const std::string named = "struct option o[] = {{name, 1, 0, 'n'}, {0, 0, 0, 0}};";
  EXPECT_FALSE(longOptionsIn(codeOf(named), named, "o")); // a name that is no literal
}

TEST(GetoptTest, GetoptLongFindsLongOptionsAsGnuDoes) {
  const std::vector<LongOption> table = *longOptionsIn(codeOf(kTable), kTable, "long_options");
  EXPECT_EQ(options("s:v", {"--size", "4096", "--size=8192", "-s", "16"}, &table), "s=4096 s=8192 s=16");
  EXPECT_EQ(options("s:v", {"--si", "64", "--swe", "--sweep=3", "--verify", "--iter", "5"}, &table),
            "s=64 w w=3 0 0=5"); // prefixes; a flag's entry and a value past a char give 0
  EXPECT_EQ(options("s:v", {"--s", "1", "--verify=1", "--bogus", "--size"}, &table),
            "? ? ? ?"); // ambiguous, an argument not taken, unknown, missing
  EXPECT_EQ(options("s:v", {"--size", "4"}), "?"); // no table: `?`, `4` an operand
  // getopt_long_only: `-size` names the entry; `-s` is the short option; `-vs 2` short ones.
  EXPECT_EQ(options("s:v", {"-size", "4", "-s", "2", "-vs", "2"}, &table, true), "s=4 s=2 v s=2");
}

TEST(GetoptTest, TheLoopIsReadFromItsCondition) {
  const auto loop = getoptLoopOf("(opt = getopt_long(argc, argv, \"s:v\", long_options, &index)) != -1");
  ASSERT_TRUE(loop);
  EXPECT_EQ(loop->result, "opt");
  EXPECT_EQ(loop->optstring, "s:v");
  EXPECT_EQ(loop->longOptions, "long_options");
  EXPECT_FALSE(loop->longOnly);
  EXPECT_TRUE(getoptLoopOf("(c = getopt_long_only(argc, argv, \"s:\", opts, NULL)) != -1")->longOnly);
  EXPECT_EQ(getoptLoopOf("(c = getopt(argc, argv, \"s:\")) != -1")->longOptions, "");
  EXPECT_FALSE(getoptLoopOf("(c = getopt(argc, argv, s)) != -1"));                      // not a literal
  EXPECT_FALSE(getoptLoopOf("(c = getopt_long(argc, argv, \"s:\", &opts[0], 0)) != -1")); // not an array's name
  EXPECT_FALSE(getoptLoopOf("(c = my_getopt(argc, argv, \"s:\")) != -1"));
}

} // namespace
} // namespace ptxdvfs::tools
