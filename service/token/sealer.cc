#include "service/token/sealer.h"

#include <sodium.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "service/token/gcm_siv.h"

namespace stud::service {
namespace {

constexpr char kMagic[2] = {'S', 'K'};
constexpr absl::string_view kPayloadUrl = "type.stud/token_error";
// Context of the nonce subkey (crypto_kdf contexts are exactly 8 bytes).
constexpr char kNonceContext[crypto_kdf_CONTEXTBYTES + 1] = "studnonc";

// Writes the header (format 1 without a tenant, 2 with one); returns its size.
size_t PutHeader(uint8_t* out, uint32_t key_id, absl::string_view tenant) {
  out[0] = static_cast<uint8_t>(kMagic[0]);
  out[1] = static_cast<uint8_t>(kMagic[1]);
  out[2] = tenant.empty() ? kTokenFormat : kTenantTokenFormat;
  out[3] = static_cast<uint8_t>(key_id >> 24);
  out[4] = static_cast<uint8_t>(key_id >> 16);
  out[5] = static_cast<uint8_t>(key_id >> 8);
  out[6] = static_cast<uint8_t>(key_id);
  if (tenant.empty()) return kTokenHeaderBytes;
  out[7] = static_cast<uint8_t>(tenant.size());
  std::memcpy(out + 8, tenant.data(), tenant.size());
  return kTokenHeaderBytes + 1 + tenant.size();
}

size_t HeaderBytes(absl::string_view tenant) {
  return tenant.empty() ? kTokenHeaderBytes : kTokenHeaderBytes + 1 + tenant.size();
}

// Writes the header of formats 3 and 4 (the tenant length byte always there,
// 0 without a tenant); returns its size.
size_t PutLengthHeader(uint8_t* out, uint8_t format, uint32_t key_id, absl::string_view tenant) {
  PutHeader(out, key_id, "");
  out[2] = format;
  out[7] = static_cast<uint8_t>(tenant.size());
  if (!tenant.empty()) std::memcpy(out + kTokenHeaderBytes + 1, tenant.data(), tenant.size());
  return kTokenHeaderBytes + 1 + tenant.size();
}

}  // namespace

absl::string_view SivTagOf(absl::string_view token) {
  const bool siv = token.size() >= kTokenHeaderBytes + gcm_siv::kNonceBytes + gcm_siv::kTagBytes &&
                   token[0] == kMagic[0] && token[1] == kMagic[1] &&
                   (token[2] == kGcmSivTokenFormat || token[2] == kDerivedTokenFormat);
  return siv ? token.substr(token.size() - gcm_siv::kTagBytes) : absl::string_view();
}

static_assert(kTokenNonceBytes == crypto_aead_xchacha20poly1305_ietf_NPUBBYTES);
static_assert(kTokenTagBytes == crypto_aead_xchacha20poly1305_ietf_ABYTES);
static_assert(kKeyBytes == crypto_aead_xchacha20poly1305_ietf_KEYBYTES);

absl::string_view TokenErrorReason(TokenError e) {
  switch (e) {
    case TokenError::kMalformed:
      return "TOKEN_MALFORMED";
    case TokenError::kVersion:
      return "TOKEN_VERSION_UNSUPPORTED";
    case TokenError::kUnknownKey:
      return "TOKEN_UNKNOWN_KEY";
    case TokenError::kAuthFailed:
      return "TOKEN_AUTHENTICATION_FAILED";
    case TokenError::kTenantMismatch:
      return "TOKEN_TENANT_MISMATCH";
  }
  return "TOKEN_MALFORMED";
}

absl::Status TokenErrorStatus(TokenError e, absl::string_view message) {
  absl::Status s(e == TokenError::kTenantMismatch ? absl::StatusCode::kPermissionDenied
                                                  : absl::StatusCode::kUnauthenticated,
                 message);
  s.SetPayload(kPayloadUrl, absl::Cord(TokenErrorReason(e)));
  return s;
}

std::string TokenErrorReasonOf(const absl::Status& status) {
  auto p = status.GetPayload(kPayloadUrl);
  return p ? std::string(*p) : std::string();
}

absl::Status InitCrypto() {
  if (sodium_init() < 0) return absl::InternalError("libsodium failed to initialise");
  return gcm_siv::Init();
}

absl::StatusOr<std::vector<Key>> ParseKeys(absl::string_view text) {
  std::vector<Key> keys;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    line = line.substr(0, std::min(line.size(), line.find('#')));
    for (absl::string_view entry :
         absl::StrSplit(line, absl::ByAnyChar(" \t\r,;"), absl::SkipEmpty())) {
      const size_t colon = entry.find(':');
      Key key;
      if (colon == absl::string_view::npos || !absl::SimpleAtoi(entry.substr(0, colon), &key.id) ||
          key.id == 0) {
        return absl::InvalidArgumentError(absl::StrCat(
            "keys: entry ", keys.size() + 1, " must be <id>:<64 hex chars> with id >= 1"));
      }
      absl::string_view hex = entry.substr(colon + 1);
      if (const size_t mark = hex.find(':'); mark != absl::string_view::npos) {
        if (hex.substr(mark + 1) != "open") {
          return absl::InvalidArgumentError(absl::StrCat(
              "keys: key ", key.id,
              " has an unknown mark (only \":open\", a key that opens but never seals)"));
        }
        key.seals = false;
        hex = hex.substr(0, mark);
      }
      size_t bin_len = 0;
      if (hex.size() != 2 * kKeyBytes ||
          sodium_hex2bin(key.bytes.data(), key.bytes.size(), hex.data(), hex.size(), nullptr,
                         &bin_len, nullptr) != 0 ||
          bin_len != kKeyBytes) {
        return absl::InvalidArgumentError(
            absl::StrCat("keys: key ", key.id, " must be exactly 64 hex characters (32 bytes)"));
      }
      keys.push_back(key);
    }
  }
  if (keys.empty()) return absl::InvalidArgumentError("keys: no key found");
  return keys;
}

