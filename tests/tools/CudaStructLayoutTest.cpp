// CudaStructLayoutTest.cpp - naming the fields of CUDA structs by their byte
// offsets, and finding the declarations that hold them.
#include "CudaSource.h"
#include "CudaStructLayout.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace ptxdvfs::tools {
namespace {

using Fields = std::map<std::int64_t, std::string>;

TEST(CudaStructLayoutTest, FieldsArePaddedToTheirAlignmentAsOnA64BitHost) {
  const std::string source = R"(
#define LEVELS 4
struct dim_str {
  int cur_arg;          // 4 bytes, then 4 of padding before the long
  long number_boxes;
  float *box_mem, *spare; /* two pointers */
  float alpha;
  int3 grid;
  int levels[LEVELS];
  char tag;
};
)";
  EXPECT_EQ(CudaStructs(source).fieldNames("dim_str", "d"),
            (Fields{{0, "d.cur_arg"}, {8, "d.number_boxes"}, {16, "d.box_mem"}, {24, "d.spare"}, {32, "d.alpha"},
                    {36, "d.grid.x"}, {40, "d.grid.y"}, {44, "d.grid.z"}, {48, "d.levels[0]"}, {52, "d.levels[1]"},
                    {56, "d.levels[2]"}, {60, "d.levels[3]"}, {64, "d.tag"}}));
}

TEST(CudaStructLayoutTest, TypedefsAndNestedStructsAreFollowed) {
  const std::string source = R"(
typedef struct { unsigned short w, h; double scale; } Size;
typedef Size ImageSize;
class Params {
public:
  ImageSize size;
  const struct Other { int a; } *unused_pointer_to_nothing_known;
};
typedef struct Frame_t { unsigned char flags; ImageSize inner; } Frame;
)";
  EXPECT_EQ(CudaStructs(source).fieldNames("const ImageSize", "s"), (Fields{{0, "s.w"}, {2, "s.h"}, {8, "s.scale"}}));
  EXPECT_EQ(CudaStructs(source).fieldNames("Frame", "f"),
            (Fields{{0, "f.flags"}, {8, "f.inner.w"}, {10, "f.inner.h"}, {16, "f.inner.scale"}}));
  // A member defined inline, with braces of its own: not laid out.
  EXPECT_TRUE(CudaStructs(source).fieldNames("Params", "p").empty());
}

TEST(CudaStructLayoutTest, TypeMacrosAreExpandedAsLavaMDUsesThem) {
  const std::string source = R"(
#define fp double
#define NUMBER_NEIGHBOURS	26
typedef struct nei_str { int x, y, z; int number; long offset; } nei_str;
typedef struct box_str { int x, y, z; int number; long offset; int nn; nei_str nei[NUMBER_NEIGHBOURS]; } box_str;
typedef struct par_str { fp alpha; } par_str;
)";
  EXPECT_EQ(CudaStructs(source).fieldNames("par_str", "d_par"), (Fields{{0, "d_par.alpha"}}));
  Fields box = CudaStructs(source).fieldNames("box_str", "b");
  EXPECT_EQ(box.at(16), "b.offset");
  EXPECT_EQ(box.at(24), "b.nn");
  EXPECT_EQ(box.at(32), "b.nei[0].x");
  EXPECT_EQ(box.at(32 + 25 * 24 + 16), "b.nei[25].offset");
}

TEST(CudaStructLayoutTest, NoNameWhereTheLayoutIsNotCertain) {
  const std::string source = R"(
struct Bits { int a : 3; int b : 5; };
struct Unknown { my_type_t value; int n; };
struct WithMethod { int n; __device__ int twice() const; };
struct Fine { int n; };
)";
  EXPECT_TRUE(CudaStructs(source).fieldNames("Bits", "b").empty());
  EXPECT_TRUE(CudaStructs(source).fieldNames("Unknown", "u").empty());
  EXPECT_TRUE(CudaStructs(source).fieldNames("WithMethod", "w").empty());
  EXPECT_TRUE(CudaStructs(source).fieldNames("Fine *", "p").empty());  // a pointer, not a struct by value
  EXPECT_TRUE(CudaStructs(source).fieldNames("int", "n").empty());     // a scalar
  EXPECT_TRUE(CudaStructs(source).fieldNames("Missing", "m").empty()); // not defined here
  EXPECT_EQ(CudaStructs(source).fieldNames("Fine", "f"), (Fields{{0, "f.n"}}));
}

TEST(CudaStructLayoutTest, HugeOrDeeplyRepeatedStructsAreGivenUpOn) {
  const std::string source = R"(
struct Row { int x[64]; };
struct Grid { Row rows[64]; };
struct Grids { Grid g[2]; };
struct Big { int v[999999999]; };
struct Bigger { Big b[999999999]; };
struct Biggest { Bigger b[999999999]; };
)";
  CudaStructs structs(source);
  EXPECT_EQ(structs.fieldNames("Grid", "g").size(), 4096u);
  EXPECT_EQ(structs.fieldNames("Grid", "g").rbegin()->second, "g.rows[63].x[63]");
  EXPECT_TRUE(structs.fieldNames("Grids", "g").empty()); // 8192 names: more than any reason needs
  EXPECT_EQ(structs.fieldNames("Big", "b").size(), 64u);  // the first 64 elements are named
  EXPECT_TRUE(structs.fieldNames("Biggest", "b").empty()); // past 2^40 bytes: no overflow
}

