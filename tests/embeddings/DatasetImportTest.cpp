// DatasetImportTest.cpp - importing the shared dataset and surviving malformed ones.
#include "TestPaths.h"
#include "ToyDataset.h"
#include "ptx_parser/ParseHelpers.h"

#include "ptxdvfs/embeddings/Dataset.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace ptxdvfs;
using embeddings::ImportOptions;
namespace fs = std::filesystem;

namespace {

std::string sharedDataset() {
  return test::sharedDir() + "/datasets/gpuptxmodel-gtxtitanx/microbenchmarks";
}

using test::ToyDataset;

bool mentions(const ptx::Diagnostics &diagnostics, const std::string &fragment) {
  for (const auto &diagnostic : diagnostics)
    if (diagnostic.message.find(fragment) != std::string::npos)
      return true;
  return false;
}

} // namespace

TEST(DatasetImportTest, ImportsTheSharedDataset) {
  if (!fs::is_directory(sharedDataset()))
    GTEST_SKIP() << "../shared not found beside the checkout";
  auto dataset = embeddings::importDataset(sharedDataset());
  ASSERT_TRUE(dataset.hasValue()) << test::describe(dataset.diagnostics());
  EXPECT_EQ(dataset->benchmarks.size(), 140u);
  EXPECT_EQ(dataset->clocks.grid().size(), 32u);
  EXPECT_EQ(dataset->reference, (embeddings::VfPoint{3505, 975}));
  EXPECT_EQ(dataset->clocks.fmax, (embeddings::VfPoint{3505, 1164}));
  ASSERT_EQ(dataset.diagnostics().size(), 3u) << test::describe(dataset.diagnostics());
  for (const char *name : {"'lbm'", "'fadd_l1d_50_50_64p'", "'fadd_l1d_60_40_64p'"})
    EXPECT_TRUE(mentions(dataset.diagnostics(), name)) << name;
  EXPECT_EQ(dataset.diagnostics()[0].severity, ptx::Severity::Warning);

  std::size_t twoKernels = 0;
  for (const auto &benchmark : dataset->benchmarks) {
    ASSERT_EQ(benchmark.measurements.size(), 32u);
    twoKernels += benchmark.kernels.size() == 2;
    EXPECT_DOUBLE_EQ(benchmark.scaling[26].time, 1.0) << benchmark.name; // (3505, 975)
    EXPECT_DOUBLE_EQ(benchmark.scaling[26].energy, 1.0) << benchmark.name;
  }
  EXPECT_GT(twoKernels, 0u);
  const auto &dp = dataset->benchmarks.front();
  EXPECT_EQ(dp.name, "DP");
  EXPECT_DOUBLE_EQ(dp.measurements[0].time, 36.479786);  // 810, 595
  EXPECT_DOUBLE_EQ(dp.measurements[0].power, 48.350079);
}

TEST(DatasetImportTest, StrictModeFailsOnTheSharedIrregularities) {
  if (!fs::is_directory(sharedDataset()))
    GTEST_SKIP() << "../shared not found beside the checkout";
  ImportOptions options;
  options.strict = true;
  auto dataset = embeddings::importDataset(sharedDataset(), options);
  ASSERT_FALSE(dataset.hasValue());
  EXPECT_EQ(dataset.diagnostics().size(), 3u);
}

TEST(DatasetImportTest, ReadsKernelsInNumericOrderOrOnlyTheLastFileByName) {
  ToyDataset toy;
  toy.write("data/aggregated_dataset_toy.csv", ToyDataset::block("app"));
  for (int k = 0; k <= 10; ++k)
    toy.sequence("app", k, std::string(std::size_t(k + 1), '0') == "" ? "" : "000000100\n");
  toy.sequence("app", 9, "001000100\n001000100\n");
  auto all = embeddings::importDataset(toy.dir());
  ASSERT_TRUE(all.hasValue()) << test::describe(all.diagnostics());
  const auto &kernels = all->benchmarks.at(0).kernels;
  ASSERT_EQ(kernels.size(), 11u);
  EXPECT_EQ(kernels[9].instructions.size(), 2u);
  EXPECT_EQ(kernels[10].name, "kernel_10");

  ImportOptions last;
  last.kernels = embeddings::KernelSelection::LastFileOnly;
  auto original = embeddings::importDataset(toy.dir(), last);
  ASSERT_TRUE(original.hasValue());
  ASSERT_EQ(original->benchmarks.at(0).kernels.size(), 1u);
  EXPECT_EQ(original->benchmarks.at(0).kernels[0].name, "kernel_9"); // `_9` sorts after `_10`
}

