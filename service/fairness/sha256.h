// SHA-256 and HMAC-SHA256 for stud-shuffle-v1, the deck tree and the
// commitments, over OpenSSL's libcrypto block functions (which use the CPU's
// SHA extensions where present; libsodium's SHA-256 is plain C). Ed25519
// stays in libsodium.
//
// Why the SHA256_* functions and not EVP: a hand's tree and derivation take
// some 300 hashes of one or two blocks each, where EVP's per-hash set-up
// (provider look-ups, and a heap copy of the context for every
// EVP_MD_CTX_copy_ex an HMAC needs) cost more than the compressions. The
// state here is a plain value: copying it forks a hash, which is how HMAC
// keeps its keyed pads (no allocation, no library call).
//
// Contract: Sha256 is SHA-256 (FIPS 180-4) of the concatenated parts;
// HmacSha256 is RFC 2104 HMAC-SHA256. No function here allocates or fails.
#ifndef STUD_SERVICE_FAIRNESS_SHA256_H_
#define STUD_SERVICE_FAIRNESS_SHA256_H_

#include <openssl/sha.h>

#include <array>
#include <cstdint>
#include <initializer_list>

#include "absl/strings/string_view.h"

namespace stud::fairness {

inline constexpr size_t kSha256Bytes = 32;
using Sha256Digest = std::array<uint8_t, kSha256Bytes>;

// The raw bytes of a digest, for the byte-string APIs.
inline absl::string_view View(const Sha256Digest& d) {
  return {reinterpret_cast<const char*>(d.data()), d.size()};
}

// An incremental SHA-256. Copyable: a copy continues from the same state.
class Sha256Hasher {
 public:
  Sha256Hasher();
  void Update(const void* data, size_t n);
  void Update(absl::string_view data) { Update(data.data(), data.size()); }
  // The digest of everything updated so far; the hasher is spent after it.
  Sha256Digest Final();
  // Overwrites the state (it may hold a key's pad).
  void Clear();

 private:
  SHA256_CTX ctx_;
};

// SHA-256 of parts[0] || parts[1] || ...
Sha256Digest Sha256(std::initializer_list<absl::string_view> parts);

// HMAC-SHA256 keyed once: the inner and outer pad blocks are absorbed at
// construction, so each Mac() costs the message's blocks plus two
// compressions, not four. Copyable: a copy keeps the key and the prefix.
class HmacSha256 {
 public:
  explicit HmacSha256(absl::string_view key);
  ~HmacSha256();
  HmacSha256(const HmacSha256&) = default;
  HmacSha256& operator=(const HmacSha256&) = default;

  // Appends to the message prefix kept in the keyed state.
  void Update(absl::string_view data) { inner_.Update(data); }
  // HMAC(key, prefix || tail); the keyed state (and the prefix) is kept.
  Sha256Digest Mac(absl::string_view tail) const;

 private:
  Sha256Hasher inner_;  // after (key ^ ipad) || prefix
  Sha256Hasher outer_;  // after (key ^ opad)
};

}  // namespace stud::fairness

#endif  // STUD_SERVICE_FAIRNESS_SHA256_H_
