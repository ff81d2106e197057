// GpuPtxModelV1Test.cpp - each rule and quirk of encoding-v1.md on its own.
#include "TestPaths.h"
#include "ptx_parser/ParseHelpers.h"

#include "ptxdvfs/embeddings/EncodingScheme.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace ptxdvfs;
using embeddings::DependencyKind;
using embeddings::EncodedKernel;
using embeddings::InstructionRecord;

namespace {

std::unique_ptr<embeddings::EncodingScheme> scheme() {
  auto vocabulary = embeddings::loadVocabulary(test::vocabularyDir());
  EXPECT_TRUE(vocabulary.hasValue()) << test::describe(vocabulary.diagnostics());
  auto made = embeddings::makeScheme(embeddings::kGpuPtxModelV1, std::move(*vocabulary));
  return std::move(*made);
}

std::vector<EncodedKernel> encode(const std::string &ptx) {
  ptx::Module module = test::parseOk(ptx);
  return scheme()->encode(module);
}

/// Codes of the one kernel made of `body`.
std::vector<std::string> codesOf(const std::string &body) {
  auto kernels = encode(test::inKernel(body));
  EXPECT_EQ(kernels.size(), 1u);
  std::vector<std::string> codes;
  for (const auto &record : kernels.at(0).instructions)
    codes.push_back(toCode(record));
  return codes;
}

std::vector<std::string> readableOf(const std::string &body) {
  auto encoder = scheme();
  auto kernels = encoder->encode(test::parseOk(test::inKernel(body)));
  std::vector<std::string> readable;
  for (const auto &record : kernels.at(0).instructions)
    readable.push_back(encoder->readable(record));
  return readable;
}

using Codes = std::vector<std::string>;

} // namespace

TEST(GpuPtxModelV1Test, EncodesTheSpecWorkedExample) {
  EXPECT_EQ(codesOf("ld.param.u32 %r2, [saxpy_param_0];\n"
                    "ld.param.u64 %rd2, [saxpy_param_3];\n"
                    "mov.u32 %r3, %ctaid.x;\nmov.u32 %r4, %ntid.x;\nmov.u32 %r5, %tid.x;\n"
                    "mad.lo.s32 %r1, %r3, %r4, %r5;\n"
                    "setp.ge.s32 %p1, %r1, %r2;\n"
                    "cvta.to.global.u64 %rd3, %rd2;"),
            (Codes{"054611200", "054612200", "051011200", "051011200", "051011200", "003007410",
                   "041007310", "060412262"}));
}

TEST(GpuPtxModelV1Test, SkipsGuardedInstructions) { // quirk
  EXPECT_EQ(codesOf("@%p1 bra $L__BB0_2;\n@!%p1 add.s32 %r1, %r1, 1;\nbar.sync 0;"),
            (Codes{"070000100"}));
}

TEST(GpuPtxModelV1Test, SkipsRetAndExitButNotTheirDottedForms) { // quirk
  EXPECT_EQ(readableOf("ret;\nexit;\nret.uni;"), (std::vector<std::string>{"ret"}));
}

TEST(GpuPtxModelV1Test, SkipsOpcodesOutsideTheVocabulary) {
  EXPECT_EQ(readableOf("wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1}, [%rd1], 16;\n"
                       "frobnicate %r1;\nbar.warp.sync -1;\nmatch.sync.any.b32 %r1, %r2, -1;"),
            (std::vector<std::string>{"bar"})); // `bar.warp.sync` splits to `bar`
}

TEST(GpuPtxModelV1Test, LooksForTheStateSpaceOnlyBetweenFirstAndLastPart) {
  EXPECT_EQ(readableOf("cvta.to.global.u64 %rd3, %rd2;\nld.param.u64 %rd1, [p];\n"
                       "isspacep.global %p1, %rd1;\nprefetch.global.L2 [%rd1];"),
            (std::vector<std::string>{"cvta.global.u64", "ld.param.u64", "isspacep",
                                      "prefetch.global"}));
}

TEST(GpuPtxModelV1Test, TakesTheTypeFromTheLastPartOnly) {
  EXPECT_EQ(readableOf("cvt.rn.f32.s32 %f1, %r1;\nbar.sync 0;\nmov.b32.x %r1, %r2;"),
            (std::vector<std::string>{"cvt.s32", "bar", "mov"}));
}

/// The records of the one kernel made of `body`.
static std::vector<InstructionRecord> recordsOf(const std::string &body) {
  return encode(test::inKernel(body)).at(0).instructions;
}

