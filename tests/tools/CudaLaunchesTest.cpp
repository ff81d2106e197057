// CudaLaunchesTest.cpp - the grid and block a kernel's launches in host code
// give, and the loop counts that rest on them.
#include "CudaConstants.h"
#include "CudaLaunches.h"
#include "CudaPreprocessor.h"
#include "CudaSource.h"

#include "LoopFixtures.h"
#include "ParseHelpers.h"
#include "SourceLaunchHelpers.h"
#include "TestPaths.h"

#include "ptxdvfs/ptx/analysis/ExecutedSequence.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ptxdvfs::tools {
namespace {

using ptx::analysis::Dim3;

TEST(CudaLaunchesTest, ConstantsFoldAsCDoes) {
  EXPECT_EQ(folded("@", "128"), "128,1,1");
  EXPECT_EQ(folded("@", "dim3(16, 16)"), "16,16,1");
  EXPECT_EQ(folded("@", "(1000 + 255) / 256"), "4,1,1");     // integer division truncates
  EXPECT_EQ(folded("@", "(size_t)ceil(1000 / 256)"), "3,1,1"); // ... before ceil sees it
  EXPECT_EQ(folded("@", "(size_t)ceil((float)1000 / 256)"), "4,1,1");
  EXPECT_EQ(folded("@", "1 << 10"), "1024,1,1");
  EXPECT_EQ(folded("@", "0x40u"), "64,1,1");
  EXPECT_EQ(folded("@", "std::min(4096 / 256, 8)"), "8,1,1");
  EXPECT_EQ(folded("@", "static_cast<int>(2.9)"), "2,1,1");
  // C++'s names of the C types, and a type given to std::min, which both arguments take.
  EXPECT_EQ(folded("@", "static_cast<std::size_t>(4096) / 256"), "16,1,1");
  EXPECT_EQ(folded("@", "(::std::int64_t)1 << 4"), "16,1,1");
  EXPECT_EQ(folded("@", "std::min<int>(4096 / 256, 8.5)"), "8,1,1");
  EXPECT_EQ(folded("@", "std::max<std::size_t>(2.5, 1)"), "2,1,1");
  EXPECT_EQ(folded("const int min = 2, max = 3;\n@", "min < 4 && max > 2 ? 8 : 16"), "8,1,1"); // compared
  EXPECT_EQ(folded("@", "std::min<Widget>(4, 8)"), "none");
  // Functional casts, and literals in every base C++ writes, with its digit separators.
  EXPECT_EQ(folded("@", "int(4096.7) / 256"), "16,1,1");
  EXPECT_EQ(folded("@", "(int)ceil(float(1000) / 256)"), "4,1,1");
  EXPECT_EQ(folded("@", "std::size_t{1} << 4"), "16,1,1");
  EXPECT_EQ(folded("@", "1'024"), "1024,1,1");
  EXPECT_EQ(folded("@", "010"), "8,1,1"); // octal
  EXPECT_EQ(folded("@", "0b101"), "5,1,1");
  EXPECT_EQ(folded("@", "0x1'0u"), "16,1,1");
  EXPECT_EQ(folded("@", "09"), "none");      // not a number
  // The C library's math, and a mask that rounds up.
  EXPECT_EQ(folded("@", "(int)pow(2, 12) / 256"), "16,1,1");
  EXPECT_EQ(folded("@", "static_cast<int>(std::sqrt(16777216.0)) / 256"), "16,1,1");
  EXPECT_EQ(folded("@", "1 << (int)log2f(16)"), "16,1,1");
  EXPECT_EQ(folded("@", "abs(-16)"), "16,1,1");
  EXPECT_EQ(folded("@", "(int)sqrt(-1.0)"), "none");
  EXPECT_EQ(folded("@", "((4000 + 255) & ~255) / 256"), "16,1,1");
  EXPECT_EQ(folded("@", "0x10 | 0x20"), "48,1,1");
  EXPECT_EQ(folded("@", "6 & 3 ^ 1"), "3,1,1");     // & binds tighter than ^
  EXPECT_EQ(folded("@", "4 | 2 == 2"), "5,1,1");    // == tighter than |
  EXPECT_EQ(folded("@", "1 && 6 & 3"), "1,1,1");    // & tighter than &&
  EXPECT_EQ(folded("@", "(int)(1.5 & 1)"), "none"); // not of a real
  EXPECT_EQ(folded("@", "0"), "none");       // no launch has an empty dimension
  EXPECT_EQ(folded("@", "5 - 9"), "none");
  EXPECT_EQ(folded("@", "n > 1 ? 64 : 32"), "none");
  EXPECT_EQ(folded("@", "4096 > 1024 ? 64 : 32"), "64,1,1");
  EXPECT_EQ(folded("@", "(1000 % 256 != 0) ? (1000 / 256 + 1) : (1000 / 256)"), "4,1,1"); // iDivUp's body
  EXPECT_EQ(folded("@", "1 <= 2 && 3 >= 4 || !0"), "1,1,1");
  EXPECT_EQ(folded("@", "1 << 3 < 5 ? 8 : 16"), "16,1,1"); // << binds tighter than <
  EXPECT_EQ(folded("@", "0 ? 1 : 2 ? 3 : 4"), "3,1,1");     // right-associative
  EXPECT_EQ(folded("@", "1 / 0"), "none");
  EXPECT_EQ(folded("@", "(int)1e30"), "none"); // C leaves that conversion undefined
  EXPECT_EQ(folded("@", "ceil(1e300 * 1e300)"), "none");
  // sizeof of a type whose size the 64-bit host fixes; not of a struct or a variable.
  EXPECT_EQ(folded("@", "sizeof(float) * 4"), "16,1,1");
  EXPECT_EQ(folded("@", "4096 / sizeof(unsigned long long)"), "512,1,1");
  EXPECT_EQ(folded("@", "sizeof(const double2) + sizeof(int *)"), "24,1,1");
  EXPECT_EQ(folded("@", "sizeof(Params)"), "none");
  EXPECT_EQ(folded("@", "sizeof(n)"), "none");
}

/// What `expression` folds to as a kernel argument at the launch.
std::string argument(const std::string &source, const std::string &expression) {
  const MarkedSource marked(source);
  auto value = marked.folder.value(0, marked.launch, expression);
  return value ? value->text() + (value->whole() ? "" : " real") : "none";
}

TEST(CudaLaunchesTest, ArgumentsFoldToAnyNumber) {
  EXPECT_EQ(argument("@", "0"), "0");
  EXPECT_EQ(argument("@", "-5"), "-5");
  EXPECT_EQ(argument("@", "0.5f"), "0.5 real");
  EXPECT_EQ(argument("@", "1.0 / 4"), "0.25 real");
  EXPECT_EQ(argument("#define SPAN 4096\nint main() { int n = SPAN / 2; @ }", "n"), "2048");
  EXPECT_EQ(argument("int main(int argc, char **argv) { @ }", "atoi(argv[1]) * 100"), "none");
  EXPECT_EQ(argument("int main(int argc, char **argv) { @ }", "argc * 100"), "100"); // run without arguments
  EXPECT_EQ(argument("int main() { float *x; @ }", "x"), "none");
  // C evaluates only the side of `?:`, `&&` and `||` it takes.
  EXPECT_EQ(argument("@", "1 ? 64 : rand()"), "64");
  EXPECT_EQ(argument("@", "0 ? rand() : 1 ? 5 : rand()"), "5");
  EXPECT_EQ(argument("@", "(0 ? f(rand(), 2) : 7) + 1"), "8");
  EXPECT_EQ(argument("@", "0 && rand()"), "0");
  EXPECT_EQ(argument("@", "1 || rand() || rand()"), "1");
  EXPECT_EQ(argument("@", "1 && rand()"), "none");
  EXPECT_EQ(argument("@", "rand() ? 1 : 2"), "none");
}

TEST(CudaLaunchesTest, NamesAreFollowedToTheirOneValue) {
  EXPECT_EQ(folded("#define BS 64\n#define TWICE (BS * 2)\n@", "TWICE"), "128,1,1");
  EXPECT_EQ(folded("# define BS 64\n@", "BS"), "64,1,1");
  EXPECT_EQ(folded("constexpr unsigned kThreads = 96;\nint main() { @ }", "kThreads"), "96,1,1");
  EXPECT_EQ(folded("int main() { dim3 b(8, 4, 2); @ }", "b"), "8,4,2");
  EXPECT_EQ(folded("int main() { dim3 b = dim3(8, 4); int g = 640 / b.x; @ }", "g"), "80,1,1");
  EXPECT_EQ(folded("int main() { dim3 b{32}; @ }", "b"), "32,1,1");
  // A directive just above a declaration is not part of its type.
  EXPECT_EQ(folded("#define NY 1000\nconst int t = 1 << 5;\nvoid run() { @ }", "t"), "32,1,1");
  // Function-like macros expand as the preprocessor expands them: tokens, not values.
  EXPECT_EQ(folded("#define DIV_UP(a, b) (((a) + (b) - 1) / (b))\n#define N 1000\n@", "DIV_UP(N, 256)"), "4,1,1");
  EXPECT_EQ(folded("#define SQUARE(x) x * x\n@", "SQUARE(1 + 2)"), "5,1,1");
  EXPECT_EQ(folded("#define BLOCK() 64\n#define HALF(x) ((x) / 2)\n@", "HALF(BLOCK())"), "32,1,1");
  EXPECT_EQ(folded("#define PICK(a, b) (b)\n@", "PICK(min(1, 2), 48)"), "48,1,1");
  EXPECT_EQ(folded("#define min(a, b) ((a) < (b) ? (a) : (b))\n@", "min(4096 / 256, 8)"), "8,1,1");
  EXPECT_EQ(folded("#define N 2000\n@", "N < 1024 ? N : 1024"), "1024,1,1");
  // A host function that only returns an expression of its parameters is called as C calls it.
  const std::string divUp = "#define N 1000\n"
                            "inline int iDivUp(int a, int b) { return (a % b != 0) ? (a / b + 1) : (a / b); }\n"
                            "static __host__ float half(float x)\n{\n  return x / 2;\n}\n";
  EXPECT_EQ(folded(divUp + "int main() { @ }", "iDivUp(N, 256)"), "4,1,1");
  EXPECT_EQ(folded(divUp + "int main() { @ }", "iDivUp(2.9 * 100, 100)"), "3,1,1"); // 290 / 100, rounded up
  EXPECT_EQ(folded(divUp + "int main() { @ }", "(int)half(129)"), "64,1,1");
  EXPECT_EQ(folded(divUp + "int main() { @ }", "iDivUp(N)"), "none");                // a parameter short
  EXPECT_EQ(folded(divUp + "int main(int argc, char **argv) { @ }", "iDivUp(atoi(argv[1]), 256)"), "none");
  // More than a return, overloads, pointers, member functions and recursion stay open.
  EXPECT_EQ(folded("int f(int a) { int b = a; return b; }\nint main() { @ }", "f(64)"), "none");
  EXPECT_EQ(folded("int f(int a) { return a; }\nint f(float a) { return 2; }\nint main() { @ }", "f(64)"), "none");
  EXPECT_EQ(folded("int f(const int *a) { return *a; }\nint main() { @ }", "f(0)"), "none");
  EXPECT_EQ(folded("int f(const int *a) { return 64; }\nint main() { @ }", "f(0)"), "64,1,1"); // not read through it
  EXPECT_EQ(folded("struct S { int f(int a) const; };\nint S::f(int a) const { return a; }\nint main() { @ }",
                   "f(64)"),
            "none");
  EXPECT_EQ(folded("int f(int n) { return n <= 1 ? 1 : f(n - 1) + f(n - 2); }\nint main() { @ }", "f(30)"), "none");
  EXPECT_EQ(folded("#define TWO(a, b) a\n@", "TWO(4)"), "none");        // an argument short
  EXPECT_EQ(folded("#define S(x) #x\n@", "S(4)"), "none");               // stringified
  EXPECT_EQ(folded("#define V(...) 4\n@", "V(1)"), "none");              // variadic
  EXPECT_EQ(folded("#define F(x) F(x)\n@", "F(1)"), "none");             // never ends
  EXPECT_EQ(folded("#define F(x) F(x) + F(x)\n@", "F(1)"), "none");      // ends only after 2^16 copies
  EXPECT_EQ(folded("#ifdef __SSE__\n#define F(x) (x)\n#else\n#define F(x) (2 * x)\n#endif\n@", "F(8)"), "none");
  // Three copies a level, twelve levels: 3^12 expansions would end, but past the budget.
  std::string tripling = "#define M0(x) x\n";
  for (int level = 1; level <= 12; ++level)
    tripling += "#define M" + std::to_string(level) + "(x) (M" + std::to_string(level - 1) + "(x) + M" +
                std::to_string(level - 1) + "(x) + M" + std::to_string(level - 1) + "(x))\n";
  EXPECT_EQ(folded(tripling + "@", "M12(1)"), "none");
  EXPECT_EQ(folded(tripling + "@", "M5(1)"), "243,1,1");
  // A comment or a string does not define anything.
  EXPECT_EQ(folded("// #define BS 64\nint main() { const char *s = \"int BS = 32;\"; @ }", "BS"), "none");
}

TEST(CudaLaunchesTest, ADim3sMembersSetAfterItGiveItsSize) {
  // C-style host code: `dim3 threads;` (1 x 1 x 1), then its members one statement each.
  EXPECT_EQ(folded("#define NUMBER_THREADS 128\nint main() { int boxes = 10; dim3 threads, blocks;\n"
                   "blocks.x = boxes * boxes * boxes; blocks.y = 1;\nthreads.x = NUMBER_THREADS; @ }",
                   "blocks"),
            "1000,1,1");
  EXPECT_EQ(folded("int main() { dim3 threads; threads.x = 128; @ }", "threads"), "128,1,1");
  EXPECT_EQ(folded("int main() { dim3 b(64, 2); b.x = 32; b.z = 4; b.x = 16; @ }", "b"), "16,2,4"); // the latest
  EXPECT_EQ(folded("int main() { dim3 b; b.y = 8; @ }", "b.y * 2"), "16,1,1");
}

TEST(CudaLaunchesTest, TheBuildsDashDFlagsSetMacrosBeforeTheFirstLine) {
  EXPECT_EQ(nvccFlagsFile({"-O3", "-DRD_WG_SIZE_0_0=32", "-D", "TILE=8", "--define-macro=FAST", "-UDEBUG", "-D"}),
            "#define RD_WG_SIZE_0_0 32\n#define TILE 8\n#define FAST 1\n#undef DEBUG\n");
  EXPECT_EQ(nvccFlagsFile({"-arch=sm_80", "-lineinfo"}), "");
  // Rodinia's knob, set on nvcc's command line: read as that build reads it, with no note of a default.
  const std::string knob = "#ifdef RD_WG_SIZE_0_0\n#define BLOCK_SIZE RD_WG_SIZE_0_0\n"
                           "#elif defined(RD_WG_SIZE)\n#define BLOCK_SIZE RD_WG_SIZE\n"
                           "#else\n#define BLOCK_SIZE 16\n#endif\nint main() { }\n";
  auto withFlags = [&](const std::vector<std::string> &flags) {
    const ConstantFolder folder({{"t.cu", "t.cu", knob}, {kNvccFlagsPath, kNvccFlagsPath, nvccFlagsFile(flags)}});
    std::string how;
    const std::string size = shown(folder.dimension(0, knob.find("int main"), "BLOCK_SIZE", &how));
    return size + (how.empty() ? "" : " (noted)");
  };
  EXPECT_EQ(withFlags({"-DRD_WG_SIZE_0_0=32"}), "32,1,1");
  EXPECT_EQ(withFlags({"-D", "RD_WG_SIZE=8"}), "8,1,1 (noted)"); // it rests on RD_WG_SIZE_0_0 unset too
  EXPECT_EQ(withFlags({"-DRD_WG_SIZE=8", "-URD_WG_SIZE"}), "16,1,1 (noted)");
  EXPECT_EQ(withFlags({"-O2"}), "16,1,1 (noted)");
}

TEST(CudaLaunchesTest, MacrosAreThoseTheBuildWithoutDashDFlagsDefines) {
  // Rodinia's block size: a knob a -D flag may set, else a default.
  const std::string knob = "#ifdef RD_WG_SIZE_0_0\n#define BLOCK_SIZE RD_WG_SIZE_0_0\n"
                           "#elif defined(RD_WG_SIZE_0)\n#define BLOCK_SIZE RD_WG_SIZE_0\n"
                           "#else\n#define BLOCK_SIZE 16\n#endif\n@";
  EXPECT_EQ(folded(knob, "BLOCK_SIZE"), "16,1,1");
  // The reason says what the value rests on: a knob no file defines, read as undefined.
  const auto reasonFor = [](const std::string &source, const std::string &expression) {
    const MarkedSource marked(source);
    std::string how;
    marked.folder.dimension(0, marked.launch, expression, &how);
    return how;
  };
  EXPECT_EQ(reasonFor(knob, "BLOCK_SIZE"), "`BLOCK_SIZE` is defined at t.cu:6 by a build without -D flags "
                                           "(`RD_WG_SIZE_0_0`, tested at t.cu:1, is not defined)");
  EXPECT_EQ(reasonFor("#define SMALL\n#ifdef SMALL\n#define N 32\n#endif\n@", "N"), "");
  // An include guard is no knob (a -D flag that skipped the header would not build); a default is.
  EXPECT_EQ(reasonFor("#ifndef SIZES_H\n\n#define SIZES_H\n#define N 32\n#endif\n@", "N"), "");
  EXPECT_EQ(reasonFor("#ifndef SIZES_H\n#define SIZES_H 1\n#define N 32\n#endif\n@", "N"),
            "`N` is defined at t.cu:3 by a build without -D flags (`SIZES_H`, tested at t.cu:1, is not defined)");
  EXPECT_EQ(reasonFor("#ifndef N\n#define N 32\n#endif\n@", "N"),
            "`N` is defined at t.cu:2 by a build without -D flags (`N`, tested at t.cu:1, is not defined)");
  EXPECT_EQ(reasonFor("#ifndef SIZES_H\nint pad;\n#define SIZES_H\n#define N 32\n#endif\n@", "N"),
            "`N` is defined at t.cu:4 by a build without -D flags (`SIZES_H`, tested at t.cu:1, is not defined)");
  // Conditions on what the file defined before, its values folded as C folds them, and #undef.
  EXPECT_EQ(folded("#define SMALL\n#ifdef SMALL\n#define N 32\n#else\n#define N 1024\n#endif\n@", "N"), "32,1,1");
  EXPECT_EQ(folded("#define W 8\n#if W * 2 > 10 && !defined(TINY)\n#define N 64\n#else\n#define N 4\n#endif\n@", "N"),
            "64,1,1");
  EXPECT_EQ(folded("#define SMALL\n#undef SMALL\n#ifndef SMALL\n#define N 1024\n#else\n#define N 32\n#endif\n@", "N"),
            "1024,1,1");
  EXPECT_EQ(folded("#if 0\n#define N 8\n#elif defined(__CUDACC__)\n#define N 128\n#else\n#define N 2\n#endif\n@", "N"),
            "128,1,1"); // nvcc's own macros are defined
  // A condition on a macro another file of its program defines is not decided: which file comes first is
  // not read. A file it does not include, and that does not include it, is another program's.
  const std::string big = "#include \"a.h\"\n#ifdef BIG\n#define BS 512\n#else\n#define BS 64\n#endif\nint main() { }\n";
  const ConstantFolder two({{"a.h", "dir/a.h", "#define BIG\n"}, {"t.cu", "dir/t.cu", big}});
  EXPECT_EQ(shown(two.dimension(1, big.find("int main"), "BS")), "none");
  const std::string alone = big.substr(big.find('\n') + 1);
  const ConstantFolder apart({{"a.h", "dir/a.h", "#define BIG\n"}, {"t.cu", "dir/t.cu", alone}});
  EXPECT_EQ(shown(apart.dimension(1, alone.find("int main"), "BS")), "64,1,1");
  // A condition on a macro defined under a condition left open stays open, and so do the branches after it.
  EXPECT_EQ(folded("#ifdef __SSE__\n#define WIDE\n#endif\n#ifdef WIDE\n#define N 512\n#else\n#define N 64\n#endif\n@",
                   "N"),
            "none");
}

TEST(CudaLaunchesTest, ValuesTheSourceDoesNotFixAreNotGuessed) {
  // Defined twice, differently, under #if branches the reader cannot take: a condition on what the
  // compiler or CUDA's headers may define.
  EXPECT_EQ(folded("#if CUDART_VERSION >= 9000\n#define BS 512\n#else\n#define BS 64\n#endif\n@", "BS"), "none");
  // Changed before the launch, in any of the ways C changes a variable.
  for (const char *change : {"t = 32;", "t += 32;", "t <<= 1;", "t++;", "--t;", "read(&t);", "std::cin >> t;"})
    EXPECT_EQ(folded(std::string("int main() { int t = 64; if (rand()) ") + change + " @ }", "t"), "none") << change;
  EXPECT_EQ(folded("int main() { dim3 b(64); if (rand()) b.x = 32; @ }", "b"), "none");
  EXPECT_EQ(folded("int main() { dim3 b(64); b.x *= 2; @ }", "b"), "none");
  EXPECT_EQ(folded("int main() { dim3 b(64); b.y = b.x; @ }", "b"), "none");
  // Compared, or its address given to a CUDA copy that only reads it: not changed.
  EXPECT_EQ(folded("int main() { int t = 64; if (t == 64 && t <= 64) {} @ }", "t"), "64,1,1");
  EXPECT_EQ(folded("__constant__ int c_t;\nint main() { int t = 64;\n  cudaMemcpyToSymbol(c_t, &t, sizeof(int));\n"
                   "  cudaMemcpy(d, &t, 4, cudaMemcpyHostToDevice);\n  @ }",
                   "t"),
            "64,1,1");
  EXPECT_EQ(folded("int main() { int t = 64;\n  cudaMemcpy(&t, d, 4, cudaMemcpyDeviceToHost);\n  @ }", "t"), "none");
  // A parameter of the launching function, a global that some function
  // changes, a template argument, a declaration without a value.
  EXPECT_EQ(folded("void run(int t) { @ }", "t"), "none");
  for (const char *change : {"t *= 2;", "t++;", "std::cin >> t;", "read(&t);", "widen(t);"})
    EXPECT_EQ(folded(std::string("int t = 64;\nvoid widen(int &w) { w = 2; }\nvoid grow() { ") + change +
                         " }\nvoid run() { @ }",
                     "t"),
              "none")
        << change;
  // A global that no function changes keeps its value; copying it to the device does not change it.
  EXPECT_EQ(folded("int t = 64;\nstatic unsigned int u = 2;\nvoid run() { @ }\n"
                   "void show() { print(t, u); cudaMemcpyToSymbol(c_t, &t, sizeof(t)); }",
                   "t * u"),
            "128,1,1");
  EXPECT_EQ(folded("template <int T> void run() { @ }", "T"), "none");
  EXPECT_EQ(folded("int main() { int t; @ }", "t"), "none");
  // Another function's variable is not seen; a closed block's neither.
  EXPECT_EQ(folded("void a() { int t = 64; }\nvoid b() { @ }", "t"), "none");
  EXPECT_EQ(folded("const int t = 32;\nvoid a() { int t = 64; }\nvoid b() { @ }", "t"), "32,1,1");
  EXPECT_EQ(folded("int main() { { int t = 64; } @ }", "t"), "none");
  // The nearest declaration in scope wins over an outer one.
  EXPECT_EQ(folded("const int t = 32;\nint main() { int t = 64; @ }", "t"), "64,1,1");
}

/// `expression` as file `file` of `files` folds it just inside its last `{`, as shown().
std::string foldedInLastBlock(const std::vector<CudaSourceFile> &files, std::size_t file, const std::string &expression) {
  const ConstantFolder folder(files);
  return shown(folder.dimension(file, files[file].text.rfind('{') + 1, expression));
}

TEST(CudaLaunchesTest, EachProgramSeesTheMacrosOfTheFilesItIncludes) {
  // Two programs beside each other, each with its own BLOCK; a header both include; a kernel file
  // that one program's main.cu includes, whose launch sees main.cu's macros.
  const std::vector<CudaSourceFile> files{
      {"a.cu", "d/a.cu", "#include \"common.h\"\n#define BLOCK 32\nint main() { }\n"},
      {"b.cu", "d/b.cu", "#include <common.h>\n#define BLOCK 256\nint main() { }\n"},
      {"common.h", "d/common.h", "#define GRID 64\nvoid helper() { }\n"},
      {"kernels.cu", "d/kernels.cu", "void launch() { }\n"},
      {"main.cu", "d/main.cu", "#define TILE 16\n#include \"sub/kernels.cu\"\nint main() { }\n"},
      {"x.h", "d/x.h", "#include \"y.h\"\n#define LOOPED 1\n"},
      {"y.h", "d/y.h", "#include \"x.h\"\nint y() { }\n"}};
  EXPECT_EQ(foldedInLastBlock(files, 0, "BLOCK"), "32,1,1");
  EXPECT_EQ(foldedInLastBlock(files, 1, "BLOCK"), "256,1,1");
  EXPECT_EQ(foldedInLastBlock(files, 0, "GRID"), "64,1,1");
  EXPECT_EQ(foldedInLastBlock(files, 2, "BLOCK"), "none"); // included by both programs: it sees both definitions
  EXPECT_EQ(foldedInLastBlock(files, 3, "TILE"), "16,1,1");
  EXPECT_EQ(foldedInLastBlock(files, 3, "BLOCK"), "none"); // not main.cu's program's
  EXPECT_EQ(foldedInLastBlock(files, 6, "LOOPED"), "1,1,1"); // a cycle of includes no other file reaches
  // A one-return helper is its own program's; one no file of the program defines, any file's.
  const std::vector<CudaSourceFile> helpers{
      {"a.cu", "d/a.cu", "int blocks(int n) { return (n + 255) / 256; }\nint main() { }\n"},
      {"b.cu", "d/b.cu", "int blocks(int n) { return (n + 127) / 128; }\nint main() { }\n"},
      {"c.cu", "d/c.cu", "int blocks(int n);\nint main() { }\n"},
      {"util.cu", "d/util.cu", "int half(int n) { return n / 2; }\n"}};
  EXPECT_EQ(foldedInLastBlock(helpers, 0, "blocks(1024)"), "4,1,1");
  EXPECT_EQ(foldedInLastBlock(helpers, 1, "blocks(1024)"), "8,1,1");
  EXPECT_EQ(foldedInLastBlock(helpers, 2, "blocks(1024)"), "none"); // declared only: either program's, which differ
  EXPECT_EQ(foldedInLastBlock(helpers, 0, "half(64)"), "32,1,1");   // compiled apart and linked
  const std::vector<std::vector<bool>> seen =
      filesSeenTogether({{"a.cu", "d/a.cu", "#include \"common.h\"\n"}, {"common.h", "d/common.h", ""},
                         {"common.h", "e/common.h", ""}, {kNvccFlagsPath, kNvccFlagsPath, ""}});
  EXPECT_EQ(seen[0], (std::vector<bool>{true, true, true, true})); // every common.h, and the flags
  EXPECT_EQ(seen[1], (std::vector<bool>{true, true, true, true}));
  EXPECT_EQ(seen[3], (std::vector<bool>{false, false, false, true}));
}

TEST(CudaSourcesTest, PtxWithoutLineInfoReadsTheCudaFileOfItsName) {
  const std::string dir = test::freshScratchDir("ptxdvfs_sources_");
  const std::string kernel = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n";
  const auto write = [&](const std::string &name, const std::string &text) { std::ofstream(dir + "/" + name) << text; };
  const auto readFor = [&](const std::string &ptxName, const std::string &ptx, WithoutLineInfo withoutLineInfo) {
    write(ptxName, ptx);
    std::vector<std::string> read;
    for (const CudaSourceFile &source : readCudaSources(test::parseOk(ptx, dir + "/" + ptxName), withoutLineInfo))
      read.push_back(std::filesystem::path(source.path).filename().string());
    return read;
  };
  write("k.cu", "int main() {}\n");
  write("other.cu", "int main() {}\n");
  using Names = std::vector<std::string>;
  EXPECT_EQ(readFor("k.ptx", kernel, WithoutLineInfo::ReadSameStemCu), Names{"k.cu"}); // nvcc -ptx k.cu
  EXPECT_EQ(readFor("k.cu.ptx", kernel, WithoutLineInfo::ReadSameStemCu), Names{"k.cu"}); // a Makefile's -o $@.ptx
  EXPECT_EQ(readFor("k.ptx", kernel, WithoutLineInfo::ReadNothing), Names{}); // a dataset's
  EXPECT_EQ(readFor("lone.ptx", kernel, WithoutLineInfo::ReadSameStemCu), Names{});
  // With -lineinfo the .file table alone says what to read.
  const std::string withFile = ".version 8.0\n.target sm_80\n.address_size 64\n.file 1 \"other.cu\"\n"
                               ".visible .entry k()\n{\n\tret;\n}\n";
  EXPECT_EQ(readFor("k.ptx", withFile, WithoutLineInfo::ReadSameStemCu), Names{"other.cu"});
}

TEST(CudaSourcesTest, HostFilesBesideTheKernelsFileAreRead) {
  // A program whose main is C or C++ compiled by the host compiler, calling a launcher in the .cu.
  const std::string dir = test::freshScratchDir("ptxdvfs_beside_");
  for (const std::string name : {"k.cu", "k.h", "main.cpp", "driver.c", "util.cc", "notes.txt", "k.ptx"})
    std::ofstream(dir + "/" + name) << "int x;\n";
  std::vector<std::string> read;
  for (const CudaSourceFile &source : launchingSources({{"k.cu", dir + "/k.cu", "int x;\n"}}))
    read.push_back(std::filesystem::path(source.path).filename().string());
  EXPECT_EQ(read, (std::vector<std::string>{"k.cu", "driver.c", "k.h", "main.cpp", "util.cc"}));
}

TEST(CudaSourcesTest, HostFilesTheUserNamesAreReadAfterTheKernelsOwnOnce) {
  // --host-source: a driver in another folder; a file named twice, or also beside the kernel, is read once.
  const std::string dir = test::freshScratchDir("ptxdvfs_host_source_");
  std::filesystem::create_directories(dir + "/common");
  std::filesystem::create_directories(dir + "/bench");
  for (const std::string name : {"common/main.cpp", "common/options.h", "common/README", "common/driver.inc",
                                 "bench/k.cu", "bench/run.cpp"})
    std::ofstream(dir + "/" + name) << "int x;\n";
  std::vector<CudaSourceFile> named;
  ASSERT_EQ(readHostSources({dir + "/common", dir + "/common/driver.inc", dir + "/bench/run.cpp"}, named), "");
  std::vector<std::string> read;
  for (const CudaSourceFile &source : named)
    read.push_back(std::filesystem::path(source.path).filename().string());
  // A folder's host files in name order (not its README); a file named is read whatever its extension.
  EXPECT_EQ(read, (std::vector<std::string>{"main.cpp", "options.h", "driver.inc", "run.cpp"}));
  read.clear();
  named.push_back(named.front());
  for (const CudaSourceFile &source : launchingSources({{"k.cu", dir + "/bench/k.cu", "int x;\n"}}, named))
    read.push_back(std::filesystem::path(source.path).filename().string());
  EXPECT_EQ(read, (std::vector<std::string>{"k.cu", "main.cpp", "options.h", "driver.inc", "run.cpp"}));
}

TEST(CudaSourcesTest, HostFilesThatCannotBeReadAreErrorsThatNameThem) {
  const std::string dir = test::freshScratchDir("ptxdvfs_host_source_bad_");
  std::vector<CudaSourceFile> files{{"k.cu", "k.cu", "int x;\n"}};
  EXPECT_NE(readHostSources({dir + "/missing.cpp"}, files).find(dir + "/missing.cpp: cannot read"), std::string::npos);
  std::ofstream(dir + "/huge.cpp") << std::string((4u << 20) + 1, ' ');
  EXPECT_EQ(readHostSources({dir + "/huge.cpp"}, files),
            dir + "/huge.cpp: 4194305 bytes, more than the 4 MiB a host file is read to");
  std::filesystem::create_directories(dir + "/many");
  for (int i = 0; i < 65; ++i)
    std::ofstream(dir + "/many/h" + std::to_string(i) + ".h") << "int x;\n";
  EXPECT_EQ(readHostSources({dir + "/many"}, files), dir + "/many: more than 64 host files");
  EXPECT_EQ(files.size(), 1u); // nothing added where one fails
}

/// The host_launches fixture's kernels, as the tools read them: the PTX
/// names host_launches.cuh only, and host_launches.cu is found beside it.
class HostLaunchesTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    const std::string path = test::fixtureDir() + "/loops/host_launches.ptx";
    module_ = new ptx::Module(test::parseOk(test::readFile(path), path));
    launches_ = new std::map<std::string, ptx::analysis::SourceLaunch, std::less<>>(
        sourceLaunches(*module_, launchingSources(readCudaSources(*module_))));
  }
  static void TearDownTestSuite() {
    delete launches_;
    delete module_;
  }

  static const ptx::analysis::SourceLaunch *launchOf(const std::string &name) {
    for (const auto &[kernel, launch] : *launches_)
      if (baseNameOf(kernel) == name)
        return &launch;
    return nullptr;
  }

  /// The kernel's loop at `depth`, read with what the launches give.
  static std::optional<ptx::analysis::LoopReport> loopOf(const std::string &name, unsigned depth) {
    ptx::analysis::LaunchAssumptions assumptions;
    assumptions.sourceLaunches = *launches_;
    for (const ptx::Function *kernel : module_->kernels())
      if (baseNameOf(kernel->name) == name)
        for (const ptx::analysis::LoopReport &loop : ptx::analysis::expandKernel(*module_, *kernel, assumptions).loops)
          if (loop.depth == depth)
            return loop;
    return std::nullopt;
  }

  /// The trip count of the kernel's loop at `depth` and where it came from.
  static std::string loopCount(const std::string &name, unsigned depth = 1) {
    auto loop = loopOf(name, depth);
    return loop ? std::to_string(loop->maxTripCount) + " " + std::string(ptx::analysis::originName(*loop)) : "no loop";
  }

  /// Reason `index` of the trip count of the kernel's outermost loop.
  static std::string loopReason(const std::string &name, std::size_t index = 0) {
    auto loop = loopOf(name, 1);
    if (!loop)
      return "no loop";
    return index < loop->why.size() ? loop->why[index] : "no reason " + std::to_string(index);
  }

  /// Stores one thread of the kernel executes, read as loopCount() reads it.
  static double storesOf(const std::string &name, ptx::analysis::LaunchAssumptions assumptions = {}) {
    assumptions.sourceLaunches = *launches_;
    for (const ptx::Function *kernel : module_->kernels())
      if (baseNameOf(kernel->name) == name)
        return test::executedCount(ptx::analysis::expandKernel(*module_, *kernel, assumptions), "st.global.f32");
    return -1;
  }

  static ptx::Module *module_;
  static std::map<std::string, ptx::analysis::SourceLaunch, std::less<>> *launches_;
};

