// SHA-256 and HMAC-SHA256 for stud-shuffle-v1, the deck tree and the
// commitments, over OpenSSL's libcrypto (which uses the CPU's SHA extensions
// where present; libsodium's SHA-256 is plain C). Ed25519 stays in libsodium.
//
// Contract: Sha256 is SHA-256 (FIPS 180-4) of the concatenated parts;
// HmacSha256 is RFC 2104 HMAC-SHA256. Allocation failure inside libcrypto is
// unrecoverable and aborts the process with a message.
#ifndef STUD_SERVICE_FAIRNESS_SHA256_H_
#define STUD_SERVICE_FAIRNESS_SHA256_H_

#include <array>
#include <cstdint>
#include <initializer_list>

#include "absl/strings/string_view.h"

typedef struct evp_md_ctx_st EVP_MD_CTX;

namespace stud::fairness {

inline constexpr size_t kSha256Bytes = 32;
using Sha256Digest = std::array<uint8_t, kSha256Bytes>;

// SHA-256 of parts[0] || parts[1] || ... (one reusable context per thread).
Sha256Digest Sha256(std::initializer_list<absl::string_view> parts);

// HMAC-SHA256 keyed once: the inner and outer pad blocks are absorbed at
// construction, so each Mac() costs the message's blocks plus two
// compressions, not four.
class HmacSha256 {
 public:
  explicit HmacSha256(absl::string_view key);
  ~HmacSha256();
  HmacSha256(const HmacSha256&) = delete;
  HmacSha256& operator=(const HmacSha256&) = delete;

  // Appends to the message prefix kept in the keyed state.
  void Update(absl::string_view data);
  // HMAC(key, prefix || tail); the keyed state (and the prefix) is kept.
  Sha256Digest Mac(absl::string_view tail);

 private:
  EVP_MD_CTX* inner_;    // SHA-256 after (key ^ ipad) || prefix
  EVP_MD_CTX* outer_;    // SHA-256 after (key ^ opad)
  EVP_MD_CTX* scratch_;  // the copy a Mac() finishes
};

}  // namespace stud::fairness

#endif  // STUD_SERVICE_FAIRNESS_SHA256_H_