TEST(GpuPtxModelV1Test, CountsCommasOfTheWholeLineCommentIncluded) { // quirk
  EXPECT_EQ(recordsOf("mov.u32 %r3, %ctaid.x; // a, b, c")[0].operandCount, 4);
  EXPECT_EQ(recordsOf("bar.sync 0;")[0].operandCount, 1);
  EXPECT_EQ(recordsOf("ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];")[0].operandCount, 5);
}

TEST(GpuPtxModelV1Test, ClampsTheOperandCountToOneDigit) {
  auto record = recordsOf("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                          "{%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, "
                          "{%f1, %f2, %f3, %f4};");
  EXPECT_TRUE(record.empty()); // mma is not in the vocabulary
  auto wide = recordsOf("prmt.b32 %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8, %r9, %r10, %r11;");
  ASSERT_EQ(wide.size(), 1u);
  EXPECT_EQ(wide[0].operandCount, 9);
  EXPECT_EQ(toCode(wide[0]).size(), 9u);
}

TEST(GpuPtxModelV1Test, FindsTheClosestWrittenOperand) {
  auto records = recordsOf("mov.u32 %r1, 1;\nmov.u32 %r2, 2;\nmov.u32 %r3, 3;\n"
                           "add.s32 %r4, %r1, %r2;");
  EXPECT_EQ(records[3].dependencyDistance, 2); // %r2 was written 2 writes ago, %r1 3
  EXPECT_EQ(records[3].dependencyKind, DependencyKind::Core);
  EXPECT_EQ(records[0].dependencyDistance, 0);
}

TEST(GpuPtxModelV1Test, OnATieTheOperandCheckedFirstWins) {
  auto records = recordsOf("ld.global.u32 %r1, [%rd1];\nadd.s32 %r2, %r1, %r1;");
  EXPECT_EQ(records[1].dependencyDistance, 1);
  EXPECT_EQ(records[1].dependencyKind, DependencyKind::Memory);
}

TEST(GpuPtxModelV1Test, WindowRemembersNineWrites) {
  std::string body = "mov.u32 %r0, 0;\n";
  for (int i = 1; i <= 8; ++i)
    body += "mov.u32 %x" + std::to_string(i) + ", 0;\n";
  auto nine = recordsOf(body + "add.s32 %y, %r0, 1;");
  EXPECT_EQ(nine.back().dependencyDistance, 9);
  auto ten = recordsOf(body + "mov.u32 %x9, 0;\nadd.s32 %y, %r0, 1;");
  EXPECT_EQ(ten.back().dependencyDistance, 0);
}

TEST(GpuPtxModelV1Test, WindowIsSharedAcrossKernels) { // quirk
  auto kernels = encode(".version 8.0\n.target sm_80\n"
                        ".entry a() {\nmov.u32 %r1, 1;\n}\n"
                        ".entry b() {\nadd.s32 %r2, %r1, 1;\n}\n");
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[1].instructions.at(0).dependencyDistance, 1);
}

TEST(GpuPtxModelV1Test, StoreChecksAddressAndValueAndWritesNothing) {
  auto records = recordsOf("ld.param.u64 %rd1, [p];\nmov.u32 %r1, 0;\n"
                           "st.global.u32 [%rd1], %r1;\nadd.s32 %r2, %r1, 1;");
  EXPECT_EQ(records[2].dependencyDistance, 1); // %r1, not %rd1 (2 back)
  EXPECT_EQ(records[3].dependencyDistance, 1); // the store wrote nothing
}

TEST(GpuPtxModelV1Test, StoreAddressWithOffsetNeverMatches) { // quirk
  auto records = recordsOf("ld.param.u64 %rd7, [p];\nst.global.u32 [%rd7+8], 5;");
  EXPECT_EQ(records[1].dependencyDistance, 0);
}

TEST(GpuPtxModelV1Test, VectorStoreChecksTheNamesInBraces) {
  auto records = recordsOf("mov.f32 %f3, 0f00000000;\nmov.u32 %r9, 0;\n"
                           "st.global.v4.f32 [%rd1], {%f1, %f2, %f3, %f4};");
  EXPECT_EQ(records[2].dependencyDistance, 2);
}