ptx::Module *HostLaunchesTest::module_ = nullptr;
std::map<std::string, ptx::analysis::SourceLaunch, std::less<>> *HostLaunchesTest::launches_ = nullptr;

TEST_F(HostLaunchesTest, TheHostFileBesideTheKernelsIsRead) {
  ASSERT_NE(launchOf("launched_literal"), nullptr);
  EXPECT_EQ(shown(launchOf("launched_literal")->block), "128,1,1");
  EXPECT_EQ(shown(launchOf("launched_literal")->grid), "1,1,1");
  EXPECT_EQ(launchOf("launched_literal")->at, "host_launches.cu:30");
}

TEST_F(HostLaunchesTest, EachFixedLaunchGivesItsGeometry) {
  EXPECT_EQ(shown(launchOf("launched_tiles")->block), "16,16,1");
  EXPECT_EQ(shown(launchOf("launched_grid_stride")->grid), "512,1,1");
  EXPECT_EQ(shown(launchOf("launched_grid_stride")->block), "256,1,1");
  EXPECT_EQ(shown(launchOf("launched_rows")->grid), "16,125,1");
  EXPECT_EQ(shown(launchOf("launched_rows")->block), "32,8,1");
  EXPECT_EQ(shown(launchOf("launched_shadowed")->block), "64,1,1");
  EXPECT_EQ(shown(launchOf("launched_by_api")->grid), "2,1,1");
  EXPECT_EQ(shown(launchOf("launched_by_api")->block), "96,1,1");
}

