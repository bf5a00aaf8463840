#include "service/token/codec.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "service/token/legacy_schema.h"
#include "service/token/schema.h"

namespace stud::service {

void SerializeSealedHandTo(const SealedHand& hand, std::string* out, uint32_t schema,
                           bool remember_log) {
  // Typical sizes with room to spare, so that the buffer rarely grows and the
  // zero-filling of an oversized one is not paid on every call.
  const HandState& s = hand.state;
  wire::Writer w(out, 384 + 48 * static_cast<size_t>(s.config.num_seats) + 6 * s.log.size() +
                          160 * s.reports.size() + s.config.deck.size() +
                          s.config.recycle_order.size() + s.recycled.size());
  token::WriteContext ctx;
  ctx.schema = schema == kRollingUpgradeSchema ? kRollingUpgradeSchema : kSealedSchema;
  ctx.log_as_read = &hand.log_as_read;
  if (remember_log && ctx.schema == kSealedSchema) ctx.log_as_written = &hand.log_as_read;
  token::WriteMessage(hand, w, ctx);
  w.Finish();
}

std::string SerializeSealedHand(const SealedHand& hand, uint32_t schema) {
  std::string out;
  SerializeSealedHandTo(hand, &out, schema);
  return out;
}

namespace {

// `hand` is new or reset (token::ResetMessage).
absl::Status ReadSealedHand(absl::string_view plaintext, SealedHand& hand) {
  // Schema 1 plaintexts are rewritten as schema 2 first (legacy_schema.h).
  if (token::IsSchema1(plaintext)) {
    absl::StatusOr<std::string> upgraded = token::UpgradeSchema1(plaintext);
    if (!upgraded.ok()) return upgraded.status();
    return ReadSealedHand(*upgraded, hand);
  }
  token::ReadContext ctx;
  hand.log_as_read.clear();
  ctx.log_as_read = &hand.log_as_read;
  return token::ReadMessage(plaintext, hand, ctx);
}

}  // namespace

absl::StatusOr<SealedHand> ParseSealedHand(absl::string_view plaintext) {
  SealedHand hand;
  if (absl::Status st = ReadSealedHand(plaintext, hand); !st.ok()) return st;
  return hand;
}

absl::Status ParseSealedHandInto(absl::string_view plaintext, SealedHand* hand) {
  token::ResetMessage(*hand);
  return ReadSealedHand(plaintext, *hand);
}

}  // namespace stud::service
