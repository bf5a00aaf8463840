#include "service/fairness/sha256.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace stud::fairness {
namespace {

constexpr size_t kBlockBytes = 64;

// libcrypto fails here only when it cannot allocate: nothing to recover.
void Check(int ok, const char* what) {
  if (ok == 1) return;
  std::fprintf(stderr, "fatal: OpenSSL %s failed (out of memory?)\n", what);
  std::abort();
}

// Fetched once: EVP_sha256() would look the implementation up on every init.
const EVP_MD* Md() {
  static const EVP_MD* const md = [] {
    EVP_MD* m = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    if (m == nullptr) Check(0, "EVP_MD_fetch(SHA256)");
    return m;
  }();
  return md;
}

EVP_MD_CTX* NewCtx() {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  if (ctx == nullptr) Check(0, "EVP_MD_CTX_new");
  return ctx;
}

struct CtxHolder {
  EVP_MD_CTX* ctx = NewCtx();
  ~CtxHolder() { EVP_MD_CTX_free(ctx); }
};

void Update(EVP_MD_CTX* ctx, const void* data, size_t n) {
  Check(EVP_DigestUpdate(ctx, data, n), "EVP_DigestUpdate");
}

void Final(EVP_MD_CTX* ctx, uint8_t* out) {
  Check(EVP_DigestFinal_ex(ctx, out, nullptr), "EVP_DigestFinal_ex");
}

}  // namespace

Sha256Digest Sha256(std::initializer_list<absl::string_view> parts) {
  thread_local CtxHolder holder;
  Check(EVP_DigestInit_ex(holder.ctx, Md(), nullptr), "EVP_DigestInit_ex");
  for (absl::string_view p : parts) Update(holder.ctx, p.data(), p.size());
  Sha256Digest out;
  Final(holder.ctx, out.data());
  return out;
}

HmacSha256::HmacSha256(absl::string_view key)
    : inner_(NewCtx()), outer_(NewCtx()), scratch_(NewCtx()) {
  std::array<uint8_t, kBlockBytes> k{};
  if (key.size() > kBlockBytes) {
    const Sha256Digest d = Sha256({key});
    std::memcpy(k.data(), d.data(), d.size());
  } else {
    std::memcpy(k.data(), key.data(), key.size());
  }
  std::array<uint8_t, kBlockBytes> pad;
  for (size_t i = 0; i < kBlockBytes; ++i) pad[i] = k[i] ^ 0x36;
  Check(EVP_DigestInit_ex(inner_, Md(), nullptr), "EVP_DigestInit_ex");
  stud::fairness::Update(inner_, pad.data(), pad.size());
  for (size_t i = 0; i < kBlockBytes; ++i) pad[i] = k[i] ^ 0x5c;
  Check(EVP_DigestInit_ex(outer_, Md(), nullptr), "EVP_DigestInit_ex");
  stud::fairness::Update(outer_, pad.data(), pad.size());
  OPENSSL_cleanse(k.data(), k.size());
  OPENSSL_cleanse(pad.data(), pad.size());
}

HmacSha256::~HmacSha256() {
  EVP_MD_CTX_free(inner_);  // clears the state before freeing it
  EVP_MD_CTX_free(outer_);
  EVP_MD_CTX_free(scratch_);
}

void HmacSha256::Update(absl::string_view data) {
  stud::fairness::Update(inner_, data.data(), data.size());
}

Sha256Digest HmacSha256::Mac(absl::string_view tail) {
  Sha256Digest inner_hash;
  Check(EVP_MD_CTX_copy_ex(scratch_, inner_), "EVP_MD_CTX_copy_ex");
  stud::fairness::Update(scratch_, tail.data(), tail.size());
  Final(scratch_, inner_hash.data());
  Sha256Digest out;
  Check(EVP_MD_CTX_copy_ex(scratch_, outer_), "EVP_MD_CTX_copy_ex");
  stud::fairness::Update(scratch_, inner_hash.data(), inner_hash.size());
  Final(scratch_, out.data());
  OPENSSL_cleanse(inner_hash.data(), inner_hash.size());
  return out;
}

}  // namespace stud::fairness
