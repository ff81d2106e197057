// Transport.h - JSON-RPC 2.0 messages framed by Content-Length headers, as LSP 3.17 sends them over stdio.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <iosfwd>
#include <mutex>
#include <string>

namespace ptxdvfs::tools::lsp {

/// JSON-RPC 2.0 and LSP 3.17 error codes.
enum ErrorCode : int {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  kServerNotInitialized = -32002,
};

/// Bodies larger than this are read and dropped (a stuck or hostile client
/// must not make the server allocate without bound).
inline constexpr std::size_t kMaxBodyBytes = 64u << 20;

/// One framed message: its body, or why there is none.
struct Frame {
  std::string body;
  bool endOfStream = false; ///< the client closed the stream; nothing more will come
  std::string error;        ///< a frame that was read but is unusable (no Content-Length, too large)
};

/// Reads headers up to the empty line, then exactly Content-Length bytes.
/// Header lines may end in CRLF or LF; unknown headers are ignored.
Frame readFrame(std::istream &in);

/// Writes whole messages; several threads may write (the worker publishes
/// diagnostics while the reader answers requests).
class MessageWriter {
public:
  explicit MessageWriter(std::ostream &out) : out_(out) {}
  void write(const nlohmann::json &message);

  void respond(const nlohmann::json &id, const nlohmann::json &result);
  void respondError(const nlohmann::json &id, int code, const std::string &message);
  void notify(const std::string &method, const nlohmann::json &params);

private:
  std::mutex mutex_;
  std::ostream &out_;
};

} // namespace ptxdvfs::tools::lsp
