#include "service/rpc/fairness_view.h"

#include <array>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/call_once.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "google/protobuf/arena.h"
#include "service/fairness/merkle.h"
#include "service/fairness/shuffle.h"
#include "service/rpc/dealing.h"
#include "service/rpc/lru_cache.h"

namespace stud::service {
namespace v1 = stud::v1;

namespace {

// The longest body of a stud.v1.CardProof: position, code, salt, and the
// longest audit path, each field's tag and length one byte.
constexpr size_t kMaxProofBody = 2 + (2 + 2) + (2 + fairness::kSaltBytes) +
                                 fairness::kMaxAuditPath * (2 + sizeof(fairness::Hash));
static_assert(kMaxProofBody < 256, "a proof's size is kept in one byte");

// The body of `card`'s proof (a stud.v1.CardProof's wire bytes, what
// HandFairness::Made fills, as protobuf serializes it) at `out`, which has
// room for kMaxProofBody; returns its size. Every value is below 128, so
// each tag and length is one byte.
size_t WriteProofBody(const fairness::DeckTree& tree, Card card, uint8_t* out) {
  using P = v1::CardProof;
  constexpr size_t kCode = 2, kSalt = fairness::kSaltBytes, kHash = sizeof(fairness::Hash);
  const absl::string_view code = card.Code();  // two characters
  // The tree's card index is the engine's: rank * 4 + suit, suits cdhs.
  const int position = tree.PositionOf(card.index());
  const fairness::DeckTree::Path path = tree.PathOf(position);
  uint8_t* p = out;
  auto bytes = [&p]<size_t kSize>(uint32_t number, const void* data) {
    *p++ = static_cast<uint8_t>(number << 3 | wire::kLen);
    *p++ = static_cast<uint8_t>(kSize);
    std::memcpy(p, data, kSize);
    p += kSize;
  };
  if (position != 0) {  // proto3: a zero position is not written
    *p++ = static_cast<uint8_t>(P::kPositionFieldNumber << 3 | wire::kVarint);
    *p++ = static_cast<uint8_t>(position);
  }
  bytes.operator()<kCode>(P::kCardFieldNumber, code.data());
  bytes.operator()<kSalt>(P::kSaltFieldNumber, tree.SaltAt(position).data());
  for (size_t k = 0; k < path.size; ++k) {
    bytes.operator()<kHash>(P::kPathFieldNumber, path.hash[k]->data());
  }
  return static_cast<size_t>(p - out);
}

// What every view of a hand needs from its derivation: the deck tree, the
// server seed's commitment and the card proofs.
class HandFairness {
 public:
  explicit HandFairness(const fairness::Derived& derived, absl::string_view server_seed)
      : tree(derived), seed_commitment(fairness::Sha256({server_seed})) {}
  // The proof of the card `code` (Provable; see Made).
  const v1::CardProof& ProofOf(const std::string& code) const { return *proofs_[Made(code)]; }
  // The same proof's wire bytes (WriteProofBody), for an answer written as
  // bytes: made on first use into this hand's slot for the card's position
  // (thread-safe; no allocation), copied by every later answer.
  absl::string_view ProofBody(Card card) const {
    const auto p = static_cast<size_t>(tree.PositionOf(card.index()));
    absl::call_once(body_made_[p], [&] {
      body_size_[p] = static_cast<uint8_t>(WriteProofBody(tree, card, bodies_[p].data()));
    });
    return {reinterpret_cast<const char*>(bodies_[p].data()), body_size_[p]};
  }

  const fairness::DeckTree tree;
  const fairness::Sha256Digest seed_commitment;

 private:
  static constexpr size_t kPositions = fairness::kCards;
  mutable google::protobuf::Arena arena_;  // thread-safe; the proofs live on it
  // absl::call_once, not std::call_once: glibc's pthread_once ends every first
  // call with a futex wake whether or not a thread waits, a system call for
  // each position a hand shows (some 40 a hand, 0.4 per answer in play);
  // absl's wakes only a waiter.
  mutable std::array<absl::once_flag, kPositions> made_;
  mutable std::array<const v1::CardProof*, kPositions> proofs_{};
  mutable std::array<absl::once_flag, kPositions> body_made_;
  mutable std::array<uint8_t, kPositions> body_size_{};  // each at most kMaxProofBody
  // Written before read (call_once), so left uninitialized: 12 KB not zeroed per hand.
  mutable std::array<std::array<uint8_t, kMaxProofBody>, kPositions> bodies_;

