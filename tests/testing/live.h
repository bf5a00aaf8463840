// Test helpers for LIVE (reported) dealing: the dealer reports every card.
//
//   LiveTable t(Variant::kStud, "$4-$8", {10000, 10000, 10000},
//               {"Ah Kd 7c 9s 9d 3c 2h", "4c 5d 2c Jh 8d 4h 5s", "3d 3h Kh Td 6c 6d 2s"});
//   t.DealStreet();  // reports every card of the street as the engine expects it
//
// Each seat lists its cards in the order it receives them (two down, the
// door card, 4th to 7th street); the helper reports the seat's next card.
#ifndef STUD_TESTS_TESTING_LIVE_H_
#define STUD_TESTS_TESTING_LIVE_H_

#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/irregularities.h"
#include "tests/testing/hands.h"
#include "tests/testing/status_matchers.h"

namespace stud::testing {

struct LiveTable {
  HandState st;
  std::vector<std::vector<Card>> cards;  // per seat, in the order received
  std::vector<size_t> next;              // per seat, index of the next card to report

  LiveTable(Variant variant, const std::string& stakes, const std::vector<Chips>& stacks,
            const std::vector<std::string>& hands, Options options = Options()) {
    HandConfig c;
    c.variant = variant;
    c.stakes = *FindStakesPreset(stakes);
    c.options = options;
    c.num_seats = static_cast<int>(stacks.size());
    for (size_t i = 0; i < stacks.size(); ++i) c.starting_stacks[i + 1] = stacks[i];
    c.deal_source = DealSource::kReported;
    st = Start(c);
    for (const std::string& h : hands) cards.push_back(Cards(h));
    next.assign(hands.size() + 1, 0);
  }

  // The card the expected seat receives next (from its list).
  Card NextCardOf(int seat) { return cards[seat - 1].at(next[seat]); }

  // Reports the next expected card as the engine expects it.
  // Burns are not reported (each is implied by the next card); the reshuffle
  // is reported when due [STUD-DECK-1].
  void DealOne() {
    const ExpectedDeal e = NextDeal(st);
    if (e.step == DealStep::kReshuffle) {
      ASSERT_THAT(Apply(st, {.kind = ActionKind::kReshuffle, .seat = kBoardSeat}), IsOk());
      return;
    }
    if (e.step == DealStep::kBurn && LegalActions(st, e.seat).empty()) {
      // The burn must be reported before the reshuffle that follows it.
      ASSERT_THAT(Apply(st, {.kind = ActionKind::kBurn, .seat = kBoardSeat, .unseen = true}),
                  IsOk());
      return;
    }
    ASSERT_NE(e.seat, kBoardSeat);
    const Card c = NextCardOf(e.seat);
    ++next[e.seat];
    ASSERT_THAT(
        Apply(st, {.kind = ActionKind::kDeal, .seat = e.seat, .card = c, .face_up = e.face_up}),
        IsOk());
  }

  // Reports the next card of the expected seat face up / down as given; the
  // engine may rule it as an irregularity.
  absl::Status DealAs(bool face_up) {
    const ExpectedDeal e = NextDeal(st);
    const Card c = NextCardOf(e.seat);
    absl::Status s =
        Apply(st, {.kind = ActionKind::kDeal, .seat = e.seat, .card = c, .face_up = face_up});
    if (s.ok()) ++next[e.seat];
    return s;
  }

  // Skips a card of `seat`'s list (it went elsewhere).
  void Skip(int seat) { ++next[seat]; }

  void DealStreet() {
    while (st.phase == Phase::kAwaitingDeal) {
      DealOne();
      if (::testing::Test::HasFatalFailure()) return;
    }
  }