TEST(DatasetImportTest, StoredCodesGetTheirExecutionUnitsThroughTheVocabularyOnly) {
  ToyDataset toy;
  toy.write("data/aggregated_dataset_toy.csv", ToyDataset::block("app"));
  // ld.global.f32, fma.f32, bra: codes IIISTTNDK over the shipped vocabulary.
  toy.sequence("app", 0, "054415200\n030015300\n066000100\n");
  auto vocabulary = embeddings::loadVocabulary(test::vocabularyDir());
  ASSERT_TRUE(vocabulary.hasValue());
  ImportOptions options;
  auto without = embeddings::importDataset(toy.dir(), options);
  options.vocabulary = &*vocabulary;
  auto with = embeddings::importDataset(toy.dir(), options);
  ASSERT_TRUE(without.hasValue() && with.hasValue()) << test::describe(with.diagnostics());
  const auto &records = with->benchmarks.at(0).kernels.at(0).instructions;
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].unit, embeddings::ExecutionUnit::GlobalMemory);
  EXPECT_EQ(records[1].unit, embeddings::ExecutionUnit::Fp32);
  EXPECT_EQ(records[2].unit, embeddings::ExecutionUnit::Control);
  for (const auto &record : without->benchmarks.at(0).kernels.at(0).instructions)
    EXPECT_EQ(record.unit, embeddings::ExecutionUnit::Unknown);
}

TEST(DatasetImportTest, ComputesScalingFactorsAgainstTheChosenReference) {
  ToyDataset toy;
  toy.write("data/aggregated_dataset_toy.csv", ToyDataset::block("app"));
  toy.sequence("app", 0, "000000100\n");
  auto byDefault = embeddings::importDataset(toy.dir());
  ASSERT_TRUE(byDefault.hasValue());
  EXPECT_EQ(byDefault->reference, (embeddings::VfPoint{200, 10}));
  EXPECT_DOUBLE_EQ(byDefault->benchmarks[0].scaling[3].time, 2.0); // (200, 20): 20 / 10
  ImportOptions fmax;
  fmax.reference = embeddings::ReferenceKind::Fmax;
  auto byFmax = embeddings::importDataset(toy.dir(), fmax);
  EXPECT_EQ(byFmax->reference, (embeddings::VfPoint{200, 20}));
  EXPECT_DOUBLE_EQ(byFmax->benchmarks[0].scaling[2].time, 0.5);
}

TEST(DatasetImportTest, ReportsEveryIrregularityAndKeepsTheRest) {
  ToyDataset toy;
  std::string csv = ToyDataset::block("good") + ToyDataset::block("good", 2) +
                    "missing_row\n100,10,10,10,100\n100,20,20,10,200\n200,10,10,10,100\n" +
                    "bad_value\n100,10,xx,10,100\n100,20,20,10,200\n200,10,10,10,100\n"
                    "200,20,20,10,200\n" +
                    "negative\n100,10,-1,10,100\n100,20,20,10,200\n200,10,10,10,100\n"
                    "200,20,20,10,200\n" +
                    "not_a_number\n100,10,nan,10,100\n100,20,20,inf,200\n200,10,10,10,100\n"
                    "200,20,20,10,200\n" +
                    ToyDataset::block("measured_only") + ToyDataset::block("bad_code");
  toy.write("data/aggregated_dataset_toy.csv", csv);
  for (const char *name : {"good", "missing_row", "bad_value", "negative", "not_a_number"})
    toy.sequence(name, 0, "000000100\n");
  toy.sequence("bad_code", 0, "000000100\n0000001x0\n");
  toy.sequence("sequences_only", 0, "000000100\n");
  toy.write("data/empty_folder/notes.txt", "no sequences here\n");

  auto dataset = embeddings::importDataset(toy.dir());
  ASSERT_TRUE(dataset.hasValue()) << test::describe(dataset.diagnostics());
  ASSERT_EQ(dataset->benchmarks.size(), 1u) << test::describe(dataset.diagnostics());
  EXPECT_EQ(dataset->benchmarks[0].name, "good");
  EXPECT_DOUBLE_EQ(dataset->benchmarks[0].measurements[1].time, 20.0); // the first block
  const ptx::Diagnostics &report = dataset.diagnostics();
  EXPECT_EQ(report.size(), 9u) << test::describe(report);
  EXPECT_TRUE(mentions(report, "'good' is measured twice (first at line 1)"));
  EXPECT_TRUE(mentions(report, "'missing_row' has no row for V-F point (200, 20) MHz"));
  EXPECT_TRUE(mentions(report, "'bad_value': '100,10,xx,10,100' holds a non-numeric"));
  EXPECT_TRUE(
      mentions(report, "'negative': '100,10,-1,10,100' holds a non-numeric or non-positive"));
  EXPECT_TRUE(
      mentions(report, "'not_a_number': '100,10,nan,10,100' holds a non-numeric or non-positive"));
  EXPECT_TRUE(mentions(report, "'measured_only' is measured but has no sequence folder"));
  EXPECT_TRUE(mentions(report, "'sequences_only' has sequences but no measurements"));
  EXPECT_TRUE(mentions(report, "'empty_folder' has no outputSequence_kernel_depend_<k>.csv"));
  EXPECT_TRUE(mentions(report, "'bad_code': code '0000001x0' is not all digits"));
  for (const auto &diagnostic : report) {
    EXPECT_EQ(diagnostic.severity, ptx::Severity::Warning);
    EXPECT_FALSE(diagnostic.path.empty());
  }
  // The warning points at the row: the bad code is on line 2 of its file.
  for (const auto &diagnostic : report) {
    if (diagnostic.message.find("bad_code") != std::string::npos) {
      EXPECT_EQ(diagnostic.location.line, 2u);
    }
  }
}

