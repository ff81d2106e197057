// LaunchedKernelsTest.cpp - which kernels of a module the host code
// launches: by name, or in another program.
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

} // namespace
} // namespace ptxdvfs::tools
