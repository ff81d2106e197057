// LaunchedKernelsTest.cpp - which kernels of a module the host code
// launches: by name, in another program, or nowhere.
#include "CudaLaunches.h"
#include "SourceLaunchHelpers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ptxdvfs::tools {
namespace {

TEST(LaunchedKernelsTest, AnotherProgramsLaunchesOfItsOwnKernelAreNotCounted) {
  const auto launchOf = [](const std::string &otherProgram) {
    const std::vector<CudaSourceFile> files{
        {"blur.cu", "d/blur.cu", "__global__ void blur(float *x) {}\nint main() { blur<<<8, 64>>>(0); }\n"},
        {"other.cu", "d/other.cu", otherProgram}};
    const auto launches = launchesOf({"_Z4blurPf"}, files, 1);
    return launches.count("_Z4blurPf") ? shown(launches.at("_Z4blurPf").block) + " x " +
                                              std::to_string(launches.at("_Z4blurPf").launches)
                                        : "none";
  };
  // A program beside it that defines and launches a blur of its own.
  EXPECT_EQ(launchOf("__global__ void blur(double *x) {\n}\nint main() { blur<<<8, 256>>>(0); }\n"), "64,1,1 x 1");
  EXPECT_EQ(launchOf("template <class T>\n__global__ void blur(T *x) { }\nint main() { blur<<<8, 256>>>(0); }\n"),
            "64,1,1 x 1");
  // One that declares it only launches this one, compiled apart (whole-program linking allows it);
  // so does one that includes blur.cu.
  EXPECT_EQ(launchOf("__global__ void blur(float *x);\nvoid run() { blur<<<8, 64>>>(0); }\n"), "64,1,1 x 2");
  EXPECT_EQ(launchOf("#include \"blur.cu\"\nvoid run() { blur<<<8, 64>>>(0); }\n"), "64,1,1 x 2");
}

TEST(LaunchedKernelsTest, AKernelTheHostCodeLaunchesNowhereRunsNoThread) {
  const std::string source = "__global__ void used(float *x) {}\n"
                             "__global__ void unused(float *x) {}\n"
                             "int main() { used<<<64, 128>>>(0); }\n";
  const auto launches = launchesOf({"_Z4usedPf", "_Z6unusedPf"}, source);
  ASSERT_EQ(launches.size(), 2u);
  const ptx::analysis::SourceLaunch &unused = launches.at("_Z6unusedPf");
  EXPECT_EQ(unused.launches, 0u);
  EXPECT_EQ(unused.launchesOrigin, ptx::analysis::ValueOrigin::Assumed);
  EXPECT_EQ(unused.launchesWhy,
            "not launched: no launch of `unused` in the host code read, which launches `used` at t.cu:3");
  EXPECT_EQ(shown(unused.block), "none"); // read at the default size
  EXPECT_EQ(launches.at("_Z4usedPf").launches, 1u);
  // Where the host code read launches none of them (a library's kernels), nothing is said of any.
  EXPECT_TRUE(launchesOf({"_Z4usedPf", "_Z6unusedPf"}, "__global__ void used(float *x) {}\n").empty());
  // A kernel launched only under a branch the program does not take still counts once.
  const auto untaken = launchesOf({"_Z4usedPf", "_Z6unusedPf"},
                                  "int main() { used<<<64, 128>>>(0);\n  if (0) unused<<<1, 32>>>(0); }\n");
  EXPECT_EQ(untaken.at("_Z6unusedPf").launches, 1u);
}

} // namespace
} // namespace ptxdvfs::tools
