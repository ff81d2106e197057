// ArrayElementsTest.cpp - an element of a host array that its declaration
// lists and nothing writes: `int probSizes[4] = {1, 8, 32, 64};` then
// `n = probSizes[size - 1]`, the problem-size tables of benchmarks.
#include "SourceLaunchHelpers.h"

#include <gtest/gtest.h>

#include <string>

namespace ptxdvfs::tools {
namespace {

TEST(ArrayElementsTest, AnElementIsWhatTheListGivesIt) {
  EXPECT_EQ(gridAfter("int sizes[4] = {1, 8, 32, 64};\nint n = sizes[1] * 1024;"), "32,1,1");
  EXPECT_EQ(gridAfter("const int sizes[] = {1 << 10, 1 << 12,};\nint n = sizes[1];"), "16,1,1");
  EXPECT_EQ(gridAfter("static const long sizes[3]{256, 512, 1024};\nint n = sizes[2] * 4;"), "16,1,1");
  // The index folds as any size does: SHOC's `probSizes[sizeClass - 1]`, the program run without arguments.
  EXPECT_EQ(gridAfter("int probSizes[4] = {1, 8, 32, 64};\nint sizeClass = 1;\n"
                      "if (argc > 1) sizeClass = atoi(argv[1]);\nint n = probSizes[sizeClass - 1] * 1024 * 1024 / "
                      "sizeof(float);"),
            "1024,1,1");
  // Past the list but inside the array, value-initialized; past the array, nothing.
  EXPECT_EQ(gridAfter("int sizes[4] = {512};\nint n = 256 + sizes[3];"), "1,1,1");
  EXPECT_EQ(gridAfter("int sizes[] = {512};\nint n = 256 + sizes[1];"), "none");
  EXPECT_EQ(gridAfter("int sizes[2] = {512, 1024};\nint n = sizes[-1];"), "none");
  // Reading it, or its size, leaves it as it was.
  EXPECT_EQ(gridAfter("int sizes[] = {4096, 8192};\nint count = sizeof(sizes) / sizeof(sizes[0]);\n"
                      "printf(\"%d %d\\n\", sizes[0], count);\nint n = sizes[count - 1];"),
            "32,1,1");
  // Its length, as the idiom counts it, in a macro too.
  EXPECT_EQ(launchesIn("const int sizes[] = {4096, 8192, 16384};\n"
                       "for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); ++i) k<<<1, 256>>>(x);"),
            3u);
  EXPECT_EQ(launchesIn("double scales[5] = {0.5};\n#define COUNT(a) (sizeof(a) / sizeof((a)[0]))\n"
                       "for (int i = 0; i < COUNT(scales); ++i) k<<<1, 256>>>(x);"),
            5u);
  // A global, from a function that reads it.
  EXPECT_EQ(shown(launchOfK("int kSizes[] = {1024, 2048};\n"
                            "int main() { float *x; int n = kSizes[1]; k<<<n / 256, 256>>>(x); }\n")
                      .grid),
            "8,1,1");
}

TEST(ArrayElementsTest, AnArrayThatMayBeWrittenIsOpen) {
  for (const char *body : {"int sizes[2] = {512, 1024};\nsizes[1] = 4096;",
                           "int sizes[2] = {512, 1024};\nsizes[1] *= 2;",
                           "int sizes[2] = {512, 1024};\nsizes[1]++;",
                           "int sizes[2] = {512, 1024};\n--sizes[1];",
                           "int sizes[2] = {512, 1024};\nstd::cin >> sizes[1];",
                           "int sizes[2] = {512, 1024};\nscanf(\"%d\", &sizes[1]);",
                           "int sizes[2] = {512, 1024};\nfill(sizes);",
                           "int sizes[2] = {512, 1024};\nint *p = sizes;",
                           "int sizes[2];\nsizes[0] = 512;\nsizes[1] = 1024;",
                           "int sizes[2][2] = {{512, 1024}, {2048, 4096}};"})
    EXPECT_EQ(gridAfter(std::string(body) + "\nint n = sizes[1];"), "none") << body;
  // Written after the launch, in a loop around it: the next pass reads it.
  EXPECT_EQ(shown(launchOfK(inMain("int sizes[2] = {512, 1024};\nfor (int t = 0; t < 4; ++t) {\n"
                                   "k<<<sizes[1] / 256, 256>>>(x);\nsizes[1] *= 2;\n}"))
                      .grid),
            "none");
  // A global that another function writes.
  EXPECT_EQ(shown(launchOfK("int kSizes[] = {1024, 2048};\nvoid grow() { kSizes[1] = 4096; }\n"
                            "int main() { float *x; grow(); k<<<kSizes[1] / 256, 256>>>(x); }\n")
                      .grid),
            "none");
}

TEST(ArrayElementsTest, AnIndexThatALoopCountsReadsTheMeanOfTheElements) {
  // Each of the 4 launches reads its own size: their mean, (2^16 + 2^18 + 2^20 + 2^22) / 4 = 1392640, stands for
  // them (the counter's middle, 1, would read 2^18).
  const std::string sizes = "const int sizes[] = {1 << 16, 1 << 18, 1 << 20, 1 << 22};\n";
  const ptx::analysis::SourceLaunch launch =
      launchOfK(inMain(sizes + "for (int s = 0; s < 4; s++) {\nint n = sizes[s];\nk<<<n / 256, 256>>>(x);\n}"));
  EXPECT_EQ(shown(launch.grid), "5440,1,1");
  EXPECT_EQ(launch.launches, 4u);
  EXPECT_EQ(launch.gridHow,
            "`sizes[...]` = 1392640, the mean over the 4 values of `s` in `for (int s = 0; s < 4; s++)` at t.cu:4");
  EXPECT_EQ(shown(launchOfK(inMain(sizes + "for (int s = 0; s < 4; s++)\nk<<<sizes[3 - s] / 256, 256>>>(x);")).grid),
            "5440,1,1");
  // A counter that runs past the list: the program reads past the array, so no element stands for the launches.
  EXPECT_EQ(shown(launchOfK(inMain(sizes + "for (int s = 0; s < 5; s++)\nk<<<sizes[s] / 256, 256>>>(x);")).grid),
            "none");
  // Each loop and index reads its own mean, though one is remembered for the launches of the next.
  EXPECT_EQ(launchesText({"k", "k2"}, inMain(sizes + "for (int s = 0; s < 2; s++) {\nk<<<sizes[s] / 256, 256>>>(x);\n"
                                                     "k2<<<sizes[s + 2] / 256, 256>>>(x);\n}\n"
                                                     "for (int s = 2; s < 4; s++)\nk<<<sizes[s] / 256, 256>>>(x);")),
            "5440,1,1 x 256,1,1, 4; 10240,1,1 x 256,1,1, 2"); // k: 640 twice, 10240 twice
  // Where the index does not read the counter, the element itself.
  EXPECT_EQ(shown(launchOfK(inMain(sizes + "for (int s = 0; s < 4; s++)\nk<<<sizes[2] / 256, 256>>>(x);")).grid),
            "4096,1,1");
}

TEST(ArrayElementsTest, ARangeForRunsOncePerElementAndReadsTheirMean) {
  // Over a braced list: 3 launches, each with its own size; (2^16 + 2^18 + 2^20) / 3 = 458752.
  ptx::analysis::SourceLaunch launch =
      launchOfK(inMain("for (int n : {1 << 16, 1 << 18, 1 << 20})\nk<<<n / 256, 256>>>(x);"));
  EXPECT_EQ(launch.launches, 3u);
  EXPECT_EQ(shown(launch.grid), "1792,1,1");
  EXPECT_EQ(launch.gridHow,
            "`n` = 458752, the mean of the 3 elements of `{1 << 16, 1 << 18, 1 << 20}` that `for` at t.cu:3 reads");
  // Over an array, by reference: its declared length counts, elements past the list are 0.
  launch = launchOfK(inMain("const int sizes[4] = {4096, 8192, 12288};\n"
                            "for (const int &n : sizes) {\nk<<<n / 256, 256>>>(x);\n}"));
  EXPECT_EQ(launch.launches, 4u);
  EXPECT_EQ(shown(launch.grid), "24,1,1");
  // A container's size counts its iterations; its elements are not read.
  launch = launchOfK(inMain("std::vector<int> v(6);\nfor (int e : v) k<<<64, 256>>>(x);"));
  EXPECT_EQ(launch.launches, 6u);
  EXPECT_EQ(shown(launchOfK(inMain("std::vector<int> v(6);\nfor (int e : v) k<<<e, 256>>>(x);")).grid), "none");
  // An array iterated by value is only read.
  EXPECT_EQ(shown(launchOfK(inMain("int sizes[2] = {512, 1024};\nfor (int n : sizes) k<<<n / 256, 256>>>(x);")).grid),
            "3,1,1");
  // An array something writes: its count still holds, its elements do not.
  launch = launchOfK(inMain("int sizes[2] = {512, 1024};\nsizes[0] = atoi(argv[1]);\n"
                            "for (int n : sizes) k<<<n / 256, 256>>>(x);"));
  EXPECT_EQ(launch.launches, 2u);
  EXPECT_EQ(shown(launch.grid), "none");
  // A range the source does not size: the default count.
  EXPECT_EQ(launchesIn("for (auto &item : load(argv[1])) k<<<1, 256>>>(x);"), 16u);
}

TEST(ArrayElementsTest, AContainerGivenItsElementsReadsAsAnArray) {
  EXPECT_EQ(gridAfter("std::vector<int> sizes = {1024, 4096};\nint n = sizes[1];"), "16,1,1");
  EXPECT_EQ(gridAfter("const std::array<int, 3> sizes{1024, 2048};\nint n = 256 + sizes[2];"), "1,1,1");
  EXPECT_EQ(gridAfter("std::vector<int> sizes{1024, 4096};\nint n = sizes[sizes.size() - 1];"), "16,1,1");
  // Over it, by value: once per element, their mean.
  const ptx::analysis::SourceLaunch launch =
      launchOfK(inMain("std::vector<int> sizes = {1024, 4096};\nfor (int n : sizes) k<<<n / 256, 256>>>(x);"));
  EXPECT_EQ(launch.launches, 2u);
  EXPECT_EQ(shown(launch.grid), "10,1,1");
  // Written, resized, or iterated by reference to change it: open.
  for (const char *body : {"std::vector<int> sizes = {1024, 4096};\nsizes[1] = 8192;",
                           "std::vector<int> sizes = {1024, 4096};\nsizes.push_back(8192);",
                           "std::vector<int> sizes = {1024, 4096};\nfor (int &s : sizes) s *= 2;",
                           "std::vector<int> sizes(2);"})
    EXPECT_EQ(gridAfter(std::string(body) + "\nint n = sizes[1];"), "none") << body;
}

TEST(ArrayElementsTest, ARangeForOverATableOfStructsReadsTheMeanOfEachMember) {
  const std::string table = "struct Case { int n; int block; };\n";
  // (2^20 + 2^22) / 2 = 2621440 elements, in blocks of (256 + 128) / 2 = 192: 2 launches.
  ptx::analysis::SourceLaunch launch =
      launchOfK(table + inMain("const Case cases[] = {{1 << 20, 256}, {1 << 22, 128}};\n"
                               "for (const Case &c : cases)\nk<<<c.n / c.block, c.block>>>(x);"));
  EXPECT_EQ(launch.launches, 2u);
  EXPECT_EQ(shown(launch.grid), "13653,1,1");
  EXPECT_EQ(shown(launch.block), "192,1,1");
  EXPECT_EQ(launch.blockHow, "`c.block` = 192, the mean over the 2 elements of `cases` that `for` at t.cu:5 reads");
  // A second loop over it finds it past the first.
  EXPECT_EQ(launchesText({"k"}, table + inMain("const Case cases[] = {{1 << 20, 256}, {1 << 22, 128}};\n"
                                               "for (const Case &c : cases) k<<<c.n / c.block, c.block>>>(x);\n"
                                               "for (const Case &c : cases) k<<<c.n / c.block, c.block>>>(x);")),
            "13653,1,1 x 192,1,1, 4");
  // By value, a member left out is value-initialized: (4096 + 0) / 2.
  launch = launchOfK(table + inMain("Case cases[2] = {{4096, 256}, {0}};\nfor (auto c : cases) k<<<1, c.n / 8>>>(x);"));
  EXPECT_EQ(launch.launches, 2u);
  EXPECT_EQ(shown(launch.block), "256,1,1");
  // A table something writes, or whose element changes in the loop: open.
  EXPECT_EQ(shown(launchOfK(table + inMain("Case cases[] = {{4096, 256}};\ncases[0].n = atoi(argv[1]);\n"
                                           "for (auto c : cases) k<<<c.n / 256, 256>>>(x);"))
                      .grid),
            "none");
  EXPECT_EQ(shown(launchOfK(table + inMain("Case cases[] = {{4096, 256}};\n"
                                           "for (auto &c : cases) { c.n *= 2; k<<<c.n / 256, 256>>>(x); }"))
                      .grid),
            "none");
}

TEST(ArrayElementsTest, AMemberOfAnIndexedStructReadsAsAnElement) {
  const std::string table =
      "struct Case { int n; int block; };\nconst Case cases[] = {{1 << 20, 256}, {1 << 22, 128}};\n";
  ptx::analysis::SourceLaunch launch = launchOfK(table + inMain("k<<<cases[1].n / 256, cases[1].block>>>(x);"));
  EXPECT_EQ(shown(launch.grid), "16384,1,1");
  EXPECT_EQ(shown(launch.block), "128,1,1");
  EXPECT_EQ(launch.blockHow, "`cases[1].block` = 128, as `cases` is declared at t.cu:2");
  // Swept by a counter: each member's mean over its values.
  launch = launchOfK(table + inMain("for (int i = 0; i < 2; ++i)\nk<<<cases[i].n / 256, cases[i].block>>>(x);"));
  EXPECT_EQ(launch.launches, 2u);
  EXPECT_EQ(shown(launch.grid), "10240,1,1");
  EXPECT_EQ(shown(launch.block), "192,1,1");
  // Written: open.
  EXPECT_EQ(shown(launchOfK("struct Case { int n; int block; };\n" +
                            inMain("Case cases[] = {{4096, 256}};\ncases[0].n = atoi(argv[1]);\n"
                                   "k<<<cases[0].n / 256, 256>>>(x);"))
                      .grid),
            "none");
}

TEST(ArrayElementsTest, TheReasonNamesTheArray) {
  const ptx::analysis::SourceLaunch launch =
      launchOfK(inMain("const int sizes[] = {1024, 4096};\nk<<<sizes[1] / 256, 256>>>(x);"));
  EXPECT_EQ(shown(launch.grid), "16,1,1");
  EXPECT_EQ(launch.gridHow, "`sizes[1]` = 4096, as `sizes` is declared at t.cu:3");
}

} // namespace
} // namespace ptxdvfs::tools
