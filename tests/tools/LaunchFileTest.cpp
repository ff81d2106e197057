// LaunchFileTest.cpp - launch.json: what it accepts, what it refuses, and which kernel an entry sets.
#include "LaunchFile.h"

#include "TestPaths.h"

#include "ptxdvfs/ptx/Parser.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <utility>

namespace ptxdvfs::tools {
namespace {

std::string writeScratch(const std::string &text) {
  std::string path = test::freshScratchDir("ptxdvfs_launch_file_") + "/launch.json";
  std::ofstream(path) << text;
  return path;
}

/// readLaunchFile's first error as "LINE:COL: message", or "ok".
std::string problemOf(const std::string &text) {
  auto file = readLaunchFile(writeScratch(text));
  if (file)
    return "ok";
  const ptx::Diagnostic &first = file.diagnostics().front();
  return std::to_string(first.location.line) + ":" + std::to_string(first.location.column) + ": " + first.message;
}

/// problemOf a launch file whose one kernel, `k`, has the launch `entry`.
std::string kernelProblem(const std::string &entry) {
  return problemOf(R"({"format": "ptxdvfs-launch/1", "kernels": {"k": )" + entry + "}}");
}

TEST(LaunchFileTest, WhatItWritesItReadsBack) {
  KernelLaunch saxpy;
  saxpy.kernel = "_Z5saxpyifPKfPf";
  saxpy.grid = ptx::analysis::Dim3{1056, 1, 1};
  saxpy.block = ptx::analysis::Dim3{32, 8, 1};
  saxpy.launches = 100;
  saxpy.arguments = {{"n", ptx::analysis::AssumedValue(std::int64_t{1} << 40)},
                     {"param_1", ptx::analysis::AssumedValue::real(2.5)}};
  KernelLaunch bare;
  bare.kernel = "copy";
  const std::string text = launchFileText({saxpy, bare});
  EXPECT_NE(text.find("\"block\": [\n        32,\n        8\n      ]"), std::string::npos) << text;
  EXPECT_NE(text.find("\"launches\": 100"), std::string::npos) << text;
  EXPECT_EQ(text.find("\"launches\": 1\n"), std::string::npos) << "one launch, the default, goes unwritten";

  auto file = readLaunchFile(writeScratch(text));
  ASSERT_TRUE(file.hasValue());
  ASSERT_EQ(file->kernels.size(), 2u);
  const KernelLaunch &read = file->kernels[0]; // keys come back sorted: `_Z...` before `copy`
  EXPECT_EQ(read.kernel, "_Z5saxpyifPKfPf");
  ASSERT_TRUE(read.grid && read.block);
  EXPECT_EQ(read.grid->x, 1056u);
  EXPECT_EQ(read.grid->y, 1u);
  EXPECT_EQ(read.block->y, 8u);
  EXPECT_EQ(read.launches, 100u);
  EXPECT_EQ(file->kernels[1].launches, 1u);
  ASSERT_EQ(read.arguments.size(), 2u);
  EXPECT_EQ(read.arguments[0].first, "n");
  EXPECT_EQ(read.arguments[0].second.whole(), std::int64_t{1} << 40);
  EXPECT_EQ(read.arguments[1].second.text(), "2.5");
  EXPECT_FALSE(file->kernels[1].grid || file->kernels[1].block);
}

TEST(LaunchFileTest, RefusesWhatItCannotMeanAndSaysWhere) {
  EXPECT_EQ(problemOf(R"({"format": "ptxdvfs-launch/1", "kernels": {}})"), "ok");
  EXPECT_EQ(problemOf(R"({"kernels": {}})"), "0:0: \"format\" must be \"ptxdvfs-launch/1\"");
  EXPECT_EQ(problemOf(R"({"format": "ptxdvfs-launch/2", "kernels": {}})"),
            "0:0: \"format\" must be \"ptxdvfs-launch/1\", not \"ptxdvfs-launch/2\"");
  EXPECT_EQ(problemOf(R"({"format": "ptxdvfs-launch/1", "kernel": {}})"),
            "0:0: unknown key 'kernel' (known: format, kernels, constants)");
  // A launch of kernel `k` that the file refuses, and why.
  const std::pair<const char *, const char *> refused[] = {
      {R"({"blocks": 32})", "unknown key 'blocks' in kernel 'k' (known: grid, block, launches, arguments)"},
      {R"({"launches": 0})", "launches in kernel 'k' takes a positive integer: 0"},
      {R"({"launches": 2.5})", "launches in kernel 'k' takes a positive integer: 2.5"},
      {R"({"launches": 18446744073709551615})", "launches in kernel 'k' takes a positive integer: 18446744073709551615"},
      {R"({"block": [32, 32, 2]})", "block in kernel 'k' has more than 1024 threads"},
      // Each dimension fits 32 bits; their product, 2^64, wrapped to 0 before each was bounded.
      {R"({"block": [4194304, 4194304, 1048576]})", "block in kernel 'k' has more than 1024 threads"},
      {R"({"grid": [0]})", "grid in kernel 'k' takes one to three positive integers, as [X, Y, Z] or X: [0]"},
      {R"({"grid": [1, 2, 3, 4]})", "grid in kernel 'k' takes one to three positive integers, as [X, Y, Z] or X"},
      {R"({"arguments": {"n": "many"}})", "argument 'n' in kernel 'k' needs a number: \"many\""},
      {R"({"arguments": {"n": 18446744073709551615}})", "argument 'n' in kernel 'k' is out of range: 18446744073709551615"},
  };
  for (const auto &[entry, message] : refused)
    EXPECT_EQ(kernelProblem(entry), std::string("0:0: ") + message) << entry;
  EXPECT_EQ(problemOf("{\"format\": \"ptxdvfs-launch/1\",\n  \"kernels\": {\"k\": {\"grid\": 4,}}}").substr(0, 30),
            "2:31: not valid JSON: syntax e");
  // Found by the fuzzer: a number too large for a double is nlohmann's out_of_range, not a parse error.
  EXPECT_EQ(kernelProblem(R"({"arguments": {"n": 5121e308}})"),
            "0:0: not valid JSON: number overflow parsing '5121e308'");
  EXPECT_EQ(problemOf(""), "1:1: not valid JSON: syntax error while parsing value - unexpected end of input; expected "
                           "'[', '{', or a literal");
}

/// `declarations` after the prologue every module of these tests shares.
ptx::Expected<ptx::Module> parsed(std::string_view declarations, const std::string &path) {
  return ptx::parseModule(".version 8.0\n.target sm_80\n.address_size 64\n" + std::string(declarations), path);
}

constexpr const char *kTwoKernels = R"(.visible .entry _Z5scalePfi(.param .u64 _Z5scalePfi_param_0, .param .u32 _Z5scalePfi_param_1) { ret; }
.visible .entry _Z5scalePdi(.param .u64 _Z5scalePdi_param_0, .param .u32 _Z5scalePdi_param_1) { ret; }
.visible .entry copy(.param .u64 copy_param_0) { ret; }
)";

TEST(LaunchFileTest, AnEntrySetsTheLaunchOfTheKernelItNames) {
  auto module = parsed(kTwoKernels, "two.ptx");
  ASSERT_TRUE(module.hasValue());
  ptx::analysis::LaunchAssumptions assumptions;
  assumptions.sourceParameterNames["_Z5scalePfi"] = {"x", "n"};
  LaunchFile file;
  file.path = "bench/launch.json";
  KernelLaunch scale;
  scale.kernel = "_Z5scalePfi";
  scale.block = ptx::analysis::Dim3{128, 1, 1};
  scale.arguments = {{"n", ptx::analysis::AssumedValue(4096)}};
  KernelLaunch copy;
  copy.kernel = "copy";
  copy.grid = ptx::analysis::Dim3{8, 1, 1};
  copy.launches = 3;
  KernelLaunch elsewhere;
  elsewhere.kernel = "reduce";
  file.kernels = {scale, copy, elsewhere};
  std::vector<bool> used(3);
  ASSERT_EQ(applyLaunchFile(file, *module, assumptions, used), "");
  EXPECT_EQ(used, (std::vector<bool>{true, true, false}));

  const ptx::analysis::SourceLaunch &scaleLaunch = assumptions.sourceLaunches.at("_Z5scalePfi");
  EXPECT_EQ(scaleLaunch.at, "bench/launch.json");
  ASSERT_TRUE(scaleLaunch.block);
  EXPECT_EQ(scaleLaunch.block->x, 128u);
  EXPECT_FALSE(scaleLaunch.grid);
  EXPECT_EQ(scaleLaunch.gridOpen, "bench/launch.json gives no grid");
  ASSERT_EQ(scaleLaunch.arguments.size(), 2u);
  EXPECT_FALSE(scaleLaunch.arguments[0]);
  EXPECT_EQ(scaleLaunch.argumentsOpen[0], "bench/launch.json gives no value for it");
  ASSERT_TRUE(scaleLaunch.arguments[1]);
  EXPECT_EQ(scaleLaunch.arguments[1]->whole(), 4096);
  EXPECT_EQ(scaleLaunch.argumentsOpen[1], "");
  EXPECT_EQ(scaleLaunch.launches, 1u);
  EXPECT_EQ(assumptions.sourceLaunches.at("copy").grid->x, 8u);
  EXPECT_EQ(assumptions.sourceLaunches.at("copy").launches, 3u);
  EXPECT_EQ(assumptions.sourceLaunches.count("_Z5scalePdi"), 0u);

  EXPECT_EQ(unusedLaunches(file, used, {{"_Z5scalePfi", "copy"}, {}}, "in two.ptx"),
            "bench/launch.json: no kernel named 'reduce' in two.ptx (its kernels: _Z5scalePfi, copy)");
  used[2] = true;
  EXPECT_EQ(unusedLaunches(file, used, {}, "in two.ptx"), "");
}

TEST(LaunchFileTest, ANameMustFitOneKernelAndItsParameters) {
  auto module = parsed(kTwoKernels, "two.ptx");
  ASSERT_TRUE(module.hasValue());
  ptx::analysis::LaunchAssumptions assumptions;
  LaunchFile file;
  file.path = "launch.json";
  KernelLaunch both;
  both.kernel = "scale"; // two overloads demangle to it
  file.kernels = {both};
  std::vector<bool> used(1);
  EXPECT_EQ(applyLaunchFile(file, *module, assumptions, used),
            "launch.json: kernel 'scale' could be any of _Z5scalePfi, _Z5scalePdi; name one by its PTX name");

  KernelLaunch copy;
  copy.kernel = "copy";
  copy.arguments = {{"param_1", ptx::analysis::AssumedValue(1)}};
  file.kernels = {copy};
  EXPECT_EQ(applyLaunchFile(file, *module, assumptions, used),
            "launch.json: kernel 'copy' has no parameter 'param_1' (its parameters: param_0)");
  copy.arguments = {{"copy_param_0", ptx::analysis::AssumedValue(1)}};
  file.kernels = {copy};
  EXPECT_EQ(applyLaunchFile(file, *module, assumptions, used), "");
  EXPECT_TRUE(assumptions.sourceLaunches.at("copy").arguments[0]);
}

/// A struct passed by value (24 bytes, as `struct Boxes { int first; long count; float *data; }`) and an int.
constexpr const char *kStructKernel = R"(.visible .entry boxes(.param .align 8 .b8 boxes_param_0[24], .param .u32 boxes_param_1) { ret; }
)";

