// LaunchedKernelsTest.cpp - which kernels of a module the host code
// launches: by name, through a function pointer, in another program, or
// nowhere.
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

const std::string kThreeKernels = "__global__ void copy(float *x) {}\n"
                                  "__global__ void naive(float *x) {}\n"
                                  "__global__ void tiled(float *x) {}\n";
const std::vector<std::string> kThreeNames{"_Z4copyPf", "_Z5naivePf", "_Z5tiledPf"};

TEST(LaunchedKernelsTest, ALaunchThroughAPointerLaunchesEachKernelItIsGiven) {
  // The CUDA samples' transpose: a switch in a loop picks the kernel, each runs a third of the launches.
  const std::string transpose = kThreeKernels +
                                "int main() {\n  float *x;\n  void (*kernel)(float *);\n"
                                "  for (int k = 0; k < 3; k++) {\n"
                                "    switch (k) { case 0: kernel = &copy; break; case 1: kernel = naive; break;\n"
                                "                 case 2: kernel = &tiled; break; }\n"
                                "    for (int r = 0; r < 100; r++) kernel<<<dim3(64, 64), dim3(16, 16)>>>(x);\n"
                                "  }\n}\n";
  EXPECT_EQ(launchesText(kThreeNames, transpose),
            "64,64,1 x 16,16,1, 100; 64,64,1 x 16,16,1, 100; 64,64,1 x 16,16,1, 100");
  const auto launches = launchesOf(kThreeNames, transpose);
  EXPECT_NE(launches.at("_Z5naivePf").launchesWhy.find("100 at t.cu:10 (1/3 of its 300 runs, through a pointer to "
                                                       "3 kernels), in `for (int r = 0; r < 100; r++)`"),
            std::string::npos)
      << launches.at("_Z5naivePf").launchesWhy;
  // Given where it is declared; the kernels it is never given are not launched.
  EXPECT_EQ(launchesText(kThreeNames, kThreeKernels + "int main() { void (*kernel)(float *) = &copy;\n"
                                                      "  kernel<<<8, 32>>>(0); }\n"),
            "8,1,1 x 32,1,1, 1; none x none, 0; none x none, 0");
  // Either side of a choice: each takes half of a site's launches, rounded up.
  EXPECT_EQ(launchesText(kThreeNames, kThreeKernels + "int main(int argc, char **argv) {\n"
                                                      "  auto kernel = argc > 1 ? tiled : naive;\n"
                                                      "  for (int i = 0; i < 4; ++i) kernel<<<8, 32>>>(0);\n"
                                                      "  kernel<<<8, 32>>>(0); }\n"),
            "none x none, 0; 8,1,1 x 32,1,1, 3; 8,1,1 x 32,1,1, 3");
  // A pointer of the same name in another function is another pointer.
  EXPECT_EQ(launchesText(kThreeNames, kThreeKernels + "void a() { void (*kernel)(float *) = copy;\n"
                                                      "  kernel<<<1, 32>>>(0); }\n"
                                                      "void b() { void (*kernel)(float *) = naive;\n"
                                                      "  kernel<<<2, 64>>>(0); }\n"),
            "1,1,1 x 32,1,1, 1; 2,1,1 x 64,1,1, 1; none x none, 0");
  // `kernel == &copy` compares; it does not give the pointer a kernel.
  EXPECT_EQ(launchesText(kThreeNames, kThreeKernels + "void run(void (*kernel)(float *)) {\n"
                                                      "  if (kernel == &copy) return;\n"
                                                      "  kernel<<<1, 32>>>(0); }\n"),
            "none; none; none");
}

