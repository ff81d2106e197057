// ClassMembersTest.cpp - a class's data member named bare in its member
// functions (`k<<<blocks_, 256>>>` in `Solver::step`) is what its
// constructor leaves there: the member initializers and body read with
// the constructor's parameters as every object built passes them, else the
// default member initializer; open where other code may change it.
#include "CudaCode.h"
#include "SourceLaunchHelpers.h"

#include <gtest/gtest.h>

#include <string>

namespace ptxdvfs::tools {
namespace {

const std::string kStep = "  void step(float *x) { k<<<blocks_, 256>>>(x); }\n";

TEST(ClassMembersTest, AMemberInitializerIsReadWithWhatTheObjectIsBuiltWith) {
  const std::string solver = "class Solver {\n public:\n  Solver(int n) : n_(n), blocks_((n + 255) / 256) {}\n" +
                             kStep + " private:\n  int n_;\n  int blocks_ = 4;\n};\n";
  const ptx::analysis::SourceLaunch launch =
      launchOfK(solver + inMain("Solver s(1 << 20);\nfor (int t = 0; t < 10; ++t)\n  s.step(x);"));
  EXPECT_EQ(shown(launch.grid), "4096,1,1"); // not the default member initializer's 4
  EXPECT_EQ(launch.launches, 10u);
  EXPECT_EQ(launch.gridHow, "`Solver::blocks_` = `(n + 255) / 256`, as its constructor at t.cu:3 sets it; `n` = "
                            "1048576, as `Solver`'s call at t.cu:11 passes it");
  // Declared with a default before the member function: the constructor's value still wins over it.
  EXPECT_EQ(launchedWith("struct Solver {\n  int blocks_ = 4;\n  Solver(int n) : blocks_(n / 256) {}\n" + kStep +
                         "};\n" + inMain("Solver s(4096);\ns.step(x);")),
            "16,1,1 x 256,1,1");
  // Built as `Solver s{...}`, `Solver s = {...}`, `new Solver(...)` or `std::make_unique<Solver>(...)`.
  for (const std::string built : {"Solver s{1 << 12};\ns.step(x);", "Solver s = {1 << 12};\ns.step(x);",
                                  "Solver *s = new Solver(1 << 12);\ns->step(x);",
                                  "auto s = std::make_unique<Solver>(1 << 12);\ns->step(x);"})
    EXPECT_EQ(shown(launchOfK(solver + inMain(built)).grid), "16,1,1") << built;
  // A class template's objects, `Solver<float> s(...)`.
  EXPECT_EQ(launchedWith("template <typename T>\nstruct Solver {\n  Solver(int n) : blocks_(n / 256) {}\n" + kStep +
                         "  int blocks_;\n};\n" + inMain("Solver<float> a(4096), b(4096);\na.step(x);")),
            "16,1,1 x 256,1,1");
}

TEST(ClassMembersTest, TheConstructorsBodyAndAnOutOfClassDefinitionAreReadInOrder) {
  // Assigned in the body, one member from another.
  EXPECT_EQ(launchedWith("class Solver {\n public:\n  Solver(int n) { n_ = n; blocks_ = (n_ + 127) / 128; }\n" +
                         kStep + " private:\n  int n_, blocks_;\n};\n" + inMain("Solver s(4096);\ns.step(x);")),
            "32,1,1 x 256,1,1");
  // Constructor and method defined after the class; a default member initializer for the block.
  EXPECT_EQ(launchedWith("class Solver {\n public:\n  Solver(int n);\n  void step(float *x);\n private:\n"
                         "  int n_;\n  int threads_ = 128;\n};\nSolver::Solver(int n) : n_(n) {}\n"
                         "void Solver::step(float *x) { k<<<n_ / threads_, threads_>>>(x); }\n" +
                         inMain("Solver s(8192);\ns.step(x);")),
            "64,1,1 x 128,1,1");
  // dim3 members, braced initializers, a parameter named as the member it sets.
  EXPECT_EQ(launchedWith("class Solver {\n  dim3 grid, block;\n public:\n  explicit Solver(int grid) : "
                         "grid{(grid + 1) / 2, 2}, block(128) {}\n  void step(float *x) const { k<<<grid, "
                         "block>>>(x); }\n};\n" +
                         inMain("Solver s(64);\ns.step(x);")),
            "32,2,1 x 128,1,1");
}

TEST(ClassMembersTest, ThisNamesTheMemberAndAParameterOfItsNameHidesItInTheConstructor) {
  // The body's `n` is the parameter: the member is what its initializer gives it, half of it.
  const std::string solver = "struct Solver {\n  Solver(int n) : n(n / 2), grid((n / 2 + 127) / 128) {\n"
                             "    cudaMalloc(&buf, n * sizeof(float));\n  }\n";
  EXPECT_EQ(launchedWith(solver + "  void step() { k<<<this->n / 128, 128>>>(buf); }\n  int n;\n  float *buf;\n};\n" +
                         inMain("Solver s(4096);\ns.step();")),
            "16,1,1 x 128,1,1");
  // `this->` reaches past a local of the member's name; a dim3 member too.
  EXPECT_EQ(launchedWith(solver + "  void step() {\n    int n = 7;\n    k<<<this->grid, this->n / 16>>>(buf);\n  }\n"
                                  "  int n;\n  dim3 grid;\n  float *buf;\n};\n" +
                         inMain("Solver s(4096);\ns.step();")),
            "16,1,1 x 128,1,1");
}

TEST(ClassMembersTest, TheConstructorsAssignmentsThroughThisAreReadInOrder) {
  // `this->n = n;`, the parameters named as the members they set.
  const std::string solver = "struct Solver {\n  Solver(int n, int threads) {\n    this->n = n;\n"
                             "    this->threads = threads;\n    this->n *= 2;\n  }\n"
                             "  void step(float *x) { k<<<(n + threads - 1) / threads, threads>>>(x); }\n"
                             "  int n, threads = 32;\n};\n";
  EXPECT_EQ(launchedWith(solver + inMain("Solver s(4096, 128);\ns.step(x);")), "64,1,1 x 128,1,1");
  // Read in the constructor's own body, bare or through `this->`, after the assignment.
  EXPECT_EQ(launchedWith("struct Solver {\n  int blocks_ = 4;\n  Solver(int n) {\n    this->blocks_ = n / 256;\n"
                         "    k<<<blocks_, 256>>>(0);\n  }\n};\n" + inMain("Solver s(4096);")),
            "16,1,1 x 256,1,1");
  // Under a branch the program run without arguments does not take (n is 4096): the default stays.
  const auto branchy = [](const std::string &condition) {
    return "struct Solver {\n  int blocks_ = 4;\n  Solver(int n) {\n    if (" + condition +
           ")\n      this->blocks_ = n / 256;\n  }\n" + kStep + "};\n" +
           inMain("Solver s(argc > 1 ? 1 << 20 : 4096);\ns.step(x);");
  };
  EXPECT_EQ(launchedWith(branchy("n > 100000")), "4,1,1 x 256,1,1");
  // Under one whose condition the source does not fix: open.
  EXPECT_EQ(launchedWith(branchy("getenv(\"BIG\")")), "none x 256,1,1");
}

TEST(ClassMembersTest, TheOneMemberFunctionThatSetsItIsTakenToRunFirst) {
  // Two-phase set-up: `s.init(n)`, then the launches.
  const std::string solver = "class Solver {\n public:\n  void init(int n) {\n    n_ = n;\n    this->blocks_ = (n + 255) / 256;\n"
                             "  }\n" + kStep + " private:\n  int n_ = 0, blocks_ = 1;\n};\n";
  const ptx::analysis::SourceLaunch launch =
      launchOfK(solver + inMain("Solver s;\ns.init(1 << 20);\nfor (int t = 0; t < 10; ++t)\n  s.step(x);"));
  EXPECT_EQ(shown(launch.grid), "4096,1,1");
  EXPECT_EQ(launch.gridHow, "`Solver::blocks_` is what `init` leaves in it (set at t.cu:5), taken to run before the "
                            "member functions that read it; `n` = 1048576, as `init`'s call at t.cu:14 passes it");
  // Never called, it sets nothing: the default member initializer stays.
  EXPECT_EQ(launchedWith(solver + inMain("Solver s;\ns.step(x);")), "1,1,1 x 256,1,1");
  // Called with sizes that differ: open.
  EXPECT_EQ(launchedWith(solver + inMain("Solver s;\ns.init(4096);\ns.init(8192);\ns.step(x);")), "none x 256,1,1");
}

TEST(ClassMembersTest, AClassTemplatesValueParametersAreWhatItsObjectsTypesWrite) {
  const std::string solver = "template <typename T, int BLOCK = 256>\nclass Solver {\n public:\n"
                             "  Solver(int n) : grid_((n + BLOCK - 1) / BLOCK) {}\n"
                             "  void step(T *x) { k<<<grid_, BLOCK>>>(x); }\n private:\n  int grid_;\n};\n";
  // Read in the member function and in the constructor's member initializer; the default where none is written.
  EXPECT_EQ(launchedWith(solver + inMain("Solver<float, 128> s(1 << 20);\ns.step(x);")), "8192,1,1 x 128,1,1");
  EXPECT_EQ(launchedWith(solver + inMain("Solver<float> a(1 << 20), b(1 << 20);\nb.step(x);")), "4096,1,1 x 256,1,1");
  // Each object its own type: `a`'s; through a reference that may be either, open.
  EXPECT_EQ(launchedWith(solver + inMain("Solver<float, 128> a(4096);\nSolver<float, 64> b(4096);\na.step(x);")),
            "32,1,1 x 128,1,1");
  EXPECT_EQ(launchedWith(solver + "void run(Solver<float, 128> &s, float *x) { s.step(x); }\n" +
                         inMain("Solver<float, 128> a(4096);\nSolver<float, 64> b(4096);\nrun(a, x);")),
            "none x none");
  // Its member functions defined after it, `template <int B> void Solver<B>::step(...)`.
  EXPECT_EQ(launchedWith("template <int B>\nstruct Solver {\n  Solver(int n);\n  void step(float *x);\n  int n_;\n};\n"
                         "template <int B>\nSolver<B>::Solver(int n) : n_(n) {}\n"
                         "template <int B>\nvoid Solver<B>::step(float *x) { k<<<n_ / B, B>>>(x); }\n" +
                         inMain("Solver<256> s(4096);\ns.step(x);")),
            "16,1,1 x 256,1,1");
  // Without a constructor.
  EXPECT_EQ(launchedWith("template <int B>\nstruct Config {\n  int n = 4096;\n  void run(float *x) { k<<<n / B, B>>>(x); }\n"
                         "};\n" +
                         inMain("Config<64> c;\nc.run(x);")),
            "64,1,1 x 64,1,1");
}

TEST(ClassMembersTest, AStructMembersFieldsAreReadInWhatTheConstructorGivesIt) {
  const std::string grid = "struct Grid {\n  int nx = 512, ny = 256;\n};\n";
  const std::string step = "  void step(float *x) { k<<<dim3(grid_.nx / 32, grid_.ny / 8), dim3(32, 8)>>>(x); }\n";
  // Copied from the constructor's parameter, which the object is built with.
  EXPECT_EQ(launchedWith(grid + "class Solver {\n public:\n  explicit Solver(const Grid &g) : grid_(g) {}\n" + step +
                         " private:\n  Grid grid_;\n};\n" + inMain("Grid g;\ng.nx = 1024;\nSolver s(g);\ns.step(x);")),
            "32,32,1 x 32,8,1");
  // Default-initialized: the struct's own defaults.
  EXPECT_EQ(launchedWith(grid + "class Solver {\n public:\n  Solver() {}\n" + step + "  Grid grid_;\n};\n" +
                         inMain("Solver s;\ns.step(x);")),
            "16,32,1 x 32,8,1");
  // Another program beside it builds its own `Solver`: its objects pass nothing to this one's constructor.
  const std::string solver = grid + "class Solver {\n public:\n  explicit Solver(Grid g) : grid_(g) {}\n" + step +
                             "  Grid grid_;\n};\n" + inMain("Grid g;\nSolver s(g);\ns.step(x);");
  const auto launches = launchesOf({"k"}, {{"t.cu", "t.cu", solver},
                                           {"m.cu", "m.cu", "struct Solver { int n; };\n" + inMain("Solver s;")}});
  ASSERT_EQ(launches.count("k"), 1u);
  EXPECT_EQ(shown(launches.at("k").grid), "16,32,1");
}

TEST(ClassMembersTest, AMemberThatOtherCodeMayChangeOrObjectsThatDifferLeaveItOpen) {
  const std::string solver = "struct Solver {\n  Solver(int n) : blocks_(n / 256) {}\n" + kStep + "  int blocks_;\n";
  const ptx::analysis::SourceLaunch grown =
      launchOfK(solver + "  void grow() { blocks_ *= 2; }\n};\n" + inMain("Solver s(4096);\ns.step(x);"));
  EXPECT_EQ(shown(grown.grid), "none");
  EXPECT_NE(grown.gridOpen.find("`Solver::blocks_` changes at t.cu:5, outside its constructor and any one member "
                                "function that sets it"),
            std::string::npos)
      << grown.gridOpen;
  // A struct of another type with a member of the same name, set in `main` or a helper, is its own.
  EXPECT_EQ(launchedWith("struct Params {\n  int blocks_;\n};\nvoid fill(Params &q) { q.blocks_ = 2; }\n" + solver +
                         "};\n" + inMain("Params p;\np.blocks_ = 8;\nfill(p);\nSolver s(4096);\ns.step(x);")),
            "16,1,1 x 256,1,1");
  // Through the object, or in two member functions.
  EXPECT_EQ(launchedWith(solver + "};\n" + inMain("Solver s(4096);\ns.blocks_ = 2;\ns.step(x);")), "none x 256,1,1");
  EXPECT_EQ(launchedWith(solver + "  void a() { blocks_ = 8; }\n  void b() { this->blocks_ = 2; }\n};\n" +
                         inMain("Solver s(4096);\ns.a();\ns.b();\ns.step(x);")),
            "none x 256,1,1");
  // Two objects built with different sizes, called through a reference that may be either.
  const ptx::analysis::SourceLaunch two = launchOfK(
      solver + "};\n" + inMain("Solver a(4096), b(8192);\nSolver &r = argc > 1 ? a : b;\nr.step(x);"));
  EXPECT_EQ(shown(two.grid), "none");
  EXPECT_NE(two.gridOpen.find("`Solver`'s calls pass `n` = 4096 at t.cu:8, 8192 at t.cu:8"), std::string::npos)
      << two.gridOpen;
  // Two constructors.
  EXPECT_EQ(launchedWith(solver + "  Solver() : blocks_(8) {}\n};\n" + inMain("Solver s(4096);\ns.step(x);")),
            "none x 256,1,1");
}

TEST(ClassMembersTest, EachObjectLaunchesWithWhatItWasBuiltWith) {
  const std::string solver =
      "struct Solver {\n  Solver(int n) : blocks_(n / 256) {}\n" + kStep + "  int blocks_;\n};\n";
  // 16 and 32 blocks, one launch each, and `c`, not the one of a block closed before its call: their mean.
  const ptx::analysis::SourceLaunch two = launchOfK(
      solver + inMain("Solver a(4096), b(8192);\na.step(x);\nb.step(x);\nSolver c(8192);\n{\n  Solver c(2048);\n}\n"
                      "for (int t = 0; t < 2; ++t)\n  c.step(x);"));
  EXPECT_EQ(two.launches, 4u);
  EXPECT_EQ(shown(two.grid), "28,1,1"); // (16 + 32 + 2 x 32) / 4
  EXPECT_EQ(two.gridHow, "the mean of its launches, by how often each runs: 16 at t.cu:3 (`step`'s call at t.cu:9) "
                         "(1 time), 32 at t.cu:3 (`step`'s call at t.cu:10) (1 time), 32 at t.cu:3 (`step`'s call at "
                         "t.cu:16) (2 times)");
  // Through another member function, called on the object.
  EXPECT_EQ(shown(launchOfK("struct Solver {\n  Solver(int n) : blocks_(n / 256) {}\n" + kStep +
                            "  void run(float *x) { step(x); }\n  int blocks_;\n};\n" +
                            inMain("Solver a(4096), b(8192);\na.run(x);\nb.run(x);"))
                      .grid),
            "24,1,1");
}

TEST(ClassMembersTest, AnObjectsMembersAndMethodsAreWhatItsOwnConstructionGivesThem) {
  const std::string grid = "class Grid {\n public:\n  Grid(int nx, int ny) : nx_(nx), ny_(ny) {}\n"
                           "  int cells() const { return nx_ * ny_; }\n  void print() {}\n  int nx_, ny_;\n};\n";
  // Each object its own: 512 x 256 and 64 x 64 cells.
  EXPECT_EQ(launchesText({"k"}, grid + inMain("Grid a(512, 256), b(64, 64);\nk<<<a.cells() / 128, 128>>>(x);")),
            "1024,1,1 x 128,1,1, 1");
  EXPECT_EQ(launchesText({"k"}, grid + inMain("Grid a(512, 256), b(64, 64);\nk<<<b.cells() / 128, b.nx_>>>(x);")),
            "32,1,1 x 64,1,1, 1");
  // A member function called on it before (not `const`, but no member function sets a member) leaves them.
  EXPECT_EQ(launchesText({"k"}, grid + "void run(float *x, Grid g) { k<<<g.nx_, 32>>>(x); }\n" +
                                    inMain("Grid g(512, 256);\ng.print();\nrun(x, g);")),
            "512,1,1 x 32,1,1, 1");
  // A member of a member, through a constructor that copies it from its parameter.
  EXPECT_EQ(launchedWith(grid + "struct Solver {\n  Solver(Grid g) : grid_(g) {}\n  Grid grid_;\n};\n" +
                         inMain("Grid g(512, 256);\nSolver s(g);\nk<<<s.grid_.nx_, 128>>>(x);")),
            "512,1,1 x 128,1,1");
}

TEST(ClassMembersTest, AClassWithoutConstructorsKeepsItsDefaultsUnlessBuiltWithValues) {
  const std::string config = "struct Config {\n  int n = 4096;\n  void run(float *x) { k<<<n / 256, 256>>>(x); }\n};\n";
  EXPECT_EQ(launchedWith(config + inMain("Config c;\nc.run(x);")), "16,1,1 x 256,1,1");
  EXPECT_EQ(launchedWith(config + inMain("Config c{8192};\nc.run(x);")), "none x 256,1,1");
  // Declared after the member function that reads it, as C++ allows.
  EXPECT_EQ(launchedWith("struct Config {\n  void run(float *x) { k<<<n / 256, 256>>>(x); }\n  int n = 2048;\n};\n" +
                         inMain("Config c;\nc.run(x);")),
            "8,1,1 x 256,1,1");
}

TEST(ClassMembersTest, AClassConstantDeclaredAfterTheMemberFunctionIsSeenThere) {
  EXPECT_EQ(launchedWith("struct Plain {\n  void run(float *x) { k<<<kBlocks, kThreads>>>(x); }\n"
                         "  static constexpr int kThreads = 128;\n  static const int kBlocks = 64;\n};\n" +
                         inMain("Plain p;\np.run(x);")),
            "64,1,1 x 128,1,1");
  // From a member function defined after the class.
  EXPECT_EQ(launchedWith("struct Plain {\n  void run(float *x);\n  static constexpr int kThreads = 128;\n};\n"
                         "void Plain::run(float *x) { k<<<8, kThreads>>>(x); }\n" + inMain("Plain p;\np.run(x);")),
            "8,1,1 x 128,1,1");
}

TEST(ClassMembersTest, ALaunchInAConstructorRunsOncePerObjectBuilt) {
  const ptx::analysis::SourceLaunch launch =
      launchOfK("struct Buffer {\n  int n;\n  Buffer(int size) : n(size) { k<<<n / 256, 256>>>(0); }\n};\n" +
                inMain("for (int i = 0; i < 3; ++i) {\n  Buffer b(2048);\n}"));
  EXPECT_EQ(launch.launches, 3u);
  EXPECT_EQ(shown(launch.grid), "8,1,1");
}

TEST(ClassMembersTest, AConstructorsMemberInitializersAreNotItsName) {
  const std::string source = "struct S {\n  S(int n, int m) noexcept : a_(n), b_{m, 2} { }\n  int a_, b_[2];\n};\n"
                             "S::S(int n) : a_(n) {}\nvoid f() { if (g(1)) { } }\n";
  const CudaCode code({"t.cu", "t.cu", source}, codeOf(source), {});
  ASSERT_EQ(code.functionBodiesNamed("S").size(), 2u);
  const int inClass = code.functionBodiesNamed("S")[0];
  EXPECT_EQ(code.parametersOf(inClass), (std::vector<std::string>{"int n", " int m"}));
  EXPECT_TRUE(code.isConstructor(inClass));
  EXPECT_EQ(code.classOfFunction(code.functionBodiesNamed("S")[1]), "S");
  const std::vector<CudaCode::MemberInitializer> initializers = code.memberInitializersOf(inClass);
  ASSERT_EQ(initializers.size(), 2u);
  EXPECT_EQ(initializers[1].member, "b_");
  EXPECT_EQ(code.code().substr(initializers[1].open, initializers[1].close + 1 - initializers[1].open), "{m, 2}");
  EXPECT_TRUE(code.functionBodiesNamed("a_").empty() && code.functionBodiesNamed("b_").empty());
  // An `if`'s block after a call is no initializer list.
  EXPECT_TRUE(code.memberInitializersOf(code.functionBodiesNamed("f")[0]).empty());
}

} // namespace
} // namespace ptxdvfs::tools