TEST_F(HostLaunchesTest, OpenLaunchesGiveNoBlock) {
  for (const char *name : {"launched_at_run_time", "launched_reassigned"}) {
    const ptx::analysis::SourceLaunch *launch = launchOf(name);
    EXPECT_TRUE(launch == nullptr || !launch->block) << name;
  }
  // Launches that differ give their mean, weighted by their runs: <<<1, 64>>> and <<<1, 128>>>.
  EXPECT_EQ(shown(launchOf("launched_twice")->block), "96,1,1");
  EXPECT_TRUE(launchOf("launched_twice")->blockIsMean);
  EXPECT_EQ(shown(launchOf("launched_twice")->grid), "1,1,1"); // both launches agree on it
  EXPECT_FALSE(launchOf("launched_twice")->gridIsMean);
  // The launching function's parameter is what its one call passes.
  EXPECT_EQ(shown(launchOf("launched_by_parameter")->block), "32,1,1");
  // Launched through a host template's own T: neither instance takes the launch's sizes.
  for (const char *instance : {"_Z16launched_genericIfEvPT_", "_Z16launched_genericIdEvPT_"}) {
    ASSERT_EQ(launches_->count(instance), 1u) << instance;
    EXPECT_EQ(shown(launches_->at(instance).block), "none") << instance;
    EXPECT_EQ(launches_->at(instance).blockOpen,
              "the launch at host_launches.cuh:87 passes template arguments that are not built-in types or "
              "constants, so its instances are not told apart");
  }
}

