// LspTransportTest.cpp - Content-Length framing against what clients and broken clients send.
#include "lsp/Transport.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace ptxdvfs::tools::lsp;

TEST(LspTransportTest, ReadsConsecutiveFramesWithCrlfOrLfHeaders) {
  std::istringstream in("Content-Length: 2\r\nContent-Type: x\r\n\r\n{}"
                        "content-length:3\n\n[1]");
  Frame first = readFrame(in);
  EXPECT_EQ(first.body, "{}");
  EXPECT_TRUE(first.error.empty());
  Frame second = readFrame(in);
  EXPECT_EQ(second.body, "[1]");
  EXPECT_TRUE(readFrame(in).endOfStream);
}

TEST(LspTransportTest, AFrameWithoutLengthIsAnErrorAndTheNextOneStillReads) {
  std::istringstream in("X-Other: 1\r\n\r\nContent-Length: 2\r\n\r\n{}");
  Frame broken = readFrame(in);
  EXPECT_FALSE(broken.error.empty());
  EXPECT_FALSE(broken.endOfStream);
  EXPECT_EQ(readFrame(in).body, "{}");
  std::istringstream negative("Content-Length: -5\r\n\r\n");
  EXPECT_FALSE(readFrame(negative).error.empty());
}

TEST(LspTransportTest, ATruncatedBodyEndsTheStreamAndAnOversizedOneIsDropped) {
  std::istringstream truncated("Content-Length: 10\r\n\r\n{}");
  EXPECT_TRUE(readFrame(truncated).endOfStream);
  std::string huge(kMaxBodyBytes + 10, ' ');
  std::istringstream oversized("Content-Length: " + std::to_string(huge.size()) + "\r\n\r\n" + huge +
                               "Content-Length: 2\r\n\r\n{}");
  Frame dropped = readFrame(oversized);
  EXPECT_NE(dropped.error.find("more than"), std::string::npos);
  EXPECT_TRUE(dropped.body.empty());
  EXPECT_EQ(readFrame(oversized).body, "{}");
}

TEST(LspTransportTest, WritesOneFramePerMessage) {
  std::ostringstream out;
  MessageWriter writer(out);
  writer.respond(3, nullptr);
  std::string body = R"({"id":3,"jsonrpc":"2.0","result":null})";
  EXPECT_EQ(out.str(), "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
}
