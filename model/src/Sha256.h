// Sha256.h - SHA-256 (FIPS 180-4) for the content hashes of model manifests.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace ptxdvfs::model {

/// Incremental SHA-256. `Sha256().update(a).update(b).hexDigest()`.
class Sha256 {
public:
  Sha256();
  Sha256 &update(std::string_view bytes);
  /// Lower-case hex of the 32-byte digest; the object is spent afterwards.
  std::string hexDigest();

private:
  void compress(const std::uint8_t *block);

  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t length_ = 0;
};

/// The SHA-256 of a file's bytes; empty when it cannot be read.
std::string sha256OfFile(const std::string &path);

} // namespace ptxdvfs::model
