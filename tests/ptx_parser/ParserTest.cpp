// ParserTest.cpp - the grammar and AST builder on small inline PTX.
#include "ParseHelpers.h"

#include <gtest/gtest.h>

using namespace ptxdvfs;
using ptxdvfs::test::firstInstruction;
using ptxdvfs::test::inKernel;
using ptxdvfs::test::parseOk;

namespace {

ptx::Operand operandOf(const std::string &instructionText, std::size_t index) {
  auto instruction = firstInstruction(parseOk(inKernel(instructionText)));
  EXPECT_LT(index, instruction->operands.size()) << instructionText;
  if (index >= instruction->operands.size())
    return {};
  return instruction->operands[index];
}

/// The operand as alternative T, by value (nullopt when it is another kind).
template <typename T>
std::optional<T> operandAs(const std::string &instructionText, std::size_t index) {
  ptx::Operand operand = operandOf(instructionText, index);
  if (const T *value = operand.getIf<T>())
    return *value;
  return std::nullopt;
}

} // namespace

TEST(ParserTest, ParsesModuleHeader) {
  ptx::Module module = parseOk(".version 8.8\n.target sm_90a, texmode_independent, debug\n"
                               ".address_size 64\n");
  EXPECT_EQ(module.version, "8.8");
  EXPECT_EQ(module.targets, (std::vector<std::string>{"sm_90a", "texmode_independent", "debug"}));
  EXPECT_EQ(module.addressSize, 64u);
  EXPECT_TRUE(module.functions.empty());
}

TEST(ParserTest, EmptyTextIsAnEmptyModule) {
  ptx::Module module = parseOk("");
  EXPECT_TRUE(module.functions.empty());
  EXPECT_TRUE(module.version.empty());
}

TEST(ParserTest, ResolvesFileDirectives) {
  ptx::Module module = parseOk(".version 7.0\n.file 1 \"/src/a.cu\"\n"
                               ".file 2 \"b\\\\c.cu\", 1700000000, 1234\n");
  ASSERT_EQ(module.files.size(), 2u);
  EXPECT_EQ(module.files.at(1), "/src/a.cu");
  EXPECT_EQ(module.files.at(2), "b\\c.cu");
}

TEST(ParserTest, ParsesGlobalVariablesWithInitialisersAndAlignment) {
  ptx::Module module = parseOk(R"(.version 8.0
.target sm_80
.global .align 4 .b8 table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
.const .f32 pi = 0f40490FDB;
.extern .shared .align 16 .b8 smem[];
.visible .global .u64 ptr = generic(table);
.weak .global .u32 w;
.common .global .u32 c;
.global .attribute(.managed) .align 4 .b8 m[4][2];
.global .u32 offsets[2] = {table+4, -1};
)");
  ASSERT_EQ(module.globals.size(), 8u);
  const ptx::VariableDecl &table = module.globals[0];
  EXPECT_EQ(table.space, ptx::StateSpace::Global);
  EXPECT_EQ(table.type, ptx::ScalarType::B8);
  EXPECT_EQ(table.alignment, 4u);
  EXPECT_EQ(table.name, "table");
  ASSERT_EQ(table.arrayDims.size(), 1u);
  EXPECT_EQ(table.arrayDims[0], 8u);
  EXPECT_EQ(table.initializer, "{1, 2, 3, 4, 5, 6, 7, 8}");
  EXPECT_EQ(module.globals[1].space, ptx::StateSpace::Const);
  EXPECT_EQ(module.globals[1].initializer, "0f40490FDB");
  EXPECT_EQ(module.globals[2].space, ptx::StateSpace::Shared);
  ASSERT_EQ(module.globals[2].arrayDims.size(), 1u);
  EXPECT_FALSE(module.globals[2].arrayDims[0].has_value());
  EXPECT_EQ(module.globals[3].initializer, "generic(table)");
  const ptx::VariableDecl &managed = module.globals[6];
  EXPECT_EQ(managed.attributes, (std::vector<std::string>{"attribute(.managed)"}));
  EXPECT_EQ(managed.arrayDims.size(), 2u);
  EXPECT_EQ(module.globals[7].initializer, "{table+4, -1}");
}

