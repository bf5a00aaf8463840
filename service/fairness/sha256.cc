// The SHA256_* block functions are deprecated in OpenSSL 3 in favour of EVP,
// whose per-hash overhead is what this file avoids (see sha256.h).
#define OPENSSL_SUPPRESS_DEPRECATED 1

#include "service/fairness/sha256.h"

#include <sodium.h>

#include <cstring>

namespace stud::fairness {
namespace {

constexpr size_t kBlockBytes = 64;

}  // namespace

// SHA256_Init, _Update and _Final only fail on a null context: they return 1.
Sha256Hasher::Sha256Hasher() { SHA256_Init(&ctx_); }

void Sha256Hasher::Update(const void* data, size_t n) { SHA256_Update(&ctx_, data, n); }

Sha256Digest Sha256Hasher::Final() {
  Sha256Digest out;
  SHA256_Final(out.data(), &ctx_);
  return out;
}

// sodium_memzero is glibc's explicit_bzero (a vectorised memset the compiler
// cannot drop); OPENSSL_cleanse wipes in a loop of its own, several times slower,
// and a hand's derivation wipes some 300 hash states.
void Sha256Hasher::Clear() { sodium_memzero(&ctx_, sizeof(ctx_)); }

Sha256Digest Sha256(std::initializer_list<absl::string_view> parts) {
  Sha256Hasher h;
  for (absl::string_view p : parts) h.Update(p);
  return h.Final();
}

HmacSha256::HmacSha256(absl::string_view key) {
  std::array<uint8_t, kBlockBytes> k{};
  if (key.size() > kBlockBytes) {
    const Sha256Digest d = Sha256({key});
    std::memcpy(k.data(), d.data(), d.size());
  } else {
    std::memcpy(k.data(), key.data(), key.size());
  }
  std::array<uint8_t, kBlockBytes> pad;
  for (size_t i = 0; i < kBlockBytes; ++i) pad[i] = k[i] ^ 0x36;
  inner_.Update(pad.data(), pad.size());
  for (size_t i = 0; i < kBlockBytes; ++i) pad[i] = k[i] ^ 0x5c;
  outer_.Update(pad.data(), pad.size());
  sodium_memzero(k.data(), k.size());
  sodium_memzero(pad.data(), pad.size());
}

HmacSha256::~HmacSha256() {
  inner_.Clear();
  outer_.Clear();
}

Sha256Digest HmacSha256::Mac(absl::string_view tail) const {
  Sha256Hasher inner = inner_;
  inner.Update(tail);
  Sha256Digest inner_hash = inner.Final();
  Sha256Hasher outer = outer_;
  outer.Update(inner_hash.data(), inner_hash.size());
  const Sha256Digest out = outer.Final();
  // The forks hold key-equivalent state: not left on the stack.
  inner.Clear();
  outer.Clear();
  sodium_memzero(inner_hash.data(), inner_hash.size());
  return out;
}

}  // namespace stud::fairness
