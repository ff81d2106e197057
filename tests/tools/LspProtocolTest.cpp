// LspProtocolTest.cpp - `ptxdvfs lsp` spoken to as an editor would: diagnostics, hover,
// malformed messages, shutdown and exit, nvcc in the background and its cancellation.
#include "LspClient.h"
#include "TestPaths.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace ptxdvfs::test;
namespace fs = std::filesystem;

namespace {

const std::string kGemm = "_Z10gemm_tiledPKfS0_Pfi";
/// The fixture kernel the shipped default predictor warns about (memory
/// clock 810 MHz saves energy): a retrained model that moves it must say so here.
const std::string kWarned = "_Z14binomial_sweepPKfPfi";

std::string realisticPtx() { return fixtureDir() + "/loops/realistic.ptx"; }

/// 0-based line of the first line of `text` containing `needle`.
int lineContaining(const std::string &text, const std::string &needle) {
  std::size_t at = text.find(needle);
  return at == std::string::npos ? -1 : static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

nlohmann::json openParams(const std::string &uri, const std::string &text, int version = 1) {
  return {{"textDocument", {{"uri", uri}, {"languageId", "ptx"}, {"version", version}, {"text", text}}}};
}

const nlohmann::json *findByCode(const nlohmann::json &diagnostics, const std::string &kernel) {
  for (const nlohmann::json &diagnostic : diagnostics)
    if (diagnostic.contains("data") && diagnostic["data"].value("kernel", "") == kernel)
      return &diagnostic;
  return nullptr;
}

/// shutdown, then exit: the server's exit status (0 expected), -1 if no answer.
int shutdownAndExit(LspClient &client, double seconds = 30) {
  client.request(99, "shutdown");
  auto answer = client.response(99, seconds);
  if (!answer || !(*answer)["result"].is_null())
    return -1;
  client.notify("exit");
  return client.waitForExit();
}

bool nvccAvailable() {
  for (const char *candidate : {"/usr/local/cuda/bin/nvcc", "/usr/bin/nvcc"})
    if (access(candidate, X_OK) == 0)
      return true;
  return std::system("command -v nvcc > /dev/null 2>&1") == 0;
}

} // namespace

TEST(LspProtocolTest, InitializeAnnouncesFullSyncSaveAndHover) {
  LspClient client;
  nlohmann::json result = client.initialize();
  ASSERT_TRUE(result.contains("capabilities")) << result.dump();
  EXPECT_EQ(result["capabilities"]["textDocumentSync"]["change"], 1);
  EXPECT_EQ(result["capabilities"]["textDocumentSync"]["openClose"], true);
  EXPECT_TRUE(result["capabilities"]["textDocumentSync"].contains("save"));
  EXPECT_EQ(result["capabilities"]["hoverProvider"], true);
  EXPECT_EQ(result["serverInfo"]["name"], "ptxdvfs");
  EXPECT_EQ(shutdownAndExit(client), 0);
}

TEST(LspProtocolTest, OpenedPtxGetsHintsOnKernelNamesAndHoverShowsTheNumbers) {
  std::string text = readFile(realisticPtx());
  std::string uri = fileUri(realisticPtx());
  LspClient client;
  client.initialize();
  client.notify("textDocument/didOpen", openParams(uri, text));
  auto published = client.diagnostics(uri);
  ASSERT_TRUE(published);
  EXPECT_EQ((*published)["version"], 1);
  const nlohmann::json *warned = findByCode((*published)["diagnostics"], kWarned);
  ASSERT_NE(warned, nullptr) << published->dump(1);
  EXPECT_EQ((*warned)["severity"], 2);
  EXPECT_EQ((*warned)["source"], "ptxdvfs");
  EXPECT_EQ((*warned)["code"], "dvfs-memory-insensitive");
  // On the kernel's name in its .entry line, exactly.
  int entry = lineContaining(text, ".entry " + kWarned);
  EXPECT_EQ((*warned)["range"]["start"]["line"], entry);
  int start = (*warned)["range"]["start"]["character"], end = (*warned)["range"]["end"]["character"];
  EXPECT_EQ(end - start, static_cast<int>(kWarned.size()));
  // The loop note points into the CUDA source (-lineinfo).
  ASSERT_TRUE(warned->contains("relatedInformation"));
  EXPECT_NE((*warned)["relatedInformation"][0]["location"]["uri"].get<std::string>().find("realistic.cu"),
            std::string::npos);

  client.request(2, "textDocument/hover",
                 {{"textDocument", {{"uri", uri}}}, {"position", {{"line", entry}, {"character", start + 3}}}});
  auto hover = client.response(2);
  ASSERT_TRUE(hover);
  std::string shown = (*hover)["result"]["contents"]["value"];
  EXPECT_NE(shown.find("kernel `binomial_sweep`"), std::string::npos) << shown;
  EXPECT_NE(shown.find("| chosen 810/"), std::string::npos) << shown;
  EXPECT_NE(shown.find("Nearest training programs"), std::string::npos) << shown;
  // Off any kernel name: nothing.
  client.request(3, "textDocument/hover",
                 {{"textDocument", {{"uri", uri}}}, {"position", {{"line", 0}, {"character", 0}}}});
  auto nothing = client.response(3);
  ASSERT_TRUE(nothing);
  EXPECT_TRUE((*nothing)["result"].is_null());

  EXPECT_EQ(shutdownAndExit(client), 0);
}

TEST(LspProtocolTest, ASavedSyntaxErrorIsAnErrorOnItsLineAndTheFixClearsIt) {
  std::string good = readFile(realisticPtx());
  std::string uri = fileUri(realisticPtx());
  LspClient client;
  client.initialize();
  client.notify("textDocument/didOpen", openParams(uri, good));
  ASSERT_TRUE(client.diagnostics(uri));

  // Break one instruction: drop the semicolon after the first `ret`.
  std::string broken = good;
  std::size_t ret = broken.find("\tret;");
  ASSERT_NE(ret, std::string::npos);
  broken.replace(ret, 5, "\tret");
  // The parser notices at the next token, where the error is reported.
  std::size_t next = broken.find_first_not_of(" \t\r\n", ret + 4);
  int line = static_cast<int>(std::count(broken.begin(), broken.begin() + static_cast<long>(next), '\n'));
  client.notify("textDocument/didChange", {{"textDocument", {{"uri", uri}, {"version", 2}}},
                                           {"contentChanges", {{{"text", broken}}}}});
  client.notify("textDocument/didSave", {{"textDocument", {{"uri", uri}}}});
  auto errors = client.diagnostics(uri);
  ASSERT_TRUE(errors);
  ASSERT_FALSE((*errors)["diagnostics"].empty());
  const nlohmann::json &first = (*errors)["diagnostics"][0];
  EXPECT_EQ(first["severity"], 1);
  EXPECT_EQ(first["range"]["start"]["line"], line);
  EXPECT_EQ(findByCode((*errors)["diagnostics"], kWarned), nullptr);

  client.notify("textDocument/didSave", {{"textDocument", {{"uri", uri}}}, {"text", good}});
  auto fixed = client.diagnostics(uri);
  ASSERT_TRUE(fixed);
  EXPECT_NE(findByCode((*fixed)["diagnostics"], kWarned), nullptr);

  client.notify("textDocument/didClose", {{"textDocument", {{"uri", uri}}}});
  auto cleared = client.diagnostics(uri);
  ASSERT_TRUE(cleared);
  EXPECT_TRUE((*cleared)["diagnostics"].empty());
}

TEST(LspProtocolTest, MalformedMessagesAreAnsweredAndTheServerLivesOn) {
  LspClient client;
  client.request(7, "textDocument/hover", nlohmann::json::object());
  auto early = client.response(7);
  ASSERT_TRUE(early);
  EXPECT_EQ((*early)["error"]["code"], -32002); // not initialized

  client.initialize();
  client.sendRaw("{not json");
  auto parse = client.receive();
  ASSERT_TRUE(parse);
  EXPECT_EQ((*parse)["error"]["code"], -32700);
  EXPECT_TRUE((*parse)["id"].is_null());

  client.sendRaw("[1, 2]");
  auto invalid = client.receive();
  ASSERT_TRUE(invalid);
  EXPECT_EQ((*invalid)["error"]["code"], -32600);

  client.send({{"jsonrpc", "2.0"}, {"id", 8}, {"method", 42}});
  auto badMethod = client.response(8);
  ASSERT_TRUE(badMethod);
  EXPECT_EQ((*badMethod)["error"]["code"], -32600);

  client.request(9, "workspace/symbol", {{"query", "x"}});
  auto unknown = client.response(9);
  ASSERT_TRUE(unknown);
  EXPECT_EQ((*unknown)["error"]["code"], -32601);

  client.request(10, "textDocument/hover", {{"textDocument", {{"uri", 5}}}});
  auto badParams = client.response(10);
  ASSERT_TRUE(badParams);
  EXPECT_EQ((*badParams)["error"]["code"], -32602);

  // A notification with broken parameters is dropped silently; a frame
  // without Content-Length is answered; the server still works.
  client.notify("textDocument/didOpen", {{"textDocument", 3}});
  client.sendRaw(""); // an empty body: not JSON
  auto empty = client.receive();
  ASSERT_TRUE(empty);
  EXPECT_EQ((*empty)["error"]["code"], -32700);

  client.request(11, "shutdown");
  auto down = client.response(11);
  ASSERT_TRUE(down);
  EXPECT_TRUE((*down)["result"].is_null());
  client.request(12, "textDocument/hover", nlohmann::json::object());
  auto late = client.response(12);
  ASSERT_TRUE(late);
  EXPECT_EQ((*late)["error"]["code"], -32600);
  client.notify("exit");
  EXPECT_EQ(client.waitForExit(), 0);
}

TEST(LspProtocolTest, ExitWithoutShutdownOrAClosedStreamEndsWithStatusOne) {
  {
    LspClient client;
    client.initialize();
    client.notify("exit");
    EXPECT_EQ(client.waitForExit(), 1);
  }
  {
    LspClient client;
    client.initialize();
    EXPECT_EQ(client.waitForExit(), 1); // stdin closed, no shutdown
  }
}

TEST(LspProtocolTest, CudaDocumentsAreCompiledAndNvccErrorsShown) {
  if (!nvccAvailable())
    GTEST_SKIP() << "nvcc not found: .cu documents need it";
  fs::path folder = fs::temp_directory_path() / ("ptxdvfs-lsp-" + std::to_string(getpid()));
  fs::create_directories(folder);
  fs::path source = folder / "saxpy.cu";
  fs::copy_file(std::string(PTXDVFS_EXAMPLES_DIR) + "/saxpy.cu", source, fs::copy_options::overwrite_existing);
  std::string text = readFile(source.string());
  std::string uri = fileUri(source.string());

  LspClient client({"--all"});
  client.initialize();
  client.notify("textDocument/didOpen",
                {{"textDocument", {{"uri", uri}, {"languageId", "cuda"}, {"version", 1}, {"text", text}}}});
  auto published = client.diagnostics(uri, 120);
  ASSERT_TRUE(published);
  const nlohmann::json *saxpy = findByCode((*published)["diagnostics"], "saxpy");
  ASSERT_NE(saxpy, nullptr) << published->dump(1);
  EXPECT_EQ((*saxpy)["range"]["start"]["line"], lineContaining(text, "__global__ void saxpy"));

  std::string broken = text + "\nint broken = undefined_name;\n";
  std::ofstream(source) << broken;
  client.notify("textDocument/didSave", {{"textDocument", {{"uri", uri}}}, {"text", broken}});
  auto errors = client.diagnostics(uri, 120);
  ASSERT_TRUE(errors);
  ASSERT_FALSE((*errors)["diagnostics"].empty()) << errors->dump(1);
  const nlohmann::json &error = (*errors)["diagnostics"][0];
  EXPECT_EQ(error["severity"], 1);
  EXPECT_EQ(error["range"]["start"]["line"], lineContaining(broken, "undefined_name"));
  EXPECT_NE(error["message"].get<std::string>().find("undefined_name"), std::string::npos);

  EXPECT_EQ(shutdownAndExit(client, 120), 0);
  fs::remove_all(folder);
}

TEST(LspProtocolTest, AMissingNvccIsOneWarningNotACrash) {
  std::string source = std::string(PTXDVFS_EXAMPLES_DIR) + "/saxpy.cu";
  std::string uri = fileUri(source);
  LspClient client({}, {"CUDACXX=/nonexistent/nvcc"});
  client.initialize();
  client.notify("textDocument/didOpen",
                {{"textDocument", {{"uri", uri}, {"languageId", "cuda"}, {"version", 1}, {"text", readFile(source)}}}});
  auto published = client.diagnostics(uri);
  ASSERT_TRUE(published);
  ASSERT_EQ((*published)["diagnostics"].size(), 1u) << published->dump(1);
  const nlohmann::json &only = (*published)["diagnostics"][0];
  EXPECT_EQ(only["severity"], 2);
  EXPECT_NE(only["message"].get<std::string>().find("nvcc could not be run"), std::string::npos);
  EXPECT_EQ(shutdownAndExit(client), 0);
}

TEST(LspProtocolTest, ANewerSaveStopsTheRunningNvcc) {
  // A stand-in nvcc that records its pid and hangs: the first save's run
  // must be killed when the second save arrives, and the second started.
  fs::path folder = fs::temp_directory_path() / ("ptxdvfs-lsp-cancel-" + std::to_string(getpid()));
  fs::create_directories(folder);
  fs::path pids = folder / "pids", nvcc = folder / "nvcc", source = folder / "k.cu";
  std::ofstream(nvcc) << "#!/bin/sh\necho $$ >> '" << pids.string() << "'\nexec sleep 60\n";
  fs::permissions(nvcc, fs::perms::owner_all);
  std::ofstream(source) << "__global__ void k() {}\n";
  std::string uri = fileUri(source.string());

  LspClient client({}, {"CUDACXX=" + nvcc.string()});
  client.initialize();
  client.notify("textDocument/didOpen",
                {{"textDocument", {{"uri", uri}, {"languageId", "cuda"}, {"version", 1}, {"text", ""}}}});
  auto started = [&](std::size_t count) {
    for (int wait = 0; wait < 500; ++wait) {
      std::ifstream lines(pids);
      std::vector<int> found;
      for (int pid; lines >> pid;)
        found.push_back(pid);
      if (found.size() >= count)
        return found;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return std::vector<int>{};
  };
  std::vector<int> first = started(1);
  ASSERT_EQ(first.size(), 1u);
  client.notify("textDocument/didSave", {{"textDocument", {{"uri", uri}}}});
  std::vector<int> both = started(2);
  ASSERT_EQ(both.size(), 2u);
  EXPECT_EQ(kill(both[0], 0), -1); // the first nvcc is gone
  EXPECT_EQ(errno, ESRCH);
  EXPECT_EQ(kill(both[1], 0), 0); // the second runs

  client.notify("textDocument/didClose", {{"textDocument", {{"uri", uri}}}});
  EXPECT_EQ(shutdownAndExit(client), 0);
  EXPECT_EQ(kill(both[1], 0), -1); // closing the document stopped it too
  fs::remove_all(folder);
}

TEST(LspProtocolTest, TheLstmAnswersThroughTheModelProgramWithTheModelKeptLoaded) {
  std::string text = readFile(realisticPtx());
  std::string uri = fileUri(realisticPtx());
  LspClient client({"--predictor", "lstm", "--all"});
  client.initialize();
  for (int save = 0; save < 2; ++save) {
    if (save == 0)
      client.notify("textDocument/didOpen", openParams(uri, text));
    else
      client.notify("textDocument/didSave", {{"textDocument", {{"uri", uri}}}});
    auto published = client.diagnostics(uri, 120);
    ASSERT_TRUE(published);
    const nlohmann::json *gemm = findByCode((*published)["diagnostics"], kGemm);
    ASSERT_NE(gemm, nullptr) << published->dump(1);
    EXPECT_EQ((*gemm)["data"]["predictor"], "lstm");
  }
  EXPECT_EQ(shutdownAndExit(client, 120), 0);
}
