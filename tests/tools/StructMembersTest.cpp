// StructMembersTest.cpp - sizes the host code keeps in a struct's members:
// `p.n` as assigned, or as the variable's initializer and its struct's
// definition give it.
#include "SourceLaunchHelpers.h"

#include <gtest/gtest.h>

#include <string>

namespace ptxdvfs::tools {
namespace {

const std::string kParams = "struct Params { int n; int block; };\n";

TEST(StructMembersTest, AMemberIsItsLastAssignment) {
  EXPECT_EQ(folded(kParams + "int main() { Params p;\n  p.n = 1 << 18;\n  p.block = 128;\n  @ }", "p.n / p.block / 4"),
            "512,1,1");
  EXPECT_EQ(folded(kParams + "int main() { Params p;\n  p.n = 512;\n  p.n *= 2;\n  @ }", "p.n"), "1024,1,1");
  // A later assignment that the program run without arguments skips leaves the one before.
  EXPECT_EQ(folded(kParams + "int main(int argc, char **argv) { Params p = {1 << 20, 256};\n"
                             "  if (argc > 1) p.n = atoi(argv[1]);\n  @ }",
                   "p.n / p.block"),
            "4096,1,1");
  // A member of a member, and x, y, z of a dim3 member.
  EXPECT_EQ(folded("struct Inner { int n; };\nstruct Outer { Inner in; dim3 grid; };\n"
                   "int main() { Outer o;\n  o.in.n = 48;\n  o.grid = dim3(8, 2);\n  @ }",
                   "o.in.n + o.grid.y"),
            "50,1,1");
  // Unknown: read at run time, or changed in a loop whose count is not read.
  EXPECT_EQ(folded(kParams + "int main(int argc, char **argv) { Params p;\n  p.n = atoi(argv[1]);\n  @ }", "p.n"),
            "none");
  EXPECT_EQ(folded(kParams + "int main() { Params p;\n  p.n = 2;\n  while (more()) p.n *= 2;\n  @ }", "p.n"), "none");
}

TEST(StructMembersTest, AnInitializerGivesTheMembersByPositionOrByName) {
  EXPECT_EQ(folded(kParams + "int main() { Params q = {1 << 16, 64};\n  @ }", "q.n / q.block"), "1024,1,1");
  EXPECT_EQ(folded(kParams + "int main() { Params q{4096, 32};\n  @ }", "q.block"), "32,1,1");
  EXPECT_EQ(folded(kParams + "int main() { auto q = Params{4096, 32};\n  @ }", "q.n"), "4096,1,1");
  EXPECT_EQ(folded(kParams + "int main() { Params q = {.n = 4096, .block = 64};\n  @ }", "q.n / q.block"), "64,1,1");
  EXPECT_EQ(folded("typedef struct { int n; } Sizes;\nint main() { Sizes s = {300};\n  @ }", "s.n"), "300,1,1");
  EXPECT_EQ(folded("struct Point { int x; int y; };\nint main() { Point p = {32, 4};\n  @ }", "p.x * p.y"), "128,1,1");
  // A nested braced list, a dim3 member given as a list, and a copy of another variable.
  EXPECT_EQ(folded("struct Sizes { dim3 grid; int n; };\nint main() { Sizes s = {{8, 2}, 64};\n  @ }", "s.grid"),
            "8,2,1");
  EXPECT_EQ(folded(kParams + "int main() { Params d = {4096, 256};\n  Params p = d;\n  @ }", "p.n / p.block"),
            "16,1,1");
  // What the list leaves out is zero; `p.block` below is 0, no size.
  EXPECT_EQ(folded(kParams + "int main() { Params p = {4096};\n  @ }", "p.block + 1"), "1,1,1");
  // A constant at file scope; not a global the program may change.
  EXPECT_EQ(folded(kParams + "const Params kP = {2048, 128};\nint main() { @ }", "kP.n / kP.block"), "16,1,1");
  EXPECT_EQ(folded(kParams + "Params g = {2048, 128};\nvoid set() { g.n = 4; }\nint main() { @ }", "g.n"), "none");
  EXPECT_EQ(folded(kParams + "Params g = {2048, 128};\nint main() { @ }", "g.n / g.block"), "16,1,1"); // unchanged
  // No aggregate read in order: a struct with a constructor (which `= {5}` calls, since 2026-11-28 read so), or
  // one the files do not define.
  EXPECT_EQ(folded("struct P { P(int v) : m(0), n(v * 2) {} int m, n; };\nint main() { P p = {5};\n  @ }", "p.n"),
            "10,1,1");
  EXPECT_EQ(folded("int main() { Unknown u = {5};\n  @ }", "u.n"), "none");
  EXPECT_EQ(folded(kParams + "int main() { Params q(4096, 32);\n  @ }", "q.n"), "none");
}

TEST(StructMembersTest, DefaultMemberInitializersFillWhatIsNotGiven) {
  const std::string options = "struct Options { int n = 1 << 20; int block{256}; int repeats = 10; };\n";
  EXPECT_EQ(folded(options + "int main() { Options o;\n  @ }", "o.n / o.block"), "4096,1,1");
  EXPECT_EQ(folded(options + "int main() { Options o = {1024};\n  @ }", "o.n / o.block"), "4,1,1");
  EXPECT_EQ(folded(options + "int main() { Options o;\n  o.block = 128;\n  @ }", "o.block"), "128,1,1");
  // The options parsed from the command line keep their defaults in the program run without arguments.
  EXPECT_EQ(folded(options + "int main(int argc, char **argv) { Options o;\n"
                             "  for (int i = 1; i + 1 < argc; i += 2)\n"
                             "    if (!strcmp(argv[i], \"-n\")) o.n = atoi(argv[i + 1]);\n  @ }",
                   "o.n / o.block"),
            "4096,1,1");
  // A local member with neither a value nor a default is not known.
  EXPECT_EQ(folded(kParams + "int main() { Params p;\n  @ }", "p.n"), "none");
}

TEST(StructMembersTest, AStructPassedByReferenceIsWhatItsFunctionLeavesThere) {
  const std::string setup = kParams + "void setup(Params &p) { p.n = 7; }\n";
  EXPECT_EQ(folded(setup + "int main() { Params p = {4096, 256};\n  setup(p);\n  @ }", "p.n"), "7,1,1");
  EXPECT_EQ(folded(setup + "int main() { Params p = {4096, 256};\n  setup(p);\n  @ }", "p.block"), "256,1,1");
  EXPECT_EQ(folded(setup + "int main() { Params p = {4096, 256};\n  setup(p);\n  p.n *= 2;\n  @ }", "p.n"), "14,1,1");
  // Open: a function that may set it in a loop, or that is only declared, or a call not known to run.
  EXPECT_EQ(folded(kParams + "void setup(Params &p) { for (int i = 0; i < rand(); ++i) p.n = i; }\n"
                             "int main() { Params p = {4096, 256};\n  setup(p);\n  @ }",
                   "p.n"),
            "none");
  EXPECT_EQ(folded(kParams + "void setup(Params &p);\nint main() { Params p = {4096, 256};\n  setup(p);\n  @ }", "p.n"),
            "none");
  EXPECT_EQ(folded(setup + "int main() { Params p = {4096, 256};\n  if (rand())\n    setup(p);\n  @ }", "p.n"), "none");
  // By address, C's way: `p->n` in the body.
  const std::string byAddress = kParams + "void setup(Params *p) {\n  p->n = 7;\n}\n";
  EXPECT_EQ(folded(byAddress + "int main() { Params p = {4096, 256};\n  setup(&p);\n  @ }", "p.n"), "7,1,1");
  EXPECT_EQ(folded(byAddress + "int main() { Params p = {4096, 256};\n  setup(&p);\n  @ }", "p.block"), "256,1,1");
  EXPECT_EQ(folded(byAddress + "int main() { Params p = {4096, 256};\n  Params *q = &p;\n  setup(q);\n  @ }", "p.n"),
            "none"); // a pointer variable passed: what it points at is not followed
  // A `return` that runs before the change leaves the member as it was (main's argc is 1 here).
  EXPECT_EQ(folded(kParams + "void setup(int argc, Params &p) {\n  if (argc < 2)\n    return;\n  p.n = 7;\n}\n"
                             "int main(int argc, char **argv) { Params p = {4096, 256};\n  setup(argc, p);\n  @ }",
                   "p.n"),
            "4096,1,1");
}

TEST(StructMembersTest, AStructuredBindingNamesTheMembersInOrder) {
  const std::string parse = kParams + "static Params parse(int argc, char **argv) {\n  Params p{4096, 256};\n"
                                      "  if (argc > 1) p.n = 8192;\n  return p;\n}\n";
  EXPECT_EQ(folded(parse + "int main(int argc, char **argv) {\n  auto [n, block] = parse(argc, argv);\n  @ }", "n"),
            "4096,1,1");
  EXPECT_EQ(folded(parse + "int main(int argc, char **argv) {\n  const auto &[n, block] = parse(argc, argv);\n  @ }",
                   "block"),
            "256,1,1");
  EXPECT_EQ(folded(kParams + "int main() {\n  auto [n, block] = Params{64, 32};\n  @ }", "n / block"), "2,1,1");
  // A name changed after it, and what is not a struct the files define: open.
  EXPECT_EQ(folded(kParams + "int main() {\n  auto [n, block] = Params{64, 32};\n  n *= 2;\n  @ }", "n"), "128,1,1");
  EXPECT_EQ(folded("#include <utility>\nint main() {\n  auto [n, block] = std::make_pair(64, 32);\n  @ }", "n"),
            "none");
}

TEST(StructMembersTest, AStructPassedWhereItMayChangeIsNotKnown) {
  // By address to a function not read, or as a parameter.
  EXPECT_EQ(folded(kParams + "int main() { Params p = {4096, 256};\n  readOptions(&p);\n  @ }", "p.n"), "none");
  EXPECT_EQ(folded(kParams + "void run(Params p) { @ }\nint main() { run(Params{4, 2}); }", "p.n"), "none");
  EXPECT_EQ(folded(kParams + "void run(Params p) { @ }\nint main() { Params q = {4, 2};\n  readOptions(&q);\n"
                             "  run(q); }",
                   "p.n"),
            "none");
  // Copied to the device, or passed to a launch, it is only read.
  EXPECT_EQ(folded(kParams + "__constant__ Params c;\nint main() { Params p = {4096, 256};\n"
                             "  cudaMemcpyToSymbol(c, &p, sizeof(p));\n  @ }",
                   "p.n"),
            "4096,1,1");
  // So is it by a function of the files that takes a pointer to const.
  EXPECT_EQ(folded(kParams + "void show(const Params *p);\nint main() { Params p = {4096, 256};\n  show(&p);\n  @ }",
                   "p.n"),
            "4096,1,1");
}

TEST(StructMembersTest, AnElementOfAnArrayMemberChangesOnlyItsArray) {
  const std::string table = kParams + "struct Table { int sizes[2]; int n; Params in; };\n"
                                      "int main() { Table t;\n  t.n = 64;\n  t.in.n = 8;\n";
  // Read, or written, an element leaves the other members as they were.
  EXPECT_EQ(folded(table + "  print(t.sizes[0]);\n  t.sizes[1] = 5;\n  @ }", "t.n + t.in.n"), "72,1,1");
  // Written, an element is open (an array is not read); reached through `->` or a call, so is what is below it.
  for (const char *change : {"t.sizes[1] = 5;", "t.sizes[1]++;", "read(&t.sizes[1]);"})
    EXPECT_EQ(folded(table + "  " + change + "\n  @ }", "t.sizes[1]"), "none") << change;
  EXPECT_EQ(folded(table + "  t.in->clear();\n  @ }", "t.in.n"), "none");
}

TEST(StructMembersTest, EachStructOfADeclarationListHasItsOwnValue) {
  const std::string declared = kParams + "int main() { Params a = {64, 1}, b = Params{128, 2}, c{256, 4}, d;\n  @ }";
  EXPECT_EQ(folded(declared, "a.n + a.block"), "65,1,1");
  EXPECT_EQ(folded(declared, "b.n + b.block"), "130,1,1");
  EXPECT_EQ(folded(declared, "c.n + c.block"), "260,1,1");
  EXPECT_EQ(folded(declared, "d.n"), "none");
  // A comma expression declares nothing.
  EXPECT_EQ(folded(kParams + "int main() { Params p = {64, 1};\n  p = q, p.n;\n  @ }", "p.n"), "none");
}

TEST(StructMembersTest, AStructParameterIsWhatItsCallsPass) {
  // By value or by reference: the member of the variable every call passes, read where the call is.
  for (const char *declared : {"Params p", "const Params &p", "struct Params p"})
    EXPECT_EQ(folded(kParams + "void run(float *x, " + declared + ") { @ }\n"
                               "int main() { Params q = {4096, 256};\n  run(0, q);\n}",
                     "p.n / p.block"),
              "16,1,1")
        << declared;
  // A member of a member, passed as the struct, or as the member of another variable.
  const std::string outer = kParams + "struct Options { int repeats; Params in; };\n";
  EXPECT_EQ(folded(outer + "void run(Options o) { @ }\nint main() { Options o = {3, {1024, 128}};\n  run(o);\n}",
                   "o.in.n / o.in.block"),
            "8,1,1");
  EXPECT_EQ(folded(outer + "void run(Params p) { @ }\nint main() { Options o = {3, {1024, 128}};\n  run(o.in);\n}",
                   "p.n"),
            "1024,1,1");
  // Calls that agree give the value; calls that differ, a braced list or a pointer leave it open.
  EXPECT_EQ(folded(kParams + "void run(Params p) { @ }\nint main() { Params a = {64, 1};\n  Params b = {64, 2};\n"
                             "  run(a);\n  run(b);\n}",
                   "p.n"),
            "64,1,1");
  EXPECT_EQ(folded(kParams + "void run(Params p) { @ }\nint main() { Params a = {64, 1};\n  Params b = {64, 2};\n"
                             "  run(a);\n  run(b);\n}",
                   "p.block"),
            "none");
  EXPECT_EQ(folded(kParams + "void run(Params *p) { @ }\nint main() { Params a = {64, 1};\n  run(&a);\n}", "p->n"),
            "none");
  // Changed in the body before the use: that change, as for any variable.
  EXPECT_EQ(folded(kParams + "void run(Params p) { p.n = 32; @ }\nint main() { Params a = {64, 1};\n  run(a);\n}",
                   "p.n"),
            "32,1,1");
  // At a launch, with the call that gave it.
  std::string how;
  EXPECT_EQ(launchedWith(kParams + "void launch(float *x, Params p) { k<<<p.n / p.block, p.block>>>(x); }\n"
                                   "int main() { float *x; Params p = {4096, 256};\n  launch(x, p); }\n",
                         &how),
            "16,1,1 x 256,1,1");
  EXPECT_NE(how.find("`p.block` = 256, as `launch`'s call at t.cu:4 passes it"), std::string::npos) << how;
  // A dim3 member gives a grid or a block.
  EXPECT_EQ(launchedWith("struct Geometry { dim3 grid, block; };\n"
                         "void launch(float *x, const Geometry &g) { k<<<g.grid, g.block>>>(x); }\n"
                         "int main() { float *x; Geometry g = {dim3(8, 2), dim3(128)};\n  launch(x, g); }\n"),
            "8,2,1 x 128,1,1");
}

TEST(StructMembersTest, ACudaLaunchConfigIsReadAsItsRuntimeStruct) {
  const std::string kernel = "__global__ void scale(float *x) {}\n";
  // Two launches with one config: the first's `&config` does not change it.
  EXPECT_EQ(launchesText({"_Z5scalePf"}, kernel + "int main() { float *x;\n"
                                                  "  cudaLaunchConfig_t config = {dim3(64), dim3(128)};\n"
                                                  "  cudaLaunchKernelEx(&config, scale, x);\n"
                                                  "  cudaLaunchKernelEx(&config, scale, x); }\n"),
            "64,1,1 x 128,1,1, 2");
  // Set field by field after `= {}`, in a branch the program takes.
  EXPECT_EQ(launchesText({"_Z5scalePf"}, kernel + "int main(int argc, char **argv) { float *x;\n"
                                                  "  cudaLaunchConfig_t config = {};\n"
                                                  "  config.blockDim = 256;\n"
                                                  "  if (argc < 2) config.gridDim = dim3(1024);\n"
                                                  "  cudaLaunchKernelEx(&config, scale, x); }\n"),
            "1024,1,1 x 256,1,1, 1");
}

} // namespace
} // namespace ptxdvfs::tools
