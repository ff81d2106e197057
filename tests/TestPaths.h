// TestPaths.h - where tests find their inputs, and small file helpers.
#pragma once

#include <string>
#include <vector>

namespace ptxdvfs::test {

/// tests/fixtures in the source tree.
std::string fixtureDir();
/// The gpuptxmodel-v1 vocabulary shipped in trained_weights/.
std::string vocabularyDir();
/// ../shared beside the checkout (the shared datasets and conformance set).
std::string sharedDir();
bool sharedDirAvailable();

std::string readFile(const std::string &path);
/// An empty folder in the temporary directory named `prefix` + the running
/// test's name (ctest runs a file's tests at the same time, each its own).
std::string freshScratchDir(const std::string &prefix);
/// Files under `dir` whose names end with `suffix`, sorted.
std::vector<std::string> listFiles(const std::string &dir, const std::string &suffix);
/// The committed nvcc/clang PTX fixtures.
std::vector<std::string> fixturePtxFiles();
/// `../shared/conformance/*/input.ptx`; empty when shared/ is absent.
std::vector<std::string> conformancePtxFiles();

} // namespace ptxdvfs::test
