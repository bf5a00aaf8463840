// Engine HandState <-> the internal proto (proto/stud/internal/v1/state.proto)
// and the token plaintext.
//
// The codec is exact: DecodeState(EncodeState(s)) == s for every state the
// engine produces (tested). Decoding is only ever applied to authenticated
// plaintext, so it guards against server bugs and schema drift rather than
// forgery, but it still range-checks every value so that no input can build a
// HandState the engine would index out of bounds with.
#ifndef STUD_SERVICE_STATE_CODEC_H_
#define STUD_SERVICE_STATE_CODEC_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/hand_state.h"
#include "stud/internal/v1/state.pb.h"

namespace stud::service {

// Schema written by SerializeSealedHand; ParseSealedHand also reads schema 1
// (unpacked seat cards and log) so tokens sealed before an upgrade still open.
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

void EncodeState(const HandState& state, stud::internal::v1::HandState* out);
// INTERNAL naming the field when a value is out of range.
absl::StatusOr<HandState> DecodeState(const stud::internal::v1::HandState& in);

// Token plaintext (serialized SealedHand message) and back.
std::string SerializeSealedHand(const SealedHand& hand);
absl::StatusOr<SealedHand> ParseSealedHand(absl::string_view plaintext);
// The same through the protobuf parser only (ParseSealedHand tries a faster
// wire parser first, state_view.h); for tests that compare the two.
absl::StatusOr<SealedHand> ParseSealedHandViaProtobuf(absl::string_view plaintext);

// Operation::rule_id is a string_view into static storage; decoded IDs are
// interned here (bounded: authenticated tokens only carry IDs the engine made).
absl::StatusOr<absl::string_view> InternRuleId(absl::string_view id);

}  // namespace stud::service

#endif  // STUD_SERVICE_STATE_CODEC_H_
