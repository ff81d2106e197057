// SplitsTest.cpp - families and grouped validation splits.
#include "ptxdvfs/model/Splits.h"

#include <gtest/gtest.h>

#include <set>

using namespace ptxdvfs::model;

TEST(SplitsTest, FamilyIsTheNameBeforeItsFirstNumericPart) {
  EXPECT_EQ(familyOf("fadd_dram_10_90_64p"), "fadd_dram");
  EXPECT_EQ(familyOf("L2_512_8"), "L2");
  EXPECT_EQ(familyOf("dp_fma_4"), "dp_fma");
  EXPECT_EQ(familyOf("DP"), "DP");
  EXPECT_EQ(familyOf("_5"), "_5");
}

TEST(SplitsTest, ValidationHoldsWholeFamiliesAndEnoughBenchmarks) {
  std::vector<std::string> names;
  for (const char *family : {"a", "b_x", "c", "d", "e"})
    for (int i = 0; i < 4; ++i)
      names.push_back(std::string(family) + "_" + std::to_string(i));
  Split split = groupedSplit(names, 0.3, 7);
  EXPECT_EQ(split.train.size() + split.validation.size(), names.size());
  EXPECT_GE(split.validation.size(), 6u);
  std::set<std::string> trainFamilies, validationFamilies;
  for (auto i : split.train)
    trainFamilies.insert(familyOf(names[i]));
  for (auto i : split.validation)
    validationFamilies.insert(familyOf(names[i]));
  for (const auto &family : validationFamilies)
    EXPECT_EQ(trainFamilies.count(family), 0u) << family;
  EXPECT_EQ(groupedSplit(names, 0.3, 7).validation, split.validation);
  EXPECT_NE(groupedSplit(names, 0.3, 8).validation, split.validation);
}
