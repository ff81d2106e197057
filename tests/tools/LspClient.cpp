// LspClient.cpp - fork/exec with two pipes; poll() bounds every wait so a hung server fails the test.
#include "LspClient.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <thread>

namespace ptxdvfs::test {

using Clock = std::chrono::steady_clock;

LspClient::LspClient(const std::vector<std::string> &arguments,
                     const std::vector<std::string> &environment) {
  int input[2], output[2];
  if (pipe(input) != 0 || pipe(output) != 0)
    throw std::runtime_error("pipe failed");
  std::vector<std::string> argv = {PTXDVFS_PROGRAM, "lsp"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  pid_ = fork();
  if (pid_ == 0) {
    dup2(input[0], STDIN_FILENO);
    dup2(output[1], STDOUT_FILENO);
    close(input[1]);
    close(output[0]);
    for (const std::string &entry : environment)
      putenv(const_cast<char *>(entry.c_str()));
    std::vector<char *> args;
    for (const std::string &arg : argv)
      args.push_back(const_cast<char *>(arg.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(input[0]);
  close(output[1]);
  toServer_ = input[1];
  fromServer_ = output[0];
  signal(SIGPIPE, SIG_IGN); // a server that died must fail the test, not kill it
}

LspClient::~LspClient() {
  if (toServer_ >= 0)
    close(toServer_);
  if (pid_ > 0 && waitpid(pid_, nullptr, WNOHANG) == 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  if (fromServer_ >= 0)
    close(fromServer_);
}

void LspClient::sendRaw(const std::string &body) {
  std::string frame = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  std::size_t written = 0;
  while (written < frame.size()) {
    ssize_t count = write(toServer_, frame.data() + written, frame.size() - written);
    if (count <= 0)
      return;
    written += static_cast<std::size_t>(count);
  }
}

void LspClient::request(int id, const std::string &method, const nlohmann::json &params) {
  send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}});
}

void LspClient::notify(const std::string &method, const nlohmann::json &params) {
  send({{"jsonrpc", "2.0"}, {"method", method}, {"params", params}});
}

std::optional<nlohmann::json> LspClient::take(double seconds) {
  auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  while (true) {
    std::size_t headerEnd = buffer_.find("\r\n\r\n");
    if (headerEnd != std::string::npos) {
      std::size_t lengthAt = buffer_.find("Content-Length: ");
      std::size_t length = std::stoul(buffer_.substr(lengthAt + 16));
      if (buffer_.size() >= headerEnd + 4 + length) {
        std::string body = buffer_.substr(headerEnd + 4, length);
        buffer_.erase(0, headerEnd + 4 + length);
        return nlohmann::json::parse(body);
      }
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0)
      return std::nullopt;
    pollfd ready{fromServer_, POLLIN, 0};
    if (poll(&ready, 1, static_cast<int>(left)) <= 0)
      return std::nullopt;
    char chunk[65536];
    ssize_t count = read(fromServer_, chunk, sizeof chunk);
    if (count <= 0)
      return std::nullopt;
    buffer_.append(chunk, static_cast<std::size_t>(count));
  }
}

std::optional<nlohmann::json> LspClient::receive(double seconds) {
  if (!held_.empty()) {
    nlohmann::json first = held_.front();
    held_.erase(held_.begin());
    return first;
  }
  return take(seconds);
}

std::optional<nlohmann::json> LspClient::response(int id, double seconds) {
  for (auto it = held_.begin(); it != held_.end(); ++it)
    if (it->contains("id") && (*it)["id"] == id && !it->contains("method")) {
      nlohmann::json found = *it;
      held_.erase(it);
      return found;
    }
  while (auto message = take(seconds)) {
    if (message->contains("id") && (*message)["id"] == id && !message->contains("method"))
      return message;
    held_.push_back(*message);
  }
  return std::nullopt;
}

std::optional<nlohmann::json> LspClient::diagnostics(const std::string &uri, double seconds) {
  auto matches = [&](const nlohmann::json &message) {
    return message.value("method", "") == "textDocument/publishDiagnostics" &&
           message["params"]["uri"] == uri;
  };
  for (auto it = held_.begin(); it != held_.end(); ++it)
    if (matches(*it)) {
      nlohmann::json found = (*it)["params"];
      held_.erase(it);
      return found;
    }
  while (auto message = take(seconds)) {
    if (matches(*message))
      return (*message)["params"];
    held_.push_back(*message);
  }
  return std::nullopt;
}

nlohmann::json LspClient::initialize() {
  request(1, "initialize", {{"processId", nullptr}, {"rootUri", nullptr}, {"capabilities", nlohmann::json::object()}});
  auto answer = response(1);
  notify("initialized");
  return answer ? (*answer)["result"] : nlohmann::json();
}

int LspClient::waitForExit(double seconds) {
  if (toServer_ >= 0) {
    close(toServer_);
    toServer_ = -1;
  }
  auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
  int status = 0;
  while (Clock::now() < deadline) {
    pid_t done = waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return -1;
}

std::string fileUri(const std::string &path) { return "file://" + path; }

} // namespace ptxdvfs::test
