// Test helpers: build hands from a stacked deck that reads like the rule book.
//
//   HandConfig c = Config(Variant::kStud, *FindStakesPreset("$15-$30"), {10000, 10000, 10000},
//                         {"Ah Kd 7c  9s 9d 3c 2h",   // seat 1: down, down, door, 4th..7th
//                          "2c 5d Qs  Jh 8d 4c 7h",
//                          "3d 3h 3s  Td 6c 6d 2s"});
//
// Each seat lists its cards in the order it receives them: two down cards, the
// door card, then 4th to 7th street. A seat that folds early simply lists
// fewer cards. DeckFor() lays the cards out in true dealing order (3rd street
// in three passes, one burn before each later street) and fills burns and the
// rest of the deck with unused cards in natural order.
#ifndef STUD_TESTS_TESTING_HANDS_H_
#define STUD_TESTS_TESTING_HANDS_H_

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "engine/card.h"
#include "engine/engine.h"
#include "engine/hand_state.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace stud::testing {

inline std::vector<Card> Cards(const std::string& text) {
  absl::StatusOr<std::vector<Card>> cards = ParseCards(text);
  EXPECT_THAT(cards, IsOk()) << text;
  return cards.ok() ? *cards : std::vector<Card>{};
}

inline Card C(const std::string& text) { return Cards(text).at(0); }

// The deck in dealing order for hands listed per seat (see file comment).
inline std::vector<Card> DeckFor(const std::vector<std::string>& hands,
                                 bool burn_before_third = false) {
  std::vector<std::vector<Card>> seat_cards;
  CardSet used;
  for (const std::string& h : hands) {
    seat_cards.push_back(Cards(h));
    for (Card c : seat_cards.back()) used.Add(c);
  }
  std::vector<Card> spare;
  for (int i = 0; i < kDeckSize; ++i) {
    if (!used.Contains(Card::FromIndex(i))) spare.push_back(Card::FromIndex(i));
  }
  size_t next_spare = 0;
  std::vector<Card> deck;
  auto burn = [&] {
    if (next_spare < spare.size()) deck.push_back(spare[next_spare++]);
  };
  if (burn_before_third) burn();
  for (size_t pass = 0; pass < 3; ++pass) {
    for (const auto& cards : seat_cards) {
      if (cards.size() > pass) deck.push_back(cards[pass]);
    }
  }
  for (size_t street = 3; street < 7; ++street) {
    bool any = false;
    for (const auto& cards : seat_cards) any = any || cards.size() > street;
    if (!any) break;
    burn();
    for (const auto& cards : seat_cards) {
      if (cards.size() > street) deck.push_back(cards[street]);
    }
  }
  while (next_spare < spare.size()) deck.push_back(spare[next_spare++]);
  return deck;
}

inline HandConfig Config(Variant variant, const Stakes& stakes, const std::vector<Chips>& stacks,
                         const std::vector<std::string>& hands, Options options = Options()) {
  HandConfig c;
  c.variant = variant;
  c.stakes = stakes;
  c.options = options;
  c.num_seats = static_cast<int>(stacks.size());
  for (size_t i = 0; i < stacks.size(); ++i) c.starting_stacks[i + 1] = stacks[i];
  c.deal_source = DealSource::kDeck;
  c.deck = DeckFor(hands, options.burn_before_third);
  return c;
}

inline HandState Start(const HandConfig& config) {
  absl::StatusOr<HandState> st = NewHand(config);
  EXPECT_THAT(st, IsOk());
  return st.ok() ? *st : HandState{};
}

// Applies an action that must be accepted.
inline void Act(HandState& st, int seat, ActionKind kind, Chips amount_to = 0) {
  ASSERT_THAT(Apply(st, {.kind = kind, .seat = seat, .amount_to = amount_to}), IsOk())
      << "seat " << seat << " " << ActionKindName(kind) << " " << amount_to;
}

// Applies an action that must be refused with `rule_id`.
inline void Refused(HandState& st, int seat, ActionKind kind, Chips amount_to,
                    const std::string& rule_id) {
  absl::Status s = Apply(st, {.kind = kind, .seat = seat, .amount_to = amount_to});
  EXPECT_THAT(s, ::testing::Not(IsOk()))
      << "seat " << seat << " " << ActionKindName(kind) << " " << amount_to;
  EXPECT_EQ(RuleIdOf(s), rule_id) << s;
}

// Everyone still able to act checks until the current street's betting closes.
inline void CheckRound(HandState& st) {
  const Street s = st.street;
  while (st.phase == Phase::kBetting && st.street == s) Act(st, ToAct(st), ActionKind::kCheck);
}

// Amounts of the legal actions of one kind, for compact assertions.
inline std::vector<Chips> AmountsOf(const HandState& st, int seat, ActionKind kind) {
  std::vector<Chips> out;
  for (const LegalAction& a : LegalActions(st, seat)) {
    if (a.kind == kind) out.push_back(a.amount_to);
  }
  return out;
}

// How many operations of `type` the hand's log holds.
inline int CountOps(const HandState& st, OpType type) {
  int n = 0;
  for (const Operation& op : st.log) n += op.type == type ? 1 : 0;
  return n;
}

