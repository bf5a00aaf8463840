// Property: random sequences of irregularity reports in random LIVE hands
// (profiles, variants, seat counts) never break chip conservation or card
// uniqueness, a refused report leaves the state unchanged, and Replay() of the
// log and reports reproduces the state (catalogue section 11, STUD-ALLIN-4/5).
#include <random>

#include "engine/irregularities.h"
#include "tests/testing/live.h"
#include "tests/testing/random_report.h"
#include "tests/testing/status_matchers.h"

namespace stud {
namespace {
using namespace stud::testing;

struct Counts {
  int rulings = 0, refused = 0, hands = 0, skips = 0;
};

// Plays `num_hands` random LIVE hands with random reports; with `skip_every`
// > 0, about one card in `skip_every` is not dealt: the seat the deal is at is
// reported skipped instead (SKIPPED_SEAT) and found later by random reports.
void RunHands(uint32_t seed, int num_hands, int skip_every, Counts& counts) {
  std::mt19937 rng(seed);
  int& rulings = counts.rulings;
  int& refused = counts.refused;
  int& hands = counts.hands;
  for (int hand = 0; hand < num_hands; ++hand) {
    const Profile profile = static_cast<Profile>(1 + rng() % 3);
    Options o = ProfileDefaults(profile);
    if (rng() % 2) o.faceup_final_option = FaceupFinalOption::kActFirst;
    if (rng() % 2) o.dead_hand_low_opener = DeadHandLowOpener::kLeftPlayerForced;
    if (rng() % 2) o.short_hand = ShortHand::kPlayerOptionAnyShort;
    if (rng() % 2) o.premature_seventh = PrematureSeventh::kAllPlayers;
    if (rng() % 2) o.final_burn_error = FinalBurnError::kAllStand;
    HandConfig c;
    c.variant = static_cast<Variant>(1 + rng() % 3);
    c.stakes = *FindStakesPreset("$4-$8");
    c.options = o;
    c.num_seats = 2 + static_cast<int>(rng() % 7);
    for (int i = 1; i <= c.num_seats; ++i)
      c.starting_stacks[i] = 150 + static_cast<Chips>(rng() % 6000);
    c.deal_source = DealSource::kReported;
    HandState st = Start(c);
    std::vector<Card> deck;
    for (int i = 0; i < kDeckSize; ++i) deck.push_back(Card::FromIndex(i));
    std::shuffle(deck.begin(), deck.end(), rng);
    const Chips total = StartingTotal(st);
    for (int step = 0; step < 300 && st.phase != Phase::kComplete; ++step) {
      if (rng() % 5 == 0) {
        const HandState before = st;
        absl::StatusOr<Ruling> r = RuleIrregularity(st, RandomReport(st, rng, deck));
        if (r.ok()) {
          ++rulings;
        } else {
          ++refused;
          ASSERT_TRUE(st == before) << "a refused report changed the state: " << r.status();
        }
      } else if (st.phase == Phase::kAwaitingDeal && skip_every > 0 &&
                 NextDeal(st).seat != kBoardSeat && rng() % skip_every == 0) {
        const HandState before = st;
        const IrregularityReport skip{
            .kind = IrregularityKind::kSkippedSeat, .seat = NextDeal(st).seat, .street = st.street};
        absl::StatusOr<Ruling> r = RuleIrregularity(st, skip);
        if (r.ok()) {
          ++counts.skips;
        } else {
          ASSERT_TRUE(st == before) << "a refused skip changed the state: " << r.status();
        }
      } else if (st.phase == Phase::kAwaitingDeal && NextDeal(st).step == DealStep::kReshuffle) {
        // [STUD-DECK-1] the stub ran out: the table reports the reshuffle.
        ASSERT_THAT(Apply(st, {.kind = ActionKind::kReshuffle, .seat = kBoardSeat}), IsOk());
      } else if (st.phase == Phase::kAwaitingDeal) {
        const ExpectedDeal e = NextDeal(st);
        Card card = deck[0];
        for (Card d : deck) {
          if (!st.seen.Contains(d)) {
            card = d;
            break;
          }
        }
        const bool up = rng() % 12 == 0 ? !e.face_up : e.face_up;  // sometimes a dealer error
        const HandState before = st;
        absl::Status s =
            Apply(st, {.kind = ActionKind::kDeal, .seat = e.seat, .card = card, .face_up = up});
        if (!s.ok()) {
          ASSERT_TRUE(st == before);
          const absl::Status again = Apply(
              st, {.kind = ActionKind::kDeal, .seat = e.seat, .card = card, .face_up = e.face_up});
          if (!again.ok() && e.step == DealStep::kBurn) {
            // [STUD-DECK-1] a burn that leaves the stub short must be reported.
            ASSERT_THAT(Apply(st, {.kind = ActionKind::kBurn, .seat = kBoardSeat, .unseen = true}),
                        IsOk());
          } else {
            ASSERT_THAT(again, IsOk());
          }
        }
      } else {
        const int seat = ToAct(st);
        if (seat == 0) {
          std::string trail;
          for (size_t i = st.log.size() > 14 ? st.log.size() - 14 : 0; i < st.log.size(); ++i) {
            trail += std::string(OpTypeName(st.log[i].type)) + "/" +
                     std::to_string(st.log[i].seat) + "/" +
                     std::string(RuleIdName(st.log[i].rule_id)) + " ";
          }
          FAIL() << "nobody to act in phase " << static_cast<int>(st.phase) << " street "
                 << static_cast<int>(st.street) << ": " << trail;
        }
        const std::vector<LegalAction> legal = LegalActions(st, seat);
        ASSERT_FALSE(legal.empty());
        const LegalAction& a = legal[rng() % legal.size()];
        ASSERT_THAT(Apply(st, {.kind = a.kind, .seat = seat, .amount_to = a.amount_to}), IsOk());
      }
      ASSERT_EQ(TotalChips(st), total) << "chips not conserved at step " << step;
      ASSERT_TRUE(CardsUnique(st)) << "a card twice at step " << step;
      for (int i = 1; i <= st.config.num_seats; ++i) ASSERT_GE(st.seats[i].stack, 0);
    }
    if (st.phase == Phase::kComplete) {
      std::string cards;
      for (int i = 1; i <= st.config.num_seats; ++i) {
        cards += std::to_string(i) + (st.seats[i].live() ? ":" : "(dead):") +
                 std::to_string(st.seats[i].num_cards) + " ";
      }
      ASSERT_EQ(PotTotal(st), 0) << "a finished hand left chips in the pot; cards held " << cards;
    }
    ExpectReplays(st);
    if (::testing::Test::HasFailure()) return;
    ++hands;
  }
}

TEST(IrregularityProperty, RandomReportsKeepChipsCardsAndReplay) {
  Counts c;
  RunHands(20240611, 400, 0, c);
  if (::testing::Test::HasFailure()) return;
  EXPECT_EQ(c.hands, 400);
  EXPECT_GT(c.rulings, 300);
  EXPECT_GT(c.refused, 100);
}

// [STUD-IRR-CARDS-1, STUD-IRR-BURN-1] seats skipped at random: chips are
// conserved, no card is in play twice, every hand still ends and replays.
TEST(IrregularityProperty, STUD_IRR_CARDS_1_RandomSkippedSeatsKeepChipsCardsAndReplay) {
  Counts c;
  RunHands(20261123, 300, 3, c);
  if (::testing::Test::HasFailure()) return;
  EXPECT_EQ(c.hands, 300);
  EXPECT_GT(c.skips, 150);
  EXPECT_GT(c.rulings, 200);
}

// STUD-IRR-WRONG-1 read for any action out of turn: random ACTION_OUT_OF_TURN
// reports (any seat, betting kind and amount, both readings of
// out_of_turn_binding) in random LIVE hands played on at random. Chips are
// conserved at every step, a refused report changes nothing, under the
// default an accepted one puts the chips in and takes them back in the same
// ruling, and Replay() reproduces the hand.
TEST(IrregularityProperty, STUD_IRR_WRONG_1_RandomOutOfTurnReportsConserveChips) {
  std::mt19937 rng(20261123);
  int accepted = 0, refused = 0, stood = 0;
  for (int hand = 0; hand < 3000; ++hand) {
    HandConfig c;
    c.variant = static_cast<Variant>(1 + rng() % 3);
    c.stakes = *FindStakesPreset("$4-$8");
    c.options.out_of_turn_binding = rng() % 2;
    c.num_seats = 2 + static_cast<int>(rng() % 7);
    for (int i = 1; i <= c.num_seats; ++i)
      c.starting_stacks[i] = 150 + static_cast<Chips>(rng() % 3000);
    c.deal_source = DealSource::kReported;
    HandState st = Start(c);
    std::vector<Card> deck;
    for (int i = 0; i < kDeckSize; ++i) deck.push_back(Card::FromIndex(i));
    std::shuffle(deck.begin(), deck.end(), rng);
    size_t next_card = 0;
    const Chips total = StartingTotal(st);
    for (int step = 0; step < 300 && st.phase != Phase::kComplete; ++step) {
      if (st.phase == Phase::kBetting && rng() % 3 == 0) {
        const int n = st.config.num_seats;
        IrregularityReport r{.kind = IrregularityKind::kActionOutOfTurn};
        r.seat =
            rng() % 10 == 0 ? static_cast<int>(rng() % (n + 3)) : 1 + static_cast<int>(rng() % n);
        r.action = static_cast<ActionKind>(1 + rng() % (rng() % 10 == 0 ? 9 : 7));
        const Seat& s = st.seats[std::clamp(r.seat, 0, n)];
        const Chips amounts[] = {0,
                                 st.bet_to,
                                 c.stakes.bring_in,
                                 c.stakes.small_bet,
                                 st.full_level + c.stakes.small_bet,
                                 st.full_level + c.stakes.big_bet,
                                 s.street_bet + s.stack,
                                 -1,
                                 1000000};
        const bool chips = r.action != ActionKind::kFold && r.action != ActionKind::kCheck;
        r.amount_to = chips || rng() % 10 == 0 ? amounts[rng() % 9] : 0;
        r.next_acted = rng() % 20 == 0;
        const HandState before = st;
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
        ASSERT_EQ(st.log[ruling->first_op + 1].type, OpType::kOutOfTurn);
        if (!c.options.out_of_turn_binding) {
          EXPECT_TRUE(ruling->chips.empty()) << "the chips come back in the same ruling";
          ASSERT_EQ(st.log[ruling->first_op + 2].type, OpType::kReturnAnte);
          EXPECT_EQ(st.log[ruling->first_op + 2].amount, st.log[ruling->first_op + 1].amount);
        }
      } else {
        Action a;
        ASSERT_NO_FATAL_FAILURE(RandomLegalStep(st, deck, &next_card, rng, &a));
        ASSERT_THAT(Apply(st, a), IsOk());
      }
      ASSERT_EQ(TotalChips(st), total) << "chips not conserved at step " << step;
      for (int i = 1; i <= st.config.num_seats; ++i) ASSERT_GE(st.seats[i].stack, 0);
    }
    for (const Operation& op : st.log) {
      stood += op.rule_id == "STUD-IRR-WRONG-1" && op.type != OpType::kReturnAnte &&
               op.type != OpType::kOutOfTurn && op.type != OpType::kRuling;
    }
    ExpectReplays(st);
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(accepted, 1000);
  EXPECT_GT(refused, accepted);
  EXPECT_GT(stood, 40) << "held actions stood when the turn came";
}

}  // namespace
}  // namespace stud