TEST_F(HostLaunchesTest, TemplateInstancesTakeTheLaunchesOfTheirOwnArguments) {
  EXPECT_EQ(launches_->at("_Z17launched_templateIfEvPT_").at, "host_launches.cu:53"); // <float>
  EXPECT_EQ(launches_->at("_Z17launched_templateIdEvPT_").at, "host_launches.cu:54"); // <double>
  EXPECT_EQ(shown(launches_->at("_Z17launched_templateIdEvPT_").block), "32,1,1");
  EXPECT_EQ(shown(launches_->at("_Z14launched_sizedILi2EEvPf").block), "64,1,1");   // <2>
  EXPECT_EQ(shown(launches_->at("_Z14launched_sizedILi4EEvPf").block), "128,1,1");  // <TILE / 4>
  EXPECT_EQ(launches_->at("_Z14launched_sizedILi4EEvPf").at, "host_launches.cu:59");
}

TEST(CudaLaunchesTest, AParameterTakesOnlyItsOwnProgramsCalls) {
  // Two programs beside each other, each with a helper `run` that launches with its parameter.
  const auto blockFrom = [](const std::string &otherProgram) {
    const std::string marked = "void run(int threads) { @ }\nint main() { run(64); run(64); }\n";
    const std::vector<CudaSourceFile> files{{"a.cu", "d/a.cu", marked}, {"b.cu", "d/b.cu", otherProgram}};
    const ConstantFolder folder(files);
    std::string how;
    const auto dims = folder.dimension(0, marked.find('@'), "threads", &how);
    return shown(dims) + (how.empty() ? "" : " (" + how + ")");
  };
  EXPECT_EQ(blockFrom("void run(int threads) { }\nint main() { run(512); }\n"),
            "64,1,1 (`threads` = 64, as `run`'s 2 calls pass it, the first at a.cu:2)");
  // One that only declares it calls this one (compiled apart and linked).
  EXPECT_EQ(blockFrom("void run(int threads);\nint main() { run(512); }\n"),
            "none (`run`'s calls pass `threads` = 64 at a.cu:2, 512 at b.cu:2)");
  // One that includes a.cu calls this one too.
  EXPECT_EQ(blockFrom("#include \"a.cu\"\nint other() { run(64); }\n"),
            "64,1,1 (`threads` = 64, as `run`'s 3 calls pass it, the first at a.cu:2)");
}