TEST(CudaStructLayoutTest, DeclarationsGiveTypesAndNames) {
  const std::string source = R"(
struct Common { int in_elem; int no_points; };
__constant__ Common d_common;
__constant__ float c_table[64];
__constant__ int c_rows = 100;
__global__ void kernel(const dim_str d_dim, float *__restrict__ out, int n) {}
)";
  std::vector<CudaDeclaration> constants = cudaConstantVariables(source);
  ASSERT_EQ(constants.size(), 2u);
  EXPECT_EQ(constants[0].name, "d_common");
  EXPECT_EQ(CudaStructs(source).fieldNames(constants[0].type, constants[0].name),
            (Fields{{0, "d_common.in_elem"}, {4, "d_common.no_points"}}));
  EXPECT_EQ(constants[1].name, "c_rows");
  std::vector<CudaDeclaration> parameters = cudaParameters(codeOf(source), "kernel");
  ASSERT_EQ(parameters.size(), 3u);
  EXPECT_EQ(parameters[0].name, "d_dim");
  EXPECT_NE(parameters[0].type.find("dim_str"), std::string::npos);
  EXPECT_EQ(parameters[1].name, "out");
  EXPECT_NE(parameters[1].type.find('*'), std::string::npos);
}

// A prototype may leave its parameters unnamed; --assume and the reasons
// need the definition's names, and lint points at the definition.
TEST(CudaStructLayoutTest, ParametersAndPositionComeFromTheDefinition) {
  const std::string source = R"(struct Matrix { int rows; };
__global__ void scale(float *, unsigned int, const Matrix &);
// __global__ void scale(float *commented, int out) { }
void host(float *x, Matrix m) { scale<<<1, 1>>>(x, 4, m); }
__global__ void scale(float *data, unsigned n, const Matrix &m) { data[0] = n + m.rows; }
)";
  std::vector<CudaDeclaration> parameters = cudaParameters(codeOf(source), "scale");
  ASSERT_EQ(parameters.size(), 3u);
  EXPECT_EQ(parameters[0].name, "data");
  EXPECT_EQ(parameters[1].name, "n");
  EXPECT_EQ(parameters[2].name, "m");
  std::optional<SourcePosition> position = findKernelDeclaration({{"a.cu", "a.cu", source}}, "_Z5scalePfj6Matrix");
  ASSERT_TRUE(position);
  EXPECT_EQ(position->line, 5u);
  EXPECT_EQ(position->column, 17u);
}

TEST(CudaStructLayoutTest, AnUnnamedPrototypeAloneNamesNoParameter) {
  EXPECT_TRUE(cudaParameters(codeOf("__global__ void scale(float *, int);\n"), "scale").empty());
  EXPECT_TRUE(cudaParameters(codeOf("__global__ void scale(const Matrix &, long long);\n"), "scale").empty());
  std::vector<CudaDeclaration> named = cudaParameters(codeOf("__global__ void scale(float *x, int n);\n"), "scale");
  ASSERT_EQ(named.size(), 2u);
  EXPECT_EQ(named[1].name, "n");
  EXPECT_TRUE(cudaParameters(codeOf("__global__ void tick(void) { }\n"), "tick").empty());
}

TEST(CudaStructLayoutTest, MembersComeInOrderWithTheirDefaults) {
  const std::string source = "struct Base { int b; };\n"
                             "typedef struct Options {\npublic:\n  int n = 1 << 20, block{256};\n"
                             "  static const int kMax = 9;\n  float *data;\n} Options_t;\n"
                             "struct Derived : Base { int d; };\n"
                             "struct WithConstructor { WithConstructor() {} int n; };\n"
                             "struct WithArray { int dims[3]; };\n"
                             "struct WithMethods { int n = 4;\n  int twice() const { return 2 * n; }\n"
                             "  static int one() { return 1; } int m; };\n"
                             "struct WithVirtual { virtual int f() { return 1; } int n; };\n";
  const CudaStructs structs(source);
  const auto members = structs.members("const Options_t");
  ASSERT_TRUE(members.has_value());
  ASSERT_EQ(members->size(), 3u); // the static member has no storage in the object
  EXPECT_EQ((*members)[0].name, "n");
  EXPECT_EQ((*members)[0].initializer, "1 << 20");
  EXPECT_EQ(source.substr((*members)[0].initializerAt, 7), "1 << 20");
  EXPECT_EQ((*members)[1].name, "block");
  EXPECT_EQ((*members)[1].type, "int");
  EXPECT_EQ((*members)[1].initializer, "256");
  EXPECT_EQ((*members)[2].name, "data");
  EXPECT_TRUE((*members)[2].initializer.empty());
  EXPECT_EQ((*members)[2].initializerAt, std::string::npos);
  // Not read in order: a base class, a constructor, an array; or not defined.
  EXPECT_FALSE(structs.members("Derived").has_value());
  EXPECT_FALSE(structs.members("WithConstructor").has_value());
  EXPECT_FALSE(structs.members("WithArray").has_value());
  EXPECT_FALSE(structs.members("Missing").has_value());
  EXPECT_EQ(structs.members("Base")->size(), 1u);
  // Member functions store nothing (before 2026-11-28 they made the struct unreadable); a virtual one may.
  const auto methods = structs.members("WithMethods");
  ASSERT_TRUE(methods.has_value());
  ASSERT_EQ(methods->size(), 2u);
  EXPECT_EQ((*methods)[0].name + " " + (*methods)[1].name, "n m");
  EXPECT_EQ(source.substr((*methods)[0].initializerAt, 1), "4");
  EXPECT_FALSE(structs.members("WithVirtual").has_value());
}

} // namespace
} // namespace ptxdvfs::tools
