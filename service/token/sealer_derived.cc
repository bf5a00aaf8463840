// Token format 5 (sealer.h): AES-256-GCM-SIV under a subkey of the ring key,
// the tenant named by a keyed tag. Kept apart from sealer.cc, which holds the
// formats that use the ring key itself.
#include <sodium.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "service/token/gcm_siv.h"
#include "service/token/sealer.h"

namespace stud::service {
namespace {

// crypto_kdf contexts (exactly 8 bytes), one per use of a ring key, so that
// no two algorithms or formats ever share key material (sealer.h lists all).
constexpr char kSivContext[crypto_kdf_CONTEXTBYTES + 1] = "studsiv5";
constexpr char kTenantContext[crypto_kdf_CONTEXTBYTES + 1] = "studtnt5";
constexpr size_t kHeaderBytes = kTokenHeaderBytes + kTenantTagBytes;  // 15

static_assert(gcm_siv::kKeyBytes == kKeyBytes && gcm_siv::kTagBytes == kTokenTagBytes);
static_assert(sizeof(crypto_generichash_state) == 384);

}  // namespace

void Sealer::DeriveSubkeys() {
  static std::atomic<uint64_t> next_id{1};
  tag_cache_id_ = next_id.fetch_add(1, std::memory_order_relaxed);
  siv_keys_.resize(keys_.size());
  tenant_tag_hash_.resize(keys_.size());
  uint8_t subkey[crypto_generichash_KEYBYTES];
  crypto_generichash_state h;
  for (size_t i = 0; i < keys_.size(); ++i) {
    crypto_kdf_derive_from_key(siv_keys_[i].data(), siv_keys_[i].size(), 1, kSivContext,
                               keys_[i].bytes.data());
    // The tag hash is keyed once here; a seal or open continues from it.
    crypto_kdf_derive_from_key(subkey, sizeof(subkey), 1, kTenantContext, keys_[i].bytes.data());
    crypto_generichash_init(&h, subkey, sizeof(subkey), kTenantTagBytes);
    std::memcpy(tenant_tag_hash_[i].state.data(), &h, sizeof(h));
  }
  sodium_memzero(subkey, sizeof(subkey));
  sodium_memzero(&h, sizeof(h));
}

std::array<uint8_t, kTenantTagBytes> Sealer::TenantTag(size_t key_index,
                                                       absl::string_view tenant) const {
  // A BLAKE2b finalisation costs about a third of a GCM-SIV seal of a whole
  // state, and a thread serves one tenant's calls after another: the last tag
  // each thread computed is kept, keyed by the sealer (an id no other sealer
  // of the process ever gets), the ring key and the tenant.
  struct Last {
    uint64_t sealer = 0;
    size_t key = 0;
    std::string tenant;
    std::array<uint8_t, kTenantTagBytes> tag{};
  };
  thread_local Last last;
  if (last.sealer == tag_cache_id_ && last.key == key_index && last.tenant == tenant) {
    return last.tag;
  }
  crypto_generichash_state h;
  std::memcpy(&h, tenant_tag_hash_[key_index].state.data(), sizeof(h));
  crypto_generichash_update(&h, reinterpret_cast<const unsigned char*>(tenant.data()),
                            tenant.size());
  std::array<uint8_t, kTenantTagBytes> tag{};
  crypto_generichash_final(&h, tag.data(), tag.size());
  sodium_memzero(&h, sizeof(h));
  last.sealer = tag_cache_id_;
  last.key = key_index;
  last.tenant.assign(tenant.data(), tenant.size());
  last.tag = tag;
  return tag;
}

void Sealer::SealDerivedTo(absl::string_view plaintext, absl::string_view tenant,
                           absl::string_view hand_id, std::string* token) const {
  const Key& key = keys_[sealing_];
  token->resize(kHeaderBytes + gcm_siv::kNonceBytes + plaintext.size() + gcm_siv::kTagBytes);
  auto* out = reinterpret_cast<uint8_t*>(token->data());
  out[0] = 'S';
  out[1] = 'K';
  out[2] = kDerivedTokenFormat;
  out[3] = static_cast<uint8_t>(key.id >> 24);
  out[4] = static_cast<uint8_t>(key.id >> 16);
  out[5] = static_cast<uint8_t>(key.id >> 8);
  out[6] = static_cast<uint8_t>(key.id);
  const std::array<uint8_t, kTenantTagBytes> tag = TenantTag(sealing_, tenant);
  std::memcpy(out + kTokenHeaderBytes, tag.data(), tag.size());
  // The nonce is the hand's public id (its first 12 bytes; zeros for none).
  gcm_siv::Nonce nonce{};
  if (!hand_id.empty()) {
    std::memcpy(nonce.data(), hand_id.data(), std::min(hand_id.size(), nonce.size()));
  }
  std::memcpy(out + kHeaderBytes, nonce.data(), nonce.size());
  gcm_siv::Seal(siv_keys_[sealing_], nonce, absl::string_view(token->data(), kHeaderBytes),
                plaintext, out + kHeaderBytes + nonce.size());
}

absl::Status Sealer::OpenDerived(absl::string_view token, const Key& key, absl::string_view tenant,
                                 std::string* out) const {
  if (token.size() < kHeaderBytes + gcm_siv::kNonceBytes + gcm_siv::kTagBytes) {
    return TokenErrorStatus(TokenError::kMalformed,
                            "token: malformed (format 5 header): truncated or not a token");
  }
  const auto key_index = static_cast<size_t>(&key - keys_.data());
  const auto* in = reinterpret_cast<const uint8_t*>(token.data());
  gcm_siv::Nonce nonce{};
  std::memcpy(nonce.data(), in + kHeaderBytes, nonce.size());
  std::string& plain = *out;
  plain.resize(token.size() - kHeaderBytes - nonce.size() - gcm_siv::kTagBytes);
  if (!gcm_siv::Open(siv_keys_[key_index], nonce, token.substr(0, kHeaderBytes),
                     token.substr(kHeaderBytes + nonce.size()),
                     reinterpret_cast<uint8_t*>(plain.data()))) {
    return TokenErrorStatus(TokenError::kAuthFailed,
                            "token: authentication failed: the token was altered or truncated");
  }
  // Authentic: now whose is it. The tag is authenticated, so comparing it
  // with the calling tenant's is enough; the message names neither tenant.
  const std::array<uint8_t, kTenantTagBytes> expected = TenantTag(key_index, tenant);
  if (sodium_memcmp(expected.data(), in + kTokenHeaderBytes, expected.size()) != 0) {
    sodium_memzero(plain.data(), plain.size());
    return TokenErrorStatus(
        TokenError::kTenantMismatch,
        tenant.empty() ? "token: sealed for a tenant; this call has no tenant"
                       : "token: sealed for another tenant (or for none): not yours to play");
  }
  return absl::OkStatus();
}

}  // namespace stud::service