TEST(LaunchedKernelsTest, APointerToATemplateInstanceLaunchesThatInstance) {
  const std::string source = "template <int N> __global__ void reduce(float *x) {}\n"
                             "int main() { void (*kernel)(float *) = &reduce<256>;\n"
                             "  kernel<<<64, 256>>>(0); }\n";
  const auto launches = launchesOf({"_Z6reduceILi256EEvPf", "_Z6reduceILi128EEvPf"}, source);
  ASSERT_EQ(launches.size(), 2u);
  EXPECT_EQ(shown(launches.at("_Z6reduceILi256EEvPf").block), "256,1,1");
  EXPECT_EQ(launches.at("_Z6reduceILi256EEvPf").launches, 1u);
  EXPECT_EQ(launches.at("_Z6reduceILi128EEvPf").launches, 0u);
  EXPECT_EQ(launches.at("_Z6reduceILi128EEvPf").launchesWhy,
            "not launched: no launch of `reduce`, the first at t.cu:3, is of this instance");
}

TEST(LaunchedKernelsTest, ALaunchThroughAParameterLaunchesWhatEachCallPasses) {
  // A timing helper: each kernel runs as often as the calls that pass it, with what they pass.
  const std::string timed = kThreeKernels +
                            "void timed(int blocks, void (*kernel)(float *), float *x) {\n"
                            "  for (int r = 0; r < 10; ++r) kernel<<<blocks, 256>>>(x); }\n"
                            "int main() { float *x;\n"
                            "  timed(64, copy, x);\n"
                            "  for (int k = 0; k < 3; ++k) timed(128, &naive, x); }\n";
  EXPECT_EQ(launchesText(kThreeNames, timed), "64,1,1 x 256,1,1, 10; 128,1,1 x 256,1,1, 30; none x none, 0");
  const auto launches = launchesOf(kThreeNames, timed);
  EXPECT_NE(launches.at("_Z5naivePf").launchesWhy.find("launched 30 times: 30 at t.cu:5 (through `timed`'s "
                                                       "parameter `kernel`), in `for (int r = 0; r < 10; ++r)`"),
            std::string::npos)
      << launches.at("_Z5naivePf").launchesWhy;
  // Another program beside it, with a helper and a copy of its own: its calls are not this helper's.
  const std::string helper = "void timed(void (*kernel)(float *)) { for (int r = 0; r < 10; ++r) kernel<<<8, 32>>>(0); }\n";
  const std::vector<CudaSourceFile> twoPrograms{
      {"a.cu", "d/a.cu", kThreeKernels + helper + "int main() { timed(copy); }\n"},
      {"b.cu", "d/b.cu",
       "__global__ void copy(float *x) {}\n" + helper + "int main() { for (int k = 0; k < 5; ++k) timed(copy); }\n"}};
  EXPECT_EQ(launchesOf(kThreeNames, twoPrograms, 1).at("_Z4copyPf").launches, 10u);
  // A call that passes its caller's parameter on is followed to the caller's calls.
  EXPECT_EQ(launchesText(kThreeNames, kThreeKernels +
                                          "void timed(void (*kernel)(float *)) { kernel<<<8, 32>>>(0); }\n"
                                          "void twice(void (*kernel)(float *)) { timed(kernel); timed(kernel); }\n"
                                          "int main() { twice(copy); for (int i = 0; i < 5; ++i) timed(naive); }\n"),
            "8,1,1 x 32,1,1, 2; 8,1,1 x 32,1,1, 5; none x none, 0");
  // One that passes a pointer variable is not followed: then no kernel is taken for not launched.
  EXPECT_EQ(launchesText(kThreeNames, kThreeKernels +
                                          "void timed(void (*kernel)(float *)) { kernel<<<8, 32>>>(0); }\n"
                                          "int main() { void (*k)(float *) = copy; timed(copy); timed(k); }\n"),
            "none; none; none");
}

