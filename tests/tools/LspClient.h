// LspClient.h - a test's side of the language server: starts `ptxdvfs lsp`, frames messages, waits with a timeout.
#pragma once

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ptxdvfs::test {

class LspClient {
public:
  /// Starts PTXDVFS_PROGRAM with `arguments` (after "lsp") and `environment`
  /// entries (NAME=VALUE) added.
  explicit LspClient(const std::vector<std::string> &arguments = {},
                     const std::vector<std::string> &environment = {});
  ~LspClient();
  LspClient(const LspClient &) = delete;
  LspClient &operator=(const LspClient &) = delete;

  void sendRaw(const std::string &body);
  void send(const nlohmann::json &message) { sendRaw(message.dump()); }
  void request(int id, const std::string &method, const nlohmann::json &params = nlohmann::json::object());
  void notify(const std::string &method, const nlohmann::json &params = nlohmann::json::object());

  /// The next message, or nullopt after `seconds` or at the end of the stream.
  std::optional<nlohmann::json> receive(double seconds = 30);
  /// The next response to `id` (notifications before it are kept for later).
  std::optional<nlohmann::json> response(int id, double seconds = 30);
  /// The next publishDiagnostics notification's params for `uri`.
  std::optional<nlohmann::json> diagnostics(const std::string &uri, double seconds = 60);

  /// initialize + initialized; returns the initialize result.
  nlohmann::json initialize();
  /// Closes our end of stdin (after `exit`, or to end the stream) and waits:
  /// the server's exit status, or -1 if it did not end in `seconds`.
  int waitForExit(double seconds = 30);

private:
  int pid_ = -1;
  int toServer_ = -1, fromServer_ = -1;
  std::string buffer_;
  std::vector<nlohmann::json> held_;
  std::optional<nlohmann::json> take(double seconds);
};

/// `file://` URI of an absolute path (ASCII paths only, as the fixtures are).
std::string fileUri(const std::string &path);

} // namespace ptxdvfs::test
