// Server.cpp - request and notification handlers, the analysis worker, and hover lookup.
#include "lsp/Server.h"

#include "FileUri.h"
#include "Version.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>

namespace ptxdvfs::tools::lsp {

namespace {

bool isIdentifierCharacter(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

/// The identifier under a 0-based (line, character) of `text`, or "".
std::string identifierAt(const std::string &text, std::size_t line, std::size_t character) {
  std::string content = lineOf(text, static_cast<std::uint32_t>(line));
  if (character > content.size())
    return "";
  std::size_t first = character, last = character;
  while (first > 0 && isIdentifierCharacter(content[first - 1]))
    --first;
  while (last < content.size() && isIdentifierCharacter(content[last]))
    ++last;
  return content.substr(first, last - first);
}

} // namespace

LanguageServer::LanguageServer(std::shared_ptr<const PredictionModel> model,
                               AnalysisSettings settings, MessageWriter &writer)
    : model_(std::move(model)), settings_(std::move(settings)), writer_(writer),
      worker_([this] { work(); }) {}

LanguageServer::~LanguageServer() { stopWorker(); }

void LanguageServer::stopWorker() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    if (cancellation_)
      cancellation_->cancel();
  }
  changed_.notify_all();
  if (worker_.joinable())
    worker_.join();
}

bool LanguageServer::handle(const std::string &body) {
  nlohmann::json message = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) {
    writer_.respondError(nullptr, kParseError, "the message is not JSON");
    return true;
  }
  nlohmann::json id = message.is_object() && message.contains("id") ? message["id"] : nlohmann::json();
  bool validId = id.is_null() || id.is_string() || id.is_number_integer();
  if (!message.is_object() || message.value("jsonrpc", nlohmann::json()) != "2.0" ||
      !message.contains("method") || !message["method"].is_string() || !validId) {
    // A response to a request we never sent is not an error worth an answer.
    if (message.is_object() && (message.contains("result") || message.contains("error")))
      return true;
    writer_.respondError(validId ? id : nlohmann::json(), kInvalidRequest,
                         "not a JSON-RPC 2.0 request or notification");
    return true;
  }
  std::string method = message["method"];
  nlohmann::json params = message.value("params", nlohmann::json::object());
  bool isRequest = message.contains("id");
  try {
    if (isRequest)
      onRequest(id, method, params);
    else
      return onNotification(method, params);
  } catch (const nlohmann::json::exception &error) {
    if (isRequest)
      writer_.respondError(id, kInvalidParams, method + ": " + error.what());
    else
      spdlog::warn("{}: ignored, malformed parameters: {}", method, error.what());
  } catch (const std::exception &error) {
    if (isRequest)
      writer_.respondError(id, kInternalError, method + ": " + error.what());
    else
      spdlog::error("{}: {}", method, error.what());
  }
  return true;
}

void LanguageServer::onRequest(const nlohmann::json &id, const std::string &method,
                               const nlohmann::json &params) {
  if (method == "initialize") {
    if (initialized_)
      return writer_.respondError(id, kInvalidRequest, "initialize was already called");
    initialized_ = true;
    return writer_.respond(id, initializeResult(params));
  }
  if (!initialized_)
    return writer_.respondError(id, kServerNotInitialized, "initialize first");
  if (shutdownRequested_)
    return writer_.respondError(id, kInvalidRequest, "the server is shutting down");
  if (method == "shutdown") {
    waitUntilIdle(); // what was saved before shutdown is still reported
    shutdownRequested_ = true;
    return writer_.respond(id, nullptr);
  }
  if (method == "textDocument/hover")
    return writer_.respond(id, hover(params));
  writer_.respondError(id, kMethodNotFound, "unknown method " + method);
}

nlohmann::json LanguageServer::initializeResult(const nlohmann::json &params) {
  // Columns are counted in bytes; UTF-8 is exact where the client accepts
  // it, UTF-16 (the default) is exact on ASCII lines, which PTX and
  // nearly all CUDA declarations are.
  std::string encoding = "utf-16";
  nlohmann::json offered = params.value("capabilities", nlohmann::json::object())
                               .value("general", nlohmann::json::object())
                               .value("positionEncodings", nlohmann::json::array());
  if (std::find(offered.begin(), offered.end(), "utf-8") != offered.end())
    encoding = "utf-8";
  return {{"capabilities",
           {{"positionEncoding", encoding},
            {"textDocumentSync", {{"openClose", true}, {"change", 1}, {"save", {{"includeText", true}}}}},
            {"hoverProvider", true}}},
          {"serverInfo", {{"name", "ptxdvfs"}, {"version", kVersion}}}};
}

