// TestPaths.cpp - test input discovery.
#include "TestPaths.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace fs = std::filesystem;

namespace ptxdvfs::test {

std::string fixtureDir() { return PTXDVFS_FIXTURE_DIR; }
std::string sharedDir() { return PTXDVFS_SHARED_DIR; }
std::string vocabularyDir() { return PTXDVFS_VOCABULARY_DIR; }
bool sharedDirAvailable() { return fs::is_directory(sharedDir() + "/conformance"); }

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<std::string> listFiles(const std::string &dir, const std::string &suffix) {
  std::vector<std::string> files;
  if (!fs::is_directory(dir))
    return files;
  for (const auto &entry : fs::recursive_directory_iterator(dir)) {
    std::string path = entry.path().string();
    if (entry.is_regular_file() && path.size() >= suffix.size() &&
        path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0)
      files.push_back(path);
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> fixturePtxFiles() { return listFiles(fixtureDir() + "/ptx", ".ptx"); }

std::vector<std::string> conformancePtxFiles() {
  return listFiles(sharedDir() + "/conformance", "/input.ptx");
}

std::string freshScratchDir(const std::string &prefix) {
  fs::path dir =
      fs::temp_directory_path() / (prefix + ::testing::UnitTest::GetInstance()->current_test_info()->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

} // namespace ptxdvfs::test