  // The position of the card `code` (Provable), its proof made on first use
  // (thread-safe) and never changed after: every view of the hand shows the
  // same proof for a card. An answer on an arena points at it (ProofSource).
  size_t Made(const std::string& code) const {
    const int position = tree.PositionOf(fairness::CardIndex(code));
    const auto p = static_cast<size_t>(position);
    absl::call_once(made_[p], [&] {
      // On the hand's own arena: one allocation per string (its bytes).
      auto* proof = google::protobuf::Arena::CreateMessage<v1::CardProof>(&arena_);
      const fairness::DeckTree::Path path = tree.PathOf(position);
      const absl::string_view salt = tree.SaltAt(position);
      proof->set_position(static_cast<uint32_t>(position));
      proof->set_card(code);
      // assign(), not set_x(data, size): that one makes a temporary string first.
      proof->mutable_salt()->assign(salt.data(), salt.size());
      proof->mutable_path()->Reserve(static_cast<int>(path.size));
      for (size_t k = 0; k < path.size; ++k)
        proof->add_path(path.hash[k]->data(), path.hash[k]->size());
      proofs_[p] = proof;
    });
    return p;
  }
};
using HandFairnessPtr = std::shared_ptr<const HandFairness>;

// The key of a hand's tree: what its derivation reads (the hand id, server
// seed and players' seeds; the number of seats is the sealed hand's own),
// written into `out`, whose capacity is kept from call to call.
void WriteTreeKey(const ServiceData& service, std::string* out) {
  out->clear();
  absl::StrAppend(out, service.hand_id, service.server_seed, service.packed_seeds);
}

// True when `key` is WriteTreeKey's for `service`, compared part by part
// (the key is not written: most calls find their hand's tree this way).
bool IsTreeKeyOf(absl::string_view key, const ServiceData& service) {
  for (absl::string_view part :
       {absl::string_view(service.hand_id), absl::string_view(service.server_seed),
        absl::string_view(service.packed_seeds)}) {
    if (!absl::ConsumePrefix(&key, part)) return false;
  }
  return key.empty();
}

// The trees of recent hands, shared by every thread: deriving one costs some
// 280 SHA-256 compressions, and every view of a hand needs its root and
// proofs (made once per hand and position, HandFairness::ProofOf). A hand's
// tree never changes, so a hit is always right.
//
// About 21 KB each (the tree, and a slot for each position's proof bytes),
// 220 bytes more per proof a message answer has shown (a hand shows some 20
// to 40 of its 52 positions): at most about 7 MB, full within seconds under
// load so the server's memory stays flat (Reliability.MixedSoak: with 1,024
// hands it was still filling 20 s in, +11 % of the process); a miss derives
// the tree again (about 18 us). Behind per-call balancing every replica sees
// every hand in play, so no per-replica size would hold them all anyway.
LruCache<HandFairnessPtr>& Trees() {
  static auto* const cache = new LruCache<HandFairnessPtr>(256);
  return *cache;
}

HandFairnessPtr DeriveHand(const ServiceData& service, int num_seats) {
  std::vector<std::string> seeds = PlayerSeeds(service);
  seeds.resize(static_cast<size_t>(num_seats));
  return std::make_shared<const HandFairness>(
      fairness::Derive(service.server_seed, service.hand_id, seeds), service.server_seed);
}

// The tree of this hand, valid until the thread's next TreeOf: derived at
// most once per call. A call asks for it once for its public view and once
// per private view, so each thread keeps the last hand it served next to
// the shared cache (no lock, no look-up).
const HandFairnessPtr& TreeOf(const ServiceData& service, int num_seats) {
  thread_local std::string key, last_key;
  thread_local HandFairnessPtr last;
  if (last != nullptr && IsTreeKeyOf(last_key, service)) return last;
  WriteTreeKey(service, &key);
  HandFairnessPtr found = Trees().Find(key);
  if (found == nullptr) {
    found = DeriveHand(service, num_seats);
    Trees().Put(key, found);
  }
  last = std::move(found);
  last_key.swap(key);
  return last;
}

// True when `code` is a card (not "", hidden from this viewer).
bool Provable(const std::string& code) { return fairness::CardIndex(code) >= 0; }

// Where an answer's proofs come from: the hand's shared proofs, and whether
// the answer points at them.
class ProofSource {
 public:
  // `out` is the field the proofs go to. On an arena the answer points at
  // the hand's proofs and keeps the hand's HandFairness alive until the
  // arena goes (one shared_ptr on it): no proof is copied, which was 7 heap
  // strings and some 1,700 instructions each. An arena never runs its
  // messages' destructors, so nothing deletes a proof it does not own, and
  // nothing changes an answer's proofs after it is built (api/compact.h
  // leaves them). A message on the heap gets copies.
  ProofSource(const HandFairnessPtr& hand, google::protobuf::Arena* arena)
      : hand_(*hand), arena_(arena) {
    if (arena_ != nullptr) google::protobuf::Arena::Create<HandFairnessPtr>(arena_, hand);
  }
  // The proof of the card `code` (Provable).
  void Add(const std::string& code, google::protobuf::RepeatedPtrField<v1::CardProof>* out) const {
    const v1::CardProof& proof = hand_.ProofOf(code);
    if (arena_ != nullptr) {
      out->UnsafeArenaAddAllocated(const_cast<v1::CardProof*>(&proof));  // read only, see above
    } else {
      *out->Add() = proof;
    }
  }

