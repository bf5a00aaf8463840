// Dealing: antes, the cards of each street, burns, running out of cards and
// the common card, and who opens each betting round.
#include <algorithm>
#include <array>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "engine/hand_eval.h"
#include "engine/internal.h"
#include "engine/refusal.h"

namespace stud::internal {
namespace {

size_t StubSize(const HandState& st) { return st.config.deck.size() - st.deck_pos; }

// [STUD-DECK-1] The burns, aside cards and what is left of the stub are mixed,
// shuffled and cut; the shuffle's order comes from config.recycle_order.
void Recycle(HandState& st) {
  std::vector<Card> pile(st.config.deck.begin() + static_cast<std::ptrdiff_t>(st.deck_pos),
                         st.config.deck.end());
  st.deck_pos = st.config.deck.size();
  pile.insert(pile.end(), st.recycled.begin(), st.recycled.end());
  pile.insert(pile.end(), st.burns.begin(), st.burns.end());
  pile.insert(pile.end(), st.aside.begin(), st.aside.end());
  st.burns.clear();
  st.aside.clear();
  std::array<int, kDeckSize> position{};
  for (int i = 0; i < kDeckSize; ++i) position[i] = i;  // natural order by default
  for (size_t i = 0; i < st.config.recycle_order.size(); ++i) {
    position[st.config.recycle_order[i].index()] = static_cast<int>(i);
  }
  std::sort(pile.begin(), pile.end(),
            [&](Card a, Card b) { return position[a.index()] < position[b.index()]; });
  st.recycled = std::move(pile);
  Log(st, {.type = OpType::kRecycle,
           .street = st.street,
           .amount = static_cast<Chips>(st.recycled.size()),
           .rule_id = RuleId::kDeck1});
}

// Next card off the top: the stub, then the recycled pile.
Card Draw(HandState& st) {
  if (StubSize(st) == 0 && st.recycled.empty()) Recycle(st);
  if (StubSize(st) > 0) return st.config.deck[st.deck_pos++];
  const Card c = st.recycled.front();
  st.recycled.erase(st.recycled.begin());
  return c;
}

void Burn(HandState& st) {
  // [STUD-DEAL-3] one card burned before each of 4th to 7th street.
  const Card c = Draw(st);
  st.burns.push_back(c);
  st.seen.Add(c);
  Log(st, {.type = OpType::kBurn, .street = st.street, .card = c, .rule_id = RuleId::kDeal3});
}

void Give(HandState& st, int seat, Card c, bool face_up) {
  GiveCard(st, seat, c, face_up, st.street);
}

void GiveCommon(HandState& st, Card c) {
  st.has_common = true;
  st.common_card = c;
  st.seen.Add(c);
  Log(st, {.type = OpType::kCommonCard,
           .street = st.street,
           .card = c,
           .face_up = true,
           .rule_id = RuleId::kDeck5});
}

// [STUD-DECK-1..4] Decided once, before any card of the street is dealt: is
// there a fresh card for everyone, or does one common card serve all?
bool NeedsCommonCard(const HandState& st, size_t recipients) {
  const DeckExhaustion mode = st.config.options.deck_exhaustion;
  size_t stub, recyclable;
  if (st.config.deal_source == DealSource::kDeck) {
    stub = StubSize(st) + st.recycled.size();
    recyclable = st.burns.size() + st.aside.size();
  } else {
    // Reported dealing: unseen burns are counted; known burns and aside cards are seen.
    stub = static_cast<size_t>(LiveStub(st));
    recyclable = static_cast<size_t>(st.burn_count) + st.burns.size() + st.aside.size();
  }
  if (mode == DeckExhaustion::kCommonImmediately) return stub < recipients + 1;
  size_t available = stub + recyclable;
  if (mode == DeckExhaustion::kRecycleBurnThenCommon) available -= std::min<size_t>(available, 1);
  return available < recipients;
}

bool FaceUp(const HandState& st, int pass) {
  if (st.street == Street::kThird) return pass == 2;  // two down, then the door card
  return st.street != Street::kSeventh;               // [STUD-DEAL-2] 7th street down
}

int NextCanActLeftOf(const HandState& st, int seat) {
  const int n = st.config.num_seats;
  for (int step = 1; step < n; ++step) {
    const int s = (seat + step - 1) % n + 1;
    if (st.seats[s].can_act()) return s;
  }
  return 0;
}

}  // namespace

bool HasOpenPair(const HandState& st, int seat) {
  uint32_t ranks = 0;
  const Seat& s = st.seats[seat];
  for (int i = 0; i < s.num_cards; ++i) {
    if (!s.cards[i].face_up) continue;
    const uint32_t bit = 1u << s.cards[i].card.rank_value();
    if (ranks & bit) return true;
    ranks |= bit;
  }
  return false;
}

absl::InlinedVector<int, kMaxSeats> Recipients(const HandState& st) {
  absl::InlinedVector<int, kMaxSeats> out;
  for (int i = 1; i <= st.config.num_seats; ++i) {
    // [STUD-IRR-PREM-2] a seat that kept a premature final card gets no other.
    if (st.street == Street::kSeventh && st.seats[i].has_seventh) continue;
    // [STUD-DEAL-4] all-in seats too; [STUD-IRR-FOLD-1] and seats that checked out.
    if (st.seats[i].live() || st.seats[i].checked_out) out.push_back(i);
  }
  return out;
}

void GiveCard(HandState& st, int seat, Card c, bool face_up, Street street) {
  Seat& s = st.seats[seat];
  s.cards[s.num_cards++] = {c, face_up, street};
  st.seen.Add(c);
  Log(st, {.type = OpType::kDeal,
           .seat = static_cast<uint8_t>(seat),
           .street = street,
           .card = c,
           .face_up = face_up,
           .rule_id = street == Street::kThird ? RuleId::kDeal1 : RuleId::kDeal2});
}

Card DoorCard(const Seat& s) {
  for (int i = 0; i < s.num_cards && i < 3; ++i) {
    if (s.cards[i].face_up && s.cards[i].street == Street::kThird) return s.cards[i].card;
  }
  return s.cards[2].card;
}

void PostAntes(HandState& st) {
  const Chips ante = st.config.stakes.ante;
  if (ante == 0) return;
  for (int i = 1; i <= st.config.num_seats; ++i) {
    Seat& s = st.seats[i];
    const Chips paid = std::min(ante, s.stack);  // [STUD-ALLIN-6] a short ante goes all-in
    s.stack -= paid;
    s.committed += paid;
    if (s.stack == 0) s.all_in = true;
    Log(st, {.type = OpType::kAnte,
             .seat = static_cast<uint8_t>(i),
             .street = Street::kThird,
             .all_in = s.all_in,
             .amount = paid,
             .rule_id = paid < ante ? RuleId::kAllin6 : RuleId::kSetup2});
  }
}

absl::Status ValidateCarriedAntes(const HandConfig& c) {
  for (int i = 1; i <= kMaxSeats; ++i) {
    const Chips a = c.carried_antes[i];
    if (a == 0) continue;
    if (i > c.num_seats || a < 0 || a > c.stakes.ante) {
      const std::string field = absl::StrCat("carried_antes[", i, "]");  // a path, not prose
      return Malformed({.what = Refusal::kCarriedAnteOutOfRange,
                        .field = field,
                        .count = c.num_seats,
                        .chips = c.stakes.ante,
                        .amount = a});
    }
  }
  return absl::OkStatus();
}

void CarryAntes(HandState& st) {
  // A misdeal's redeal that kept its antes [STUD-IRR-EXP-1 STAY_IN_POT]: they
  // are already in the pot, logged as antes of this hand, but nothing leaves
  // a stack.
  for (int i = 1; i <= st.config.num_seats; ++i) {
    Seat& s = st.seats[i];
    s.committed = st.config.carried_antes[i];
    if (s.stack == 0) s.all_in = true;  // a short ante carried over [STUD-ALLIN-6]
    Log(st, {.type = OpType::kAnte,
             .seat = static_cast<uint8_t>(i),
             .street = Street::kThird,
             .all_in = s.all_in,
             .amount = s.committed,
             .rule_id = RuleId::kIrrExp1});
  }
}

bool BeginStreetDeal(HandState& st) {
  const absl::InlinedVector<int, kMaxSeats> to = Recipients(st);
  const bool deck = st.config.deal_source == DealSource::kDeck;
  st.deal_pass = 0;
  st.street_uses_common = st.street != Street::kThird && NeedsCommonCard(st, to.size());
  const bool burn = st.street != Street::kThird || st.config.options.burn_before_third;
  if (st.premature_pending > 0) {
    // [STUD-IRR-PREM-1] after the round of a premature deal, one card for each
    // player still in is taken out of play before the burn.
    const int n = static_cast<int>(to.size());
    if (!deck) st.burn_count += n;
    for (int k = 0; k < n; ++k) {
      Log(st,
          {.type = OpType::kAside, .street = st.street, .amount = 1, .rule_id = RuleId::kIrrPrem1});
    }
    st.premature_pending = 0;
  }
  if (!deck) {
    // The burn is reported (or implied by the next card), see LiveStep.
    st.pending_deal = {};
    if (!st.street_uses_common) {
      for (int seat : to) st.pending_deal[seat] = true;
    }
    st.phase = Phase::kAwaitingDeal;
    return false;
  }
  if (st.street_uses_common) {
    // [STUD-DECK-1] burn one and turn one up in the centre; with fewer than two
    // cards in the stub, the stub is first mixed with the burns and aside cards.
    if (StubSize(st) + st.recycled.size() < 2) Recycle(st);
    Burn(st);
    GiveCommon(st, Draw(st));
    return true;
  }
  const DeckExhaustion mode = st.config.options.deck_exhaustion;
  const bool short_stub = StubSize(st) + st.recycled.size() < to.size() + 1;
  // [STUD-DECK-2] when short, 004 skips the burn so every player gets an unused card.
  if (burn && !(short_stub && mode == DeckExhaustion::kRecycleSkipBurnIfShort)) Burn(st);
  const int passes = st.street == Street::kThird ? 3 : 1;
  for (int pass = 0; pass < passes; ++pass) {
    for (size_t k = 0; k < to.size(); ++k) {
      const size_t still_needed = to.size() - k;
      // [STUD-DECK-1] deal all but the last card, then recycle and burn again.
      if (st.recycled.empty() && StubSize(st) <= 1 && still_needed > StubSize(st)) {
        Recycle(st);
        if (mode == DeckExhaustion::kRecycleBurnThenCommon) Burn(st);
      }
      Give(st, to[k], Draw(st), FaceUp(st, pass));
    }
  }
  return true;
}

void GiveReportedCard(HandState& st, Card card) {
  const ExpectedDeal next = NextDeal(st);
  if (next.seat == kBoardSeat) {
    GiveCommon(st, card);
    return;
  }
  Give(st, next.seat, card, next.face_up);
  st.pending_deal[next.seat] = false;
  AdvanceDealPass(st);
}

void AdvanceDealPass(HandState& st) {
  if (std::none_of(st.pending_deal.begin(), st.pending_deal.end(), [](bool b) { return b; }) &&
      st.street == Street::kThird && st.deal_pass < 2) {
    ++st.deal_pass;
    for (int seat : Recipients(st)) st.pending_deal[seat] = true;
  }
}

ExpectedDeal NextDeal(const HandState& st);  // engine.cc

void DesignateOpener(HandState& st) {
  const Variant v = st.config.variant;
  const bool razz = v == Variant::kRazz;
  st.actor = 0;
  if (st.street == Street::kThird &&
      st.config.options.third_street_opener == ThirdStreetOpener::kLowCardBringIn) {
    // [STUD-BRING-1..3] lowest door card by suit, ace high; Razz: highest, ace low.
    int low = 0;
    for (int i = 1; i <= st.config.num_seats; ++i) {
      const Seat& s = st.seats[i];
      if (!s.live()) continue;
      if (low == 0 || BringsInBefore(DoorCard(s), DoorCard(st.seats[low]), razz)) low = i;
    }
    RuleId rule = RuleId::kBring1;
    // [STUD-IRR-EXP-2] a dead hand whose first exposed hole card would have
    // been low: the bring-in is not passed on; its left neighbour opens.
    const int dead = st.dead_low_seat;
    const bool dead_low = dead != 0 && (low == 0 || BringsInBefore(DoorCard(st.seats[dead]),
                                                                   DoorCard(st.seats[low]), razz));
    if (dead_low) low = dead;
    st.bring_in_seat = low;
    if (ActiveSeatCount(st) < 2) return;  // [STUD-BRING-8] nobody left to bet
    st.bring_in_due = true;
    st.actor = low;
    if (dead_low) {
      st.actor = NextCanActLeftOf(st, dead);
      rule = RuleId::kIrrExp2;
      if (st.config.options.dead_hand_low_opener == DeadHandLowOpener::kLeftPlayerForced) {
        st.forced_opener = st.actor;
      }
    } else if (!st.seats[low].can_act()) {
      st.actor = NextCanActLeftOf(st, low);  // [STUD-BRING-8] low card all-in for the ante
      rule = RuleId::kBring8;
    }
    Log(st, {.type = OpType::kFirstToAct,
             .seat = static_cast<uint8_t>(st.actor),
             .street = st.street,
             .card = DoorCard(st.seats[low]),
             .rule_id = rule});
    return;
  }
  // [STUD-ORDER-1..4, STUD-ORDER-6] the highest board (Razz: lowest) opens.
  const BoardOrderList order = BoardOrder(st);
  const int high = order.empty() ? 0 : order.front().seat;
  // [STUD-PAIR-1] FIRST_ACTOR_WITH_PAIR: the pair must be the first actor's, and
  // with the high hand all-in the first actor is the seat to its left [STUD-ORDER-4].
  const int first = high != 0 && !st.seats[high].can_act() ? NextCanActLeftOf(st, high) : high;
  if (st.street == Street::kFourth && !razz &&
      (v == Variant::kStud || st.config.options.hilo_open_pair_double)) {
    // [STUD-PAIR-1, STUD-PAIR-5] an open pair on 4th street allows the big bet.
    for (int i = 1; i <= st.config.num_seats; ++i) {
      if (!st.seats[i].live() || !HasOpenPair(st, i)) continue;
      if (st.config.options.open_pair_scope == OpenPairScope::kAnyPlayer || i == first) {
        st.open_pair = true;
      }
    }
  }
  if (ActiveSeatCount(st) < 2) return;
  RuleId rule = RuleId::kOrder1;
  st.actor = high;
  if (!st.seats[high].can_act()) {
    st.actor = NextCanActLeftOf(st, high);  // [STUD-ORDER-4]
    rule = RuleId::kOrder4;
  }
  if (st.has_common) rule = RuleId::kOrder6;
  // [STUD-IRR-EXP-5] a face-up final card: that player's option comes first.
  // The board's opener is logged once, after the option is answered (this
  // function runs again then), so the log never names two openers at once.
  const int opt = st.allin_option_seat;
  if (opt != 0 && st.seats[opt].can_act()) {
    st.actor = opt;
    Log(st, {.type = OpType::kFirstToAct,
             .seat = static_cast<uint8_t>(opt),
             .street = st.street,
             .rule_id = RuleId::kIrrExp5});
    return;
  }
  st.allin_option_seat = 0;
  Log(st, {.type = OpType::kFirstToAct,
           .seat = static_cast<uint8_t>(st.actor),
           .street = st.street,
           .rule_id = rule});
}

}  // namespace stud::internal

