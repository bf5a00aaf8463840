// Property sweeps over many random legal hands of every variant, 2 to 8 seats,
// mixed stacks (so all-ins, side pots and running out of cards happen).
//
// After every step: chips are conserved exactly, and (on a sample of steps)
// every action LegalActions lists is accepted by Apply while actions outside
// the list are refused with the state unchanged. At the end of every hand: no
// card was dealt twice, no view shows a seat another seat's down cards, and
// replaying the operation log reproduces the state exactly.
#include <algorithm>
#include <cstdio>
#include <map>
#include <random>

#include "engine/engine.h"
#include "engine/pot.h"
#include "engine/view.h"
#include "tests/testing/hands.h"
#include "tests/testing/sanitized.h"
#include "tests/testing/status_matchers.h"

namespace stud {
namespace {
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;

// A fifth under the sanitizers (about 17 s a variant there instead of 85;
// the hands are the same first ones, the rng being seeded).
constexpr int kHandsPerVariant = stud::testing::kSanitized ? 8000 : 100000;

Action RandomLegal(const std::vector<LegalAction>& legal, int seat, std::mt19937_64& rng) {
  // Lean towards calls and raises so that caps and all-ins are reached.
  std::vector<double> weights;
  for (const LegalAction& l : legal) {
    double w = 1.0;
    if (l.kind == ActionKind::kFold) w = 0.25;
    if (l.kind == ActionKind::kRaise || l.kind == ActionKind::kBet) w = 1.5;
    weights.push_back(w);
  }
  std::discrete_distribution<size_t> pick(weights.begin(), weights.end());
  const LegalAction& l = legal[pick(rng)];
  return {.kind = l.kind, .seat = seat, .amount_to = l.amount_to};
}

Chips StartingTotal(const HandConfig& c) {
  Chips total = 0;
  for (int i = 1; i <= c.num_seats; ++i) total += c.starting_stacks[i];
  return total;
}

// An action that LegalActions does not list for `seat`.
Action RandomIllegal(const HandState& st, const std::vector<LegalAction>& legal, int seat,
                     std::mt19937_64& rng) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    Action a{.kind = static_cast<ActionKind>(1 + rng() % 9), .seat = seat};
    if (rng() % 3 == 0) a.seat = 1 + static_cast<int>(rng() % st.config.num_seats);
    a.amount_to = static_cast<Chips>(rng() % (3 * st.config.stakes.big_bet + 1));
    const bool listed = a.seat == seat && std::any_of(legal.begin(), legal.end(), [&](auto& l) {
                          if (l.kind != a.kind) return false;
                          if (a.kind == ActionKind::kFold || a.kind == ActionKind::kCheck ||
                              a.kind == ActionKind::kShow || a.kind == ActionKind::kMuck) {
                            return true;
                          }
                          return l.amount_to == a.amount_to || a.amount_to == 0;
                        });
    if (!listed) return a;
  }
  return {.kind = ActionKind::kShow, .seat = 0};
}

void CheckViews(const HandState& st) {
  for (int viewer = 0; viewer <= st.config.num_seats; ++viewer) {
    const TableView v = ViewFor(st, viewer);
    for (const SeatView& sv : v.seats) {
      for (const SeatView::VisibleCard& c : sv.cards) {
        if (!c.hidden) {
          ASSERT_TRUE(c.face_up || sv.seat == viewer || sv.shown)
              << "seat " << viewer << " sees seat " << sv.seat << "'s down card";
        }
      }
    }
    for (const Operation& op : st.log) {
      bool hidden = false;
      const Operation r = RedactFor(st, op, viewer, &hidden);
      if (op.type == OpType::kBurn && !op.face_up) {
        ASSERT_TRUE(hidden);  // only a LIVE burn the dealer showed is public
      }
      const bool others_down_card =
          op.type == OpType::kDeal && !op.face_up && op.seat != viewer && !st.seats[op.seat].shown;
      if (others_down_card) {
        ASSERT_TRUE(hidden);
        ASSERT_EQ(r.card, Card());
      }
    }
  }
}