absl::StatusOr<std::vector<Key>> LoadKeys(const std::string& key_file) {
  if (!key_file.empty()) {
    std::ifstream in(key_file);
    if (!in) return absl::NotFoundError(absl::StrCat("--key_file: cannot read ", key_file));
    std::stringstream text;
    text << in.rdbuf();
    absl::StatusOr<std::vector<Key>> keys = ParseKeys(text.str());
    if (!keys.ok())
      return absl::InvalidArgumentError(
          absl::StrCat("--key_file ", key_file, ": ", keys.status().message()));
    return keys;
  }
  if (const char* env = std::getenv("STUD_KEYS"); env != nullptr && *env != '\0') {
    absl::StatusOr<std::vector<Key>> keys = ParseKeys(env);
    if (!keys.ok())
      return absl::InvalidArgumentError(absl::StrCat("STUD_KEYS: ", keys.status().message()));
    return keys;
  }
  return std::vector<Key>();
}

std::string FormatKey(const Key& key) {
  char hex[2 * kKeyBytes + 1];
  sodium_bin2hex(hex, sizeof(hex), key.bytes.data(), key.bytes.size());
  return absl::StrCat(key.id, ":", hex, key.seals ? "" : ":open");
}

absl::StatusOr<Sealer> Sealer::Create(std::vector<Key> keys, uint8_t seal_format) {
  if (keys.empty()) return absl::InvalidArgumentError("keys: the key ring is empty");
  std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) { return a.id < b.id; });
  for (size_t i = 1; i < keys.size(); ++i) {
    if (keys[i].id == keys[i - 1].id) {
      return absl::InvalidArgumentError(
          absl::StrCat("keys: key id ", keys[i].id, " appears twice"));
    }
  }
  size_t sealing = keys.size();
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i].seals) sealing = i;
  }
  if (sealing == keys.size()) {
    return absl::InvalidArgumentError(
        "keys: every key is marked \":open\" (opens only); at least one key must seal");
  }
  if (seal_format != kTokenFormat && seal_format != kSipTokenFormat &&
      seal_format != kGcmSivTokenFormat && seal_format != kDerivedTokenFormat) {
    return absl::InvalidArgumentError(
        absl::StrCat("token format ", seal_format, ": must be 1, 3, 4 or 5"));
  }
  return Sealer(std::move(keys), sealing, seal_format);
}