TEST_F(HostLaunchesTest, OpenLaunchesSayWhy) {
  ASSERT_NE(launchOf("launched_at_run_time"), nullptr);
  EXPECT_EQ(launchOf("launched_at_run_time")->blockOpen,
            "the launch at host_launches.cu:40 passes `fromUser`, which the source does not fix");
  EXPECT_EQ(launchOf("launched_at_run_time")->gridOpen, ""); // <<<1, ...>>>: taken
  ASSERT_NE(launchOf("launched_twice"), nullptr);
  EXPECT_EQ(launchOf("launched_twice")->blockOpen, ""); // the mean of its launches
  ASSERT_NE(launchOf("launched_with_run_time_arguments"), nullptr);
  EXPECT_EQ(launchOf("launched_with_run_time_arguments")->argumentsOpen,
            (std::vector<std::string>{"the launch at host_launches.cu:57 passes `x`, which the source does not fix",
                                      "the launch at host_launches.cu:57 passes `rand() % 100`, which the "
                                      "source does not fix"}));
  // The default that replaces an open size or argument carries the reason.
  EXPECT_EQ(loopReason("launched_twice"),
            "%ntid.x = 96 (the mean of its launches, by how often each runs: 64 at host_launches.cu:45 (1 time), "
            "128 at host_launches.cu:46 (1 time))");
  EXPECT_EQ(loopReason("launched_with_run_time_arguments", 1),
            "parameter param_1 (no --assume param_1=VALUE; the launch at host_launches.cu:57 passes `rand() % "
            "100`, which the source does not fix)");
}

