// The token plaintext: the engine HandState and what the service keeps beside
// it, as the bytes of a stud.internal.v1.SealedHand message.
//
// One schema (token/schema.h) drives both directions. The codec is exact:
// ParseSealedHand(SerializeSealedHand(h)) == h for every hand the engine
// produces, and the bytes are what protobuf's deterministic serializer writes
// for the same message (tested), so "same state => same token bytes" holds
// across versions. Decoding is only ever applied to authenticated plaintext,
// so it guards against server bugs and schema drift rather than forgery, but
// it range-checks every value so that no input can build a HandState the
// engine would index out of bounds with.
#ifndef STUD_SERVICE_TOKEN_CODEC_H_
#define STUD_SERVICE_TOKEN_CODEC_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/hand_state.h"
#include "service/token/packed_log.h"

namespace stud::service {

// Schemas of the plaintext. 3 (the default written): rule IDs in the log as
// RuleId numbers. 2: as their names, listed once per token (what releases
// before schema 3 read: write it during a rolling upgrade from one of them,
// stud_server --sealed_schema=2). 1: seat cards and the log as messages
// (token/legacy_schema.cc), read only. ParseSealedHand reads all three.
inline constexpr uint32_t kSealedSchema = 3;
inline constexpr uint32_t kRollingUpgradeSchema = 2;
inline constexpr uint32_t kOldestSealedSchema = 1;

// What a token carries besides the engine state.
struct ServiceData {
  uint32_t dealing_mode = 0;  // stud.v1.DealingMode
  uint32_t locale = 0;        // stud.v1.Locale
  std::string commitment;     // SERVICE dealing: 32-byte SHA-256, else empty
  std::string salt;           // SERVICE dealing: 32 bytes, else empty
  std::string hand_id;        // 16 random bytes from NewHand; empty in older tokens
  // The hand's policy (stud.v1.HandPolicy), fixed at NewHand from the server's
  // flags and the tenant's marks; every replica enforces it whatever its own
  // flags (HandService::SetHandPolicy, service/rpc/hand_service.h).
  bool requires_seat_tickets = false;
  bool requires_ledger = false;
  // Verifiable dealing (docs/fairness.md; service/fairness/). SERVICE dealing:
  // the 32-byte server seed of stud-shuffle-v1 (empty in older tokens).
  std::string server_seed;
  uint32_t reveal_policy = 0;  // stud.v1.RevealPolicy
  bool player_seeds = false;   // FairnessOptions.player_seeds
  // In the seeding phase: `state` holds the configuration alone and its
  // version counts the seeds received; nothing is dealt.
  bool seeding = false;
  // Per seat in seat order: a length byte (0 = no seed) then the seed.
  std::string packed_seeds;
  uint32_t seeds_closed = 0;  // bit s: the table closed seeding for seat s [STUD-DEAL-6]
  friend bool operator==(const ServiceData&, const ServiceData&) = default;
};

struct SealedHand {
  HandState state;
  ServiceData service;
  // Not part of the token: the log as the last parse read it (or the last
  // serialization wrote it, for a hand kept between calls), which the next
  // serialization reuses where the log still begins with it (packed_log.h).
  // Mutable: a cache of the hand's own bytes, which a serialization of the
  // (otherwise const) hand refreshes; a hand is used by one call at a time.
  mutable token::LogAsRead log_as_read;
};

// Token plaintext (serialized SealedHand message) and back. Parse errors are
// INTERNAL, naming the message and field ("sealed state: field Seat.stack is
// out of range").
// `schema`: kSealedSchema or kRollingUpgradeSchema.
std::string SerializeSealedHand(const SealedHand& hand, uint32_t schema = kSealedSchema);
// `remember_log`: the hand is kept for its next call (token/hand_cache.h), so
// its log_as_read becomes the log as written here (kSealedSchema only).
void SerializeSealedHandTo(const SealedHand& hand, std::string* out,  // reuses *out
                           uint32_t schema = kSealedSchema, bool remember_log = false);
absl::StatusOr<SealedHand> ParseSealedHand(absl::string_view plaintext);
// The same into `*hand`, which may hold an earlier hand: it ends equal to
// what ParseSealedHand returns, and its vectors and strings keep their
// capacity, so a hand kept per thread is read without allocating. On an
// error *hand is some valid SealedHand (not the one it held).
absl::Status ParseSealedHandInto(absl::string_view plaintext, SealedHand* hand);

}  // namespace stud::service

#endif  // STUD_SERVICE_TOKEN_CODEC_H_
