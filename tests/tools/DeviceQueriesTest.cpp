// DeviceQueriesTest.cpp - launches sized by what the CUDA runtime says of
// the GPU (`2 * prop.multiProcessorCount` blocks, `cudaDeviceGetAttribute(
// &sms, cudaDevAttrMultiProcessorCount, 0)`, the occupancy queries), read
// for the GPU the model predicts and left open without one.
#include "CudaDevice.h"
#include "CudaLaunches.h"
#include "SourceLaunchHelpers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ptxdvfs::tools {
namespace {

const TargetDevice *titanX() { return targetDeviceNamed("gtxtitanx"); }

/// What `main`'s `body`, after `globals`, launches `k` with, GRID x BLOCK, the device queries reading `device`.
std::string launchedOn(const TargetDevice *device, const std::string &body, std::string *how = nullptr,
                       const std::string &globals = "") {
  return launchedWith(globals + inMain(body), how, device);
}

TEST(DeviceQueriesTest, TheTableKnowsTheShippedModelsGpu) {
  ASSERT_NE(titanX(), nullptr);
  EXPECT_EQ(titanX()->property("multiProcessorCount"), 24);
  EXPECT_EQ(titanX()->property("maxThreadsDim[2]"), 64);
  EXPECT_FALSE(titanX()->property("clockRate").has_value()); // what a V-F point sets, not a size
  EXPECT_EQ(targetDeviceNamed("a100"), nullptr);
  EXPECT_EQ(propertyOfAttribute("cudaDevAttrMultiProcessorCount"), "multiProcessorCount");
  EXPECT_FALSE(propertyOfAttribute("cudaDevAttrClockRate").has_value());
}

TEST(DeviceQueriesTest, PropertiesGiveTheirMembers) {
  std::string how;
  EXPECT_EQ(launchedOn(titanX(),
                       "cudaDeviceProp prop;\ncudaGetDeviceProperties(&prop, 0);\n"
                       "k<<<prop.multiProcessorCount * 2, prop.maxThreadsPerBlock / 4>>>(x);",
                       &how),
            "48,1,1 x 256,1,1");
  EXPECT_NE(how.find("`prop.multiProcessorCount` = 24, as `cudaGetDeviceProperties` at t.cu:4 gives it for the "
                     "GTX Titan X"),
            std::string::npos)
      << how;
  EXPECT_EQ(launchedOn(titanX(), "int dev = 0; cudaDeviceProp p;\ncudaGetDeviceProperties_v2(&p, dev);\n"
                                 "int blocks = 4 * p.multiProcessorCount;\nk<<<blocks, p.warpSize * 8>>>(x);"),
            "96,1,1 x 256,1,1");
  // Checked by the samples' macro, the call is still the query.
  EXPECT_EQ(launchedOn(titanX(), "cudaDeviceProp prop;\ncheckCudaErrors(cudaGetDeviceProperties(&prop, 0));\n"
                                 "k<<<prop.multiProcessorCount, 32>>>(x);"),
            "24,1,1 x 32,1,1");
}

/// A host `body` and what `main` launches `k` with on the GTX Titan X, GRID x BLOCK.
struct Case {
  const char *why;
  const char *body;
  const char *launched;
};

void expectOnTitanX(const std::vector<Case> &cases) {
  for (const Case &each : cases)
    EXPECT_EQ(launchedOn(titanX(), each.body), each.launched) << each.why;
}

TEST(DeviceQueriesTest, AnArrayMemberGivesItsElements) {
  // The CUDA samples' clamp of a grid to the device's limit: the limit read where it is compared and where it is taken.
  expectOnTitanX({
      {"a clamp that applies",
       "cudaDeviceProp prop;\ncudaGetDeviceProperties(&prop, 0);\nint blocks = 100000;\n"
       "if (blocks > prop.maxGridSize[1]) blocks = prop.maxGridSize[1];\nk<<<blocks, prop.maxThreadsDim[2]>>>(x);",
       "65535,1,1 x 64,1,1"},
      {"one that does not", "cudaDeviceProp prop;\ncudaGetDeviceProperties(&prop, 0);\nint blocks = 1000;\n"
                            "if (blocks > prop.maxGridSize[0])\n  blocks = prop.maxGridSize[0];\nk<<<blocks, 64>>>(x);",
       "1000,1,1 x 64,1,1"},
      {"an index that is not a literal",
       "cudaDeviceProp prop;\ncudaGetDeviceProperties(&prop, 0);\nint d = 1;\nk<<<prop.maxGridSize[d], 64>>>(x);",
       "none x 64,1,1"},
  });
}

TEST(DeviceQueriesTest, AnAttributeGivesItsVariable) {
  expectOnTitanX({
      {"an attribute in the table",
       "int sms = 0;\ncudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);\nk<<<sms * 8, 128>>>(x);",
       "192,1,1 x 128,1,1"},
      {"an attribute not in the table (a clock rate)",
       "int rate = 0;\ncudaDeviceGetAttribute(&rate, cudaDevAttrClockRate, 0);\nk<<<rate, 128>>>(x);",
       "none x 128,1,1"},
      {"another runtime call that takes an address", "int dev = 0;\ncudaGetDevice(&dev);\nk<<<dev + 1, 128>>>(x);",
       "none x 128,1,1"},
  });
}

TEST(DeviceQueriesTest, AGlobalOnlyAQueryChangesHoldsItsValue) {
  // Filled by an initialisation function, read in main: the query is taken to run first.
  const std::string init = "cudaDeviceProp g_prop;\nint g_sms;\nvoid init() {\n  cudaGetDeviceProperties(&g_prop, 0);\n"
                           "  cudaDeviceGetAttribute(&g_sms, cudaDevAttrMultiProcessorCount, 0);\n}\n";
  std::string how;
  EXPECT_EQ(launchedOn(titanX(), "init();\nk<<<g_prop.multiProcessorCount * 2, g_sms * 4>>>(x);", &how, init),
            "48,1,1 x 96,1,1");
  EXPECT_NE(how.find("`g_prop.multiProcessorCount` = 24, as `cudaGetDeviceProperties` at t.cu:4 gives it for the GTX "
                     "Titan X, the only change of the global, taken to run first"),
            std::string::npos)
      << how;
  // Changed another way too, or by queries that disagree: open.
  EXPECT_EQ(launchedOn(titanX(), "init();\nhalve();\nk<<<g_sms, 64>>>(x);", nullptr,
                       init + "void halve() { g_sms /= 2; }\n"),
            "none x 64,1,1");
  EXPECT_EQ(launchedOn(titanX(), "init();\nk<<<8, g_sms>>>(x);", nullptr,
                       init + "void warp() { cudaDeviceGetAttribute(&g_sms, cudaDevAttrWarpSize, 0); }\n"),
            "8,1,1 x none");
  EXPECT_EQ(launchedOn(nullptr, "init();\nk<<<g_sms, 64>>>(x);", nullptr, init), "none x 64,1,1");
}

TEST(DeviceQueriesTest, WithoutADeviceQueriesAreOpen) {
  const std::string body = "cudaDeviceProp prop;\ncudaGetDeviceProperties(&prop, 0);\n"
                           "int sms = 0;\ncudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);\n"
                           "k<<<prop.multiProcessorCount, sms>>>(x);";
  EXPECT_EQ(launchedOn(nullptr, body), "none x none");
  EXPECT_EQ(launchedOn(titanX(), body), "24,1,1 x 24,1,1");
}

TEST(DeviceQueriesTest, AQueryThatMayNotRunOrIsChangedAfterIsOpen) {
  expectOnTitanX({
      {"under a branch not known to be taken: the member keeps whatever it held",
       "cudaDeviceProp prop;\nif (argc > 1)\n  cudaGetDeviceProperties(&prop, 0);\n"
       "k<<<prop.multiProcessorCount, 64>>>(x);",
       "none x 64,1,1"},
      {"under one known not to be taken: it does not count",
       "int sms = 16;\nif (0)\n  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);\nk<<<sms, 64>>>(x);",
       "16,1,1 x 64,1,1"},
      {"changed after the query: the change wins, as for any variable",
       "int sms = 0;\ncudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);\nsms = sms / 2;\n"
       "k<<<sms, 64>>>(x);",
       "12,1,1 x 64,1,1"},
      {"a member the table does not hold (a clock)",
       "cudaDeviceProp prop;\ncudaGetDeviceProperties(&prop, 0);\nk<<<prop.clockRate, 64>>>(x);", "none x 64,1,1"},
  });
}

TEST(DeviceQueriesTest, PropertiesPassedToAHelperGiveTheirMembersThere) {
  const std::string run = "void run(float *x, const cudaDeviceProp &prop) { k<<<prop.multiProcessorCount * 4, "
                          "prop.maxThreadsPerBlock / 4>>>(x); }\n";
  EXPECT_EQ(launchedOn(titanX(), "cudaDeviceProp prop;\ncudaGetDeviceProperties(&prop, 0);\nrun(x, prop);", nullptr,
                       run),
            "96,1,1 x 256,1,1");
  // A member the table does not hold, or properties the call does not query, stay open.
  EXPECT_EQ(launchedOn(titanX(), "cudaDeviceProp prop;\nrun(x, prop);", nullptr, run), "none x none");
  EXPECT_EQ(launchedOn(titanX(), "cudaDeviceProp prop;\ncudaGetDeviceProperties(&prop, 0);\nrun(x, prop);", nullptr,
                       "void run(float *x, cudaDeviceProp prop) { k<<<prop.clockRate, 64>>>(x); }\n"),
            "none x 64,1,1");
}

TEST(DeviceQueriesTest, OccupancyQueriesGiveWhatTheRuntimeComputesForTheDevice) {
  const std::string potential = "int minGrid, block;\ncudaOccupancyMaxPotentialBlockSize(&minGrid, &block, k";
  std::string how;
  // The largest block: 2 of them fill each of the 24 multiprocessors' 2,048 threads.
  EXPECT_EQ(launchedOn(titanX(), potential + ", 0, 0);\nk<<<minGrid, block>>>(x);", &how), "48,1,1 x 1024,1,1");
  EXPECT_NE(how.find("`block` = 1024, as `cudaOccupancyMaxPotentialBlockSize` at t.cu:4 gives it for the GTX Titan "
                     "X, for a kernel that its registers do not limit"),
            std::string::npos)
      << how;
  // Under a limit, the first block down from it, a warp at a time, that fills a multiprocessor best: 100 threads
  // (4 warps) fit 16 blocks, 96 fit 21, 64 fill it with 32; shared memory per block that leaves room for fewer.
  EXPECT_EQ(launchedOn(titanX(), potential + ", 0, 100);\nk<<<minGrid, block>>>(x);"), "768,1,1 x 64,1,1");
  EXPECT_EQ(launchedOn(titanX(), potential + ", 40000);\nk<<<minGrid, block>>>(x);"), "48,1,1 x 1024,1,1");
  EXPECT_EQ(launchedOn(titanX(), potential + ", 32768, 256);\nk<<<minGrid, block>>>(x);"), "72,1,1 x 256,1,1");
  // Blocks per multiprocessor for a block size, read as folded: 2,048 / 256 threads.
  EXPECT_EQ(launchedOn(titanX(), "int blocks, threads = 256;\n"
                                 "cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, threads, 0);\n"
                                 "k<<<blocks * 24, threads>>>(x);"),
            "192,1,1 x 256,1,1");
  // Open without a device, with more shared memory than a block may have, or a size that does not fold.
  EXPECT_EQ(launchedOn(nullptr, potential + ");\nk<<<minGrid, block>>>(x);"), "none x none");
  EXPECT_EQ(launchedOn(titanX(), potential + ", 65536);\nk<<<minGrid, block>>>(x);"), "none x none");
  EXPECT_EQ(launchedOn(titanX(), potential + ", 0, atoi(argv[1]));\nk<<<minGrid, block>>>(x);"), "none x none");
}

} // namespace
} // namespace ptxdvfs::tools
