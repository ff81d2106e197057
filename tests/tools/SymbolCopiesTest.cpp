// SymbolCopiesTest.cpp - what the host code writes into `__constant__`
// variables with `cudaMemcpyToSymbol`, which kernels read as bounds.
#include "CudaSymbolCopies.h"
#include "SourceLaunchHelpers.h"

#include "ptxdvfs/ptx/Module.h"

#include <gtest/gtest.h>

#include <string>

namespace ptxdvfs::tools {
namespace {

/// "NAME=VALUE" for each part `source` (t.cu) writes into the module's
/// `__constant__` variables `c_n`, `c_dims` and `c_p`, `;` between.
std::string writtenBy(const std::string &source) {
  const ptx::Module module = constantVariablesModule({"c_n", "c_dims", "c_p"});
  std::string text;
  const ConstantFolder folder({{"t.cu", "t.cu", source}});
  for (const auto &[name, write] : sourceSymbolWrites(module, folder))
    text += (text.empty() ? "" : ";") + name + "=" + write.value.text();
  return text;
}

std::string inMain(const std::string &body) {
  return "struct P { int n; int steps; float dt; };\n__constant__ int c_n;\n__constant__ int c_dims[3];\n"
         "__constant__ P c_p;\nint main(int argc, char **argv) {\n" +
         body + "\n}\n";
}

TEST(SymbolCopiesTest, AScalarAnArrayAndAStructGoByTheirBytes) {
  EXPECT_EQ(writtenBy(inMain("int n = 1 << 12;\ncudaMemcpyToSymbol(c_n, &n, sizeof(int));")), "c_n=4096");
  EXPECT_EQ(writtenBy(inMain("const int d[3] = {16, 32, 64};\ncudaMemcpyToSymbol(c_dims, d, sizeof(d));")),
            "c_dims=16;c_dims+4=32;c_dims+8=64");
  EXPECT_EQ(writtenBy(inMain("long d[2] = {7, 9};\ncudaMemcpyToSymbol(c_dims, &d[0], sizeof(d));")),
            "c_dims=7;c_dims+8=9");
  EXPECT_EQ(writtenBy(inMain("P p = {4096, 20, 0.5f};\ncudaMemcpyToSymbolAsync(c_p, &p, sizeof(P), 0, "
                             "cudaMemcpyHostToDevice);")),
            "c_p=4096;c_p+4=20;c_p+8=0.5");
  // Two copies of the same value agree; of different values, that part is left out.
  EXPECT_EQ(writtenBy(inMain("int n = 64;\ncudaMemcpyToSymbol(c_n, &n, 4);\ncudaMemcpyToSymbol(c_n, &n, 4);")),
            "c_n=64");
  EXPECT_EQ(writtenBy(inMain("P p = {4096, 20, 0.5f}, q = {4096, 40, 0.5f};\ncudaMemcpyToSymbol(c_p, &p, "
                             "sizeof(P));\ncudaMemcpyToSymbol(c_p, &q, sizeof(P));")),
            "c_p=4096;c_p+8=0.5");
}

TEST(SymbolCopiesTest, WhatTheSourceDoesNotFixIsLeftOut) {
  for (const char *body : {"int n = atoi(argv[1]);\ncudaMemcpyToSymbol(c_n, &n, sizeof(int));",
                           "int n = 64;\ncudaMemcpyToSymbol(c_n, &n, sizeof(int), 4);",
                           "int *n = get();\ncudaMemcpyToSymbol(c_n, n, sizeof(int));",
                           "int n = 64, m = atoi(argv[1]);\ncudaMemcpyToSymbol(c_n, &n, 4);\n"
                           "cudaMemcpyToSymbol(c_n, &m, 4);",
                           "int n = 64;\ncudaMemcpyToSymbol(\"c_n\", &n, 4);",
                           "int n = 64;\ncudaMemcpyToSymbol(other, &n, 4);"})
    EXPECT_EQ(writtenBy(inMain(body)), "") << body;
}

} // namespace
} // namespace ptxdvfs::tools