  absl::StatusOr<Ruling> Rule(const IrregularityReport& r) { return RuleIrregularity(st, r); }
};

// The three hands most LIVE-dealing tests play, at $4-$8 (ante 100, bring-in
// 100, bets 400 / 800). Door cards 7c, 3c, Kh: seat 2 brings in. Seat 1's
// first hole card 2d would be lower than 3c; seat 2's first is 4c.
inline const std::vector<std::string> kHands = {"2d Ah 7c 9s 9d Qc 2h", "4c 5d 3c Jh 8d 4h 5s",
                                                "3d 3h Kh Td 6c 6d 2s"};

// kHands dealt LIVE at $4-$8, one seat a stack (the first stacks.size() hands).
inline LiveTable Table(Options options = Options(),
                       const std::vector<Chips>& stacks = {10000, 10000, 10000}) {
  return LiveTable(Variant::kStud, "$4-$8", stacks,
                   std::vector<std::string>(kHands.begin(), kHands.begin() + stacks.size()),
                   options);
}

// The same hands from a stacked deck (DealSource::kDeck), 3rd street dealt.
inline HandState DeckTable(Options options = Options(),
                           const std::vector<Chips>& stacks = {10000, 10000, 10000}) {
  return Start(Config(Variant::kStud, *FindStakesPreset("$4-$8"), stacks,
                      std::vector<std::string>(kHands.begin(), kHands.begin() + stacks.size()),
                      options));
}

// Deals 3rd street and bets it on a Table(): seat 2 brings in, the others
// call (seat 3 when there is one, seat 1 when it can act).
inline void PlayThird(LiveTable& t) {
  t.DealStreet();
  Act(t.st, 2, ActionKind::kBringIn, 100);
  if (t.st.config.num_seats >= 3) Act(t.st, 3, ActionKind::kCall, 100);
  if (t.st.seats[1].can_act()) Act(t.st, 1, ActionKind::kCall, 100);
}

// PlayThird, then deals and checks through each street until `street` is dealt
// and its betting is to come.
inline void PlayToBettingOn(LiveTable& t, Street street) {
  PlayThird(t);
  while (true) {
    t.DealStreet();
    if (t.st.street == street) return;
    CheckRound(t.st);
  }
}

// PlayThird, then checks through to the 7th-street deal (not yet dealt).
inline void PlayToSeventhDeal(LiveTable& t) {
  PlayThird(t);
  while (t.st.street != Street::kSeventh) {
    t.DealStreet();
    CheckRound(t.st);
  }
  ASSERT_EQ(t.st.phase, Phase::kAwaitingDeal);
}

// Every card in play appears once: seats, burns, aside, the common card.
inline bool CardsUnique(const HandState& st) {
  CardSet all;
  auto add = [&](Card c) {
    if (all.Contains(c)) return false;
    all.Add(c);
    return true;
  };
  for (int i = 1; i <= st.config.num_seats; ++i) {
    for (int k = 0; k < st.seats[i].num_cards; ++k) {
      if (!add(st.seats[i].cards[k].card)) return false;
    }
  }
  for (Card c : st.burns)
    if (!add(c)) return false;
  for (Card c : st.aside)
    if (!add(c)) return false;
  if (st.has_common && !add(st.common_card)) return false;
  return true;
}

// Replays the hand from its log and reports and compares.
inline void ExpectReplays(const HandState& st) {
  absl::StatusOr<HandState> back = Replay(st.config, st.log, st.reports);
  ASSERT_THAT(back, IsOk());
  EXPECT_TRUE(*back == st) << "replay differs";
}

inline Chips StartingTotal(const HandState& st) {
  Chips t = 0;
  for (int i = 1; i <= st.config.num_seats; ++i) t += st.config.starting_stacks[i];
  return t;
}

inline std::vector<ActionKind> KindsOf(const std::vector<LegalAction>& legal) {
  std::vector<ActionKind> out;
  for (const LegalAction& a : legal) out.push_back(a.kind);
  return out;
}

}  // namespace stud::testing

#endif  // STUD_TESTS_TESTING_LIVE_H_
