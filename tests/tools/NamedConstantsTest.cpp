// NamedConstantsTest.cpp - sizes the host code names: enumerators, and
// constants named with their namespace or class (`cfg::kThreads`).
#include "SourceLaunchHelpers.h"

#include <gtest/gtest.h>

#include <string>

namespace ptxdvfs::tools {
namespace {

TEST(NamedConstantsTest, EnumeratorsAreTheirValues) {
  EXPECT_EQ(folded("enum { kBlock = 128, kItems = 1 << 20 };\nint main() { @ }", "kItems / kBlock"), "8192,1,1");
  EXPECT_EQ(folded("enum { A, B = 10, C };\nint main() { @ }", "C"), "11,1,1"); // one past the one before
  EXPECT_EQ(folded("enum { A, B = 10, C };\nint main() { @ }", "A + 1"), "1,1,1");
  EXPECT_EQ(folded("enum { W = 8, H = W * 2 };\nint main() { @ }", "W + H"), "24,1,1");
  EXPECT_EQ(folded("typedef enum { X = 3 } Mode;\nint main() { @ }", "X"), "3,1,1");
  EXPECT_EQ(folded("enum Size : unsigned int { S = 4 };\nint main() { @ }", "S"), "4,1,1");
  EXPECT_EQ(folded("int main() { enum { L = 32 }; @ }", "L"), "32,1,1");
  // Not seen bare: a scoped enum's, another function's, or one whose value does not fold.
  EXPECT_EQ(folded("enum class E { Q = 8 };\nint main() { @ }", "Q"), "none");
  EXPECT_EQ(folded("void f() { enum { L = 16 }; }\nint main() { @ }", "L"), "none");
  EXPECT_EQ(folded("enum { P = sizeof(Big), R };\nint main() { @ }", "R"), "none");
}

TEST(NamedConstantsTest, QualifiedConstantsAreThoseOfTheirNamespaceOrClass) {
  EXPECT_EQ(folded("namespace cfg { constexpr int kThreads = 128; }\nint main() { @ }", "cfg::kThreads"), "128,1,1");
  EXPECT_EQ(folded("namespace a { namespace b { const int k = 4; } }\nint main() { @ }", "a::b::k * 2"), "8,1,1");
  EXPECT_EQ(folded("struct Config { static constexpr int kBlock = 256; };\nint main() { @ }", "Config::kBlock"),
            "256,1,1");
  EXPECT_EQ(folded("class Tile {\npublic:\n  static const int kSize = 16;\n};\nint main() { @ }", "Tile::kSize * 2"),
            "32,1,1");
  EXPECT_EQ(folded("enum class Width : int { Narrow = 64, Wide };\nint main() { @ }", "Width::Wide"), "65,1,1");
  EXPECT_EQ(folded("const int kAll = 64;\nint main() { @ }", "::kAll"), "64,1,1");
  EXPECT_EQ(folded("namespace cfg { constexpr int kN = 512; void run() { @ } }", "cfg::kN"), "512,1,1");
  // Not fixed: a variable the program may change, or a name the qualifier's scope does not declare.
  EXPECT_EQ(folded("namespace cfg { int n = 8; }\nvoid set() { cfg::n = 16; }\nint main() { @ }", "cfg::n"), "none");
  EXPECT_EQ(folded("namespace other { constexpr int k = 64; }\nnamespace cfg { }\nint main() { @ }", "cfg::k"),
            "none");
  EXPECT_EQ(folded("int main() { @ }\nnamespace late { constexpr int k = 8; }", "late::k"), "none");
}

TEST(NamedConstantsTest, TrueAndFalseAreOneAndZero) {
  EXPECT_EQ(folded("int main() { bool large = false; @ }", "large ? 4096 : 64"), "64,1,1");
  EXPECT_EQ(folded("int main() { bool large = true; @ }", "large ? 4096 : 64"), "4096,1,1");
  EXPECT_EQ(folded("int main() { @ }", "true + true"), "2,1,1");
  // A `bool` function's value is 0 or 1, as C++ converts what it returns.
  EXPECT_EQ(
      folded("static bool any(int n) {\n  int m = n;\n  return m;\n}\nint main() { int b = any(8); @ }", "b * 32"),
      "32,1,1");
  EXPECT_EQ(folded("int main() { int b = (bool)8; @ }", "b * 32"), "32,1,1"); // a cast
}

} // namespace
} // namespace ptxdvfs::tools