void CheckNoCardTwice(const HandState& st) {
  CardSet seen;
  int count = 0;
  auto add = [&](Card c) {
    ASSERT_FALSE(seen.Contains(c)) << c.ToString() << " dealt twice";
    seen.Add(c);
    ++count;
  };
  CardSet burned;  // known burns, until a reshuffle brings them back [STUD-DEAL-4, STUD-DECK-1]
  for (const Operation& op : st.log) {
    if (op.type == OpType::kDeal || op.type == OpType::kCommonCard) {
      ASSERT_FALSE(burned.Contains(op.card)) << op.card.ToString() << " dealt after its burn";
      add(op.card);
    }
    if (op.type == OpType::kBurn && op.amount == 0) burned.Add(op.card);
    if (op.type == OpType::kRecycle) burned = CardSet();
  }
  for (int i = 1; i <= st.config.num_seats; ++i) {
    ASSERT_LE(st.seats[i].num_cards, 7);
  }
  ASSERT_LE(count, kDeckSize);
}

// [STUD-ALLIN-1] Pots hold only called chips. The hand is settled again from
// the final state, as ResolveShowdown does: pots + chips returned uncalled ==
// every chip put in; no pot holds only its single eligible seat's chips (an
// uncalled bet); and the pots' shares are exactly the AWARD operations.
void CheckPots(const HandState& st) {
  if (st.misdeal) return;
  Chips put_in = 0, returned = 0;
  std::map<std::pair<int, int>, Chips> awarded;  // (pot, seat) -> chips
  for (const Operation& op : st.log) {
    switch (op.type) {
      case OpType::kAnte:
      case OpType::kBringIn:
      case OpType::kComplete:
      case OpType::kBet:
      case OpType::kRaise:
      case OpType::kCall:
        put_in += op.amount;
        break;
      case OpType::kReturnUncalled:
        returned += op.amount;
        break;
      case OpType::kReturnAnte:
        put_in -= op.amount;
        break;
      case OpType::kAward:
        awarded[{op.pot, op.seat}] += op.amount;
        break;
      default:
        break;
    }
  }
  std::vector<ShowdownSeat> seats;
  for (int i = 1; i <= st.config.num_seats; ++i) {
    const Seat& s = st.seats[i];
    ShowdownSeat ss{.seat = i, .committed = s.committed, .live = s.live()};
    for (int k = 0; k < s.num_cards; ++k) ss.cards.push_back(s.cards[k].card);
    seats.push_back(std::move(ss));
  }
  std::map<std::pair<int, int>, Chips> shares;
  Chips pots_total = 0;
  if (LiveSeatCount(st) < 2) {
    const std::vector<Pot> pots = BuildPots(seats);
    for (size_t p = 0; p < pots.size(); ++p) {
      pots_total += pots[p].amount;
      ASSERT_EQ(pots[p].eligible.size(), 1u);
      shares[{static_cast<int>(p), pots[p].eligible[0]}] += pots[p].amount;
    }
  } else {
    const std::optional<Card> common =
        st.has_common ? std::optional<Card>(st.common_card) : std::nullopt;
    absl::StatusOr<Settlement> settled =
        Settle(st.config.variant, st.config.options, seats, common);
    ASSERT_THAT(settled, IsOk());
    for (int i = 1; i <= kMaxSeats; ++i) ASSERT_EQ(settled->returned[i], 0) << "seat " << i;
    for (size_t p = 0; p < settled->pots.size(); ++p) {
      const SettledPot& pot = settled->pots[p];
      pots_total += pot.amount;
      if (pot.eligible.size() == 1) {
        Chips others = 0;  // chips of other seats in this pot's band
        for (const ShowdownSeat& s : seats) others += s.seat == pot.eligible[0] ? 0 : s.committed;
        ASSERT_GT(others, 0) << "pot " << p << " holds only seat " << pot.eligible[0] << "'s chips";
      }
      for (const PotShare& sh : pot.shares) shares[{static_cast<int>(p), sh.seat}] += sh.amount;
    }
  }
  ASSERT_EQ(pots_total + returned, put_in) << "pots + returned == contributions";
  ASSERT_EQ(shares, awarded) << "pot results == AWARD operations";
}

