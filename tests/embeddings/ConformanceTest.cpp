// ConformanceTest.cpp - byte-for-byte equality with every shared conformance case.
#include "TestPaths.h"
#include "ptx_parser/ParseHelpers.h"

#include "ptxdvfs/embeddings/EncodingScheme.h"

#include <gtest/gtest.h>

#include <filesystem>

using namespace ptxdvfs;

namespace {

std::vector<std::string> conformanceCases() {
  std::vector<std::string> cases;
  for (const std::string &input : test::conformancePtxFiles())
    cases.push_back(input.substr(0, input.rfind('/')));
  return cases;
}

class EncodingConformanceTest : public ::testing::TestWithParam<std::string> {};

} // namespace

TEST_P(EncodingConformanceTest, ReproducesTheOriginalCodesByteForByte) {
  const std::string dir = GetParam();
  auto vocabulary = embeddings::loadVocabulary(test::vocabularyDir());
  ASSERT_TRUE(vocabulary.hasValue());
  auto scheme = embeddings::makeScheme(embeddings::kGpuPtxModelV1, std::move(*vocabulary));
  auto module = ptx::parseFile(dir + "/input.ptx");
  ASSERT_TRUE(module.hasValue()) << test::describe(module.diagnostics());
  auto kernels = (*scheme)->encode(*module);

  std::string names;
  for (std::size_t k = 0; k < kernels.size(); ++k) {
    std::string codes, readable;
    for (const auto &record : kernels[k].instructions) {
      codes += toCode(record) + "\n";
      readable += (*scheme)->readable(record) + "\n";
    }
    std::string base = dir + "/kernel_" + std::to_string(k);
    EXPECT_EQ(codes, test::readFile(base + ".codes")) << base;
    EXPECT_EQ(readable, test::readFile(base + ".readable")) << base;
    names += kernels[k].name + "\n";
  }
  EXPECT_EQ(names, test::readFile(dir + "/kernel_names.txt"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/kernel_" + std::to_string(kernels.size()) + ".codes"))
      << "the case has more kernels than were encoded";
}

GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(EncodingConformanceTest);
INSTANTIATE_TEST_SUITE_P(SharedConformance, EncodingConformanceTest,
                         ::testing::ValuesIn(conformanceCases()),
                         [](const ::testing::TestParamInfo<std::string> &info) {
                           return info.param.substr(info.param.rfind('/') + 1);
                         });
