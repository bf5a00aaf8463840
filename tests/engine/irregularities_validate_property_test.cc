// Property: irregularity reports with random contents (any kind, seats in and
// out of range, real, duplicate, foreign, undealt and impossible cards, lists
// from empty to thousands long, any street and count) at random points of
// random LIVE and deck-dealt hands. A refused report changes nothing; an
// accepted one conserves chips, never puts a card in play twice, and every
// card it names is where the report says (catalogue section 11,
// STUD-ALLIN-4/5).
#include <algorithm>
#include <cstdio>
#include <random>
#include <string>

#include "engine/irregularities.h"
#include "tests/testing/live.h"
#include "tests/testing/sanitized.h"
#include "tests/testing/status_matchers.h"

namespace stud {
namespace {
using namespace stud::testing;
using IK = IrregularityKind;

int RandomSeat(const HandState& st, std::mt19937_64& rng) {
  const int n = st.config.num_seats;
  switch (rng() % 10) {
    case 0:
      return static_cast<int>(rng() % 3) - 1;  // -1, 0, 1
    case 1:
      return n + 1 + static_cast<int>(rng() % 100);
    case 2:
      return st.actor;
    default:
      return 1 + static_cast<int>(rng() % n);
  }
}

// A card of `seat`, of another seat, unseen, burned or aside, not a card, or
// one already in `so_far`.
Card RandomCard(const HandState& st, int seat, const std::vector<Card>& so_far,
                std::mt19937_64& rng) {
  const int n = st.config.num_seats;
  auto of_seat = [&](int i) {
    const Seat& s = st.seats[i];
    return s.num_cards == 0 ? Card::FromIndex(static_cast<int>(rng() % kDeckSize))
                            : s.cards[rng() % s.num_cards].card;
  };
  switch (rng() % 8) {
    case 0:
    case 1:
      return seat >= 1 && seat <= n ? of_seat(seat) : of_seat(1 + static_cast<int>(rng() % n));
    case 2:
      return of_seat(1 + static_cast<int>(rng() % n));
    case 3:
      if (!st.burns.empty()) return st.burns[rng() % st.burns.size()];
      if (!st.aside.empty()) return st.aside[rng() % st.aside.size()];
      break;
    case 4:
      return Card::FromIndex(kDeckSize + static_cast<int>(rng() % 200));
    case 5:
      if (!so_far.empty()) return so_far[rng() % so_far.size()];
      break;
    default:
      break;
  }
  for (int k = static_cast<int>(rng() % kDeckSize), i = 0; i < kDeckSize; ++i) {
    const Card c = Card::FromIndex((k + i) % kDeckSize);
    if (!st.seen.Contains(c)) return c;
  }
  return Card::FromIndex(0);
}

size_t RandomCount(std::mt19937_64& rng) {
  switch (rng() % 12) {
    case 0:
      return 3 + rng() % 60;
    case 1:
      return rng() % 40 == 0 ? 5000 : 9;
    default:
      return rng() % 3;
  }
}

// Mostly fields the kind reads, sometimes any other field too.
IrregularityReport RandomReport(const HandState& st, std::mt19937_64& rng) {
  IrregularityReport r;
  const int raw_kind =
      rng() % 50 == 0 ? static_cast<int>(rng() % 2) * 16 : 1 + static_cast<int>(rng() % 15);
  r.kind = static_cast<IK>(raw_kind);
  const bool noise = rng() % 6 == 0;
  const bool dealer_card = r.kind == IK::kHolecardExposed || r.kind == IK::kCardOffTable ||
                           r.kind == IK::kFinalCardFaceUp;
  const bool burn = r.kind == IK::kBurnError, premature = r.kind == IK::kPrematureDeal;
  const bool skipped = r.kind == IK::kSkippedSeat;
  if (!(burn || premature) || noise || (premature && rng() % 3 == 0)) r.seat = RandomSeat(st, rng);
  if (burn || premature || skipped || noise) {
    const int street = rng() % 8 == 0 ? 2 + static_cast<int>(rng() % 7)
                                      : static_cast<int>(st.street) + (premature ? 1 : 0);
    r.street = static_cast<Street>(std::min(street, 8));
  }
  if (dealer_card || burn || premature || skipped || (noise && rng() % 2)) {
    r.has_card = dealer_card || rng() % 3 == 0;
    if (r.has_card) r.card = RandomCard(st, r.seat, {}, rng);
  }
  if (r.kind == IK::kBothHolecardsExposed || premature || (noise && rng() % 3 == 0)) {
    const size_t count = r.kind == IK::kBothHolecardsExposed && rng() % 2 ? 2 : RandomCount(rng);
    for (size_t i = 0; i < count; ++i) r.cards.push_back(RandomCard(st, r.seat, r.cards, rng));
  }
  if (r.kind == IK::kWrongOpener || r.kind == IK::kActionOutOfTurn || (noise && rng() % 3 == 0)) {
    r.action = static_cast<ActionKind>(1 + rng() % 13);
    const Chips amounts[] = {0,
                             st.config.stakes.bring_in,
                             st.config.stakes.small_bet,
                             2 * st.config.stakes.small_bet,
                             -1,
                             1000000000};
    r.amount_to = amounts[rng() % 6];
    r.next_acted = rng() % 2;
  }
  if (burn || (noise && rng() % 3 == 0)) {
    r.burn_delta = static_cast<int>(rng() % 5) - 2;
    const size_t moves = rng() % 30 == 0 ? 300 : rng() % 3;
    std::vector<Card> placed;
    for (size_t i = 0; i < moves; ++i) {
      const int seat = RandomSeat(st, rng);
      placed.push_back(RandomCard(st, seat, placed, rng));
      r.moves.push_back({seat, placed.back()});
    }
    for (size_t i = 0, k = rng() % 4 == 0 ? 1 + rng() % 2 : 0; i < k; ++i) {
      r.seats.push_back(RandomSeat(st, rng));
    }
  }
  if (skipped && rng() % 4 == 0) r.declare_live = true;
  if (r.kind == IK::kWrongCardCount || (noise && rng() % 3 == 0)) {
    r.card_count = static_cast<int>(rng() % 18) - 1;
    r.declare_live = rng() % 2;
  }
  if (r.kind == IK::kTimeout || (noise && rng() % 3 == 0)) {
    r.allowance_remaining = static_cast<int>(rng() % 5) - 1;
    r.disconnect = rng() % 2;
  }
  if (noise && rng() % 4 == 0) r.from_deal = true;
  return r;
}

int IndexIn(const Seat& s, Card c) {
  for (int k = 0; k < s.num_cards; ++k) {
    if (s.cards[k].card == c) return k;
  }
  return -1;
}

// Every card an accepted report names is where it says, judged on the state
// before the ruling.
void ExpectCardsWhereReported(const HandState& before, const IrregularityReport& r) {
  const int n = before.config.num_seats;
  if (r.from_deal) return;  // the deal's own card: DealIrregularity vouches for it
  if (r.kind != IK::kBurnError && (r.kind != IK::kPrematureDeal || r.has_card)) {
    ASSERT_TRUE(r.seat >= 1 && r.seat <= n) << "seat " << r.seat;
  }
  switch (r.kind) {
    case IK::kHolecardExposed:
    case IK::kCardOffTable:
    case IK::kFinalCardFaceUp:
      ASSERT_TRUE(r.has_card);
      EXPECT_GE(IndexIn(before.seats[r.seat], r.card), 0) << r.card.ToString();
      break;
    case IK::kBothHolecardsExposed:
      ASSERT_TRUE(r.cards.empty() || r.cards.size() == 2);
      for (Card c : r.cards) {
        const int k = IndexIn(before.seats[r.seat], c);
        EXPECT_TRUE(k == 0 || k == 1) << c.ToString() << " is not a hole card of seat " << r.seat;
      }
      if (r.cards.size() == 2) {
        EXPECT_NE(r.cards[0], r.cards[1]);
      }
      break;
    case IK::kPrematureDeal:
      EXPECT_LE(r.cards.size(), static_cast<size_t>(n));
      for (Card c : r.cards)
        EXPECT_TRUE(c.index() < kDeckSize && !before.seen.Contains(c)) << c.ToString();
      if (r.has_card) {
        EXPECT_TRUE(r.card.index() < kDeckSize && !before.seen.Contains(r.card));
      }
      break;
    case IK::kBurnError:
      EXPECT_LE(r.moves.size(), static_cast<size_t>(n));
      for (const CardMove& m : r.moves) {
        ASSERT_TRUE(m.seat >= 1 && m.seat <= n);
        const Seat& s = before.seats[m.seat];
        ASSERT_GT(s.num_cards, 0);
        EXPECT_EQ(s.cards[s.num_cards - 1].street, before.street);
        EXPECT_LT(m.card.index(), kDeckSize);
      }
      if (r.has_card) {
        EXPECT_LT(r.card.index(), kDeckSize);
      }
      break;
    case IK::kSkippedSeat: {
      // [STUD-IRR-CARDS-1] a live seat that really lacks its card of a street dealt.
      EXPECT_TRUE(r.street >= Street::kFourth && r.street <= before.street);
      EXPECT_TRUE(before.seats[r.seat].live() || before.seats[r.seat].checked_out);
      const Seat& s = before.seats[r.seat];
      for (int k = 0; k < s.num_cards; ++k) EXPECT_NE(s.cards[k].street, r.street);
      if (r.has_card) {
        EXPECT_TRUE(r.card.index() < kDeckSize && !before.seen.Contains(r.card));
      }
      EXPECT_EQ(r.card_count, 0);
      break;
    }
    default:
      EXPECT_TRUE(r.cards.empty() && !r.has_card && r.moves.empty());
      break;
  }
}

// The sanitizer builds run a tenth.
constexpr int kHandsPerVariant = stud::testing::kSanitized ? 4000 : 100000;

class ValidateProperty : public ::testing::TestWithParam<Variant> {};

TEST_P(ValidateProperty, RandomReportContentsRefusedUnchangedOrAcceptedConsistent) {
  std::mt19937_64 rng(20261123 + static_cast<int>(GetParam()));
  int accepted = 0, refused = 0, reports = 0;
  for (int hand = 0; hand < kHandsPerVariant; ++hand) {
    HandConfig c = RandomConfig(GetParam(), rng, RandomOptions::kVaried);
    c.options.profile = static_cast<Profile>(1 + rng() % 3);
    if (rng() % 2) c.options.exposed_holecard = ExposedHolecard::kMisdeal;
    if (rng() % 2) c.options.final_burn_error = FinalBurnError::kAllStand;
    if (rng() % 2) c.options.out_of_turn_binding = true;
    const std::vector<Card> cards = c.deck;
    if (rng() % 4 != 0) {  // dealer errors need LIVE dealing
      c.deal_source = DealSource::kReported;
      c.deck.clear();
      c.recycle_order.clear();
    }
    HandState st = Start(c);
    const Chips total = StartingTotal(st);
    size_t next_card = 0;
    for (int step = 0; step < 200 && st.phase != Phase::kComplete; ++step) {
      if (rng() % 3 == 0) {
        const HandState before = st;
        const IrregularityReport r = RandomReport(st, rng);
        ++reports;
        absl::StatusOr<Ruling> ruling = RuleIrregularity(st, r);
        if (!ruling.ok()) {
          ++refused;
          const absl::StatusCode code = ruling.status().code();
          ASSERT_TRUE(code == absl::StatusCode::kInvalidArgument ||
                      code == absl::StatusCode::kFailedPrecondition)
              << ruling.status();
          ASSERT_TRUE(st == before) << "a refused report changed the state: " << ruling.status();
          continue;
        }
        ++accepted;
        ASSERT_NO_FATAL_FAILURE(ExpectCardsWhereReported(before, r));
      } else {
        // Every physical card is out (cards taken aside by premature-deal
        // reports): the table would have to reshuffle, which this sweep does
        // not report; the hand stops here.
        if (st.phase == Phase::kAwaitingDeal &&
            std::all_of(cards.begin(), cards.end(), [&](Card k) { return st.seen.Contains(k); })) {
          break;
        }
        Action a;
        // The test's 52 cards cannot stand for the burns and aside cards a
        // LIVE dealer recycles when the stub runs out [STUD-DECK-1]: the hand
        // stops there.
        if (st.phase == Phase::kAwaitingDeal &&
            std::all_of(cards.begin(), cards.end(), [&](Card k) { return st.seen.Contains(k); })) {
          break;
        }
        ASSERT_NO_FATAL_FAILURE(RandomLegalStep(st, cards, &next_card, rng, &a));
        ASSERT_THAT(Apply(st, a), IsOk());
      }
      ASSERT_EQ(TotalChips(st), total) << "chips not conserved at step " << step;
      ASSERT_TRUE(CardsUnique(st)) << "a card twice at step " << step;
    }
    ExpectReplays(st);
    if (::testing::Test::HasFailure()) return;
  }
  RecordProperty("reports", reports);
  std::printf("%d reports: %d accepted, %d refused\n", reports, accepted, refused);
  EXPECT_GT(accepted, kHandsPerVariant / 100);
  EXPECT_GT(refused, 5 * accepted);
}

INSTANTIATE_TEST_SUITE_P(AllVariants, ValidateProperty,
                         ::testing::Values(Variant::kStud, Variant::kStudHiLo, Variant::kRazz),
                         [](const ::testing::TestParamInfo<Variant>& param_info) {
                           return std::string(param_info.param == Variant::kStud       ? "Stud"
                                              : param_info.param == Variant::kStudHiLo ? "StudHiLo"
                                                                                       : "Razz");
                         });

}  // namespace
}  // namespace stud
