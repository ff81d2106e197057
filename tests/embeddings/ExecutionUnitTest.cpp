// ExecutionUnitTest.cpp - the unit of an instruction, and that every way of reading records sets it.
#include "TestPaths.h"
#include "ptx_parser/ParseHelpers.h"

#include "ptxdvfs/embeddings/EncodingScheme.h"
#include "ptxdvfs/embeddings/ExecutionUnit.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>

using namespace ptxdvfs;
using embeddings::ExecutionUnit;

namespace {

embeddings::Vocabulary vocabulary() {
  auto loaded = embeddings::loadVocabulary(test::vocabularyDir());
  EXPECT_TRUE(loaded.hasValue()) << test::describe(loaded.diagnostics());
  return *loaded;
}

/// Unit of each record by its readable form (`ld.global.f32`), over all kernels.
std::map<std::string, ExecutionUnit> unitsByReadable(const embeddings::EncodingScheme &scheme,
                                                     const std::vector<embeddings::EncodedKernel> &kernels) {
  std::map<std::string, ExecutionUnit> units;
  for (const auto &kernel : kernels)
    for (const auto &record : kernel.instructions)
      units[scheme.readable(record)] = record.unit;
  return units;
}

// A streaming load (its address varies by lane), a load of one address per
// warp, shared memory, FP32, FP64, SFU, integer, a barrier and a loop
// (whose guarded branch the v1 rules leave out).
const char *const kMixedKernel = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry mixed(.param .u64 p_out, .param .u64 p_in, .param .u32 p_n) {
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .f32 %f<6>;
  .reg .f64 %fd<3>;
  .reg .b64 %rd<8>;
  .shared .align 4 .b8 tile[1024];
  ld.param.u64 %rd1, [p_out];
  ld.param.u64 %rd2, [p_in];
  ld.param.u32 %r1, [p_n];
  cvta.to.global.u64 %rd3, %rd2;
  mov.u32 %r2, %tid.x;
  mul.wide.u32 %rd4, %r2, 4;
  add.s64 %rd5, %rd3, %rd4;
  ld.global.f32 %f1, [%rd5];
  ld.global.f32 %f2, [%rd3];
  mov.u32 %r3, tile;
  st.shared.f32 [%r3], %f1;
  bar.sync 0;
  ld.shared.f32 %f3, [%r3];
  mov.u32 %r4, 0;
$L_loop:
  fma.rn.f32 %f3, %f3, %f2, %f1;
  add.s32 %r4, %r4, 1;
  setp.lt.u32 %p1, %r4, 8;
  @%p1 bra $L_loop;
  sqrt.approx.f32 %f4, %f3;
  cvt.f64.f32 %fd1, %f4;
  add.f64 %fd2, %fd1, %fd1;
  cvt.rn.f32.f64 %f5, %fd2;
  cvta.to.global.u64 %rd6, %rd1;
  add.s64 %rd7, %rd6, %rd4;
  st.global.f32 [%rd7], %f5;
  ret;
}
)";

} // namespace

