// ModelFolderTest.cpp - saving, loading and refusing damaged model folders; content hashes.
#include "ToyData.h"

#include "../../model/src/Sha256.h"
#include "TestPaths.h"

#include "ptxdvfs/model/ModelFolder.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace ptxdvfs;
using namespace ptxdvfs::test;
namespace fs = std::filesystem;

namespace {

ModelDescription toyDescription() {
  ModelDescription description;
  description.scheme = "gpuptxmodel-v1";
  description.vocabulary = *embeddings::loadVocabulary(test::vocabularyDir());
  description.clocks.gpu = "toy";
  description.clocks.memoryMHz = {100, 200};
  description.clocks.coreMHz = {{100, {10, 20}}, {200, {10, 20}}};
  description.clocks.defaultPoint = {200, 10};
  description.clocks.fmax = {200, 20};
  description.reference = {200, 10};
  description.architecture = tinyModel().log_mix(true);
  description.architecture.encoder(
      LstmEncoderOptions(description.architecture.encoder()).readout(Readout::Mean));
  description.trainingDataHash = "abc";
  description.metrics = {{"energy_mape", 12.5}};
  description.baselines = baselineDataOf(toyData(6), range(0, 6));
  description.prediction = PredictionOptions().energy(EnergySource::TimeTimesPower).risk(0.5);
  description.maxLength = 1000;
  description.defaultPredictor = "knn_log_histogram";
  return description;
}

std::string saved(const std::string &name, DvfsModel &model) {
  std::string dir = freshDir(name);
  std::vector<DvfsModel> members = {model};
  ptx::Diagnostics errors = saveModel(dir, members, toyDescription());
  EXPECT_TRUE(errors.empty()) << (errors.empty() ? "" : errors[0].format());
  return dir;
}

/// Records the current hash of an edited file, so that only the checks
/// behind the hash can catch the edit.
void rehash(const std::string &dir, const std::string &file) {
  std::ifstream in(dir + "/manifest.json");
  nlohmann::json manifest = nlohmann::json::parse(in);
  manifest["files"][file] = model::sha256OfFile(dir + "/" + file);
  std::ofstream(dir + "/manifest.json") << manifest.dump(2);
}

std::string messages(const ptx::Diagnostics &diagnostics) {
  std::string text;
  for (const auto &d : diagnostics)
    text += d.format() + "\n";
  return text;
}

} // namespace

