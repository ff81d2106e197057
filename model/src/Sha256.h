// Sha256.h - SHA-256 for the content hashes of model manifests, computed by OpenSSL's libcrypto.
#pragma once

#include <string>
#include <string_view>

struct evp_md_ctx_st; // OpenSSL's EVP_MD_CTX, kept out of this header

namespace ptxdvfs::model {

/// Incremental SHA-256 (a maintained implementation, not ours: model
/// folders come from other people). `Sha256().update(a).update(b).hexDigest()`.
class Sha256 {
public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256 &) = delete;
  Sha256 &operator=(const Sha256 &) = delete;

  Sha256 &update(std::string_view bytes);
  /// Lower-case hex of the 32-byte digest; the object is spent afterwards.
  std::string hexDigest();

private:
  evp_md_ctx_st *context_;
};

/// The SHA-256 of a file's bytes; empty when it cannot be read.
std::string sha256OfFile(const std::string &path);

} // namespace ptxdvfs::model