Key Sealer::EphemeralKey() {
  Key key;
  // Random id so a token from another ephemeral server is "unknown key",
  // not a confusing authentication failure.
  do {
    key.id = randombytes_random();
  } while (key.id == 0);
  crypto_aead_xchacha20poly1305_ietf_keygen(key.bytes.data());
  return key;
}

const Key* Sealer::Find(uint32_t id) const {
  for (const Key& k : keys_) {
    if (k.id == id) return &k;
  }
  return nullptr;
}

absl::StatusOr<std::array<uint8_t, 16>> Sealer::TicketTag(uint32_t key_id,
                                                          absl::string_view message,
                                                          absl::string_view more) const {
  const Key* key = Find(key_id);
  if (key == nullptr) return absl::NotFoundError("no key with this id in the ring");
  // Keyed BLAKE2b-128 under the key's ticket subkey, continued from the state
  // keyed in the constructor.
  crypto_generichash_state h;
  std::memcpy(&h, ticket_hash_[static_cast<size_t>(key - keys_.data())].state.data(), sizeof(h));
  crypto_generichash_update(&h, reinterpret_cast<const unsigned char*>(message.data()),
                            message.size());
  crypto_generichash_update(&h, reinterpret_cast<const unsigned char*>(more.data()), more.size());
  std::array<uint8_t, 16> tag{};
  crypto_generichash_final(&h, tag.data(), tag.size());
  sodium_memzero(&h, sizeof(h));
  return tag;
}

static_assert(sizeof(crypto_generichash_state) == 384);

Sealer::Sealer(std::vector<Key> keys, size_t sealing, uint8_t seal_format)
    : keys_(std::move(keys)), sealing_(sealing), seal_format_(seal_format) {
  static_assert(crypto_shorthash_siphashx24_KEYBYTES == 16 &&
                crypto_shorthash_siphashx24_BYTES == 16);
  crypto_kdf_derive_from_key(sip_key_.data(), sip_key_.size(), 2, kNonceContext,
                             keys_[sealing_].bytes.data());
  // Deterministic nonce (see header): BLAKE2b-192 keyed with a subkey of the
  // sealing key. Keying is the same for every token, so it is done once here.
  uint8_t subkey[crypto_generichash_KEYBYTES];
  crypto_kdf_derive_from_key(subkey, sizeof(subkey), 1, kNonceContext,
                             keys_[sealing_].bytes.data());
  crypto_generichash_state h;
  crypto_generichash_init(&h, subkey, sizeof(subkey), kTokenNonceBytes);
  std::memcpy(nonce_hash_.data(), &h, sizeof(h));
  // Seat-ticket tags: keyed BLAKE2b-128 under a subkey of each ring key
  // (crypto_kdf id 3, context "studtick").
  static constexpr char kTicketContext[crypto_kdf_CONTEXTBYTES + 1] = "studtick";
  ticket_hash_.resize(keys_.size());
  for (size_t i = 0; i < keys_.size(); ++i) {
    crypto_kdf_derive_from_key(subkey, sizeof(subkey), 3, kTicketContext, keys_[i].bytes.data());
    crypto_generichash_init(&h, subkey, sizeof(subkey), 16);
    std::memcpy(ticket_hash_[i].state.data(), &h, sizeof(h));
  }
  sodium_memzero(subkey, sizeof(subkey));
  sodium_memzero(&h, sizeof(h));
  DeriveSubkeys();
}

std::string Sealer::SealSip(absl::string_view plaintext, absl::string_view tenant) const {
  const Key& key = keys_[sealing_];
  std::string token(kTokenHeaderBytes + 1 + tenant.size() + kSipTokenNonceBytes + kTokenTagBytes +
                        plaintext.size(),
                    '\0');
  auto* out = reinterpret_cast<uint8_t*>(token.data());
  const size_t header = PutLengthHeader(out, kSipTokenFormat, key.id, tenant);
  // SipHash has no streaming interface: the plaintext is copied after the
  // header so that header || plaintext is contiguous (the nonce and the
  // ciphertext, written from the caller's plaintext, then overwrite it).
  if (!plaintext.empty()) std::memcpy(out + header, plaintext.data(), plaintext.size());
  uint8_t nonce[kTokenNonceBytes] = {};  // N || 8 zero bytes
  crypto_shorthash_siphashx24(nonce, out, header + plaintext.size(), sip_key_.data());
  std::memcpy(out + header, nonce, kSipTokenNonceBytes);
  unsigned long long clen = 0;
  crypto_aead_xchacha20poly1305_ietf_encrypt(
      out + header + kSipTokenNonceBytes, &clen, reinterpret_cast<const uint8_t*>(plaintext.data()),
      plaintext.size(), out, header, nullptr, nonce, key.bytes.data());
  return token;
}