TEST(GpuPtxModelV1Test, LoadKindIsSharedForParamAndMemoryOtherwise) { // quirk
  auto records = recordsOf("ld.param.u64 %rd1, [p];\nld.shared.u32 %r1, [%rd1];\n"
                           "add.s32 %r2, %r1, 1;\nadd.s64 %rd2, %rd1, 1;");
  EXPECT_EQ(records[1].dependencyDistance, 1);
  EXPECT_EQ(records[1].dependencyKind, DependencyKind::Shared); // %rd1 from ld.param
  EXPECT_EQ(records[2].dependencyKind, DependencyKind::Memory); // %r1 from ld.shared
  EXPECT_EQ(records[3].dependencyDistance, 3);
}

TEST(GpuPtxModelV1Test, VectorLoadsReadTheirAddressTokenAndWriteEachDestination) {
  auto v4 = recordsOf("mov.u64 %rd4, 0;\nld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];\n"
                      "add.f32 %f5, %f1, %f4;");
  EXPECT_EQ(v4[1].dependencyDistance, 1);              // address %rd4, token 5
  EXPECT_EQ(v4[2].dependencyDistance, 1);              // %f4 written last
  auto v2 = recordsOf("mov.u64 %rd4, 0;\nld.global.v2.f32 {%f1, %f2}, [%rd4];\n"
                      "add.f32 %f5, %f1, 1.0;");
  EXPECT_EQ(v2[1].dependencyDistance, 1);              // address %rd4, token 3
  EXPECT_EQ(v2[2].dependencyDistance, 2);              // %f1 before %f2
}

TEST(GpuPtxModelV1Test, OperandsWithoutSpacesCheckTheFirstTwoPieces) { // quirk
  auto records = recordsOf("mov.u32 %r2, 0;\nmov.u32 %r3, 0;\nadd.s32 %r1,%r2,%r3;");
  EXPECT_EQ(records[2].dependencyDistance, 2); // %r1 and %r2 are checked, %r3 is not
}

TEST(GpuPtxModelV1Test, WritesTokenOneWhateverItIs) { // quirk
  auto records = recordsOf("bar.sync 0;\nadd.s32 %r1, 0, %r2;\nbra.uni $L__BB0_3;\n"
                           "mov.u32 %r5, $L__BB0_3;");
  EXPECT_EQ(records[1].dependencyDistance, 1); // `0` written by bar.sync
  EXPECT_EQ(records[3].dependencyDistance, 1); // the label written by bra
}

TEST(GpuPtxModelV1Test, LineWithoutOperandsWritesNothing) {
  auto records = recordsOf("mov.u32 %r1, 0;\nmembar.gl;\nadd.s32 %r2, %r1, 1;");
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[2].dependencyDistance, 1);
}

TEST(GpuPtxModelV1Test, EncodesKernelsInFileOrderAndSkipsFunctionBodies) {
  auto kernels = encode(".version 8.0\n.target sm_80\n"
                        ".func helper() {\nadd.s32 %r1, %r1, 1;\nret;\n}\n"
                        ".entry second() {\nmov.u32 %r1, 0;\n}\n"
                        ".entry first() {\nmov.u32 %r2, 0;\nmov.u32 %r3, 0;\n}\n");
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].name, "second");
  EXPECT_EQ(kernels[0].instructions.size(), 1u);
  EXPECT_EQ(kernels[1].name, "first");
  EXPECT_EQ(kernels[1].instructions.size(), 2u);
}

TEST(GpuPtxModelV1Test, ReadsACallSpreadOverLinesOnce) {
  auto records = recordsOf("call.uni (retval0), \n_Z3fooi, \n(\nparam0\n);");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].operandCount, 2); // the commas of its first line
}

TEST(GpuPtxModelV1Test, ReadsALineWithTwoInstructionsOnce) {
  EXPECT_EQ(recordsOf("mov.u32 %r1, 0; mov.u32 %r2, 1;").size(), 1u);
}

TEST(GpuPtxModelV1Test, KeepsPtxAndCudaLocations) {
  auto kernels = encode(".version 8.0\n.target sm_80\n.entry k()\n{\n.loc 1 12 3\n"
                        "  mov.u32 %r1, 0;\n}\n.file 1 \"k.cu\"\n");
  const InstructionRecord &record = kernels.at(0).instructions.at(0);
  EXPECT_EQ(record.location.line, 6u);
  EXPECT_EQ(record.location.column, 3u);
  ASSERT_TRUE(record.debugLocation.has_value());
  EXPECT_EQ(record.debugLocation->line, 12u);
}

TEST(GpuPtxModelV1Test, ReadsLinesNotStatements) {
  // The rules see source lines, as the original did: a kernel written on
  // its `.entry` line starts with `.entry` and encodes nothing.
  auto kernels = encode(".version 8.0\n.target sm_80\n.entry k() { mov.u32 %r1, 1; }\n");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_TRUE(kernels[0].instructions.empty());
}