 private:
  const HandFairness& hand_;
  google::protobuf::Arena* const arena_;
};

}  // namespace

void RememberDeckTree(const ServiceData& service, const fairness::Derived& derived) {
  std::string key;
  WriteTreeKey(service, &key);
  Trees().Put(key, std::make_shared<const HandFairness>(derived, service.server_seed));
}

bool HasFairness(const ServiceData& service) {
  return service.dealing_mode == v1::DEALING_MODE_SERVICE && !service.server_seed.empty();
}

void EncodeFairness(const SealedHand& hand, v1::PublicView* pub) {
  const ServiceData& service = hand.service;
  if (!HasFairness(service)) return;
  const int n = hand.state.config.num_seats;
  v1::FairnessView* f = pub->mutable_fairness();
  f->set_shuffle(fairness::kShuffleName.data(), fairness::kShuffleName.size());
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
  if (service.seeding) {  // no deck yet: no root, no card
    f->set_server_seed_commitment(fairness::ServerSeedCommitment(service.server_seed));
    return;
  }
  const HandFairnessPtr& hand_fairness = TreeOf(service, n);
  const HandFairness& hf = *hand_fairness;
  const fairness::Sha256Digest& commitment = hf.seed_commitment;
  f->mutable_server_seed_commitment()->assign(reinterpret_cast<const char*>(commitment.data()),
                                              commitment.size());
  const absl::string_view root = hf.tree.root();
  f->mutable_deck_root()->assign(root.data(), root.size());
  int provable = Provable(pub->common_card()) ? 1 : 0;
  for (const v1::SeatView& seat : pub->seats()) {
    for (const v1::SeatCard& card : seat.cards()) provable += Provable(card.card()) ? 1 : 0;
  }
  google::protobuf::RepeatedPtrField<v1::CardProof>* proofs = f->mutable_card_proofs();
  proofs->Reserve(provable);
  const ProofSource source(hand_fairness, pub->GetArena());
  for (const v1::SeatView& seat : pub->seats()) {
    for (const v1::SeatCard& card : seat.cards()) {
      if (Provable(card.card())) source.Add(card.card(), proofs);
    }
  }
  if (Provable(pub->common_card())) source.Add(pub->common_card(), proofs);
  if (service.reveal_policy == v1::REVEAL_POLICY_AT_END && hand.state.phase == Phase::kComplete) {
    f->set_server_seed(service.server_seed);
  }
}

void EncodeCardProofs(const SealedHand& hand,
                      const google::protobuf::RepeatedPtrField<v1::SeatCard>& cards,
                      google::protobuf::RepeatedPtrField<v1::CardProof>* out) {
  if (!HasFairness(hand.service) || hand.service.seeding) return;
  int provable = 0;
  for (const v1::SeatCard& card : cards) provable += Provable(card.card()) ? 1 : 0;
  if (provable == 0) return;  // nothing this viewer sees: no tree needed
  const ProofSource source(TreeOf(hand.service, hand.state.config.num_seats), out->GetArena());
  out->Reserve(out->size() + provable);
  for (const v1::SeatCard& card : cards) {
    if (Provable(card.card())) source.Add(card.card(), out);
  }
}

void WriteFairness(const SealedHand& hand, absl::Span<const Card> shown, wire::Writer& out) {
  using F = v1::FairnessView;
  const ServiceData& service = hand.service;
  if (!HasFairness(service) || service.seeding) return;  // seeding: EncodeFairness only
  const int n = hand.state.config.num_seats;
  const HandFairnessPtr& hand_fairness = TreeOf(service, n);
  const HandFairness& hf = *hand_fairness;
  const size_t at = out.OpenLong(v1::PublicView::kFairnessFieldNumber);
  out.BytesField(F::kShuffleFieldNumber, fairness::kShuffleName);
  out.BytesField(F::kServerSeedCommitmentFieldNumber, fairness::View(hf.seed_commitment));
  out.BytesField(F::kDeckRootFieldNumber, hf.tree.root());
  out.VarintField(F::kPlayerSeedsFieldNumber, service.player_seeds ? 1 : 0);
  out.VarintField(F::kRevealFieldNumber, service.reveal_policy == v1::REVEAL_POLICY_AT_END
                                             ? v1::REVEAL_POLICY_AT_END
                                             : v1::REVEAL_POLICY_SEALED);
  if (service.player_seeds) {
    std::vector<std::string> seeds = PlayerSeeds(service);
    seeds.resize(static_cast<size_t>(n));
    for (int seat = 1; seat <= n; ++seat) {
      const std::string& seed = seeds[static_cast<size_t>(seat - 1)];
      const size_t seat_at = out.Open(F::kSeedsFieldNumber);
      out.VarintField(v1::SeatSeed::kSeatFieldNumber, static_cast<uint64_t>(seat));
      out.BytesField(v1::SeatSeed::kSeedFieldNumber, seed);
      out.VarintField(v1::SeatSeed::kSeededFieldNumber, seed.empty() ? 0 : 1);
      out.VarintField(v1::SeatSeed::kClosedFieldNumber, service.seeds_closed >> seat & 1);
      out.Close(seat_at);
    }
  }
  for (Card card : shown) {
    out.BytesField(F::kCardProofsFieldNumber, hf.ProofBody(card), /*always=*/true);
  }
  if (service.reveal_policy == v1::REVEAL_POLICY_AT_END && hand.state.phase == Phase::kComplete) {
    out.BytesField(F::kServerSeedFieldNumber, service.server_seed);
  }
  out.CloseLong(at);
}

void WriteCardProofs(const SealedHand& hand, absl::Span<const Card> cards, uint32_t field,
                     wire::Writer& out) {
  if (!HasFairness(hand.service) || hand.service.seeding || cards.empty()) return;
  const HandFairness& hf = *TreeOf(hand.service, hand.state.config.num_seats);
  for (Card card : cards) out.BytesField(field, hf.ProofBody(card), /*always=*/true);
}

void EncodeServerSeedReveal(const SealedHand& hand, v1::PublicView* pub) {
  if (!HasFairness(hand.service)) return;
  pub->mutable_fairness()->set_server_seed(hand.service.server_seed);
}

std::string DeckRootOf(const ServiceData& service, int num_seats) {
  return std::string(TreeOf(service, num_seats)->tree.root());
}

}  // namespace stud::service