std::string Sealer::SealGcmSiv(absl::string_view plaintext, absl::string_view tenant,
                               absl::string_view hand_id) const {
  const Key& key = keys_[sealing_];
  std::string token(kTokenHeaderBytes + 1 + tenant.size() + gcm_siv::kNonceBytes +
                        plaintext.size() + gcm_siv::kTagBytes,
                    '\0');
  auto* out = reinterpret_cast<uint8_t*>(token.data());
  const size_t header = PutLengthHeader(out, kGcmSivTokenFormat, key.id, tenant);
  // The nonce is the hand's public id (its first 12 bytes; zeros for none).
  gcm_siv::Nonce nonce{};
  if (!hand_id.empty()) {
    std::memcpy(nonce.data(), hand_id.data(), std::min(hand_id.size(), nonce.size()));
  }
  std::memcpy(out + header, nonce.data(), nonce.size());
  gcm_siv::Seal(key.bytes, nonce, absl::string_view(token.data(), header), plaintext,
                out + header + nonce.size());
  return token;
}

std::string Sealer::Seal(absl::string_view plaintext, absl::string_view tenant,
                         absl::string_view hand_id) const {
  std::string token;
  SealTo(plaintext, tenant, hand_id, &token);
  return token;
}

void Sealer::SealTo(absl::string_view plaintext, absl::string_view tenant,
                    absl::string_view hand_id, std::string* token) const {
  tenant = tenant.substr(
      0, 64);  // callers pass validated ids (tenants.h); never overflow the length byte
  if (seal_format_ == kDerivedTokenFormat) {
    SealDerivedTo(plaintext, tenant, hand_id, token);
  } else if (seal_format_ == kGcmSivTokenFormat) {
    *token = SealGcmSiv(plaintext, tenant, hand_id);
  } else if (seal_format_ == kSipTokenFormat) {
    *token = SealSip(plaintext, tenant);
  } else {
    *token = SealXChaCha(plaintext, tenant);
  }
}

std::string Sealer::SealXChaCha(absl::string_view plaintext, absl::string_view tenant) const {
  const Key& key = keys_[sealing_];
  const size_t header = HeaderBytes(tenant);
  std::string token(header + kTokenNonceBytes + kTokenTagBytes + plaintext.size(), '\0');
  auto* out = reinterpret_cast<uint8_t*>(token.data());
  PutHeader(out, key.id, tenant);

  // Deterministic nonce (see header): keyed BLAKE2b over header || plaintext,
  // continuing from the state keyed once in the constructor.
  crypto_generichash_state h;
  std::memcpy(&h, nonce_hash_.data(), sizeof(h));
  crypto_generichash_update(&h, out, header);
  crypto_generichash_update(&h, reinterpret_cast<const uint8_t*>(plaintext.data()),
                            plaintext.size());
  uint8_t* nonce = out + header;
  crypto_generichash_final(&h, nonce, kTokenNonceBytes);

  unsigned long long clen = 0;
  crypto_aead_xchacha20poly1305_ietf_encrypt(
      nonce + kTokenNonceBytes, &clen, reinterpret_cast<const uint8_t*>(plaintext.data()),
      plaintext.size(), out, header, nullptr, nonce, key.bytes.data());
  return token;
}

absl::StatusOr<std::string> Sealer::Open(absl::string_view token, absl::string_view tenant) const {
  std::string plain;
  if (absl::Status st = OpenInto(token, tenant, &plain); !st.ok()) return st;
  return plain;
}

