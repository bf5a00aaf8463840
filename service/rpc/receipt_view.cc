#include "service/rpc/receipt_view.h"

#include <charconv>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "engine/rule_id.h"
#include "engine/view.h"
#include "service/api/convert.h"
#include "service/fairness/shuffle.h"
#include "service/rpc/dealing.h"
#include "service/rpc/fairness_view.h"
#include "service/rpc/lru_cache.h"

namespace stud::service {
namespace v1 = stud::v1;

namespace {

// The names of an enum's values without their prefix, by number, read once
// from its descriptor. The generated _Name() looks the value up in the
// descriptor on every call (some 150 instructions with its once-only guard),
// and a transcript names three enum values for each of its 50 to 150
// operations. A number no value has (or an alias's) reads as _Name() reads
// it: the empty string, or the first value's name.
class EnumTexts {
 public:
  EnumTexts(const google::protobuf::EnumDescriptor* descriptor, absl::string_view prefix) {
    for (int i = 0; i < descriptor->value_count(); ++i) {
      const google::protobuf::EnumValueDescriptor* value = descriptor->value(i);
      if (value->number() < 0) continue;
      const auto number = static_cast<size_t>(value->number());
      if (number >= names_.size()) names_.resize(number + 1);
      if (names_[number].empty()) names_[number] = absl::StripPrefix(value->name(), prefix);
    }
  }
  absl::string_view operator[](int number) const {
    return number >= 0 && static_cast<size_t>(number) < names_.size()
               ? names_[static_cast<size_t>(number)]
               : absl::string_view();
  }

