#include "service/token/legacy_schema.h"

#include <optional>
#include <vector>

#include "engine/hand_state.h"
#include "service/token/packed_log.h"
#include "stud/internal/v1/state.pb.h"

namespace stud::service::token {
namespace pb = stud::internal::v1;

bool IsSchema1(absl::string_view plaintext) {
  return plaintext.size() >= 2 && plaintext[0] == 0x08 && plaintext[1] == 0x01;
}

absl::StatusOr<std::string> UpgradeSchema1(absl::string_view plaintext) {
  auto bad = [](absl::string_view field) { return OutOfRange("schema 1", field); };
  pb::SealedHand msg;
  if (!msg.ParseFromArray(plaintext.data(), static_cast<int>(plaintext.size())) ||
      msg.schema() != 1) {
    return absl::InternalError("sealed state: cannot parse");
  }
  pb::HandState& state = *msg.mutable_state();
  for (pb::Seat& seat : *state.mutable_seats()) {
    if (seat.cards_size() == 0) continue;
    if (!seat.packed_cards().empty() || seat.cards_size() > 8) return bad("seats.cards");
    std::string packed;
    for (const pb::SeatCard& c : seat.cards()) {
      if (c.card() >= kDeckSize || c.street() < 3 || c.street() > 7) return bad("seats.cards");
      packed.push_back(static_cast<char>(c.card()));
      packed.push_back(static_cast<char>((c.street() - 3) | (c.face_up() ? 8u : 0u)));
    }
    seat.set_packed_cards(packed);
    seat.clear_cards();
  }
  if (state.log_size() > 0) {
    if (!state.packed_log().empty()) return bad("log");
    // The engine operations the old entries describe; the new reader checks
    // every value again, so here only what packing needs is checked.
    std::vector<Operation> log;
    for (const pb::Operation& po : state.log()) {
      if (po.type() == 0 || po.type() > 31 || po.street() < 3 || po.street() > 7 ||
          po.seat() > 15 || po.card() >= kDeckSize || po.pot() > 255 || po.half() > 2) {
        return bad("log");
      }
      Operation& op = log.emplace_back();
      op.type = static_cast<OpType>(po.type());
      op.seat = static_cast<uint8_t>(po.seat());
      op.street = static_cast<Street>(po.street());
      op.card = Card::FromIndex(static_cast<int>(po.card()));
      op.face_up = (po.flags() & 1u) != 0;
      op.all_in = (po.flags() & 2u) != 0;
      op.odd_chip = (po.flags() & 4u) != 0;
      op.pot = static_cast<uint8_t>(po.pot());
      op.half = static_cast<PotHalf>(po.half());
      op.amount = po.amount();
      op.amount_to = po.amount_to();
      if (!po.rule_id().empty()) {
        const std::optional<RuleId> rule = RuleIdFromName(po.rule_id());
        if (!rule.has_value()) return bad("log.rule_id");
        op.rule_id = *rule;
      }
    }
    std::string packed(log.size() * kMaxPackedLogEntryBytes, '\0');
    auto* begin = reinterpret_cast<uint8_t*>(packed.data());
    std::vector<RuleId> rules;
    packed.resize(static_cast<size_t>(PackLogTo(log, begin, &rules) - begin));
    for (RuleId id : rules) state.add_rule_ids(std::string(RuleIdName(id)));
    state.set_packed_log(std::move(packed));
    state.clear_log();
  }
  msg.set_schema(2);
  return msg.SerializeAsString();
}

}  // namespace stud::service::token
