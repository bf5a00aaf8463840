#include "service/rpc/receipt_view.h"

#include <charconv>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>

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

// An enum value's name without its prefix. `name` is the generated _Name()'s,
// which lives as long as the program.
absl::string_view EnumText(const std::string& name, absl::string_view prefix) {
  return absl::StripPrefix(name, prefix);
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
  put(EnumText(v1::OperationType_Name(op.type()), "OPERATION_TYPE_"));
  put(" seat=");
  number(op.seat());
  put(" street=");
  put(EnumText(v1::Street_Name(op.street()), "STREET_"));
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
    put(EnumText(v1::PotHalf_Name(op.half()), "POT_HALF_"));
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
  d.variant =
      std::string(EnumText(v1::Variant_Name(EncodeVariant(state.config.variant)), "VARIANT_"));
  d.dealing = std::string(EnumText(
      v1::DealingMode_Name(static_cast<v1::DealingMode>(service.dealing_mode)), "DEALING_MODE_"));
  v1::PublicView pub;
  EncodePublicView(ViewFor(state, kPublicViewer), &pub);
  d.ante = pub.stakes().ante();
  d.bring_in = pub.stakes().bring_in();
  d.small_bet = pub.stakes().small_bet();
  d.big_bet = pub.stakes().big_bet();
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
  for (const v1::SeatView& seat : pub.seats()) {
    if (!seat.shown()) continue;
    fairness::ReceiptData::Shown shown{.seat = seat.seat(), .cards = {}};
    for (const v1::SeatCard& c : seat.cards()) shown.cards.push_back(c.card());
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