TEST(Sha256Test, MatchesTheStandardTestVectors) {
  EXPECT_EQ(model::Sha256().hexDigest(),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(model::Sha256().update("abc").hexDigest(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(model::Sha256()
                .update("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmno")
                .update("mnopnopq")
                .hexDigest(),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(ModelFolderTest, RoundTripsWeightsAndDescription) {
  torch::manual_seed(1);
  DvfsModel original(tinyModel());
  std::string dir = saved("ptxdvfs_model_roundtrip", original);
  auto loaded = loadModel(dir);
  ASSERT_TRUE(loaded.hasValue()) << messages(loaded.diagnostics());
  ASSERT_EQ(loaded->members.size(), 1u);
  EXPECT_TRUE(sameWeights(original, loaded->members[0]));
  const ModelDescription &d = loaded->description;
  EXPECT_EQ(d.scheme, "gpuptxmodel-v1");
  EXPECT_EQ(d.clocks.gpu, "toy");
  EXPECT_EQ(d.clocks.grid().size(), 4u);
  EXPECT_EQ(d.reference, (embeddings::VfPoint{200, 10}));
  EXPECT_EQ(d.clocks.fmax, (embeddings::VfPoint{200, 20}));
  EXPECT_EQ(d.architecture.encoder().hidden_size(), 8);
  EXPECT_EQ(d.architecture.encoder().readout(), Readout::Mean);
  EXPECT_TRUE(d.architecture.log_mix());
  EXPECT_EQ(d.architecture.head_hidden(), (std::vector<int64_t>{12, 8}));
  EXPECT_EQ(d.vocabulary.opcodes.size(), 101u);
  EXPECT_EQ(d.metrics.at("energy_mape"), 12.5);
  EXPECT_EQ(d.maxLength, 1000);
  EXPECT_EQ(d.prediction.energy(), EnergySource::TimeTimesPower);
  EXPECT_EQ(d.prediction.risk(), 0.5);
  ASSERT_EQ(d.baselines.names.size(), 6u);
  EXPECT_EQ(d.baselines.surfaces[3], toyDescription().baselines.surfaces[3]);
  EXPECT_EQ(d.baselines.histograms[3], toyDescription().baselines.histograms[3]);
  EXPECT_EQ(d.defaultPredictor, "knn_log_histogram");
  fs::remove_all(dir);
}

TEST(ModelFolderTest, ReplacesAnExistingFolderWholeButKeepsItsDocuments) {
  torch::manual_seed(1);
  std::vector<DvfsModel> older = {DvfsModel(tinyModel()), DvfsModel(tinyModel())};
  std::string dir = freshDir("ptxdvfs_model_replace");
  ASSERT_TRUE(saveModel(dir, older, toyDescription()).empty());
  std::ofstream(dir + "/README.md") << "how this model was made";
  torch::manual_seed(2);
  DvfsModel second(tinyModel());
  std::vector<DvfsModel> members = {second};
  ASSERT_TRUE(saveModel(dir, members, toyDescription()).empty());
  EXPECT_FALSE(fs::exists(dir + "/member-1.pt")) << "weights of the older, larger ensemble";
  EXPECT_TRUE(fs::exists(dir + "/README.md"));
  for (const auto &entry : fs::directory_iterator(fs::path(dir).parent_path()))
    EXPECT_EQ(entry.path().string().find(dir + ".tmp-"), std::string::npos);
  auto loaded = loadModel(dir);
  ASSERT_TRUE(loaded.hasValue()) << messages(loaded.diagnostics());
  ASSERT_EQ(loaded->members.size(), 1u);
  EXPECT_TRUE(sameWeights(second, loaded->members[0]));
  fs::remove_all(dir);
}

TEST(ModelFolderTest, RoundTripsAnEnsembleInOrder) {
  torch::manual_seed(4);
  std::vector<DvfsModel> members = {DvfsModel(tinyModel()), DvfsModel(tinyModel()),
                                    DvfsModel(tinyModel())};
  std::string dir = freshDir("ptxdvfs_model_ensemble");
  ASSERT_TRUE(saveModel(dir, members, toyDescription()).empty());
  auto loaded = loadModel(dir);
  ASSERT_TRUE(loaded.hasValue()) << messages(loaded.diagnostics());
  ASSERT_EQ(loaded->members.size(), 3u);
  for (std::size_t m = 0; m < 3; ++m)
    EXPECT_TRUE(sameWeights(members[m], loaded->members[m])) << "member " << m;
  EXPECT_FALSE(sameWeights(members[0], loaded->members[1]));
  // A member file that the manifest lists but that is gone is named.
  fs::remove(dir + "/member-2.pt");
  auto missing = loadModel(dir);
  ASSERT_FALSE(missing.hasValue());
  EXPECT_NE(messages(missing.diagnostics()).find("member-2.pt: error: missing"), std::string::npos)
      << messages(missing.diagnostics());
  std::vector<DvfsModel> none;
  EXPECT_FALSE(saveModel(dir, none, toyDescription()).empty());
  fs::remove_all(dir);
}

TEST(ModelFolderTest, RefusesMalformedBaselinesEvenWithAMatchingHash) {
  torch::manual_seed(1);
  DvfsModel model(tinyModel());
  std::string dir = saved("ptxdvfs_model_baselines", model);
  std::ofstream(dir + "/baselines.json") << R"({"applications": [{"name": "a"}]})";
  rehash(dir, "baselines.json");
  auto loaded = loadModel(dir);
  ASSERT_FALSE(loaded.hasValue());
  EXPECT_NE(messages(loaded.diagnostics()).find("malformed model description"), std::string::npos)
      << messages(loaded.diagnostics());
  fs::remove_all(dir);
}

TEST(ModelFolderTest, RefusesACorruptedWeightsFile) {
  torch::manual_seed(1);
  DvfsModel model(tinyModel());
  std::string dir = saved("ptxdvfs_model_corrupt", model);
  {
    std::fstream weights(dir + "/member-0.pt", std::ios::in | std::ios::out | std::ios::binary);
    weights.seekp(100);
    weights.put('\x5a');
  }
  auto loaded = loadModel(dir);
  ASSERT_FALSE(loaded.hasValue());
  EXPECT_EQ(loaded.diagnostics()[0].path, dir + "/member-0.pt");
  EXPECT_NE(loaded.diagnostics()[0].message.find("differs from the hash in manifest.json"),
            std::string::npos);
  fs::remove_all(dir);
}

TEST(ModelFolderTest, NamesMissingFilesAndUnknownFormats) {
  torch::manual_seed(1);
  DvfsModel model(tinyModel());
  std::string dir = saved("ptxdvfs_model_missing", model);
  fs::remove(dir + "/vocabulary/ptx_isa.txt");
  auto missing = loadModel(dir);
  ASSERT_FALSE(missing.hasValue());
  EXPECT_NE(messages(missing.diagnostics()).find("vocabulary/ptx_isa.txt: error: missing"),
            std::string::npos)
      << messages(missing.diagnostics());
  std::ofstream(dir + "/manifest.json") << R"({"format": "ptxdvfs-model/9"})";
  auto format = loadModel(dir);
  ASSERT_FALSE(format.hasValue());
  EXPECT_NE(format.diagnostics()[0].message.find("unknown model format 'ptxdvfs-model/9'"),
            std::string::npos);
  std::ofstream(dir + "/manifest.json") << "{ not json";
  EXPECT_NE(loadModel(dir).diagnostics()[0].message.find("not valid JSON"), std::string::npos);
  EXPECT_FALSE(loadModel(dir + "/nowhere").hasValue());
  fs::remove_all(dir);
}

// Found by tests/fuzz/ModelFolderFuzzer.cpp: a manifest of the wrong JSON
// type ended the process (an uncaught nlohmann type_error).
TEST(ModelFolderTest, RefusesManifestsOfTheWrongShapeWithoutThrowing) {
  torch::manual_seed(1);
  DvfsModel model(tinyModel());
  std::string dir = saved("ptxdvfs_model_shape", model);
  nlohmann::json manifest = nlohmann::json::parse(std::ifstream(dir + "/manifest.json"));
  for (const std::string &text :
       {std::string("7"), std::string("[1, 2]"), std::string(R"({"format": 7})"),
        [&] { nlohmann::json bad = manifest; bad["files"]["config.json"] = 42; return bad.dump(); }(),
        [&] { nlohmann::json bad = manifest; bad["files"] = "all of them"; return bad.dump(); }()}) {
    std::ofstream(dir + "/manifest.json", std::ios::trunc) << text;
    ptx::Expected<ModelFolderContents> contents =
        ptx::Expected<ModelFolderContents>::failure(ptx::Diagnostics{});
    ASSERT_NO_THROW(contents = readModelFolder(dir)) << text;
    ASSERT_FALSE(contents.hasValue()) << text;
    ASSERT_FALSE(contents.diagnostics().empty()) << text;
    EXPECT_NE(contents.diagnostics()[0].path.find("manifest.json"), std::string::npos) << text;
  }
  fs::remove_all(dir);
}

TEST(ModelFolderTest, RefusesWeightsThatDoNotFitTheArchitecture) {
  torch::manual_seed(1);
  DvfsModel model(tinyModel());
  std::string dir = saved("ptxdvfs_model_mismatch", model);
  // A consistent folder (hashes recomputed) whose config claims other sizes.
  std::ifstream in(dir + "/config.json");
  nlohmann::json config = nlohmann::json::parse(in);
  config["architecture"]["hidden_size"] = 9;
  std::ofstream(dir + "/config.json") << config.dump(2);
  rehash(dir, "config.json");
  auto loaded = loadModel(dir);
  ASSERT_FALSE(loaded.hasValue());
  EXPECT_EQ(loaded.diagnostics()[0].path, dir + "/member-0.pt");
  EXPECT_NE(loaded.diagnostics()[0].message.find("do not fit the architecture"), std::string::npos);
  fs::remove_all(dir);
}

TEST(ModelFolderTest, ArchitectureOptionsRoundTripAndOlderFoldersLoad) {
  ModelDescription description = toyDescription();
  description.architecture = tinyModel().mix_dim(3).length_feature(true);
  torch::manual_seed(1);
  std::vector<DvfsModel> members = {DvfsModel(description.architecture)};
  std::string dir = freshDir("ptxdvfs_model_options");
  ASSERT_TRUE(saveModel(dir, members, description).empty());
  auto loaded = loadModel(dir);
  ASSERT_TRUE(loaded.hasValue()) << messages(loaded.diagnostics());
  EXPECT_EQ(loaded->description.architecture.mix_dim(), 3);
  EXPECT_TRUE(loaded->description.architecture.length_feature());
  EXPECT_TRUE(sameWeights(members[0], loaded->members[0]));
  fs::remove_all(dir);

  // A folder written before length_feature existed (no key) reads as false.
  torch::manual_seed(1);
  DvfsModel plain(tinyModel());
  dir = saved("ptxdvfs_model_older", plain);
  std::ifstream in(dir + "/config.json");
  nlohmann::json config = nlohmann::json::parse(in);
  config["architecture"].erase("length_feature");
  std::ofstream(dir + "/config.json") << config.dump(2);
  rehash(dir, "config.json");
  auto older = loadModel(dir);
  ASSERT_TRUE(older.hasValue()) << messages(older.diagnostics());
  EXPECT_FALSE(older->description.architecture.length_feature());
  fs::remove_all(dir);
}

TEST(ModelFolderTest, DatasetFingerprintFollowsContent) {
  embeddings::Dataset dataset;
  dataset.scheme = "gpuptxmodel-v1";
  dataset.clocks = toyDescription().clocks;
  dataset.benchmarks.push_back({"app", {{"k", {record(54, 4, 1)}}}, {{1, 2, 2}}, {{1, 1, 1}}});
  std::string first = datasetFingerprint(dataset);
  EXPECT_EQ(first.size(), 64u);
  EXPECT_EQ(first, datasetFingerprint(dataset));
  dataset.benchmarks[0].measurements[0].power = 2.5;
  EXPECT_NE(first, datasetFingerprint(dataset));
}

TEST(ShippedModelTest, TheGtxTitanXModelLoadsWithItsCrossValidation) {
  std::string dir = fs::path(test::vocabularyDir()).parent_path().string();
  auto loaded = loadModel(dir);
  ASSERT_TRUE(loaded.hasValue()) << messages(loaded.diagnostics());
  const ModelDescription &d = loaded->description;
  EXPECT_EQ(loaded->members.size(), 5u);
  // Trained from the rebuilt microbenchmarks' PTX, read as executed with
  // broadcast loads as .const (docs/model.md).
  EXPECT_EQ(d.scheme, "gpuptxmodel-v1+executed+broadcast");
  EXPECT_EQ(d.clocks.gpu, "gtxtitanx");
  EXPECT_EQ(d.clocks.grid().size(), 32u);
  EXPECT_EQ(d.baselines.names.size(), 140u);
  // The default predictor is the one the manifest's own CV scores best
  // (energy MAPE + min-energy excess, averaged over the two memory
  // classes; chooseDefaultPredictor's rule).
  ASSERT_TRUE(d.metrics.contains("cross_validation"));
  const nlohmann::json &scores = d.metrics.at("cross_validation");
  auto score = [](const nlohmann::json &result) {
    double total = 0;
    for (const char *memoryClass : {"best_memory_clock_high", "best_memory_clock_low"}) {
      const nlohmann::json &byClass = result.at(memoryClass);
      total += byClass.at("energy").at("mape").get<double>() +
               byClass.at("min_energy").at("excess_vs_oracle").get<double>();
    }
    return total / 2;
  };
  std::string best = "lstm";
  double bestScore = score(scores);
  for (const char *group : {"baselines", "variants"})
    for (const auto &[name, result] : scores.at(group).items())
      if (name.rfind("lstm_risk", 0) != 0 && score(result) < bestScore) {
        bestScore = score(result);
        best = name;
      }
  EXPECT_EQ(d.defaultPredictor, best);
  EXPECT_EQ(best, "knn_log_histogram"); // docs/model.md, "Twins"
  const nlohmann::json &cv = d.metrics.at("cross_validation");
  EXPECT_EQ(cv.at("folds"), 5);
  EXPECT_EQ(cv.at("benchmarks"), 140);
  EXPECT_EQ(cv.at("per_benchmark").at("lstm").size(), 140u);
  for (const char *baseline : {"training_mean", "histogram_mlp", "nearest_histogram", "knn_unit_mix"})
    EXPECT_TRUE(cv.at("baselines").contains(baseline)) << baseline;
  // Every training program's mix has its execution-unit block, which
  // knn_unit_mix finds neighbours by.
  EXPECT_TRUE(hasUnitBlocks(d.baselines));
}
