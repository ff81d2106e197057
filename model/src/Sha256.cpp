// Sha256.cpp - OpenSSL EVP digests; a failure of the library is a bug to surface, not a hash.
#include "Sha256.h"

#include <openssl/evp.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace ptxdvfs::model {

Sha256::Sha256() : context_(EVP_MD_CTX_new()) {
  if (!context_ || EVP_DigestInit_ex(context_, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("OpenSSL: cannot start a SHA-256 digest");
}

Sha256::~Sha256() { EVP_MD_CTX_free(context_); }

Sha256 &Sha256::update(std::string_view bytes) {
  if (EVP_DigestUpdate(context_, bytes.data(), bytes.size()) != 1)
    throw std::runtime_error("OpenSSL: SHA-256 update failed");
  return *this;
}

std::string Sha256::hexDigest() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(context_, digest, &length) != 1)
    throw std::runtime_error("OpenSSL: SHA-256 final failed");
  std::string hex;
  char pair[3];
  for (unsigned int i = 0; i < length; ++i) {
    std::snprintf(pair, sizeof pair, "%02x", digest[i]);
    hex += pair;
  }
  return hex;
}

std::string sha256OfFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return "";
  Sha256 hash;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0)
    hash.update(std::string_view(chunk, static_cast<std::size_t>(in.gcount())));
  return hash.hexDigest();
}

} // namespace ptxdvfs::model