TEST(ParserTest, ParsesEntryParametersAndPerformanceDirectives) {
  ptx::Module module = parseOk(R"(.version 8.0
.target sm_90
.visible .entry k(
	.param .u64 .ptr .global .align 8 k_p0,
	.param .align 8 .b8 k_p1[16]
)
.maxntid 256, 1, 1
.minnctapersm 2
.maxnreg 32
.reqnctapercluster 2, 1, 1
.explicitcluster
{
	ret;
}
)");
  ASSERT_EQ(module.functions.size(), 1u);
  const ptx::Function &k = module.functions[0];
  EXPECT_EQ(k.kind, ptx::FunctionKind::Entry);
  EXPECT_EQ(k.linkage, ptx::Linkage::Visible);
  EXPECT_EQ(k.name, "k");
  EXPECT_EQ(k.location.line, 3u);
  ASSERT_EQ(k.parameters.size(), 2u);
  EXPECT_EQ(k.parameters[0].type, ptx::ScalarType::U64);
  EXPECT_EQ(k.parameters[0].attributes, (std::vector<std::string>{"ptr", "global"}));
  EXPECT_EQ(k.parameters[0].alignment, 8u);
  EXPECT_EQ(k.parameters[1].arrayDims.size(), 1u);
  ASSERT_EQ(k.performanceDirectives.size(), 5u);
  EXPECT_EQ(k.performanceDirectives[0].name, "maxntid");
  EXPECT_EQ(k.performanceDirectives[0].values, (std::vector<std::uint64_t>{256, 1, 1}));
  EXPECT_EQ(k.performanceDirectives[2].name, "maxnreg");
  EXPECT_TRUE(k.performanceDirectives[4].values.empty());
  EXPECT_EQ(k.instructionCount(), 1u);
}

TEST(ParserTest, ParsesFunctionsPrototypesAndReturnParameters) {
  ptx::Module module = parseOk(R"(.version 8.0
.target sm_80
.extern .func (.param .b32 func_retval0) vprintf
(
	.param .b64 vprintf_param_0,
	.param .b64 vprintf_param_1
)
;
.weak .func (.param .b32 r) f(.param .b32 a) { ret; }
.func g() .noreturn { trap; }
.func h;
)");
  ASSERT_EQ(module.functions.size(), 4u);
  EXPECT_EQ(module.functions[0].linkage, ptx::Linkage::Extern);
  EXPECT_FALSE(module.functions[0].hasBody);
  EXPECT_EQ(module.functions[0].results.size(), 1u);
  EXPECT_EQ(module.functions[0].parameters.size(), 2u);
  EXPECT_EQ(module.functions[1].linkage, ptx::Linkage::Weak);
  EXPECT_TRUE(module.functions[1].hasBody);
  EXPECT_EQ(module.functions[2].performanceDirectives.at(0).name, "noreturn");
  EXPECT_FALSE(module.functions[3].hasBody);
  EXPECT_TRUE(module.kernels().empty());
}

TEST(ParserTest, KernelsAreEntriesWithBodiesInFileOrder) {
  ptx::Module module = parseOk(R"(.version 8.0
.target sm_80
.visible .entry b() { ret; }
.func helper() { ret; }
.extern .entry declared();
.visible .entry a() { exit; }
)");
  auto kernels = module.kernels();
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0]->name, "b");
  EXPECT_EQ(kernels[1]->name, "a");
}

TEST(ParserTest, ParsesRegisterDeclarations) {
  ptx::Module module = parseOk(inKernel(".reg .b32 %r<5>;\n.reg .pred %p, %q;\n"
                                        ".local .align 4 .b8 depot[40];\n"
                                        ".shared .align 8 .f64 tile[16][17];"));
  const auto &body = module.functions.at(0).body;
  ASSERT_EQ(body.size(), 5u);
  const auto *r = body[0].getIf<ptx::VariableDecl>();
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->space, ptx::StateSpace::Reg);
  EXPECT_EQ(r->name, "%r");
  EXPECT_EQ(r->rangeCount, 5u);
  EXPECT_EQ(body[2].getIf<ptx::VariableDecl>()->name, "%q");
  EXPECT_EQ(body[3].getIf<ptx::VariableDecl>()->space, ptx::StateSpace::Local);
  const auto *tile = body[4].getIf<ptx::VariableDecl>();
  EXPECT_EQ(tile->type, ptx::ScalarType::F64);
  EXPECT_EQ(tile->arrayDims.size(), 2u);
  EXPECT_EQ(tile->arrayDims[1], 17u);
}

