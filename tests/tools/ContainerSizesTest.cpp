// ContainerSizesTest.cpp - `v.size()` of a standard or Thrust container
// that the host code sizes where it declares it and never resizes:
// `std::vector<float> host(n, 1.0f)`, `thrust::device_vector<int> d(n)`,
// `std::array<float, 512> a`.
#include "SourceLaunchHelpers.h"

#include <gtest/gtest.h>

#include <string>

namespace ptxdvfs::tools {
namespace {

/// The grid of `k<<<v.size() / 16, 256>>>` after `body` in main.
std::string gridOfSize(const std::string &body) { return gridAfter(body, "v.size() / 16"); }

TEST(ContainerSizesTest, AContainerSizedWhereItIsDeclaredHasThatSize) {
  EXPECT_EQ(gridOfSize("const int n = 1 << 20;\nstd::vector<float> v(n, 1.0f);"), "65536,1,1");
  EXPECT_EQ(gridOfSize("std::vector<float> v(4096);\ncudaMemcpy(x, v.data(), v.size() * 4, cudaMemcpyHostToDevice);\n"
                       "v[0] = 2.0f;\nstd::fill(v.begin(), v.end(), 0.0f);\nfor (float &e : v) e = 1;"),
            "256,1,1");
  EXPECT_EQ(gridOfSize("thrust::host_vector<int> h(1 << 16);\nthrust::device_vector<int> v(h.size());"), "4096,1,1");
  EXPECT_EQ(gridOfSize("std::array<float, 2048> v;"), "128,1,1");
  EXPECT_EQ(gridOfSize("static float data[8192];\nstd::vector<float> v(data + 1024, data + 4096);"), "192,1,1");
  EXPECT_EQ(gridOfSize("std::vector<int> v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};\n"
                       "v.reserve(4096);"),
            "1,1,1");
  // As a kernel's argument, with the reason.
  const ptx::analysis::SourceLaunch launch =
      launchOfK(inMain("std::vector<float> host(1 << 12);\nk<<<host.size() / 256, 256>>>(x);"));
  EXPECT_EQ(launch.gridHow, "`host.size()` = 4096, as `host` is declared at t.cu:3");
}

TEST(ContainerSizesTest, AContainerThatMayBeResizedIsOpen) {
  for (const char *body : {"std::vector<float> v(4096);\nv.push_back(1.0f);",
                           "std::vector<float> v(4096);\nv.resize(8192);",
                           "std::vector<float> v;\nfor (int i = 0; i < 4096; ++i) v.push_back(i);",
                           "std::vector<float> v(4096);\nfill(v);",
                           "std::vector<float> v(4096);\nv = other;",
                           "std::vector<float> v(4096), w;\nstd::swap(v, w);",
                           "std::vector<float> v(first, last);",
                           "std::vector<float> v(rand());",
                           "auto v = make();"})
    EXPECT_EQ(gridOfSize(body), "none") << body;
  // A parameter's size is its caller's, a lambda's too.
  EXPECT_EQ(shown(launchOfK("void run(std::vector<float> v, int n) { k<<<v.size() / 16, 256>>>(0); }\n"
                            "int main() { std::vector<float> h(4096); run(h, 1); }\n")
                      .grid),
            "none");
  EXPECT_EQ(shown(launchOfK(inMain("auto run = [&](std::vector<float> v, int n) { k<<<v.size() + 1, 256>>>(x); };\n"
                                   "std::vector<float> w(64);\nrun(w, 1);"))
                      .grid),
            "none");
}

} // namespace
} // namespace ptxdvfs::tools