TEST(LaunchedKernelsTest, CudaLaunchKernelExTakesItsSizesFromTheConfig) {
  const std::string kernels = "__global__ void scale(float *x) {}\n__global__ void unused(float *x) {}\n";
  const std::vector<std::string> names{"_Z5scalePf", "_Z6unusedPf"};
  // The CUDA samples' way: cleared, then each field assigned, launched in a loop.
  EXPECT_EQ(launchesText(names, kernels + "int main() { float *x; int n = 1 << 20;\n"
                                          "  cudaLaunchConfig_t config = {0};\n"
                                          "  config.gridDim = dim3(n / 256);\n  config.blockDim = 256;\n"
                                          "  for (int r = 0; r < 10; ++r)\n"
                                          "    cudaLaunchKernelEx(&config, scale, x); }\n"),
            "4096,1,1 x 256,1,1, 10; none x none, 0");
  // An initializer, by position or by field name.
  EXPECT_EQ(launchesText(names, kernels + "int main() { float *x;\n"
                                          "  cudaLaunchConfig_t config = {dim3(8, 2), dim3(64), 0, 0};\n"
                                          "  cudaLaunchKernelEx(&config, &scale, x); }\n"),
            "8,2,1 x 64,1,1, 1; none x none, 0");
  EXPECT_EQ(launchesText(names, kernels + "int main() { float *x;\n"
                                          "  cudaLaunchConfig_t config = {.gridDim = 16, .blockDim = 32};\n"
                                          "  cudaLaunchKernelEx(&config, scale, x); }\n"),
            "16,1,1 x 32,1,1, 1; none x none, 0");
  // A config the function does not fill (a parameter) leaves the sizes open, and says which field.
  const auto open = launchesOf(names, kernels + "void run(const cudaLaunchConfig_t &config, float *x) {\n"
                                                "  cudaLaunchKernelEx(&config, scale, x); }\n");
  ASSERT_EQ(open.count("_Z5scalePf"), 1u);
  EXPECT_EQ(shown(open.at("_Z5scalePf").grid), "none");
  EXPECT_NE(open.at("_Z5scalePf").gridOpen.find("`config.gridDim`"), std::string::npos)
      << open.at("_Z5scalePf").gridOpen;
}

TEST(LaunchedKernelsTest, CudaLaunchKernelTakesItsArgumentsFromTheirAddresses) {
  const std::string kernels = "__global__ void scale(int n) {}\n";
  const std::vector<std::string> names{"_Z5scalei"};
  // The addresses given to the launch are only read: `n` keeps its value, and is the kernel's `n`.
  const std::string launch = "int main() { int n = 4096;\n"
                             "  void *args[] = {(void *)&n};\n"
                             "  cudaLaunchCooperativeKernel((void *)scale, dim3(n / 256), dim3(256), args, 0, 0); }\n";
  EXPECT_EQ(launchesText(names, kernels + launch), "16,1,1 x 256,1,1, 1");
  const auto launches = launchesOf(names, kernels + launch);
  ASSERT_EQ(launches.count("_Z5scalei"), 1u);
  ASSERT_EQ(launches.at("_Z5scalei").arguments.size(), 1u);
  ASSERT_TRUE(launches.at("_Z5scalei").arguments[0].has_value());
  EXPECT_EQ(launches.at("_Z5scalei").arguments[0]->whole(), 4096);
  // Elsewhere the array may change what its addresses point at, or be given others.
  EXPECT_EQ(launchesText(names, kernels +
                                    "int main() { int n = 4096;\n"
                                    "  void *args[] = {&n};\n  fill(args);\n"
                                    "  cudaLaunchKernel((void *)scale, dim3(n / 256), dim3(256), args, 0, 0); }\n"),
            "none x 256,1,1, 1");
  const auto changed =
      launchesOf(names, kernels + "int main() { int n = 4096, m = 64;\n"
                                  "  void *args[] = {&n};\n  args[0] = &m;\n"
                                  "  cudaLaunchKernel((void *)scale, dim3(16), dim3(256), args, 0, 0); }\n");
  ASSERT_EQ(changed.count("_Z5scalei"), 1u);
  EXPECT_TRUE(changed.at("_Z5scalei").arguments.empty() || !changed.at("_Z5scalei").arguments[0].has_value());
}