// [STUD-ALLIN-7] A bet, completion or raise is listed only when another seat
// still in could put in more than the current level.
void CheckRaiseCallable(const HandState& st, int seat, const std::vector<LegalAction>& legal) {
  if (st.phase != Phase::kBetting) return;
  for (const LegalAction& l : legal) {
    if (l.kind != ActionKind::kBet && l.kind != ActionKind::kRaise &&
        l.kind != ActionKind::kComplete) {
      continue;
    }
    const Chips level =
        st.bring_in_due ? StakesInPlay(st.config.stakes, st.config.options).bring_in : st.bet_to;
    bool callable = false;
    for (int i = 1; i <= st.config.num_seats; ++i) {
      const Seat& o = st.seats[i];
      callable = callable || (i != seat && o.can_act() && o.street_bet + o.stack > level);
    }
    ASSERT_TRUE(callable) << ActionKindName(l.kind) << " to " << l.amount_to
                          << " offered though no opponent can put in more than " << level;
  }
}

// What the sweep reached, so a sweep that silently stops exercising a rule fails.
struct Reached {
  int showdowns = 0, side_pots = 0, common_cards = 0, recycles = 0, caps = 0, short_antes = 0,
      split_pots = 0, reported_hands = 0, reported_burns = 0, reported_reshuffles = 0;
};

void Tally(const HandState& st, Reached& r, bool reported) {
  int awards_main = 0;
  bool side = false;
  for (const Operation& op : st.log) {
    r.common_cards += op.type == OpType::kCommonCard;
    r.recycles += op.type == OpType::kRecycle;
    r.short_antes += op.rule_id == "STUD-ALLIN-6";
    if (op.type == OpType::kAward && op.pot > 0) side = true;
    if (op.type == OpType::kAward && op.pot == 0) ++awards_main;
  }
  r.showdowns += std::any_of(st.log.begin(), st.log.end(),
                             [](const Operation& op) { return op.type == OpType::kShow; });
  r.side_pots += side;
  r.split_pots += awards_main > 1;
  r.reported_hands += reported;
}

void PlayRandomHand(Variant variant, std::mt19937_64& rng, bool reported, Reached& reached) {
  HandConfig config = testing::RandomConfig(variant, rng, testing::RandomOptions::kVaried);
  const std::vector<Card> deck = config.deck;
  size_t next_card = 0;
  if (reported) {
    config.deal_source = DealSource::kReported;
    config.deck.clear();
    config.recycle_order.clear();
    config.options.deck_exhaustion = DeckExhaustion::kRecycleBurnThenCommon;
  }
  absl::StatusOr<HandState> started = NewHand(config);
  ASSERT_THAT(started, IsOk());
  HandState st = *started;
  const Chips total = StartingTotal(config);
  for (int step = 0; st.phase != Phase::kComplete; ++step) {
    ASSERT_LT(step, 1000) << "hand does not end";
    ASSERT_EQ(testing::TotalChips(st), total);
    if (st.phase == Phase::kAwaitingDeal) {
      // The table reports burns (known, unseen or implied by the next card)
      // and the reshuffle [STUD-DEAL-3, STUD-DECK-1]; the cards come off the
      // deck in order, skipping those in play.
      Action a;
      ASSERT_NO_FATAL_FAILURE(testing::RandomLegalStep(st, deck, &next_card, rng, &a));
      if (a.kind == ActionKind::kBurn) ++reached.reported_burns;
      if (a.kind == ActionKind::kReshuffle) ++reached.reported_reshuffles;
      const absl::Status s = Apply(st, a);
      ASSERT_THAT(s, IsOk());
      continue;
    }
    const int seat = ToAct(st);
    ASSERT_NE(seat, 0);
    const std::vector<LegalAction> legal = LegalActions(st, seat);
    ASSERT_FALSE(legal.empty());
    CheckRaiseCallable(st, seat, legal);
    if (step % 4 == 0) {
      for (const LegalAction& l : legal) {
        HandState copy = st;
        ASSERT_THAT(Apply(copy, {.kind = l.kind, .seat = seat, .amount_to = l.amount_to}), IsOk());
      }
      const Action bad = RandomIllegal(st, legal, seat, rng);
      const uint64_t version = st.version;
      const size_t log_size = st.log.size();
      const absl::Status refused = Apply(st, bad);
      ASSERT_THAT(refused, ::testing::AnyOf(StatusIs(absl::StatusCode::kFailedPrecondition),
                                            StatusIs(absl::StatusCode::kInvalidArgument)))
          << ActionKindName(bad.kind) << " " << bad.amount_to;
      if (refused.code() == absl::StatusCode::kFailedPrecondition) {
        ASSERT_FALSE(RuleIdOf(refused).empty()) << refused;
      }
      ASSERT_EQ(st.version, version);
      ASSERT_EQ(st.log.size(), log_size);
    }
    ASSERT_THAT(Apply(st, RandomLegal(legal, seat, rng)), IsOk());
    if (st.raises >= st.config.options.max_raises_per_round) ++reached.caps;
  }
  Tally(st, reached, reported);
  ASSERT_EQ(PotTotal(st), 0) << "every chip is paid out";
  ASSERT_EQ(testing::TotalChips(st), total);
  CheckNoCardTwice(st);
  CheckPots(st);
  CheckViews(st);
  absl::StatusOr<HandState> replayed = Replay(config, st.log);
  ASSERT_THAT(replayed, IsOk());
  ASSERT_TRUE(*replayed == st) << "replay differs";
}