TEST(ExecutionUnitTest, ClassesFollowTheResourceAnInstructionWaitsOn) {
  struct Case {
    const char *opcode, *space, *type;
    ExecutionUnit unit;
  };
  const Case cases[] = {
      {"ld", "global", "f32", ExecutionUnit::GlobalMemory},
      {"ld", "", "u32", ExecutionUnit::GlobalMemory}, // a generic address
      {"st", "global", "f32", ExecutionUnit::GlobalMemory},
      {"ld", "shared", "f32", ExecutionUnit::SharedMemory},
      {"st", "local", "b32", ExecutionUnit::LocalMemory},
      {"ld", "param", "u64", ExecutionUnit::Parameter},
      {"ld", "const", "f32", ExecutionUnit::ConstantMemory},
      {"ld", "tex", "f32", ExecutionUnit::TextureMemory},
      {"suld", "", "b32", ExecutionUnit::TextureMemory},
      {"atom", "shared", "u32", ExecutionUnit::Atomic},
      {"red", "global", "f32", ExecutionUnit::Atomic},
      {"fma", "", "f64", ExecutionUnit::Fp64},
      {"sqrt", "", "f64", ExecutionUnit::Fp64}, // FP64 has no SFU path
      {"setp", "", "f64", ExecutionUnit::Fp64},
      {"sqrt", "", "f32", ExecutionUnit::SpecialFunction},
      {"ex2", "", "f32", ExecutionUnit::SpecialFunction},
      {"fma", "", "f32", ExecutionUnit::Fp32},
      {"add", "", "f16x2", ExecutionUnit::Fp32},
      {"setp", "", "f32", ExecutionUnit::Fp32},
      {"add", "", "s32", ExecutionUnit::Integer},
      {"shl", "", "b32", ExecutionUnit::Integer},
      {"selp", "", "b32", ExecutionUnit::Integer},
      {"and", "", "pred", ExecutionUnit::Integer},
      {"bra", "", "", ExecutionUnit::Control},
      {"ret", "", "", ExecutionUnit::Control},
      {"bar", "", "", ExecutionUnit::Synchronisation},
      {"shfl", "", "b32", ExecutionUnit::Synchronisation},
      {"cvt", "", "f64", ExecutionUnit::DataMovement}, // a conversion is not FP64 arithmetic
      {"mov", "", "u32", ExecutionUnit::DataMovement},
      {"cvta", "global", "u64", ExecutionUnit::DataMovement},
      {"", "", "", ExecutionUnit::Unknown},
  };
  for (const Case &c : cases)
    EXPECT_EQ(embeddings::executionUnitName(embeddings::executionUnitOf(c.opcode, c.space, c.type)),
              embeddings::executionUnitName(c.unit))
        << c.opcode << "." << c.space << "." << c.type;
}

TEST(ExecutionUnitTest, EncodingSetsEveryRecordsUnitAfterTheBroadcastRewrite) {
  auto scheme = *embeddings::makeScheme(embeddings::kGpuPtxModelV1, vocabulary());
  ptx::Module module = test::parseOk(kMixedKernel);

  auto written = unitsByReadable(*scheme, scheme->encode(module));
  EXPECT_EQ(written.at("ld.global.f32"), ExecutionUnit::GlobalMemory);
  EXPECT_EQ(written.at("ld.param.u64"), ExecutionUnit::Parameter);
  EXPECT_EQ(written.at("st.shared.f32"), ExecutionUnit::SharedMemory);
  EXPECT_EQ(written.at("bar"), ExecutionUnit::Synchronisation);
  EXPECT_EQ(written.at("fma.f32"), ExecutionUnit::Fp32);
  EXPECT_EQ(written.at("add.s32"), ExecutionUnit::Integer);
  EXPECT_EQ(written.at("sqrt.f32"), ExecutionUnit::SpecialFunction);
  EXPECT_EQ(written.at("add.f64"), ExecutionUnit::Fp64);
  for (const auto &[readable, unit] : written)
    EXPECT_NE(unit, ExecutionUnit::Unknown) << readable;

  // Read as executed with broadcasts as .const: the load of one address per
  // warp becomes constant memory, the streaming one stays global.
  embeddings::EncodeOptions options;
  options.asExecuted = true;
  options.broadcastLoadsAsConstant = true;
  auto executed = unitsByReadable(*scheme, scheme->encode(module, options));
  EXPECT_EQ(executed.at("ld.const.f32"), ExecutionUnit::ConstantMemory);
  EXPECT_EQ(executed.at("ld.global.f32"), ExecutionUnit::GlobalMemory);

  // A file read in pieces gets the same units as one read whole.
  std::string path = test::freshScratchDir("ptxdvfs_units_") + "/mixed.ptx";
  std::ofstream(path) << kMixedKernel;
  std::vector<embeddings::EncodedKernel> pieces;
  embeddings::EncodingScheme::PieceEncoder encoder(*scheme);
  ptx::parseFileInPieces(path, {}, [&](ptx::Module &piece) {
    for (auto &kernel : encoder.encode(piece))
      pieces.push_back(std::move(kernel));
  });
  EXPECT_EQ(unitsByReadable(*scheme, pieces), written);
}