TEST(LaunchedKernelsTest, AKernelTheHostCodeLaunchesNowhereRunsNoThread) {
  const std::string source = "__global__ void __launch_bounds__(128) used(float *x) {}\n"
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
  // A launch through a function's parameter that some call fills with what is not one kernel may be of
  // any kernel: none is taken for not launched.
  const auto throughParameter =
      launchesOf({"_Z4usedPf", "_Z6unusedPf"},
                 "__global__ void __launch_bounds__(128) used(float *x) {}\n__global__ void unused(float *x) {}\n"
                 "void timed(void (*kernel)(float *)) { kernel<<<8, 32>>>(0); }\n"
                 "int main(int argc, char **argv) { used<<<64, 128>>>(0); timed(argc > 1 ? used : unused); }\n");
  EXPECT_EQ(throughParameter.count("_Z6unusedPf"), 0u);
  // Nor one the host code names otherwise: a CUDA graph's kernel node, an attribute query.
  for (const char *named : {"  params.func = (void *)unused;\n", "  cudaFuncGetAttributes(&attributes, unused);\n"})
    EXPECT_EQ(launchesOf({"_Z4usedPf", "_Z6unusedPf"},
                         "__global__ void used(float *x) {}\n__global__ void unused(float *x) {}\n"
                         "int main() { used<<<64, 128>>>(0);\n" +
                             std::string(named) + "}\n")
                  .count("_Z6unusedPf"),
              0u)
        << named;
  // Nor where a launch names a kernel of files not read; another program's kernel is one.
  EXPECT_EQ(launchesOf({"_Z4usedPf", "_Z6unusedPf"}, "int main() { used<<<64, 128>>>(0); elsewhere<<<1, 32>>>(0); }\n")
                .count("_Z6unusedPf"),
            0u);
  const std::vector<CudaSourceFile> twoPrograms{
      {"a.cu", "d/a.cu", "__global__ void used(float *x) {}\nint main() { used<<<64, 128>>>(0); }\n"},
      {"b.cu", "d/b.cu", "__global__ void other(float *x) {}\nint main() { other<<<1, 32>>>(0); }\n"}};
  EXPECT_EQ(launchesOf({"_Z4usedPf", "_Z6unusedPf"}, twoPrograms, 1).at("_Z6unusedPf").launches, 0u);
  // An explicit specialization declares its kernel, whose primary template lies in a header not read.
  const auto specialized = launchesOf({"_Z4usedPf", "_Z6unusedPf"},
                                      "template <> __global__ void scale<float>(float *x) {}\n"
                                      "__global__ void used(float *x) {}\n__global__ void unused(float *x) {}\n"
                                      "int main() { used<<<64, 128>>>(0); scale<float><<<8, 32>>>(0); }\n");
  ASSERT_EQ(specialized.count("_Z6unusedPf"), 1u);
  EXPECT_EQ(specialized.at("_Z6unusedPf").launches, 0u);
  // A kernel launched only under a branch the program does not take still counts once.
  const auto untaken = launchesOf({"_Z4usedPf", "_Z6unusedPf"},
                                  "int main() { used<<<64, 128>>>(0);\n  if (0) unused<<<1, 32>>>(0); }\n");
  EXPECT_EQ(untaken.at("_Z6unusedPf").launches, 1u);
}

TEST(LaunchedKernelsTest, AHelpersLaunchesCountOnlyItsOwnProgramsCalls) {
  // b.cu is another program with its own `step`: its 200 calls are not of a.cu's.
  const std::string a = "void step(float *x) { k<<<4, 256>>>(x); }\n"
                        "int main() { float *x; for (int t = 0; t < 10; ++t) step(x); }\n";
  const std::string b = "void step(float *x) { }\nint main() { float *x; for (int t = 0; t < 200; ++t) step(x); }\n";
  EXPECT_EQ(launchesOf({"k"}, {{"a.cu", "d/a.cu", a}, {"b.cu", "d/b.cu", b}}, 1).at("k").launches, 10u);
  // One that only declares it calls a.cu's, compiled apart and linked.
  const std::string linked = "void step(float *x);\nvoid more(float *x) { for (int t = 0; t < 5; ++t) step(x); }\n";
  EXPECT_EQ(launchesOf({"k"}, {{"a.cu", "d/a.cu", a}, {"c.cu", "d/c.cu", linked}}, 1).at("k").launches, 15u);
}

} // namespace
} // namespace ptxdvfs::tools