TEST(ParserTest, ParsesLabelsGuardsAndNestedBlocks) {
  ptx::Module module = parseOk(inKernel(R"(	@%p1 bra 	$L__BB0_2;
	@!%p2 st.global.u32 	[%rd1], %r1;
$L__BB0_2:
	{
	.reg .b32 temp;
	add.s32 temp, %r1, 1;
	{ mov.u32 %r2, temp; }
	}
	ret;)"));
  const ptx::Function &k = module.functions.at(0);
  EXPECT_EQ(k.instructionCount(), 5u);
  std::vector<ptx::Instruction> all;
  k.forEachInstruction([&](const ptx::Instruction &i) { all.push_back(i); });
  ASSERT_TRUE(all[0].guard.has_value());
  EXPECT_EQ(all[0].guard->predicate, "%p1");
  EXPECT_FALSE(all[0].guard->negated);
  EXPECT_EQ(all[0].location.line, 4u);
  EXPECT_EQ(all[0].location.column, 2u);
  EXPECT_TRUE(all[1].guard->negated);
  EXPECT_EQ(all[3].opcode, "mov");
  const auto *label = k.body[2].getIf<ptx::Label>();
  ASSERT_NE(label, nullptr);
  EXPECT_EQ(label->name, "$L__BB0_2");
  EXPECT_NE(k.body[3].getIf<ptx::Block>(), nullptr);
}

TEST(ParserTest, SplitsMnemonicIntoOpcodeAndOrderedModifiers) {
  auto i = firstInstruction(
      parseOk(inKernel("ld.global.nc.L1::no_allocate.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];")));
  EXPECT_EQ(i->mnemonic, "ld.global.nc.L1::no_allocate.v4.f32");
  EXPECT_EQ(i->opcode, "ld");
  EXPECT_EQ(i->modifiers,
            (std::vector<std::string_view>{"global", "nc", "L1::no_allocate", "v4", "f32"}));
  EXPECT_EQ(i->details.space, ptx::StateSpace::Global);
  EXPECT_EQ(i->details.types, (std::vector<ptx::ScalarType>{ptx::ScalarType::F32}));
  EXPECT_EQ(i->details.vectorWidth, 4u);
}

TEST(ParserTest, ReadsScopedStateSpacesAndSeveralTypes) {
  auto i = firstInstruction(parseOk(inKernel(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 16, [%r2];")));
  EXPECT_EQ(i->details.space, ptx::StateSpace::Shared);
  EXPECT_EQ(i->operands.size(), 4u);
  auto cvt = firstInstruction(parseOk(inKernel("cvt.rn.f32.s32 %f1, %r1;")));
  EXPECT_EQ(cvt->details.types,
            (std::vector<ptx::ScalarType>{ptx::ScalarType::F32, ptx::ScalarType::S32}));
  EXPECT_FALSE(cvt->details.space.has_value());
}

TEST(ParserTest, AcceptsUnknownOpcodesWithWellFormedOperands) {
  auto i = firstInstruction(
      parseOk(inKernel("frobnicate.sync.x9 %r1, [%rd2+4], 0f3F800000, {%r2, %r3};")));
  EXPECT_EQ(i->opcode, "frobnicate");
  EXPECT_EQ(i->operands.size(), 4u);
}

TEST(ParserTest, ParsesIntegerImmediatesInEveryBase) {
  struct Case { const char *text; std::uint64_t bits; };
  for (Case c : {Case{"42", 42}, Case{"0x2A", 42}, Case{"052", 42}, Case{"0b101010", 42},
                 Case{"42U", 42}, Case{"0", 0}, Case{"-1", ~std::uint64_t{0}},
                 Case{"18446744073709551615", ~std::uint64_t{0}}}) {
    ptx::Operand op = operandOf(std::string("add.s32 %r1, %r2, ") + c.text + ";", 2);
    const auto *imm = op.getIf<ptx::Immediate>();
    ASSERT_NE(imm, nullptr) << c.text;
    EXPECT_EQ(imm->kind, ptx::ImmediateKind::Integer) << c.text;
    EXPECT_EQ(imm->bits, c.bits) << c.text;
    EXPECT_EQ(imm->text, c.text);
  }
}

TEST(ParserTest, ParsesFloatImmediates) {
  auto f = operandAs<ptx::Immediate>("mov.f32 %f1, 0f3F800000;", 1);
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->kind, ptx::ImmediateKind::Float32Bits);
  EXPECT_EQ(f->value, 1.0);
  auto d = operandAs<ptx::Immediate>("mov.f64 %fd1, 0dBFF0000000000000;", 1);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->kind, ptx::ImmediateKind::Float64Bits);
  EXPECT_EQ(d->value, -1.0);
  auto dec = operandAs<ptx::Immediate>("mov.f32 %f1, -2.5e1;", 1);
  ASSERT_TRUE(dec.has_value());
  EXPECT_EQ(dec->kind, ptx::ImmediateKind::DecimalFloat);
  EXPECT_EQ(dec->value, -25.0);
}

TEST(ParserTest, ParsesRegisterForms) {
  auto special = operandAs<ptx::VectorElement>("mov.u32 %r3, %ctaid.x;", 1);
  ASSERT_TRUE(special.has_value());
  EXPECT_EQ(special->base, "%ctaid");
  EXPECT_EQ(special->component, "x");
  auto negated = operandAs<ptx::Register>("and.pred %p3, %p1, !%p2;", 2);
  ASSERT_TRUE(negated.has_value());
  EXPECT_TRUE(negated->negated);
  auto pair = operandAs<ptx::PredicatePair>("setp.lt.s32 %p1|%p2, %r1, %r2;", 0);
  ASSERT_TRUE(pair.has_value());
  EXPECT_EQ(pair->first, "%p1");
  EXPECT_EQ(pair->second, "%p2");
  auto label = operandAs<ptx::Symbol>("bra.uni $L__BB0_3;", 0);
  ASSERT_TRUE(label.has_value());
  EXPECT_EQ(label->name, "$L__BB0_3");
}

TEST(ParserTest, NamesThatAScopeDeclaresAsRegistersAreRegisters) {
  // Inline asm declares its temporaries without `%`; outside their block the
  // same name is the global again (ptxas accepts this text).
  ptx::Module module = parseOk(".version 8.0\n.target sm_80\n.address_size 64\n"
                               ".global .u32 t;\n"
                               ".func (.reg .b32 out) f(.reg .b32 in)\n{\n"
                               ".reg .b32 %r<4>;\n.reg .b64 %rd<2>;\n"
                               "mov.u32 %r1, in;\n"
                               "{ .reg .b32 t; .reg .pred p; .reg .b64 w<2>;\n"
                               "  setp.ne.s32 p, %r1, 0; selp.b32 t, 1, 0, p;\n"
                               "  cvt.u64.u32 w0, t; add.s64 w1, w0, 8; ld.global.u32 %r2, [w1+4];\n"
                               "  shfl.sync.up.b32 t|p, %r1, 1, 0, -1; mov.b64 %rd1, {t, %r1}; }\n"
                               "ld.global.u32 %r2, [t];\n"
                               "mov.u32 out, %r2;\n"
                               "ret;\n}\n");
  std::vector<ptx::Instruction> all;
  module.functions.at(0).forEachInstruction([&](const ptx::Instruction &i) { all.push_back(i); });
  ASSERT_EQ(all.size(), 11u);
  auto registerName = [](const ptx::Operand &operand) {
    const auto *reg = operand.getIf<ptx::Register>();
    return reg ? reg->name : std::string("(not a register)");
  };
  EXPECT_EQ(registerName(all[0].operands[1]), "in"); // a .reg parameter
  EXPECT_EQ(registerName(all[1].operands[0]), "p");
  EXPECT_EQ(registerName(all[2].operands[0]), "t");
  EXPECT_EQ(registerName(all[2].operands[3]), "p");
  EXPECT_EQ(registerName(all[3].operands[0]), "w0"); // w<2> declares w0 and w1
  EXPECT_EQ(registerName(all[3].operands[1]), "t");
  EXPECT_EQ(registerName(all[4].operands[1]), "w0");
  const auto *pack = all[7].operands[1].getIf<ptx::VectorPack>();
  ASSERT_NE(pack, nullptr);
  EXPECT_EQ(registerName(pack->elements[0]), "t");
  // Outside the block, t is the global again; `out` is the result register.
  const auto *global = all[8].operands[1].getIf<ptx::Address>();
  ASSERT_NE(global, nullptr);
  ASSERT_FALSE(global->parts.empty());
  EXPECT_NE(global->parts[0].getIf<ptx::Symbol>(), nullptr);
  EXPECT_EQ(registerName(all[9].operands[0]), "out");
}

TEST(ParserTest, ParsesAddressForms) {
  auto plain = operandAs<ptx::Address>("ld.global.f32 %f1, [%rd4];", 1);
  ASSERT_TRUE(plain.has_value());
  ASSERT_EQ(plain->parts.size(), 1u);
  EXPECT_EQ(plain->parts[0].getIf<ptx::Register>()->name, "%rd4");

  auto offset = operandAs<ptx::Address>("ld.shared.f32 %f1, [%rd4+-16];", 1);
  ASSERT_TRUE(offset.has_value());
  const auto *ro = offset->parts.at(0).getIf<ptx::RegisterOffset>();
  ASSERT_NE(ro, nullptr);
  EXPECT_EQ(ro->base, "%rd4");
  EXPECT_EQ(ro->offset, -16);

  auto symbol = operandAs<ptx::Address>("st.param.f32 [func_retval0+0], %f2;", 0);
  ASSERT_TRUE(symbol.has_value());
  EXPECT_EQ(symbol->parts.at(0).getIf<ptx::RegisterOffset>()->base, "func_retval0");

  auto texture = operandAs<ptx::Address>("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];", 1);
  ASSERT_TRUE(texture.has_value());
  ASSERT_EQ(texture->parts.size(), 2u);
  EXPECT_TRUE(texture->parts[1].is<ptx::VectorPack>());

  auto copy =
      firstInstruction(parseOk(inKernel("cp.async.ca.shared.global [%r1], [%rd1], 16;")));
  ASSERT_EQ(copy->operands.size(), 3u);
  EXPECT_TRUE(copy->operands[2].is<ptx::Immediate>());
}

TEST(ParserTest, ParsesVectorsWithSinks) {
  auto pack = operandAs<ptx::VectorPack>("mov.b64 {%r1, _}, %rd1;", 0);
  ASSERT_TRUE(pack.has_value());
  ASSERT_EQ(pack->elements.size(), 2u);
  EXPECT_TRUE(pack->elements[1].is<ptx::Sink>());
}

TEST(ParserTest, ParsesCallArgumentListsSpreadOverLines) {
  auto call = firstInstruction(parseOk(inKernel("call.uni (retval0), \n"
                                                            "_Z7clamp01f, \n(\nparam0, \nparam1\n);")));
  EXPECT_EQ(call->opcode, "call");
  ASSERT_EQ(call->operands.size(), 3u);
  EXPECT_EQ(call->operands[0].getIf<ptx::ArgumentList>()->elements.size(), 1u);
  EXPECT_EQ(call->operands[1].getIf<ptx::Symbol>()->name, "_Z7clamp01f");
  EXPECT_EQ(call->operands[2].getIf<ptx::ArgumentList>()->elements.size(), 2u);
  EXPECT_EQ(call->lineText, "call.uni (retval0), ");
  auto indirect = firstInstruction(
      parseOk(inKernel("call (retval0), %rd5, (param0), prototype_0;")));
  EXPECT_EQ(indirect->operands.size(), 4u);
}

TEST(ParserTest, KeepsLineColumnAndRawLineText) {
  auto i = firstInstruction(parseOk(inKernel("\t\tmul.wide.s32 \t%rd3, %r1, 4; // x4")));
  EXPECT_EQ(i->location.line, 4u);
  EXPECT_EQ(i->location.column, 3u);
  EXPECT_EQ(i->lineText, "\t\tmul.wide.s32 \t%rd3, %r1, 4; // x4");
  EXPECT_EQ(i->operands[1].location.column, 23u);
}

TEST(ParserTest, AttachesLocInForceAndResolvesItsFile) {
  ptx::Module module = parseOk(R"(.version 8.0
.target sm_80
.visible .entry k()
{
	mov.u32 %r0, 0;
	.loc	1 5 3
	mov.u32 %r1, 1;
	.loc	1 7 2, function_name $L__info_string0, inlined_at 1 20 5
	mov.u32 %r2, 2;
	ret;
}
.file	1 "/home/me/kernel.cu"
)");
  std::vector<ptx::Instruction> all;
  module.functions.at(0).forEachInstruction([&](const ptx::Instruction &i) { all.push_back(i); });
  ASSERT_EQ(all.size(), 4u);
  EXPECT_FALSE(all[0].debugLocation.has_value());
  ASSERT_TRUE(all[1].debugLocation.has_value());
  EXPECT_EQ(all[1].debugLocation->line, 5u);
  EXPECT_EQ(all[1].debugLocation->column, 3u);
  EXPECT_EQ(module.sourcePath(*all[1].debugLocation), "/home/me/kernel.cu");
  EXPECT_EQ(module.sourcePath(ptx::DebugLocation{7, 1, 1, std::nullopt}), "");
  ASSERT_TRUE(all[2].debugLocation->inlinedAt.has_value());
  EXPECT_EQ(all[2].debugLocation->inlinedAt->line, 20u);
  EXPECT_EQ(all[3].debugLocation->line, 7u);
}

TEST(ParserTest, ABareLocRepeatingAnInlinedPositionIsStillInlined) {
  // nvcc writes an inlined position with its call site once, then repeats
  // it bare; a position never seen inlined stays the function's own.
  ptx::Module module = parseOk(R"(.version 8.0
.target sm_80
.visible .entry k()
{
	.loc	2 60 3, function_name $L__info_string0, inlined_at 1 20 5
	mov.u32 %r1, 1;
	.loc	1 0 0
	mov.u32 %r2, 2;
	.loc	2 60 3
	mov.u32 %r3, 3;
	.loc	2 61 3
	mov.u32 %r4, 4;
	ret;
}
.visible .entry other()
{
	.loc	2 60 3
	ret;
}
)");
  std::vector<ptx::Instruction> all;
  module.functions.at(0).forEachInstruction([&](const ptx::Instruction &i) { all.push_back(i); });
  ASSERT_EQ(all.size(), 5u);
  ASSERT_TRUE(all[2].debugLocation.has_value());
  ASSERT_TRUE(all[2].debugLocation->inlinedAt.has_value());
  EXPECT_EQ(all[2].debugLocation->inlinedAt->line, 20u);
  EXPECT_FALSE(all[1].debugLocation->inlinedAt.has_value());
  EXPECT_FALSE(all[3].debugLocation->inlinedAt.has_value());
  std::vector<ptx::Instruction> other;
  module.functions.at(1).forEachInstruction([&](const ptx::Instruction &i) { other.push_back(i); });
  ASSERT_EQ(other.size(), 1u);
  EXPECT_FALSE(other[0].debugLocation->inlinedAt.has_value()); // each function starts afresh
}

TEST(ParserTest, KeepsStatementDirectives) {
  ptx::Module module = parseOk(inKernel(R"(.pragma "nounroll";
prototype_0 : .callprototype (.param .b32 _) _ (.param .b64 _);
Ftgt: .calltargets f1, f2;
.branchtargets $L1, $L2;)"));
  const auto &body = module.functions.at(0).body;
  ASSERT_EQ(body.size(), 6u);
  EXPECT_EQ(body[0].getIf<ptx::Directive>()->name, ".pragma");
  EXPECT_EQ(body[1].getIf<ptx::Label>()->name, "prototype_0");
  EXPECT_EQ(body[2].getIf<ptx::Directive>()->name, ".callprototype");
  EXPECT_EQ(body[4].getIf<ptx::Directive>()->name, ".calltargets");
  EXPECT_EQ(body[5].getIf<ptx::Directive>()->text, ".branchtargets $L1, $L2;");
}

TEST(ParserTest, SkipsDebugSectionsAndComments) {
  ptx::Module module = parseOk(R"(.version 8.0 /* a
block comment */ .target sm_80 // trailing
.section .debug_abbrev
{
.b8 1
.b8 17
$L__info: .b32 $L__end-$L__start
}
.section .nv.constant0 { }
)");
  EXPECT_EQ(module.targets, (std::vector<std::string>{"sm_80"}));
  ASSERT_EQ(module.directives.size(), 2u);
  EXPECT_EQ(module.directives[0].text, ".debug_abbrev");
  EXPECT_EQ(module.directives[0].location.line, 3u);
}

TEST(ParserTest, KnowsEachFunctionsSourceBytes) {
  std::string text = ".version 8.0\n.target sm_80\n"
                     ".func (.param .b32 r) f(.param .b32 a);\n"
                     "// a comment\n"
                     ".visible .entry k(.param .u64 p)\n{\n\tret;\n}\n";
  ptx::Module module = test::parseOk(text);
  ASSERT_EQ(module.functions.size(), 2u);
  auto bytesOf = [&](const ptx::Function &function) {
    return text.substr(function.sourceBegin, function.sourceEnd - function.sourceBegin);
  };
  EXPECT_EQ(bytesOf(module.functions[0]), ".func (.param .b32 r) f(.param .b32 a);");
  EXPECT_EQ(bytesOf(module.functions[1]), ".visible .entry k(.param .u64 p)\n{\n\tret;\n}");
}