 private:
  // The descriptor's strings, which live as long as the program.
  std::vector<absl::string_view> names_;
};

// `value`'s name without `prefix` (its enum's: "STREET_" for a v1::Street),
// from the enum's table, built by the first call.
template <typename E>
absl::string_view NameOf(E value, absl::string_view prefix) {
  static const EnumTexts* const texts =
      new EnumTexts(google::protobuf::GetEnumDescriptor<E>(), prefix);
  return (*texts)[value];
}

// The receipts of recently completed hands, by signing key, tenant and token
// (FillReceiptOf). A hand's watchers read its last version within moments of
// the action that completed it; 128 receipts of 4 to 25 KB each.
LruCache<std::shared_ptr<const v1::HandReceipt>>& Receipts() {
  static auto* const cache = new LruCache<std::shared_ptr<const v1::HandReceipt>>(128);
  return *cache;
}

}  // namespace

std::string OperationText(const v1::Operation& op) {
  // Appended piece by piece into one buffer: a transcript has a text for each
  // of a hand's 50 to 150 operations.
  std::string text;
  text.reserve(80);
  auto put = [&text](absl::string_view piece) { text.append(piece.data(), piece.size()); };
  auto number = [&text](int64_t v) {
    char digits[24];
    const std::to_chars_result end = std::to_chars(digits, digits + sizeof(digits), v);
    text.append(digits, end.ptr);
  };
  number(op.index());
  put(" ");
  put(NameOf(op.type(), "OPERATION_TYPE_"));
  put(" seat=");
  number(op.seat());
  put(" street=");
  put(NameOf(op.street(), "STREET_"));
  if (!op.card().empty()) {
    put(" card=");
    put(op.card());
  }
  if (op.face_up()) put(" up");
  if (op.all_in()) put(" all_in");
  if (op.type() == v1::OPERATION_TYPE_AWARD) {
    put(" pot=");
    number(op.pot());
    put(" half=");
    put(NameOf(op.half(), "POT_HALF_"));
    if (op.odd_chip()) put(" odd_chip");
  }
  if (op.amount() != 0) {
    put(" amount=");
    number(op.amount());
  }
  if (op.amount_to() != 0) {
    put(" to=");
    number(op.amount_to());
  }
  if (!op.rule_id().empty()) {
    put(" rule=");
    put(op.rule_id());
  }
  return text;
}

std::string ReceiptTranscript(const SealedHand& hand) {
  const HandState& state = hand.state;
  const ServiceData& service = hand.service;
  fairness::ReceiptData d;
  d.hand_id = service.hand_id;
  d.variant = std::string(NameOf(EncodeVariant(state.config.variant), "VARIANT_"));
  d.dealing =
      std::string(NameOf(static_cast<v1::DealingMode>(service.dealing_mode), "DEALING_MODE_"));
  // What the hand's PublicView says (EncodePublicView), read from the view
  // itself: the stakes in play and the cards of the seats that showed.
  const TableView view = ViewFor(state, kPublicViewer);
  d.ante = view.stakes.ante;
  d.bring_in = view.stakes.bring_in;
  d.small_bet = view.stakes.small_bet;
  d.big_bet = view.stakes.big_bet;
  for (int seat = 1; seat <= state.config.num_seats; ++seat) {
    d.seats.push_back({seat, state.config.starting_stacks[static_cast<size_t>(seat)]});
  }
  if (HasFairness(service)) {
    d.service_shuffle = true;
    d.server_seed_commitment = fairness::ServerSeedCommitment(service.server_seed);
    d.deck_root = DeckRootOf(service, state.config.num_seats);
    d.player_seeds = PlayerSeeds(service);
    d.player_seeds.resize(static_cast<size_t>(state.config.num_seats));
    if (service.reveal_policy == v1::REVEAL_POLICY_AT_END) d.server_seed = service.server_seed;
  }
  for (int seat = 1; seat <= state.config.num_seats; ++seat) {  // seeding closed [STUD-DEAL-6]
    if ((service.seeds_closed >> seat & 1) != 0) {
      d.rulings.push_back({std::string(RuleIdName(RuleId::kDeal6)), seat});
    }
  }
  std::map<int, size_t> pot_index;  // pot number -> place in d.pots
  d.log.reserve(state.log.size());
  v1::Operation op;  // cleared for each operation: its strings keep their capacity
  for (size_t i = 0; i < state.log.size(); ++i) {
    op.Clear();
    EncodeOperation(state, state.log[i], static_cast<uint32_t>(i), kPublicViewer, &op);
    d.log.push_back(OperationText(op));
    if (!op.rule_id().empty()) d.rulings.push_back({op.rule_id(), op.seat()});
    if (op.type() == v1::OPERATION_TYPE_AWARD) {
      auto [it, added] = pot_index.emplace(op.pot(), d.pots.size());
      if (added) d.pots.emplace_back();
      fairness::ReceiptData::Pot& pot = d.pots[it->second];
      pot.amount += op.amount();
      bool listed = false;
      for (int w : pot.winners) listed = listed || w == op.seat();
      if (!listed) pot.winners.push_back(op.seat());
    }
  }
  for (const SeatView& seat : view.seats) {
    if (!seat.shown) continue;
    fairness::ReceiptData::Shown shown{.seat = seat.seat, .cards = {}};
    for (const SeatView::VisibleCard& c : seat.cards) {
      shown.cards.push_back(c.hidden ? std::string() : c.card.ToString());
    }
    d.shown.push_back(std::move(shown));
  }
  d.version = state.version;
  return fairness::Transcript(d);
}

void FillReceipt(const SealedHand& hand, const fairness::SigningKeys& keys, v1::HandReceipt* out) {
  std::string transcript = ReceiptTranscript(hand);
  out->set_signature(keys.Sign(transcript));
  out->set_key_id(keys.signer().key_id);
  out->set_transcript(std::move(transcript));
}

std::shared_ptr<const v1::HandReceipt> ReceiptOf(const SealedHand& hand,
                                                 const fairness::SigningKeys& keys,
                                                 absl::string_view tenant,
                                                 absl::string_view token) {
  thread_local std::string key;  // its capacity kept from call to call
  key.clear();
  const auto tenant_size = static_cast<uint32_t>(tenant.size());
  absl::StrAppend(
      &key, keys.signer().key_id,
      absl::string_view(reinterpret_cast<const char*>(&tenant_size), sizeof(tenant_size)), tenant,
      token);
  if (std::shared_ptr<const v1::HandReceipt> found = Receipts().Find(key)) return found;
  auto made = std::make_shared<v1::HandReceipt>();
  FillReceipt(hand, keys, made.get());
  Receipts().Put(key, made);
  return made;
}

void FillReceiptOf(const SealedHand& hand, const fairness::SigningKeys& keys,
                   absl::string_view tenant, absl::string_view token, v1::HandReceipt* out) {
  *out = *ReceiptOf(hand, keys, tenant, token);
}

const fairness::SigningKeys& EphemeralSigningKeys() {
  static const fairness::SigningKeys* const keys =
      new fairness::SigningKeys(fairness::SigningKeys::Ephemeral());
  return *keys;
}

}  // namespace stud::service
