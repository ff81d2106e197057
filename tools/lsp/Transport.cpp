// Transport.cpp - Content-Length framing; every write is one locked, flushed message.
#include "lsp/Transport.h"

#include <algorithm>
#include <cctype>
#include <istream>
#include <ostream>

namespace ptxdvfs::tools::lsp {

namespace {

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

} // namespace

Frame readFrame(std::istream &in) {
  Frame frame;
  bool sawHeader = false, sawLength = false;
  std::size_t length = 0;
  std::string line;
  while (true) {
    if (!std::getline(in, line)) {
      frame.endOfStream = true;
      return frame;
    }
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    if (line.empty()) {
      if (sawHeader)
        break;
      continue; // blank lines between messages
    }
    sawHeader = true;
    std::size_t colon = line.find(':');
    if (colon == std::string::npos || lowercase(line.substr(0, colon)) != "content-length")
      continue;
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    char *end = nullptr;
    unsigned long long parsed = std::strtoull(value.c_str(), &end, 10);
    sawLength = !value.empty() && end && *end == '\0' && value[0] != '-';
    length = static_cast<std::size_t>(parsed);
  }
  if (!sawLength) {
    frame.error = "a message without a valid Content-Length header";
    return frame;
  }
  std::size_t kept = std::min(length, kMaxBodyBytes);
  frame.body.resize(kept);
  in.read(frame.body.data(), static_cast<std::streamsize>(kept));
  if (static_cast<std::size_t>(in.gcount()) < kept) {
    frame.endOfStream = true;
    frame.body.clear();
    return frame;
  }
  if (length > kMaxBodyBytes) {
    in.ignore(static_cast<std::streamsize>(length - kMaxBodyBytes));
    frame.body.clear();
    frame.error = "a message of " + std::to_string(length) + " bytes, more than the " +
                  std::to_string(kMaxBodyBytes) + " accepted";
  }
  return frame;
}

void MessageWriter::write(const nlohmann::json &message) {
  // Invalid UTF-8 in a path or message must not throw here: replace it.
  std::string body = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::lock_guard<std::mutex> lock(mutex_);
  out_ << "Content-Length: " << body.size() << "\r\n\r\n" << body;
  out_.flush();
}

void MessageWriter::respond(const nlohmann::json &id, const nlohmann::json &result) {
  write({{"jsonrpc", "2.0"}, {"id", id}, {"result", result}});
}

void MessageWriter::respondError(const nlohmann::json &id, int code, const std::string &message) {
  write({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}});
}

void MessageWriter::notify(const std::string &method, const nlohmann::json &params) {
  write({{"jsonrpc", "2.0"}, {"method", method}, {"params", params}});
}

} // namespace ptxdvfs::tools::lsp