TEST(LaunchFileTest, AFieldGoesByItsCudaNameOrItsOffset) {
  auto module = parsed(kStructKernel, "boxes.ptx");
  ASSERT_TRUE(module.hasValue());
  ptx::analysis::LaunchAssumptions assumptions;
  assumptions.sourceParameterNames["boxes"] = {"b", "n"};
  assumptions.sourceFieldNames["boxes"] = {{{0, "b.first"}, {8, "b.count"}, {16, "b.data"}}};
  LaunchFile file;
  file.path = "launch.json";
  KernelLaunch boxes;
  boxes.kernel = "boxes";
  boxes.arguments = {{"b.count", ptx::analysis::AssumedValue(5000)},
                     {"param_0+0", ptx::analysis::AssumedValue(2)},
                     {"n", ptx::analysis::AssumedValue(7)}};
  file.kernels = {boxes};
  std::vector<bool> used(1);
  ASSERT_EQ(applyLaunchFile(file, *module, assumptions, used), "");
  const ptx::analysis::SourceLaunch &launch = assumptions.sourceLaunches.at("boxes");
  ASSERT_EQ(launch.fields.size(), 2u);
  EXPECT_EQ(launch.fields[0].size(), 2u);
  EXPECT_EQ(launch.fields[0].at(8).whole(), 5000);
  EXPECT_EQ(launch.fields[0].at(0).whole(), 2);
  EXPECT_TRUE(launch.fields[1].empty());
  EXPECT_FALSE(launch.arguments[0]); // the struct as a whole stays open, and says why
  EXPECT_EQ(launch.argumentsOpen[0], "launch.json gives no value for it");
  EXPECT_EQ(launch.arguments[1]->whole(), 7);

  auto problem = [&](const std::string &name) {
    KernelLaunch wrong;
    wrong.kernel = "boxes";
    wrong.arguments = {{name, ptx::analysis::AssumedValue(1)}};
    file.kernels = {wrong};
    return applyLaunchFile(file, *module, assumptions, used);
  };
  EXPECT_EQ(problem("b+16"), "");
  EXPECT_EQ(problem("b+24"), "launch.json: kernel 'boxes' argument 'b+24': parameter b has 24 bytes; +24 is past its end");
  EXPECT_EQ(problem("n+4"),
            "launch.json: kernel 'boxes' argument 'n+4': parameter n is not a struct passed by value; give it as 'n'");
  EXPECT_EQ(problem("b+x"), "launch.json: kernel 'boxes' has no parameter 'b+x' (its parameters: b, b.first, b.count, "
                           "b.data, n)");
  EXPECT_EQ(problem("b.cnt"), "launch.json: kernel 'boxes' has no parameter 'b.cnt' (its parameters: b, b.first, "
                              "b.count, b.data, n)");
}