TEST(GpuPtxModelV1Test, KernelWithoutInstructionsEncodesEmpty) {
  auto kernels = encode(".version 8.0\n.target sm_80\n.entry k() { ret; }\n");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_TRUE(kernels[0].instructions.empty());
}

TEST(GpuPtxModelV1Test, EncodingPiecesGivesTheCodesOfTheWholeModule) {
  // Many pieces of 32k tokens, and each kernel's first instruction depends
  // on the last one of the kernel before it: v1 never resets its dependency
  // window, so the window must cross from one piece to the next too.
  std::string text = ".version 8.0\n.target sm_80\n.address_size 64\n";
  for (int k = 0; k < 6000; ++k)
    text += ".visible .entry k" + std::to_string(k) +
            "()\n{\n.reg .b32 %r<3>;\nadd.s32 %r1, %r1, %r2;\nmul.lo.s32 %r2, %r1, 3;\nret;\n}\n";
  std::string path = (std::filesystem::temp_directory_path() / "ptxdvfs_encode_pieces.ptx").string();
  std::ofstream(path) << text;
  auto encoder = scheme();
  auto whole = ptx::parseFile(path);
  ASSERT_TRUE(whole.hasValue());
  std::vector<EncodedKernel> expected = encoder->encode(*whole);

  // With two threads, pieces are parsed side by side but still handed over
  // one at a time, in file order.
  for (unsigned threads : {1u, 2u}) {
    embeddings::EncodingScheme::PieceEncoder pieces(*encoder);
    std::vector<EncodedKernel> encoded;
    std::size_t pieceCount = 0;
    ptx::ParseOptions options;
    options.threads = threads;
    ptx::ParseResult result = ptx::parseFileInPieces(path, options, [&](ptx::Module &piece) {
      ++pieceCount;
      for (EncodedKernel &kernel : pieces.encode(piece))
        encoded.push_back(std::move(kernel));
    });
    ASSERT_FALSE(hasErrors(result.diagnostics));
    EXPECT_GT(pieceCount, 3u);
    // The premise: a kernel's first record depends on the kernel before it.
    ASSERT_NE(expected.at(1).instructions.at(0).dependencyDistance, 0);
    ASSERT_EQ(encoded.size(), expected.size());
    for (std::size_t k = 0; k < expected.size(); ++k) {
      ASSERT_EQ(encoded[k].name, expected[k].name);
      ASSERT_EQ(encoded[k].instructions.size(), expected[k].instructions.size()) << k;
      for (std::size_t i = 0; i < expected[k].instructions.size(); ++i)
        ASSERT_EQ(toCode(encoded[k].instructions[i]), toCode(expected[k].instructions[i]))
            << threads << " thread(s), kernel " << k << ", instruction " << i;
    }
  }
  std::filesystem::remove(path);
}

// examples/polynomial.ptx: Horner's rule, nvcc's full unrolling of 64 steps.
// Each step loads coefficients[k], the same address in every lane; x[i] is
// the one load per lane. Read as executed with broadcast loads as .const,
// only x[i] stays a global load; the other readings leave all 65 global.
TEST(GpuPtxModelV1Test, BroadcastLoadsReadAsConstantOnlyWhenAskedAndOnlyAsExecuted) {
  ptx::Module module = test::parseOk(test::readFile(test::fixtureDir() + "/../../examples/polynomial.ptx"));
  auto encoder = scheme();
  auto count = [&](const embeddings::EncodeOptions &options, const std::string &readable) {
    int found = 0;
    std::vector<EncodedKernel> kernels = encoder->encode(module, options);
    for (const auto &record : kernels.at(0).instructions)
      found += encoder->readable(record) == readable;
    return found;
  };
  embeddings::EncodeOptions options;
  options.broadcastLoadsAsConstant = true; // ignored as written
  EXPECT_EQ(count(options, "ld.global.f32"), 65);
  options.asExecuted = true;
  EXPECT_EQ(count(options, "ld.global.f32"), 1);
  EXPECT_EQ(count(options, "ld.const.f32"), 64);
  EXPECT_EQ(count(options, "st.global.f32"), 1);
  options.broadcastLoadsAsConstant = false;
  EXPECT_EQ(count(options, "ld.global.f32"), 65);
  EXPECT_EQ(count(options, "ld.const.f32"), 0);
}
