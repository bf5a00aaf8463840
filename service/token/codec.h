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

namespace stud::service {

// Schema written by SerializeSealedHand. ParseSealedHand also reads schema 1
// (seat cards and the log as messages, token/legacy_schema.cc) so tokens
// sealed before that change still open.
inline constexpr uint32_t kSealedSchema = 2;
inline constexpr uint32_t kOldestSealedSchema = 1;

// What a token carries besides the engine state.
struct ServiceData {
  uint32_t dealing_mode = 0;  // stud.v1.DealingMode
  uint32_t locale = 0;        // stud.v1.Locale
  std::string commitment;     // SERVICE dealing: 32-byte SHA-256, else empty
  std::string salt;           // SERVICE dealing: 32 bytes, else empty
  std::string hand_id;        // 16 random bytes from NewHand; empty in older tokens
  friend bool operator==(const ServiceData&, const ServiceData&) = default;
};

struct SealedHand {
  HandState state;
  ServiceData service;
};

// Token plaintext (serialized SealedHand message) and back. Parse errors are
// INTERNAL, naming the message and field ("sealed state: field Seat.stack is
// out of range").
std::string SerializeSealedHand(const SealedHand& hand);
void SerializeSealedHandTo(const SealedHand& hand, std::string* out);  // reuses *out
absl::StatusOr<SealedHand> ParseSealedHand(absl::string_view plaintext);

// Operation::rule_id is a string_view into static storage; decoded IDs are
// interned here (bounded: authenticated tokens only carry IDs the engine made).
absl::StatusOr<absl::string_view> InternRuleId(absl::string_view id);

}  // namespace stud::service

#endif  // STUD_SERVICE_TOKEN_CODEC_H_