TEST(DatasetImportTest, FindsClockTablesBesideOrGivenExplicitly) {
  ToyDataset toy;
  toy.write("data/aggregated_dataset_toy.csv", ToyDataset::block("app"));
  toy.sequence("app", 0, "000000100\n");
  ASSERT_TRUE(embeddings::importDataset(toy.dir()).hasValue()); // DIR/../gpu_info
  toy.write("data/gpu_info/clks_mem_toy.txt", "100\n100\n");    // DIR/gpu_info wins
  toy.write("data/gpu_info/clks_core_toy_100.txt", "10\n20\n20\n");
  auto inside = embeddings::importDataset(toy.dir());
  ASSERT_TRUE(inside.hasValue());
  EXPECT_EQ(inside->clocks.memoryMHz, (std::vector<unsigned>{100}));
  EXPECT_TRUE(mentions(inside.diagnostics(), "(200, 10) MHz is not a V-F point of toy"));
  ImportOptions explicitDir;
  explicitDir.gpuInfoDir = toy.dir() + "/../gpu_info";
  auto given = embeddings::importDataset(toy.dir(), explicitDir);
  ASSERT_TRUE(given.hasValue());
  EXPECT_EQ(given->clocks.memoryMHz, (std::vector<unsigned>{100, 200}));
}

TEST(DatasetImportTest, FailsClearlyWithoutMeasurementsOrClocks) {
  ToyDataset toy;
  auto noCsv = embeddings::importDataset(toy.dir());
  ASSERT_FALSE(noCsv.hasValue());
  EXPECT_NE(noCsv.diagnostics()[0].message.find("no aggregated_dataset_<gpu>.csv"),
            std::string::npos);
  toy.write("data/aggregated_dataset_other.csv", ToyDataset::block("app"));
  auto noClocks = embeddings::importDataset(toy.dir());
  ASSERT_FALSE(noClocks.hasValue());
  EXPECT_NE(noClocks.diagnostics()[0].path.find("clks_mem_other.txt"), std::string::npos);
  EXPECT_FALSE(embeddings::importDataset("/nonexistent/dataset").hasValue());
}