absl::Status Sealer::OpenInto(absl::string_view token, absl::string_view tenant,
                              std::string* out) const {
  if (token.size() < kTokenOverhead) {
    return TokenErrorStatus(TokenError::kMalformed,
                            absl::StrCat("token: malformed (", token.size(), " bytes; at least ",
                                         kTokenOverhead, " expected): truncated or not a token"));
  }
  const auto* in = reinterpret_cast<const uint8_t*>(token.data());
  if (in[0] != kMagic[0] || in[1] != kMagic[1]) {
    return TokenErrorStatus(TokenError::kMalformed,
                            "token: malformed (bad magic): not a stud token");
  }
  if (in[2] < kTokenFormat || in[2] > kDerivedTokenFormat) {
    return TokenErrorStatus(TokenError::kVersion,
                            absl::StrCat("token: format version ", in[2],
                                         " is not supported (this server reads versions ",
                                         kTokenFormat, " to ", kDerivedTokenFormat, ")"));
  }
  size_t header = kTokenHeaderBytes;
  size_t nonce_bytes = kTokenNonceBytes;
  absl::string_view token_tenant;
  if (in[2] == kSipTokenFormat || in[2] == kGcmSivTokenFormat) {
    const size_t len = in[7];
    header = kTokenHeaderBytes + 1 + len;
    nonce_bytes = in[2] == kSipTokenFormat ? kSipTokenNonceBytes : gcm_siv::kNonceBytes;
    if (len > 64 || token.size() < header + nonce_bytes + kTokenTagBytes) {
      return TokenErrorStatus(TokenError::kMalformed,
                              "token: malformed (tenant header): truncated or not a token");
    }
    token_tenant = token.substr(kTokenHeaderBytes + 1, len);
  } else if (in[2] == kTenantTokenFormat) {
    const size_t len = in[7];
    header = kTokenHeaderBytes + 1 + len;
    if (len == 0 || len > 64 || token.size() < header + kTokenNonceBytes + kTokenTagBytes) {
      return TokenErrorStatus(TokenError::kMalformed,
                              "token: malformed (tenant header): truncated or not a token");
    }
    token_tenant = token.substr(kTokenHeaderBytes + 1, len);
  }
  const uint32_t id =
      (uint32_t{in[3]} << 24) | (uint32_t{in[4]} << 16) | (uint32_t{in[5]} << 8) | uint32_t{in[6]};
  const Key* key = Find(id);
  if (key == nullptr) {
    return TokenErrorStatus(
        TokenError::kUnknownKey,
        absl::StrCat("token: sealed with key id ", id,
                     ", which this server does not hold (another deployment, "
                     "a retired key, or a restarted server with an ephemeral key)"));
  }
  if (in[2] == kDerivedTokenFormat) return OpenDerived(token, *key, tenant, out);
  const size_t clen = token.size() - header - nonce_bytes;
  std::string& plain = *out;
  plain.resize(clen - kTokenTagBytes);
  unsigned long long plen = plain.size();
  bool authentic = false;
  if (in[2] == kGcmSivTokenFormat) {
    gcm_siv::Nonce nonce{};
    std::memcpy(nonce.data(), in + header, nonce.size());
    authentic =
        gcm_siv::Open(key->bytes, nonce, token.substr(0, header),
                      token.substr(header + nonce_bytes), reinterpret_cast<uint8_t*>(plain.data()));
  } else {
    uint8_t nonce[kTokenNonceBytes] = {};  // format 3: N || 8 zero bytes
    std::memcpy(nonce, in + header, nonce_bytes);
    authentic = crypto_aead_xchacha20poly1305_ietf_decrypt(
                    reinterpret_cast<uint8_t*>(plain.data()), &plen, nullptr,
                    in + header + nonce_bytes, clen, in, header, nonce, key->bytes.data()) == 0;
  }
  if (!authentic) {
    return TokenErrorStatus(TokenError::kAuthFailed,
                            "token: authentication failed: the token was altered or truncated");
  }
  // Authentic: now whose is it. The message names neither tenant.
  if (token_tenant != tenant) {
    sodium_memzero(plain.data(), plain.size());
    return TokenErrorStatus(
        TokenError::kTenantMismatch,
        tenant.empty() ? "token: sealed for a tenant; this call has no tenant"
                       : "token: sealed for another tenant (or for none): not yours to play");
  }
  plain.resize(static_cast<size_t>(plen));
  return absl::OkStatus();
}

}  // namespace stud::service
