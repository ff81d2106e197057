// TemplateLaunchesTest.cpp - which launches a template kernel's instances
// take: those written with their own template arguments, or made by the
// calls of a helper template that launches them.
#include "CudaConstants.h"
#include "CudaLaunches.h"
#include "CudaSource.h"
#include "SourceLaunchHelpers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ptxdvfs::tools {
namespace {

TEST(CudaTemplateArgumentsTest, KernelsSharingANameTakeOnlyTheLaunchesTheyCanBeToldBy) {
  const std::string source = "__global__ void scale(float *x) {}\n"
                             "__global__ void scale(double *x) {}\n"
                             "template <int N> __global__ void sized(float *x) {}\n"
                             "int main() { float *x; double *y; scale<<<1, 64>>>(x); scale<<<1, 128>>>(y);\n"
                             "  sized<8><<<1, 32>>>(x); }\n";
  const auto launches = launchesOf({"_Z5scalePf", "_Z5scalePd", "_Z5sizedILi8EEvPf", "_Z5sizedILi16EEvPf"}, source);
  ASSERT_EQ(launches.size(), 4u);
  // Overloads: the launches cannot say which is which.
  EXPECT_EQ(shown(launches.at("_Z5scalePd").block), "none");
  EXPECT_EQ(launches.at("_Z5scalePd").blockOpen,
            "the launches of the 2 kernels named `scale`, the first at t.cu:4, are not told apart");
  EXPECT_EQ(shown(launches.at("_Z5sizedILi8EEvPf").block), "32,1,1");
  EXPECT_EQ(launches.at("_Z5sizedILi16EEvPf").blockOpen, "no launch of `sized`, the first at t.cu:5, is of this instance");
  // That instance is launched nowhere: it runs no thread. Overloads told apart by nothing still count once.
  EXPECT_EQ(launches.at("_Z5sizedILi16EEvPf").launches, 0u);
  EXPECT_EQ(launches.at("_Z5scalePd").launches, 1u);
}

/// How `source` launches `axpy<float>` and `axpy<double>`: "GRID x BLOCK, LAUNCHES" each, `; ` between.
std::string axpyLaunches(const std::string &source) {
  return launchesText({"_Z4axpyIfEvPT_", "_Z4axpyIdEvPT_"}, source);
}

TEST(CudaTemplateArgumentsTest, ALaunchInAHelperTemplateRunsForEachInstanceOfIt) {
  // `run<BLOCK>` launches `scale<BLOCK>`: each instance of the kernel takes the calls of its own helper instance.
  const std::string helper = "template <int N> __global__ void scale(float *x) {}\n"
                             "template <int BLOCK>\n"
                             "void run(float *x, int n) { scale<BLOCK><<<n / BLOCK, BLOCK>>>(x); }\n";
  const auto launches = launchesOf({"_Z5scaleILi256EEvPf", "_Z5scaleILi128EEvPf"},
                                   helper + "int main() { float *x;\n"
                                            "  for (int r = 0; r < 10; ++r) run<256>(x, 1 << 20);\n"
                                            "  run<128>(x, 4096); }\n");
  const ptx::analysis::SourceLaunch &wide = launches.at("_Z5scaleILi256EEvPf");
  EXPECT_EQ(shown(wide.block), "256,1,1");
  EXPECT_EQ(shown(wide.grid), "4096,1,1");
  EXPECT_EQ(wide.launches, 10u);
  EXPECT_EQ(wide.blockHow, "`BLOCK` = 256, as `run`'s call at t.cu:5 passes it");
  const ptx::analysis::SourceLaunch &narrow = launches.at("_Z5scaleILi128EEvPf");
  EXPECT_EQ(shown(narrow.grid), "32,1,1");
  EXPECT_EQ(narrow.launches, 1u);
  // A type parameter passed on through another template, and a default template argument.
  const std::string typed = "template <class T> __global__ void axpy(T *x) {}\n"
                            "template <class T, int BLOCK = 128>\n"
                            "void runTest(T *x, int n) { axpy<T><<<n / BLOCK, BLOCK>>>(x); }\n"
                            "template <class T> void outer(T *x) { runTest<T>(x, 1024); }\n"
                            "int main() { float *f; double *d; outer<float>(f);\n"
                            "  for (int r = 0; r < 3; ++r) runTest<double, 256>(d, 512); }\n";
  EXPECT_EQ(axpyLaunches(typed), "8,1,1 x 128,1,1, 1; 2,1,1 x 256,1,1, 3");
  // Through a template that passes its own parameter on, called with several: one chain of calls each.
  const std::string nested = "template <class T> __global__ void axpy(T *x) {}\n"
                             "template <class T> void runTest(T *x, int n) { axpy<T><<<n / 64, 64>>>(x); }\n"
                             "template <class T> void outer(T *x, int n) { runTest<T>(x, n); }\n"
                             "int main() { float *f; double *d; outer<float>(f, 1024);\n"
                             "  for (int r = 0; r < 5; ++r) outer<double>(d, 2048); }\n";
  EXPECT_EQ(axpyLaunches(nested), "16,1,1 x 64,1,1, 1; 32,1,1 x 64,1,1, 5");
  // One instance of the helper alone: its parameter is what its calls pass, as a function's is.
  EXPECT_EQ(shown(launchesOf({"_Z5scaleILi256EEvPf"}, helper + "int main() { float *x; run<256>(x, 512); }\n")
                      .at("_Z5scaleILi256EEvPf")
                      .grid),
            "2,1,1");
}

TEST(CudaTemplateArgumentsTest, HelperTemplatesWhoseCallsDoNotFixTheirArgumentsStayOpen) {
  const std::string helper = "template <class T> __global__ void axpy(T *x) {}\n"
                             "template <class T> void runTest(T *x) { axpy<T><<<4, 64>>>(x); }\n";
  // Deduced from the call's arguments: which instance each call is, is not read.
  const auto deduced = launchesOf({"_Z4axpyIfEvPT_", "_Z4axpyIdEvPT_"},
                                  helper + "int main() { float *f; double *d; runTest(f); runTest(d); }\n");
  EXPECT_EQ(shown(deduced.at("_Z4axpyIfEvPT_").block), "none");
  EXPECT_EQ(deduced.at("_Z4axpyIfEvPT_").blockOpen,
            "the launch at t.cu:2 passes template arguments that are not built-in types or constants, so its "
            "instances are not told apart");
  // A parameter of another template hides nothing outside it.
  const auto other = launchesOf({"_Z1kILi2EEvPf"}, "const int W = 8;\n"
                                                   "template <int N> __global__ void k(float *x) {}\n"
                                                   "template <int W> void f() {}\n"
                                                   "int main() { float *x; k<2><<<W, 64>>>(x); }\n");
  EXPECT_EQ(shown(other.at("_Z1kILi2EEvPf").grid), "8,1,1");
}

TEST(CudaTemplateArgumentsTest, MangledInstancesAndWrittenArgumentsMeet) {
  using Arguments = std::optional<std::vector<std::string>>;
  EXPECT_EQ(templateArgumentsOf("_Z6reduceIfLi256EEvPT_i"), (Arguments{{"type:f", "value:256"}}));
  EXPECT_EQ(templateArgumentsOf("_ZN2ns6kernelIdEEvPT_"), (Arguments{{"type:d"}}));
  EXPECT_EQ(templateArgumentsOf("_Z5scaleILin3EEvPf"), (Arguments{{"value:-3"}}));
  EXPECT_EQ(templateArgumentsOf("_Z1kILb1EjEvv"), (Arguments{{"value:1", "type:j"}}));
  EXPECT_EQ(templateArgumentsOf("_Z6kernelI4Vec3EvPT_"), std::nullopt); // a class
  EXPECT_EQ(templateArgumentsOf("_Z6kernelIPfEvT_"), std::nullopt);     // a pointer
  EXPECT_EQ(templateArgumentsOf("_Z16launched_literalPf"), std::nullopt);
  EXPECT_EQ(templateArgumentsOf("plain_kernel"), std::nullopt);
  EXPECT_EQ(templateArgumentsOf("_Z1kILi12"), std::nullopt); // cut short
  // A length past the name's end (or past 2^64) is no name.
  EXPECT_EQ(baseNameOf("_ZN18446744073709551617kE"), "_ZN18446744073709551617kE");
  EXPECT_EQ(baseNameOf("_ZN2ns6kernelIdEEvPT_"), "kernel");
  EXPECT_EQ(builtinTemplateArgument(" unsigned  int "), "type:j");
  EXPECT_EQ(builtinTemplateArgument("std::size_t"), "type:m");
  EXPECT_EQ(builtinTemplateArgument("true"), "value:1");
  EXPECT_EQ(builtinTemplateArgument("float *"), std::nullopt);
  EXPECT_EQ(builtinTemplateArgument("T"), std::nullopt);
  EXPECT_EQ(builtinTemplateArgument("256"), std::nullopt); // a value: the caller folds it
}

} // namespace
} // namespace ptxdvfs::tools