TEST(DatasetImportTest, ReadsKernelsFromPtxAsWrittenOrAsExecuted) {
  ToyDataset toy;
  toy.write("data/aggregated_dataset_toy.csv", ToyDataset::block("looped") +
                                                   ToyDataset::block("broken") +
                                                   ToyDataset::block("no_ptx"));
  // Files in name order, kernels in file order: a.ptx's kernel comes first.
  // Sums ten floats: per iteration a load and an add.f32 that stay, and a
  // pointer update, a counter update and an exit test that are loop control.
  const std::string loop = ".version 8.0\n.target sm_80\n.address_size 64\n"
                           ".visible .entry KERNEL(.param .u64 p0, .param .u64 p1)\n{\n"
                           ".reg .pred %p<2>;\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n.reg .f32 %f<4>;\n"
                           "ld.param.u64 %rd1, [p0];\nld.param.u64 %rd2, [p1];\n"
                           "mov.u32 %r1, 0;\nmov.f32 %f2, 0f00000000;\n$L:\n"
                           "ld.global.f32 %f1, [%rd1];\nadd.f32 %f2, %f2, %f1;\n"
                           "add.s64 %rd1, %rd1, 4;\nadd.s32 %r1, %r1, 1;\n"
                           "setp.ne.s32 %p1, %r1, 10;\n@%p1 bra $L;\n"
                           "st.global.f32 [%rd2], %f2;\nret;\n}\n";
  auto kernel = [&](const std::string &name) {
    std::string text = loop;
    text.replace(text.find("KERNEL"), 6, name);
    return text;
  };
  toy.write("ptx/looped/b.ptx", kernel("second"));
  toy.write("ptx/looped/a.ptx", kernel("first"));
  toy.write("ptx/broken/broken.ptx", ".version 8.0\n.target sm_80\n.entry k() {\n  add.s32 %r1 %r2;\n}\n");
  toy.write("ptx/no_ptx/notes.txt", "nothing to read\n");
  auto vocabulary = embeddings::loadVocabulary(test::vocabularyDir());
  ASSERT_TRUE(vocabulary.hasValue());
  auto scheme = embeddings::makeScheme(embeddings::kGpuPtxModelV1, std::move(*vocabulary));
  ASSERT_TRUE(scheme.hasValue());

  ImportOptions options;
  options.ptxScheme = scheme->get();
  options.ptxDir = fs::path(toy.dir()).parent_path().string() + "/ptx";
  auto asWritten = embeddings::importDataset(toy.dir(), options);
  ASSERT_TRUE(asWritten.hasValue()) << test::describe(asWritten.diagnostics());
  ASSERT_EQ(asWritten->benchmarks.size(), 1u) << test::describe(asWritten.diagnostics());
  EXPECT_EQ(asWritten->scheme, "gpuptxmodel-v1");
  const auto &kernels = asWritten->benchmarks[0].kernels;
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(kernels[0].name, "first");
  EXPECT_EQ(kernels[0].instructions.size(), 10u); // the text once; guarded bra and ret skipped
  EXPECT_TRUE(mentions(asWritten.diagnostics(), "'broken':"));
  EXPECT_TRUE(mentions(asWritten.diagnostics(), "'no_ptx' has no .ptx file"));
  for (const auto &diagnostic : asWritten.diagnostics())
    if (diagnostic.message.find("'broken':") != std::string::npos) {
      EXPECT_NE(diagnostic.path.find("broken.ptx"), std::string::npos);
      EXPECT_EQ(diagnostic.location.line, 4u);
    }

  options.encode.asExecuted = true;
  auto asExecuted = embeddings::importDataset(toy.dir(), options);
  ASSERT_TRUE(asExecuted.hasValue()) << test::describe(asExecuted.diagnostics());
  EXPECT_EQ(asExecuted->scheme, "gpuptxmodel-v1+executed");
  const auto &first = asExecuted->benchmarks.at(0).kernels.at(0);
  // 2 ld.param + the sum's seed + 10 x (ld, add.f32) + st; the counter's seed is control too.
  EXPECT_DOUBLE_EQ(first.executedInstructions(), 24.0);
  ASSERT_EQ(first.loops.size(), 1u);
  EXPECT_EQ(first.loops[0].maxTripCount, 10u);
}

TEST(DatasetImportTest, ReadingNamesRoundTrip) {
  embeddings::EncodeOptions reading;
  EXPECT_EQ(embeddings::readingName("gpuptxmodel-v1", reading), "gpuptxmodel-v1");
  reading.broadcastLoadsAsConstant = true; // only read as executed
  EXPECT_EQ(embeddings::readingName("gpuptxmodel-v1", reading), "gpuptxmodel-v1");
  reading.broadcastLoadsAsConstant = false;
  reading.asExecuted = true;
  EXPECT_EQ(embeddings::readingName("gpuptxmodel-v1", reading), "gpuptxmodel-v1+executed");
  reading.broadcastLoadsAsConstant = true;
  EXPECT_EQ(embeddings::readingName("gpuptxmodel-v1", reading), "gpuptxmodel-v1+executed+broadcast");
  EXPECT_TRUE(embeddings::readsAsExecuted("gpuptxmodel-v1+executed"));
  EXPECT_FALSE(embeddings::readsAsExecuted("gpuptxmodel-v1"));
  EXPECT_FALSE(embeddings::readsBroadcastLoadsAsConstant("gpuptxmodel-v1+executed"));
  embeddings::EncodeOptions back = embeddings::readingOptions("gpuptxmodel-v1+executed+broadcast");
  EXPECT_TRUE(back.asExecuted);
  EXPECT_TRUE(back.broadcastLoadsAsConstant);
  EXPECT_EQ(embeddings::baseScheme("gpuptxmodel-v1+executed"), "gpuptxmodel-v1");
  EXPECT_EQ(embeddings::baseScheme("gpuptxmodel-v1+executed+broadcast"), "gpuptxmodel-v1");
  auto vocabulary = embeddings::loadVocabulary(test::vocabularyDir());
  ASSERT_TRUE(vocabulary.hasValue());
  EXPECT_TRUE(embeddings::makeScheme("gpuptxmodel-v1+executed", *vocabulary).hasValue());
  EXPECT_FALSE(embeddings::makeScheme("gpuptxmodel-v9+executed", *vocabulary).hasValue());
}