bool LanguageServer::onNotification(const std::string &method, const nlohmann::json &params) {
  if (method == "exit")
    return false;
  if (!initialized_ || shutdownRequested_)
    return true; // dropped, as the protocol asks
  if (method == "textDocument/didOpen" || method == "textDocument/didChange" ||
      method == "textDocument/didSave") {
    const nlohmann::json &identifier = params.at("textDocument");
    std::string uri = identifier.at("uri").get<std::string>();
    std::string path = pathOfFileUri(uri);
    if (path.empty()) {
      spdlog::warn("{}: not a file: URI, ignored", uri);
      return true;
    }
    bool analyse = method != "textDocument/didChange";
    {
      std::lock_guard<std::mutex> lock(mutex_);
      Document &document = documents_[uri];
      document.path = path;
      if (method == "textDocument/didOpen")
        document.text = identifier.at("text").get<std::string>();
      else if (method == "textDocument/didChange" && !params.at("contentChanges").empty())
        document.text = params["contentChanges"].back().at("text").get<std::string>();
      else if (params.contains("text"))
        document.text = params["text"].get<std::string>();
      if (identifier.contains("version") && identifier["version"].is_number_integer())
        document.version = identifier["version"].get<long>();
      ++document.generation;
    }
    if (analyse && documentKind(path) != DocumentKind::Other)
      schedule(uri);
    return true;
  }
  if (method == "textDocument/didClose") {
    std::string uri = params.at("textDocument").at("uri").get<std::string>();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      documents_.erase(uri);
      queue_.erase(std::remove(queue_.begin(), queue_.end(), uri), queue_.end());
      if (analysing_ == uri && cancellation_)
        cancellation_->cancel();
    }
    writer_.notify("textDocument/publishDiagnostics",
                   {{"uri", uri}, {"diagnostics", nlohmann::json::array()}});
    return true;
  }
  // initialized, $/cancelRequest, $/setTrace, configuration: nothing to do.
  return true;
}

void LanguageServer::schedule(const std::string &uri) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (std::find(queue_.begin(), queue_.end(), uri) == queue_.end())
      queue_.push_back(uri);
    if (analysing_ == uri && cancellation_)
      cancellation_->cancel(); // its result would be stale: stop nvcc now
  }
  changed_.notify_all();
}

void LanguageServer::work() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_)
      return;
    std::string uri = queue_.front();
    queue_.pop_front();
    auto found = documents_.find(uri);
    if (found == documents_.end())
      continue;
    Document snapshot = found->second;
    analysing_ = uri;
    auto cancellation = std::make_shared<Cancellation>();
    cancellation_ = cancellation;
    lock.unlock();

    DocumentAnalysis analysis =
        analyseDocument(model_, settings_, snapshot.path, snapshot.text, cancellation.get());

    lock.lock();
    analysing_.clear();
    cancellation_.reset();
    found = documents_.find(uri);
    // Publish only what still describes the document (a newer state is queued otherwise).
    if (!analysis.cancelled && found != documents_.end() &&
        found->second.generation == snapshot.generation) {
      found->second.kernels = analysis.kernels;
      nlohmann::json params = {{"uri", uri}, {"diagnostics", analysis.diagnostics}};
      if (snapshot.version != 0)
        params["version"] = snapshot.version;
      writer_.notify("textDocument/publishDiagnostics", params);
    }
    changed_.notify_all();
  }
}

void LanguageServer::waitUntilIdle() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return stopping_ || (queue_.empty() && analysing_.empty()); });
}

nlohmann::json LanguageServer::hover(const nlohmann::json &params) {
  std::string uri = params.at("textDocument").at("uri").get<std::string>();
  const nlohmann::json &at = params.at("position");
  auto line = at.at("line").get<std::size_t>(), character = at.at("character").get<std::size_t>();
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = documents_.find(uri);
  if (found == documents_.end())
    return nullptr;
  std::string word = identifierAt(found->second.text, line, character);
  if (word.empty())
    return nullptr;
  for (const KernelSummary &kernel : found->second.kernels)
    if (word == kernel.bareName || word == kernel.name)
      return {{"contents", {{"kind", "markdown"}, {"value", kernel.markdown}}}};
  return nullptr;
}

} // namespace ptxdvfs::tools::lsp