class PropertySweep : public ::testing::TestWithParam<Variant> {};

TEST_P(PropertySweep, RandomLegalHandsKeepEveryInvariant) {
  std::mt19937_64 rng(0x5EED + static_cast<int>(GetParam()));
  Reached r;
  for (int hand = 0; hand < kHandsPerVariant; ++hand) {
    PlayRandomHand(GetParam(), rng, /*reported=*/hand % 10 == 9, r);
    if (::testing::Test::HasFatalFailure()) {
      FAIL() << "hand " << hand << " of variant " << VariantName(GetParam());
    }
  }
  std::printf(
      "reached: %d showdowns, %d side pots, %d split main pots, %d common cards, "
      "%d recycles, %d capped rounds, %d short antes, %d reported-deal hands "
      "(%d burns, %d reshuffles reported)\n",
      r.showdowns, r.side_pots, r.split_pots, r.common_cards, r.recycles, r.caps, r.short_antes,
      r.reported_hands, r.reported_burns, r.reported_reshuffles);
  EXPECT_GT(r.showdowns, kHandsPerVariant / 10);
  EXPECT_GT(r.side_pots, 100);
  EXPECT_GT(r.split_pots, kHandsPerVariant / 5000);  // [STUD-SHOW-4] rare in stud high
  EXPECT_GT(r.common_cards, 10);                     // [STUD-DECK-1] 8 seats reaching 7th street
  EXPECT_GT(r.recycles, 10);
  EXPECT_GT(r.caps, 100);         // [STUD-CAP-1]
  EXPECT_GT(r.short_antes, 100);  // [STUD-ALLIN-6]
  EXPECT_GT(r.reported_hands, kHandsPerVariant / 20);
  EXPECT_GT(r.reported_burns, r.reported_hands);
  EXPECT_GT(r.reported_reshuffles, 0);  // [STUD-DECK-1] LIVE tables run out too
}

INSTANTIATE_TEST_SUITE_P(AllVariants, PropertySweep,
                         ::testing::Values(Variant::kStud, Variant::kStudHiLo, Variant::kRazz),
                         [](const ::testing::TestParamInfo<Variant>& param_info) {
                           switch (param_info.param) {
                             case Variant::kStud:
                               return std::string("Stud");
                             case Variant::kStudHiLo:
                               return std::string("StudHiLo");
                             default:
                               return std::string("Razz");
                           }
                         });

}  // namespace
}  // namespace stud
