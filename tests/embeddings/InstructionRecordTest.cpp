// InstructionRecordTest.cpp - codes, vocabularies and the scheme registry.
#include "TestPaths.h"

#include "ptxdvfs/embeddings/EncodingScheme.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace ptxdvfs;
using embeddings::DependencyKind;
using embeddings::InstructionRecord;

TEST(InstructionRecordTest, CodeRoundTrips) {
  InstructionRecord record;
  record.opcode = 60;
  record.stateSpace = 4;
  record.type = 12;
  record.operandCount = 2;
  record.dependencyDistance = 6;
  record.dependencyKind = DependencyKind::Shared;
  EXPECT_EQ(toCode(record), "060412262");
  auto parsed = embeddings::parseCode("060412262");
  ASSERT_TRUE(parsed.hasValue());
  EXPECT_EQ(*parsed, record);
}

TEST(InstructionRecordTest, ParseCodeRejectsMalformedCodes) {
  for (const char *bad : {"", "12345678", "0604122620", "06041226x", "060412263"}) {
    auto parsed = embeddings::parseCode(bad);
    ASSERT_FALSE(parsed.hasValue()) << bad;
    EXPECT_NE(parsed.diagnostics()[0].message.find("code '"), std::string::npos);
  }
}

TEST(InstructionRecordTest, LoadsTheShippedVocabulary) {
  auto vocabulary = embeddings::loadVocabulary(test::vocabularyDir());
  ASSERT_TRUE(vocabulary.hasValue());
  EXPECT_EQ(vocabulary->opcodes.size(), 101u);
  EXPECT_EQ(vocabulary->stateSpaces.size(), 8u);
  EXPECT_EQ(vocabulary->types.size(), 17u);
  EXPECT_EQ(vocabulary->opcodes[54], "ld");
  EXPECT_EQ(vocabulary->stateSpaces[5], "param");
}

TEST(InstructionRecordTest, ShippedVocabularyMatchesTheDataset) {
  std::string datasetLists = test::sharedDir() + "/datasets/gpuptxmodel-gtxtitanx/assembly_info";
  if (!std::filesystem::is_directory(datasetLists))
    GTEST_SKIP() << "../shared not found beside the checkout";
  for (const char *file :
       {embeddings::kOpcodesFile, embeddings::kStateSpacesFile, embeddings::kTypesFile})
    EXPECT_EQ(test::readFile(test::vocabularyDir() + "/" + file),
              test::readFile(datasetLists + "/" + file))
        << file;
}

TEST(InstructionRecordTest, VocabularyTakesTextBeforeTabTrimmedAndNamesMissingFiles) {
  std::string dir = std::filesystem::temp_directory_path() / "ptxdvfs_vocabulary_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/ptx_isa.txt") << " add\tcomment\nsub \n\n";
  std::ofstream(dir + "/ptx_state_spaces.txt") << "reg\n";
  std::filesystem::remove(dir + "/ptx_instruction_types.txt");
  auto missing = embeddings::loadVocabulary(dir);
  ASSERT_FALSE(missing.hasValue());
  EXPECT_EQ(missing.diagnostics()[0].path, dir + "/ptx_instruction_types.txt");
  std::ofstream(dir + "/ptx_instruction_types.txt") << "u32\n";
  auto loaded = embeddings::loadVocabulary(dir);
  ASSERT_TRUE(loaded.hasValue());
  EXPECT_EQ(loaded->opcodes, (std::vector<std::string>{"add", "sub"}));
}

TEST(InstructionRecordTest, UnknownSchemeIsAnErrorNamingTheKnownOnes) {
  auto vocabulary = embeddings::loadVocabulary(test::vocabularyDir());
  auto scheme = embeddings::makeScheme("gpuptxmodel-v9", std::move(*vocabulary));
  ASSERT_FALSE(scheme.hasValue());
  EXPECT_NE(scheme.diagnostics()[0].message.find("known: gpuptxmodel-v1"), std::string::npos);
}