TEST_F(HostLaunchesTest, LoopsCountWithTheLaunchedGeometry) {
  EXPECT_EQ(loopCount("launched_literal"), "32 assumed");          // 4096 / 128
  EXPECT_EQ(loopCount("launched_tiles", 1), "32 assumed");         // 512 rows / 16
  EXPECT_EQ(loopCount("launched_tiles", 2), "16 assumed");         // 256 columns / 16
  EXPECT_EQ(loopCount("launched_grid_stride"), "8 assumed");       // 2^20 / (512 * 256)
  EXPECT_EQ(loopCount("launched_rows"), "5 assumed");              // 4096 / (125 * 8), rounded up
  EXPECT_EQ(loopCount("launched_shadowed"), "64 assumed");         // 4096 / 64
  EXPECT_EQ(loopCount("launched_by_api"), "43 assumed");           // 4096 / 96, rounded up
  EXPECT_EQ(loopCount("launched_twice"), "43 assumed");            // 4096 / 96, the mean of 64 and 128
  EXPECT_EQ(loopCount("launched_at_run_time"), "16 default");
  EXPECT_EQ(loopCount("launched_sized"), "64 assumed");            // <2><<<1, 64>>>: 4096 / 64
  EXPECT_EQ(loopCount("launched_generic"), "16 default");
}