inline Chips TotalChips(const HandState& st) {
  Chips total = PotTotal(st);
  for (int i = 1; i <= st.config.num_seats; ++i) total += st.seats[i].stack;
  return total;
}

// One random legal step of a hand in play, for sweeps over many states: while
// a reported (LIVE) deal waits for a card, the next card of `live_deck` from
// *next_card on that the hand has not seen, dealt where NextDeal says;
// otherwise a random legal action of the seat to act. Fails the test when
// neither exists (callers wrap it in ASSERT_NO_FATAL_FAILURE).
template <typename Rng>
void RandomLegalStep(const HandState& st, const std::vector<Card>& live_deck, size_t* next_card,
                     Rng& rng, Action* out) {
  if (st.phase == Phase::kAwaitingDeal) {
    const ExpectedDeal next = NextDeal(st);
    if (next.step == DealStep::kReshuffle) {  // [STUD-DECK-1] the table reports it
      *out = Action{.kind = ActionKind::kReshuffle, .seat = kBoardSeat};
      return;
    }
    while (*next_card < live_deck.size() && st.seen.Contains(live_deck[*next_card])) ++*next_card;
    Card card = *next_card < live_deck.size() ? live_deck[*next_card] : Card();
    if (*next_card >= live_deck.size()) {
      // After a reshuffle burned cards are back: any card not in play.
      for (Card c : live_deck) {
        if (!st.seen.Contains(c)) card = c;
      }
    }
    ASSERT_FALSE(st.seen.Contains(card));
    // [STUD-DEAL-3] a due burn is reported with its card, unseen, or not at all.
    const std::vector<LegalAction> deal = LegalActions(st, next.seat);
    const bool may_deal = std::any_of(
        deal.begin(), deal.end(), [](const LegalAction& l) { return l.kind == ActionKind::kDeal; });
    if (next.step == DealStep::kBurn && (!may_deal || rng() % 3 != 0)) {
      const bool unseen = rng() % 2 == 0;
      *out = Action{.kind = ActionKind::kBurn,
                    .seat = kBoardSeat,
                    .card = unseen ? Card() : card,
                    .face_up = !unseen && rng() % 4 == 0,
                    .unseen = unseen};
      return;
    }
    *out = Action{ActionKind::kDeal, next.seat, 0, card, next.face_up};
    return;
  }
  const std::vector<LegalAction> legal = LegalActions(st, ToAct(st));
  ASSERT_FALSE(legal.empty());
  const LegalAction& pick = legal[rng() % legal.size()];
  *out = Action{pick.kind, ToAct(st), pick.amount_to, Card(), false};
}

// A random table for sweeps: any stakes preset, 2-8 seats (8 a quarter of the
// time: full tables run out of cards more often), stacks from less than an
// ante to deep, both decks shuffled from `rng`. kVaried also draws a few rule
// options away from the defaults (cap, short all-ins, deck exhaustion, burn,
// folding when a check is possible); kDefaults keeps the profile defaults
// (e.g. for hand histories, which do not carry options).
enum class RandomOptions { kDefaults, kVaried };
inline HandConfig RandomConfig(Variant variant, std::mt19937_64& rng, RandomOptions options) {
  HandConfig c;
  c.variant = variant;
  const auto presets = StakesPresets();
  c.stakes = presets[rng() % presets.size()].stakes;
  c.num_seats = 2 + static_cast<int>(rng() % 7);
  if (rng() % 4 == 0) c.num_seats = 8;  // full tables run out of cards more often
  for (int i = 1; i <= c.num_seats; ++i) {
    // From less than an ante to deep stacks: short antes, all-ins, side pots.
    const Chips big = c.stakes.big_bet;
    switch (rng() % 4) {
      case 0:
        c.starting_stacks[i] = 1 + static_cast<Chips>(rng() % (2 * c.stakes.ante + 2));
        break;
      case 1:
        c.starting_stacks[i] = 1 + static_cast<Chips>(rng() % (3 * big));
        break;
      default:
        c.starting_stacks[i] = big + static_cast<Chips>(rng() % (40 * big));
        break;
    }
  }
  if (options == RandomOptions::kVaried) {
    if (rng() % 8 == 0) c.options.max_raises_per_round = 4;
    if (rng() % 8 == 0) c.options.short_allin_rule = ShortAllInRule::kFullBet;
    if (rng() % 8 == 0) c.options.deck_exhaustion = DeckExhaustion::kRecycleSkipBurnIfShort;
    if (rng() % 8 == 0) c.options.deck_exhaustion = DeckExhaustion::kCommonImmediately;
    if (rng() % 8 == 0) c.options.burn_before_third = true;
    if (rng() % 8 == 0) c.options.allow_fold_when_check = false;
  }
  std::vector<Card> deck;
  for (int i = 0; i < kDeckSize; ++i) deck.push_back(Card::FromIndex(i));
  std::shuffle(deck.begin(), deck.end(), rng);
  c.deck = deck;
  std::shuffle(deck.begin(), deck.end(), rng);
  c.recycle_order = deck;
  return c;
}

}  // namespace stud::testing

#endif  // STUD_TESTS_TESTING_HANDS_H_
