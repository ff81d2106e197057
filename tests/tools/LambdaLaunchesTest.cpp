// LambdaLaunchesTest.cpp - a launch in a named lambda, `auto step = [&](int
// n) { k<<<...>>>(x); };`, read as a helper function's: it runs as often
// as the lambda is called, and its parameters are what the calls pass.
#include "SourceLaunchHelpers.h"

#include <gtest/gtest.h>

#include <string>

namespace ptxdvfs::tools {
namespace {

TEST(LambdaLaunchesTest, ALaunchInALambdaRunsAsOftenAsItIsCalled) {
  // Called in a loop of 100, with or without a parameter list; captured names are read where it is defined.
  EXPECT_EQ(launchesIn("auto step = [&]() { k<<<4, 32>>>(x); };\nfor (int t = 0; t < 100; ++t)\n  step();"), 100u);
  EXPECT_EQ(launchesIn("auto step = [&] { k<<<4, 32>>>(x); };\nfor (int t = 0; t < 100; ++t) step();\nstep();"),
            101u);
  EXPECT_EQ(launchesIn("auto step = [=](float *y) mutable { k<<<4, 32>>>(y); };\nstep(x);\nstep(x);"), 2u);
  // A loop in the lambda bounded by its parameter counts what the calls pass.
  const ptx::analysis::SourceLaunch sweep = launchOfK(
      inMain("const int n = 1 << 20;\nauto sweep = [&](int iterations) {\n"
             "  for (int it = 0; it < iterations; ++it)\n    k<<<n / 256, 256>>>(x);\n};\nsweep(40);"));
  EXPECT_EQ(sweep.launches, 40u);
  EXPECT_EQ(shown(sweep.grid), "4096,1,1");
  EXPECT_NE(sweep.launchesWhy.find("`iterations` = 40, as `sweep`'s call at t.cu:8 passes it"), std::string::npos)
      << sweep.launchesWhy;
  // Its parameter as a size; calls that differ launch once each: 256 and 2 blocks.
  EXPECT_EQ(shown(launchOfK(inMain("auto run = [](int n) { k<<<n / 256, 256>>>(0); };\nrun(1 << 16);")).grid),
            "256,1,1");
  EXPECT_EQ(shown(launchOfK(inMain("auto run = [](int n) { k<<<n / 256, 256>>>(0); };\nrun(1 << 16);\nrun(512);"))
                      .grid),
            "129,1,1");
}

TEST(LambdaLaunchesTest, ANameTheLambdaCapturesIsOpenWhereItChangesAfterIt) {
  // The call may come after the change, so the value at the definition is not the value the launch reads.
  const std::string run = "int n = 1024;\nauto run = [&]() { k<<<n / 256, 256>>>(x); };\n";
  EXPECT_EQ(shown(launchOfK(inMain(run + "run();")).grid), "4,1,1");
  EXPECT_EQ(shown(launchOfK(inMain(run + "n = 4096;\nrun();")).grid), "none");
  EXPECT_EQ(shown(launchOfK(inMain(run + "std::cin >> n;\nrun();")).grid), "none");
  // A function in a namespace is no lambda: a name changed after it, in the namespace, is another function's.
  EXPECT_EQ(shown(launchOfK("namespace app {\nvoid run(float *x) { const int n = 1024; k<<<n / 256, 256>>>(x); }\n"
                            "void other() { int n = 1; n = 2; }\n}\nint main() { app::run(0); }\n")
                      .grid),
            "4,1,1");
}

TEST(LambdaLaunchesTest, ALambdaReadsTheDeviceQueriesBeforeIt) {
  // A query in the function that defines the lambda is no other function's.
  const std::string queries = "cudaDeviceProp prop;\ncudaGetDeviceProperties(&prop, 0);\nint sms = 0;\n"
                              "cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);\n";
  EXPECT_EQ(launchedWith(inMain(queries + "auto run = [&]() { k<<<prop.multiProcessorCount, 256>>>(x); };\nrun();"),
                         nullptr, targetDeviceNamed("gtxtitanx")),
            "24,1,1 x 256,1,1");
  EXPECT_EQ(launchedWith(inMain(queries + "auto run = [&]() { k<<<sms * 2, 256>>>(x); };\nrun();"), nullptr,
                         targetDeviceNamed("gtxtitanx")),
            "48,1,1 x 256,1,1");
}

TEST(LambdaLaunchesTest, ALambdaInATemplateReadsItsTemplateArguments) {
  // Each instance of `run<BLOCK>` launches `scale<BLOCK>` from its lambda, as often as the lambda is called.
  const std::string helper = "template <int N> __global__ void scale(float *x) {}\n"
                             "template <int BLOCK>\nvoid run(float *x, int n) {\n"
                             "  auto go = [&]() { scale<BLOCK><<<n / BLOCK, BLOCK>>>(x); };\n  go();\n  go();\n}\n";
  const auto launches = launchesOf({"_Z5scaleILi256EEvPf", "_Z5scaleILi128EEvPf"},
                                   helper + "int main() { float *x;\n  run<256>(x, 1 << 20);\n"
                                            "  run<128>(x, 4096); }\n");
  EXPECT_EQ(shown(launches.at("_Z5scaleILi256EEvPf").grid) + " x " + shown(launches.at("_Z5scaleILi256EEvPf").block),
            "4096,1,1 x 256,1,1");
  EXPECT_EQ(shown(launches.at("_Z5scaleILi128EEvPf").grid) + " x " + shown(launches.at("_Z5scaleILi128EEvPf").block),
            "32,1,1 x 128,1,1");
  EXPECT_EQ(launches.at("_Z5scaleILi128EEvPf").launches, 2u);
}

TEST(LambdaLaunchesTest, AnIndexIsNoLambda) {
  // `auto w = v[1];` before a block: the block is the loop's body, not a lambda's.
  EXPECT_EQ(launchesIn("int v[2] = {1, 2};\nfor (int t = 0; t < 5; ++t) { auto w = v[1]; k<<<w, 32>>>(x); }"), 5u);
  EXPECT_EQ(launchesIn("int v[2] = {1, 2};\nauto w = v[1];\nfor (int t = 0; t < 5; ++t) { k<<<w, 32>>>(x); }"), 5u);
}

} // namespace
} // namespace ptxdvfs::tools