constexpr const char *kConstants = R"(.const .align 4 .u32 NbrListLen;
.const .align 4 .b8 d_common[16];
.visible .entry k() { ret; }
)";

TEST(LaunchFileTest, ConstantsAreWhatTheHostWroteBeforeTheLaunches) {
  const std::string text = launchFileText({}, {{"NbrListLen", ptx::analysis::AssumedValue(27)},
                                               {"d_common.no_points", ptx::analysis::AssumedValue(12)},
                                               {"d_common+12", ptx::analysis::AssumedValue::real(0.5)},
                                               {"elsewhere", ptx::analysis::AssumedValue(1)}});
  auto file = parseLaunchFile(text, "bench/launch.json");
  ASSERT_TRUE(file.hasValue()) << text;
  ASSERT_EQ(file->constants.size(), 4u);
  EXPECT_EQ(file->entries(), 4u);

  auto module = parsed(kConstants, "k.ptx");
  ASSERT_TRUE(module.hasValue());
  ptx::analysis::LaunchAssumptions assumptions;
  assumptions.constantFieldNames["d_common"] = {{0, "d_common.in_elem"}, {4, "d_common.no_points"}};
  std::vector<bool> used(file->entries());
  ASSERT_EQ(applyLaunchFile(*file, *module, assumptions, used), "");
  EXPECT_EQ(assumptions.launchConstantsAt, "bench/launch.json");
  EXPECT_EQ(assumptions.launchConstants.size(), 3u);
  EXPECT_EQ(assumptions.launchConstants.at("NbrListLen").whole(), 27);
  EXPECT_EQ(assumptions.launchConstants.at("d_common.no_points").whole(), 12);
  EXPECT_EQ(assumptions.launchConstants.at("d_common+12").text(), "0.5");
  EXPECT_TRUE(assumptions.parameters.empty()); // --assume's own values stay apart, and first
  EXPECT_EQ(unusedLaunches(*file, used, {{"k"}, {"NbrListLen", "d_common"}}, "in k.ptx"),
            "bench/launch.json: no __constant__ variable named 'elsewhere' in k.ptx (its __constant__ variables: "
            "NbrListLen, d_common)");

  EXPECT_EQ(problemOf(R"({"format": "ptxdvfs-launch/1", "kernels": {}, "constants": [1]})"),
            "0:0: \"constants\" needs an object of NAME: number");
  EXPECT_EQ(problemOf(R"({"format": "ptxdvfs-launch/1", "kernels": {}, "constants": {"n": true}})"),
            "0:0: constant 'n' needs a number: true");
  file->constants = {{"d_common+16", ptx::analysis::AssumedValue(1)}};
  used.assign(file->entries(), false);
  EXPECT_EQ(applyLaunchFile(*file, *module, assumptions, used),
            "bench/launch.json: constant 'd_common+16': d_common has 16 bytes; +16 is past its end");
}

} // namespace
} // namespace ptxdvfs::tools
