// Server.h - the LSP 3.17 server: document state, a worker that analyses, and the protocol's rules.
#pragma once

#include "lsp/Analysis.h"
#include "lsp/Transport.h"

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace ptxdvfs::tools::lsp {

/// Serves one client. The reading thread calls handle() for each message;
/// analyses run on one worker thread, newest document state first, so a
/// slow nvcc never blocks hover or the protocol. The model is loaded once,
/// before the first message.
class LanguageServer {
public:
  /// `model`: from loadPredictionModel().
  LanguageServer(std::shared_ptr<const PredictionModel> model, AnalysisSettings settings,
                 MessageWriter &writer);
  ~LanguageServer();
  LanguageServer(const LanguageServer &) = delete;
  LanguageServer &operator=(const LanguageServer &) = delete;

  /// Handles one message body (malformed ones are answered with the
  /// JSON-RPC error, never fatal). False once `exit` has arrived.
  bool handle(const std::string &body);
  /// Exit status: 0 when `shutdown` came before `exit` (or the end of the
  /// stream), 1 otherwise, as LSP asks.
  int exitStatus() const { return shutdownRequested_ ? 0 : 1; }

private:
  struct Document {
    std::string path;
    std::string text;
    long version = 0;
    unsigned generation = 0;              ///< bumped by each open/change/save
    std::vector<KernelSummary> kernels;   ///< from the last analysis
  };

  void onRequest(const nlohmann::json &id, const std::string &method, const nlohmann::json &params);
  /// False for `exit`.
  bool onNotification(const std::string &method, const nlohmann::json &params);
  nlohmann::json initializeResult(const nlohmann::json &params);
  nlohmann::json hover(const nlohmann::json &params);

  void schedule(const std::string &uri);
  void work();
  void waitUntilIdle();
  void stopWorker();

  std::shared_ptr<const PredictionModel> model_;
  AnalysisSettings settings_;
  MessageWriter &writer_;
  bool initialized_ = false;
  bool shutdownRequested_ = false;

  std::mutex mutex_; // guards everything below
  std::condition_variable changed_;
  std::map<std::string, Document> documents_; // by URI
  std::deque<std::string> queue_;             // URIs waiting for analysis, each once
  std::string analysing_;                     // URI the worker is on, empty when idle
  std::shared_ptr<Cancellation> cancellation_;
  bool stopping_ = false;
  std::thread worker_;
};

} // namespace ptxdvfs::tools::lsp
