#include "service/rpc/fairness_view.h"

#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "engine/rule_id.h"
#include "engine/view.h"
#include "service/api/convert.h"
#include "service/fairness/merkle.h"
#include "service/fairness/shuffle.h"
#include "service/rpc/dealing.h"

namespace stud::service {
namespace v1 = stud::v1;

namespace {

// The trees of recent hands, shared by every thread: deriving one costs some
// 300 SHA-256 blocks (about 60 us), and every view of a hand needs its root
// and proofs. Least recently used first out; a hand's tree never changes, so
// a hit is always right.
class TreeCache {
 public:
  static TreeCache& Get() {
    static TreeCache* const cache = new TreeCache();
    return *cache;
  }
  std::shared_ptr<const fairness::DeckTree> Find(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    order_.splice(order_.begin(), order_, it->second);  // now the most recent
    return it->second->second;
  }
  void Put(std::string key, std::shared_ptr<const fairness::DeckTree> tree) {
    std::lock_guard<std::mutex> lock(mu_);
    if (index_.count(key) > 0) return;
    order_.emplace_front(key, std::move(tree));
    index_.emplace(std::move(key), order_.begin());
    if (order_.size() > kCapacity) {
      index_.erase(order_.back().first);
      order_.pop_back();
    }
  }

 private:
  // Some 15 KB each: at most about 4 MB, reached within seconds under load so
  // the server's memory stays flat; a miss derives the tree again (about 30 us).
  static constexpr size_t kCapacity = 256;
  std::mutex mu_;
  std::list<std::pair<std::string, std::shared_ptr<const fairness::DeckTree>>> order_;
  std::unordered_map<
      std::string,
      std::list<std::pair<std::string, std::shared_ptr<const fairness::DeckTree>>>::iterator>
      index_;
};

std::string TreeKey(const ServiceData& service) {
  return absl::StrCat(service.hand_id, service.server_seed, service.packed_seeds);
}

std::shared_ptr<const fairness::DeckTree> TreeOf(const ServiceData& service, int num_seats) {
  std::string key = TreeKey(service);
  if (std::shared_ptr<const fairness::DeckTree> tree = TreeCache::Get().Find(key)) return tree;
  std::vector<std::string> seeds = PlayerSeeds(service);
  seeds.resize(static_cast<size_t>(num_seats));
  auto tree = std::make_shared<const fairness::DeckTree>(
      fairness::Derive(service.server_seed, service.hand_id, seeds));
  TreeCache::Get().Put(std::move(key), tree);
  return tree;
}

void AddProof(const fairness::DeckTree& tree, const std::string& code,
              google::protobuf::RepeatedPtrField<v1::CardProof>* out) {
  const int index = fairness::CardIndex(code);
  if (index < 0) return;  // "" (hidden from this viewer) or not a card
  const fairness::CardProof proof = tree.ProofOfCard(index);
  v1::CardProof* p = out->Add();
  p->set_position(static_cast<uint32_t>(proof.position));
  p->set_card(proof.card);
  p->set_salt(proof.salt);
  for (const std::string& h : proof.path) p->add_path(h);
}

std::string EnumText(const std::string& name, absl::string_view prefix) {
  return std::string(absl::StripPrefix(name, prefix));
}

}  // namespace

void RememberDeckTree(const ServiceData& service, const fairness::Derived& derived) {
  TreeCache::Get().Put(TreeKey(service), std::make_shared<const fairness::DeckTree>(derived));
}

bool HasFairness(const ServiceData& service) {
  return service.dealing_mode == v1::DEALING_MODE_SERVICE && !service.server_seed.empty();
}

void EncodeFairness(const SealedHand& hand, v1::PublicView* pub) {
  const ServiceData& service = hand.service;
  if (!HasFairness(service)) return;
  const int n = hand.state.config.num_seats;
  v1::FairnessView* f = pub->mutable_fairness();
  f->set_shuffle(std::string(fairness::kShuffleName));
  f->set_server_seed_commitment(fairness::ServerSeedCommitment(service.server_seed));
  f->set_player_seeds(service.player_seeds);
  f->set_reveal(service.reveal_policy == v1::REVEAL_POLICY_AT_END ? v1::REVEAL_POLICY_AT_END
                                                                  : v1::REVEAL_POLICY_SEALED);
  if (service.player_seeds) {
    std::vector<std::string> seeds = PlayerSeeds(service);
    seeds.resize(static_cast<size_t>(n));
    for (int seat = 1; seat <= n; ++seat) {
      v1::SeatSeed* s = f->add_seeds();
      s->set_seat(seat);
      const std::string& seed = seeds[static_cast<size_t>(seat - 1)];
      s->set_seeded(!seed.empty());
      s->set_closed((service.seeds_closed >> seat & 1) != 0);
      if (!service.seeding) s->set_seed(seed);
    }
  }
  if (service.seeding) return;  // no deck yet: no root, no card
  const std::shared_ptr<const fairness::DeckTree> tree_of = TreeOf(service, n);
  const fairness::DeckTree& tree = *tree_of;
  f->set_deck_root(tree.root());
  for (const v1::SeatView& seat : pub->seats()) {
    for (const v1::SeatCard& card : seat.cards())
      AddProof(tree, card.card(), f->mutable_card_proofs());
  }
  AddProof(tree, pub->common_card(), f->mutable_card_proofs());
  if (service.reveal_policy == v1::REVEAL_POLICY_AT_END && hand.state.phase == Phase::kComplete) {
    f->set_server_seed(service.server_seed);
  }
}

void EncodeCardProofs(const SealedHand& hand,
                      const google::protobuf::RepeatedPtrField<v1::SeatCard>& cards,
                      google::protobuf::RepeatedPtrField<v1::CardProof>* out) {
  if (!HasFairness(hand.service) || hand.service.seeding) return;
  const std::shared_ptr<const fairness::DeckTree> tree =
      TreeOf(hand.service, hand.state.config.num_seats);
  for (const v1::SeatCard& card : cards) AddProof(*tree, card.card(), out);
}

void EncodeServerSeedReveal(const SealedHand& hand, v1::PublicView* pub) {
  if (!HasFairness(hand.service)) return;
  pub->mutable_fairness()->set_server_seed(hand.service.server_seed);
}

std::string OperationText(const v1::Operation& op) {
  std::string text = absl::StrCat(
      op.index(), " ", EnumText(v1::OperationType_Name(op.type()), "OPERATION_TYPE_"),
      " seat=", op.seat(), " street=", EnumText(v1::Street_Name(op.street()), "STREET_"));
  if (!op.card().empty()) absl::StrAppend(&text, " card=", op.card());
  if (op.face_up()) text += " up";
  if (op.all_in()) text += " all_in";
  if (op.type() == v1::OPERATION_TYPE_AWARD) {
    absl::StrAppend(&text, " pot=", op.pot(),
                    " half=", EnumText(v1::PotHalf_Name(op.half()), "POT_HALF_"));
    if (op.odd_chip()) text += " odd_chip";
  }
  if (op.amount() != 0) absl::StrAppend(&text, " amount=", op.amount());
  if (op.amount_to() != 0) absl::StrAppend(&text, " to=", op.amount_to());
  if (!op.rule_id().empty()) absl::StrAppend(&text, " rule=", op.rule_id());
  return text;
}

std::string ReceiptTranscript(const SealedHand& hand) {
  const HandState& state = hand.state;
  const ServiceData& service = hand.service;
  fairness::ReceiptData d;
  d.hand_id = service.hand_id;
  d.variant = EnumText(v1::Variant_Name(EncodeVariant(state.config.variant)), "VARIANT_");
  d.dealing = EnumText(v1::DealingMode_Name(static_cast<v1::DealingMode>(service.dealing_mode)),
                       "DEALING_MODE_");
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
    d.deck_root = TreeOf(service, state.config.num_seats)->root();
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
  for (size_t i = 0; i < state.log.size(); ++i) {
    v1::Operation op;
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

const fairness::SigningKeys& EphemeralSigningKeys() {
  static const fairness::SigningKeys* const keys =
      new fairness::SigningKeys(fairness::SigningKeys::Ephemeral());
  return *keys;
}

}  // namespace stud::service
