#include "service/token/codec.h"

#include <memory>
#include <mutex>
#include <string>

#include "absl/container/node_hash_set.h"
#include "absl/strings/str_cat.h"
#include "service/token/legacy_schema.h"
#include "service/token/schema.h"

namespace stud::service {

void SerializeSealedHandTo(const SealedHand& hand, std::string* out) {
  // Typical sizes with room to spare, so that the buffer rarely grows and the
  // zero-filling of an oversized one is not paid on every call.
  const HandState& s = hand.state;
  wire::Writer w(out, 384 + 48 * static_cast<size_t>(s.config.num_seats) + 6 * s.log.size() +
                          160 * s.reports.size() + s.config.deck.size() +
                          s.config.recycle_order.size() + s.recycled.size());
  token::WriteContext ctx;
  token::WriteMessage(hand, w, ctx);
  w.Finish();
}

std::string SerializeSealedHand(const SealedHand& hand) {
  std::string out;
  SerializeSealedHandTo(hand, &out);
  return out;
}

absl::StatusOr<SealedHand> ParseSealedHand(absl::string_view plaintext) {
  // Schema 1 plaintexts are rewritten as schema 2 first (legacy_schema.h).
  if (token::IsSchema1(plaintext)) {
    absl::StatusOr<std::string> upgraded = token::UpgradeSchema1(plaintext);
    if (!upgraded.ok()) return upgraded.status();
    return ParseSealedHand(*upgraded);
  }
  SealedHand hand;
  token::ReadContext ctx;
  if (absl::Status st = token::ReadMessage(plaintext, hand, ctx); !st.ok()) return st;
  return hand;
}

absl::StatusOr<absl::string_view> InternRuleId(absl::string_view id) {
  // More distinct rule IDs than the catalogue has (about 100) means a bug.
  constexpr size_t kMaxInternedRuleIds = 1024;
  if (id.empty()) return absl::string_view();
  // std::mutex: pthread-based, so ThreadSanitizer sees it (Debian's Abseil,
  // absl::Mutex included, is not instrumented).
  static std::mutex mu;
  static auto* ids = new absl::node_hash_set<std::string>();  // guarded by mu
  std::lock_guard<std::mutex> lock(mu);
  auto it = ids->find(id);
  if (it != ids->end()) return absl::string_view(*it);
  if (ids->size() >= kMaxInternedRuleIds || id.size() > 64) {
    return token::OutOfRange("HandState", "rule_ids");
  }
  return absl::string_view(*ids->emplace(id).first);
}

}  // namespace stud::service