namespace stud {

BoardOrderList BoardOrder(const HandState& st) {
  const bool razz = st.config.variant == Variant::kRazz;
  // (value, seat), in seat order; plain arrays, as every public view asks.
  std::array<std::pair<BoardValue, int>, kMaxSeats> boards;
  size_t n = 0;
  for (int i = 1; i <= st.config.num_seats; ++i) {
    if (!st.seats[i].live() || st.seats[i].num_cards == 0) continue;
    const CardSet up = UpCards(st, i);
    if (up.empty()) continue;
    boards[n++] = {razz ? RazzBoardValue(up) : HighBoardValue(up), i};
  }
  // [STUD-ORDER-3] best board first; equal boards by position, seat 1 first.
  // Insertion sort: stable, and for at most 8 boards without std::stable_sort's buffer.
  for (size_t k = 1; k < n; ++k) {
    const std::pair<BoardValue, int> b = boards[k];
    size_t j = k;
    for (; j > 0 && boards[j - 1].first < b.first; --j) boards[j] = boards[j - 1];
    boards[j] = b;
  }
  BoardOrderList out(n);
  for (size_t k = 0; k < n; ++k) {
    const bool tied = k > 0 && boards[k].first == boards[k - 1].first;
    out[k] = {.seat = boards[k].second, .rank = tied ? out[k - 1].rank : static_cast<int>(k) + 1};
  }
  return out;
}

}  // namespace stud

namespace stud {

bool HasCarriedAntes(const HandConfig& c) {
  for (int i = 1; i <= kMaxSeats; ++i) {
    if (c.carried_antes[i] != 0) return true;
  }
  return false;
}

}  // namespace stud