TEST_F(HostLaunchesTest, ConstantArgumentsStandForTheirParameters) {
  const ptx::analysis::SourceLaunch *launch = launchOf("launched_with_arguments");
  ASSERT_NE(launch, nullptr);
  ASSERT_EQ(launch->arguments.size(), 3u);
  EXPECT_FALSE(launch->arguments[0]); // a pointer
  EXPECT_EQ(launch->arguments[1] ? launch->arguments[1]->text() : "none", "2048");
  EXPECT_EQ(launch->arguments[2] ? launch->arguments[2]->text() : "none", "16");
  EXPECT_EQ(launch->at, "host_launches.cu:56");
  // nvcc unrolled the loop by 4: its stores count the iterations, 2048 / 16.
  EXPECT_EQ(storesOf("launched_with_arguments"), 128);
  // --assume still wins over what the launch passes.
  ptx::analysis::LaunchAssumptions assumptions;
  assumptions.parameters.insert_or_assign("param_1", ptx::analysis::AssumedValue(100));
  EXPECT_EQ(storesOf("launched_with_arguments", assumptions), 7); // 100 / 16, rounded up
  // An argument computed at run time leaves the count to the default.
  ASSERT_NE(launchOf("launched_with_run_time_arguments"), nullptr);
  EXPECT_FALSE(launchOf("launched_with_run_time_arguments")->arguments.at(1));
  EXPECT_EQ(loopCount("launched_with_run_time_arguments"), "16 default");
}

} // namespace
} // namespace ptxdvfs::tools
