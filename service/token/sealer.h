// Sealing hand state into opaque tokens: AES-256-GCM-SIV under a subkey of the
// ring key (format 5, the default) or under the ring key itself (format 4,
// token/gcm_siv.h), or libsodium's XChaCha20-Poly1305 (formats 1-3).
//
// Token layout (all integers big-endian):
//   offset 0  2 bytes  magic "SK"
//   offset 2  1 byte   format version (1; 2 and 3 below)
//   offset 3  4 bytes  key id of the sealing key
//   offset 7 24 bytes  nonce
//   offset 31 ...      ciphertext = plaintext + 16-byte Poly1305 tag
// The 7-byte header is the associated data, so changing the key id or version
// also fails authentication.
//
// Nonce: derived, not random: nonce = BLAKE2b-192 keyed with a subkey of the
// sealing key over (header || plaintext). Sealing is therefore deterministic:
// the same state sealed by the same key gives the same token bytes, so a
// retried request gets a byte-identical answer. This is the SIV construction's
// trade-off: an observer learns only whether two tokens hold identical states
// (a client already knows that), and a nonce repeats only for an identical
// plaintext, which is harmless for XChaCha20-Poly1305.
//
// Key ring: every key opens; the newest (largest id) key not marked open-only
// seals. Key text format (file --key_file or env STUD_KEYS): entries
// "<id>:<64 hex chars>" or "<id>:<64 hex chars>:open" (opens, never seals),
// separated by whitespace, newlines or commas; '#' starts a comment. Ids are
// 1..4294967295. Rotation without a refused call across replicas: (1) add the
// new key as open-only everywhere, (2) drop the mark everywhere (replicas then
// seal with it, and every replica already opens it), (3) once no hand can
// still hold the old key, remove it (deploy/rotate-keys.sh add/promote/retire).
//
// Format 2 binds a token to a tenant (caller authentication, tenants.h): the
// header grows by the tenant id, which is part of the associated data:
//   offset 0  2 bytes  magic "SK"
//   offset 2  1 byte   2
//   offset 3  4 bytes  key id
//   offset 7  1 byte   tenant id length L (1..64)
//   offset 8  L bytes  tenant id
//   then nonce, ciphertext + tag as in format 1.
// Tokens sealed without a tenant stay format 1, byte for byte.
//
// Format 3 (deprecated; stud_server seals formats 1 and 2 by default and
// opens all three) is formats 1 and 2 with a cheaper nonce derivation and a
// shorter nonce; the cipher is unchanged. It is no longer sealed by default
// because its nonce PRF is SipHash, which libsodium offers for hash tables,
// not as a key-derivation or nonce PRF; the deterministic nonce of formats 1
// and 2 is keyed BLAKE2b from a KDF subkey, the standard construction.
//   offset 0  2 bytes  magic "SK"
//   offset 2  1 byte   3
//   offset 3  4 bytes  key id
//   offset 7  1 byte   tenant id length L (0 = no tenant, else 1..64)
//   offset 8  L bytes  tenant id
//   then a 16-byte nonce N, ciphertext + 16-byte tag.
// The 8 + L header bytes are the associated data. N = SipHash-2-4 with
// 128-bit output (crypto_shorthash_siphashx24) keyed with a 16-byte subkey of
// the sealing key (crypto_kdf id 2, context "studnonc"; BLAKE2b uses id 1)
// over (header || plaintext); the XChaCha20-Poly1305 nonce is N followed by 8
// zero bytes. Security argument, as for format 1: XChaCha20-Poly1305 stays
// secure as long as no nonce repeats for two different plaintexts under one
// key. N is a PRF of the whole input (SipHash is a PRF under its 128-bit key),
// so equal inputs give equal tokens (the determinism retries rely on) and
// different inputs collide with probability about q^2 / 2^129 for q tokens
// per key: below 2^-49 after 2^40 (a trillion) tokens, where the 96-bit
// nonce of AES-GCM would already be at 2^-17. Distinguishing N from random
// is SipHash's PRF bound, which is far below that at these volumes. What an
// observer learns is unchanged: only whether two tokens hold identical
// states. The saving is the nonce: about 0.3 us of SipHash instead of 1.3 us
// of BLAKE2b for a 1 KB state.
//
// Format 4 (stud_server's default before format 5) uses a misuse-resistant AEAD,
// AES-256-GCM-SIV (RFC 8452), instead of deriving a nonce by hand:
//   offset 0  2 bytes  magic "SK"
//   offset 2  1 byte   4
//   offset 3  4 bytes  key id
//   offset 7  1 byte   tenant id length L (0 = no tenant, else 1..64)
//   offset 8  L bytes  tenant id
//   then a 12-byte nonce, the ciphertext and the 16-byte tag.
// The 8 + L header bytes are the associated data. The nonce is the first 12
// bytes of the hand's random public id (PublicView.hand_id; zeros for a state
// without one), so every state of a hand is sealed under that hand's nonce.
// Determinism needs no derived nonce: GCM-SIV's tag is a PRF of the nonce,
// header and plaintext, and its keystream is keyed by the tag, so sealing the
// same state twice gives the same bytes, and two states of one hand under the
// same nonce reveal only whether they are identical (as formats 1-3 do). The
// nonce only spreads the hands over RFC 8452's per-nonce derived keys, so the
// usage bounds apply to the states of one hand (hundreds), not to all the
// tokens a key ever seals. 11 bytes shorter than format 1 (12 than format 2),
// and about 2 us cheaper per seal and open together (docs/benchmarks.md).
//
// Format 5 (what stud_server seals by default) is format 4 with key hygiene:
// no algorithm uses the ring key itself, and the header does not name the
// tenant.
//   offset 0  2 bytes  magic "SK"
//   offset 2  1 byte   5
//   offset 3  4 bytes  key id
//   offset 7  8 bytes  tenant tag: keyed BLAKE2b-64 of the tenant id ("" for
//                      a token without a tenant) under the key's tag subkey
//   offset 15 12 bytes nonce (the hand id's first 12 bytes, as format 4)
//   then the ciphertext and the 16-byte tag.
// The 15 header bytes are the associated data. The AES-256-GCM-SIV key is a
// subkey of the ring key, as is the tenant tag's key; formats 1-4 keep using
// the ring key itself so that their tokens open exactly as before.
// Subkeys come from libsodium's crypto_kdf_derive_from_key (BLAKE2b keyed with
// the ring key over a subkey id and an 8-byte context), one context per use:
//   "studnonc" id 1  formats 1-2 nonce (BLAKE2b)    id 2  format 3 nonce (SipHash)
//   "studtick" id 3  seat-ticket tags
//   "studsiv5" id 1  format 5 AES-256-GCM-SIV key
//   "studtnt5" id 1  format 5 tenant tags
// crypto_kdf rather than HKDF-SHA256: the ring already derived its nonce and
// ticket subkeys with it, it is a PRF of the key with domain separation by
// context and id (what HKDF's info label gives), and it needs no second hash.
// The tenant tag lets the server tell a token of another tenant from a forged
// one without the tenant's name on the wire: it recomputes the calling
// tenant's tag under the token's key and compares (after authentication, so
// an altered token is still TOKEN_AUTHENTICATION_FAILED). 64 bits: two tenant
// ids collide under one key with probability 2^-64 per pair, and nobody
// without the key can compute a tag. An observer learns only whether two
// tokens under one key belong to the same tenant (as with the name).
//
// Rolling upgrade: releases before format 5 cannot open it. While any such
// replica still serves, run the new ones with --token_format=4 (or =1 from a
// release before format 4); every release opens formats 1 to 3, releases
// since format 4 also 4, this one also 5.
//
// Errors from Open (UNAUTHENTICATED unless noted, each with a distinct TokenError
// payload that status_mapping turns into ErrorInfo.reason):
//   TOKEN_MALFORMED            shorter than header + nonce + tag, or bad magic
//   TOKEN_VERSION_UNSUPPORTED  format byte is not 1 to 5
//   TOKEN_UNKNOWN_KEY          no key with the header's id in the ring
//   TOKEN_AUTHENTICATION_FAILED  tag check failed: altered, truncated inside
//                              the ciphertext, or sealed by a different key
//                              that reused this id
//   TOKEN_TENANT_MISMATCH      PERMISSION_DENIED: an authentic token sealed for
//                              another tenant (or for none / for one, when the
//                              call has none / another)
#ifndef STUD_SERVICE_TOKEN_SEALER_H_
#define STUD_SERVICE_TOKEN_SEALER_H_

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace stud::service {

inline constexpr uint8_t kTokenFormat = 1;
inline constexpr uint8_t kTenantTokenFormat = 2;
// Format 3 (see the header comment): SipHash-derived 128-bit nonce, optional tenant.
inline constexpr uint8_t kSipTokenFormat = 3;
inline constexpr size_t kSipTokenNonceBytes = 16;
// Format 4 (see the header comment): AES-256-GCM-SIV, the hand id as nonce.
inline constexpr uint8_t kGcmSivTokenFormat = 4;
// Format 5 (see the header comment): format 4 under a subkey, a tenant tag.
inline constexpr uint8_t kDerivedTokenFormat = 5;
inline constexpr size_t kTenantTagBytes = 8;
inline constexpr size_t kKeyBytes = 32;
inline constexpr size_t kTokenHeaderBytes = 7;
inline constexpr size_t kTokenNonceBytes = 24;
inline constexpr size_t kTokenTagBytes = 16;
inline constexpr size_t kTokenOverhead = kTokenHeaderBytes + kTokenNonceBytes + kTokenTagBytes;

enum class TokenError { kMalformed, kVersion, kUnknownKey, kAuthFailed, kTenantMismatch };
// "TOKEN_MALFORMED", ...: the ErrorInfo reason of each class.
absl::string_view TokenErrorReason(TokenError e);
// UNAUTHENTICATED (PERMISSION_DENIED for kTenantMismatch) with the reason
// attached as a payload.
absl::Status TokenErrorStatus(TokenError e, absl::string_view message);
// The reason attached by TokenErrorStatus, or "".
std::string TokenErrorReasonOf(const absl::Status& status);

struct Key {
  uint32_t id = 0;
  std::array<uint8_t, kKeyBytes> bytes{};
  bool seals = true;  // false: ":open" in the key text, the key only opens
};

// Parses the key text format above; INVALID_ARGUMENT naming the bad entry.
absl::StatusOr<std::vector<Key>> ParseKeys(absl::string_view text);
// The configured key ring: the file at `key_file` when non-empty, else the
// environment variable STUD_KEYS when set, else an empty vector (the caller
// then makes an ephemeral key). INVALID_ARGUMENT / NOT_FOUND name the source.
absl::StatusOr<std::vector<Key>> LoadKeys(const std::string& key_file);
// "<id>:<hex>" of one key (for tests and key generation tools).
std::string FormatKey(const Key& key);

class Sealer {
 public:
  // Requires InitCrypto() to have succeeded and a ring with distinct ids and
  // at least one key that seals.
  // `seal_format`: kDerivedTokenFormat (stud_server's default),
  // kGcmSivTokenFormat or kTokenFormat (format 1, or 2 with a tenant) for
  // rolling upgrades from releases that do not open format 5 or 4, or the
  // deprecated kSipTokenFormat. Every format opens either way.
  static absl::StatusOr<Sealer> Create(std::vector<Key> keys, uint8_t seal_format = kTokenFormat);
  // A fresh random key with a random id, for servers started without keys.
  static Key EphemeralKey();

  // Format 5, 4 or 3 when the sealer was made for it (bound to `tenant` when not
  // empty); else format 1 when `tenant` is empty, format 2 bound to it when
  // not (1..64 bytes). `hand_id`: the hand's public id, formats 4-5's nonce
  // (formats 1-3 derive theirs from the plaintext and ignore it).
  std::string Seal(absl::string_view plaintext, absl::string_view tenant = {},
                   absl::string_view hand_id = {}) const;
  // The same into *token, whose capacity is reused (a per-thread buffer on
  // the hot path: no allocation per seal).
  void SealTo(absl::string_view plaintext, absl::string_view tenant, absl::string_view hand_id,
              std::string* token) const;
  // Opens a token sealed for `tenant` ("" = for no tenant).
  absl::StatusOr<std::string> Open(absl::string_view token, absl::string_view tenant = {}) const;
  // The same into *out, whose capacity is reused (a per-thread buffer on the
  // hot path); *out is meaningful only when the result is OK.
  absl::Status OpenInto(absl::string_view token, absl::string_view tenant, std::string* out) const;

  uint32_t sealing_key_id() const { return keys_[sealing_].id; }

  // Seat tickets (seat_tickets.h): a 16-byte tag of `message` under key
  // `key_id` of the ring. The tag is keyed BLAKE2b with a subkey of its own
  // (crypto_kdf id 3, context "studtick"), so tickets share the ring and its
  // rotation with tokens yet no token tag can serve as a ticket's or the
  // reverse. Deterministic. NOT_FOUND when the ring has no key `key_id`.
  // The message is `message` followed by `more` (the tag of their
  // concatenation, without building it).
  absl::StatusOr<std::array<uint8_t, 16>> TicketTag(uint32_t key_id, absl::string_view message,
                                                    absl::string_view more = {}) const;

 private:
  Sealer(std::vector<Key> keys, size_t sealing, uint8_t seal_format);
  // Formats 1 and 2 (keyed-BLAKE2b nonce, XChaCha20-Poly1305).
  std::string SealXChaCha(absl::string_view plaintext, absl::string_view tenant) const;
  std::string SealSip(absl::string_view plaintext, absl::string_view tenant) const;
  std::string SealGcmSiv(absl::string_view plaintext, absl::string_view tenant,
                         absl::string_view hand_id) const;
  // Format 5 (token/sealer_derived.cc): the subkeys of every ring key, made
  // once; sealing; opening after the common header checks.
  void DeriveSubkeys();
  void SealDerivedTo(absl::string_view plaintext, absl::string_view tenant,
                     absl::string_view hand_id, std::string* token) const;
  absl::Status OpenDerived(absl::string_view token, const Key& key, absl::string_view tenant,
                           std::string* out) const;
  std::array<uint8_t, kTenantTagBytes> TenantTag(size_t key_index, absl::string_view tenant) const;
  const Key* Find(uint32_t id) const;
  std::vector<Key> keys_;  // sorted by id
  size_t sealing_ = 0;     // index of the newest key that seals
  // The sealing key's nonce hash already keyed (a libsodium
  // crypto_generichash_state after the key block), so a seal copies it
  // instead of deriving the subkey and hashing the key block again.
  alignas(64) std::array<unsigned char, 384> nonce_hash_{};
  // The same for seat-ticket tags, per ring key (in the order of keys_): a
  // NewHand issues one ticket per seat and the table's, and every ticketed
  // call checks one, so the subkey and key block are done once here.
  struct alignas(64) KeyedHash {
    std::array<unsigned char, 384> state;
  };
  std::vector<KeyedHash> ticket_hash_;
  uint8_t seal_format_ = kTokenFormat;
  // Format 5, per ring key (in the order of keys_): the AES-256-GCM-SIV
  // subkey and the tenant-tag hash keyed with its subkey.
  std::vector<std::array<uint8_t, kKeyBytes>> siv_keys_;
  std::vector<KeyedHash> tenant_tag_hash_;
  uint64_t tag_cache_id_ = 0;  // this sealer's id in each thread's last tenant tag
  // Format 3: the SipHash key of the sealing key's nonces (a subkey).
  std::array<uint8_t, 16> sip_key_{};
};

// The AES-256-GCM-SIV tag of a token of format 4 or 5 (its last
// kTokenTagBytes), "" for any other format. For an authentic token it names
// the token's bytes: the tag is a PRF of the key, nonce, header and plaintext,
// and the keystream is keyed by it, so two authentic tokens with one tag under
// one key are the same bytes, and tags under different keys collide with
// probability about 2^-128 per pair. Only the token's layout is read: call it
// on a token that was opened or sealed.
absl::string_view SivTagOf(absl::string_view token);

// Starts libsodium and libgcrypt (once per process; later calls are cheap);
// INTERNAL if either cannot start.
absl::Status InitCrypto();

}  // namespace stud::service

#endif  // STUD_SERVICE_TOKEN_SEALER_H_
