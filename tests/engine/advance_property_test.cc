// Property: every entry point is Advance (engine/advance.h). Random LIVE
// hands with every kind of dealer error (cards reported face up or face
// down against the rules, to the wrong seat, during the betting, burns and
// reshuffles reported where none is due, and random irregularity reports of
// every kind) go through Apply / RuleIrregularity, ApplyStep /
// RuleIrregularity and Advance side by side: after every step the three
// hands are identical (log, reports, version, stacks, every field), a
// refused input leaves all three unchanged with the same status, and the
// cards that left the deck agree with the log [STUD-DEAL-3, STUD-DECK-1].
// At the end of each hand Replay() of the log rebuilds it. Bounded: a fixed
// seed, a fixed number of hands and of steps per hand.
#include <cstdio>
#include <random>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine/advance.h"
#include "engine/internal.h"
#include "tests/testing/live.h"
#include "tests/testing/random_report.h"
#include "tests/testing/status_matchers.h"

namespace stud {
namespace {
using namespace stud::testing;
using K = ActionKind;

// The cards that left the deck, by the log alone: every card a deal, common
// card, replacement, burn or aside names, and every burn or aside nobody saw,
// since the last reshuffle (which puts the burned and aside cards back).
// It must be what the engine counts: the cards it knows (`seen`) and the
// unseen burned or aside cards (`burn_count`), so 52 - stub.
void ExpectDeckAgreesWithLog(const HandState& st, const std::string& where, int* over_deck) {
  CardSet known, returnable;
  int unseen = 0;
  for (const Operation& op : st.log) {
    switch (op.type) {
      case OpType::kDeal:
      case OpType::kCommonCard:
      case OpType::kReplaceCard:
        known.Add(op.card);
        break;
      case OpType::kBurn:
        if (op.amount != 0) {
          ++unseen;
        } else {
          known.Add(op.card);
          returnable.Add(op.card);
        }
        break;
      case OpType::kAside:
        if (op.seat == 0 && op.amount == 1) {
          ++unseen;  // [STUD-IRR-PREM-1] one more card per player, unseen
        } else {
          known.Add(op.card);
          returnable.Add(op.card);
        }
        break;
      case OpType::kRecycle:
        known = CardSet(known.mask() & ~returnable.mask());
        returnable = CardSet();
        unseen = 0;
        break;
      case OpType::kRuling: {
        // [STUD-IRR-BURN-1, -2] a burn error corrects the burns counted.
        const IrregularityReport& r = st.reports.at(static_cast<size_t>(op.amount));
        if (r.kind == IrregularityKind::kBurnError) unseen = std::max(0, unseen + r.burn_delta);
        break;
      }
      default:
        break;
    }
  }
  EXPECT_EQ(known.mask(), st.seen.mask()) << where;
  EXPECT_EQ(unseen, st.burn_count) << where;
  // 52 - stub while the stub lasts (LiveStub stops at 0; the extra cards of
  // STUD-IRR-PREM-1 are counted even when the stub cannot give them).
  if (known.size() + unseen <= kDeckSize) {
    EXPECT_EQ(known.size() + unseen, kDeckSize - internal::LiveStub(st)) << where;
  } else {
    ++*over_deck;
  }
}

// A dealer's or player's report, drawn so that most fit and some do not.
Input RandomInput(const HandState& st, std::mt19937& rng, const std::vector<Card>& deck) {
  auto unseen = [&] {
    for (size_t k = rng() % deck.size(), i = 0; i < deck.size(); ++i) {
      const Card c = deck[(k + i) % deck.size()];
      if (!st.seen.Contains(c)) return c;
    }
    return deck[0];
  };
  const int n = st.config.num_seats;
  const auto roll = rng() % 100;
  if (roll < 12) return RandomReport(st, rng, deck);
  if (st.phase == Phase::kAwaitingDeal) {
    const ExpectedDeal e = NextDeal(st);
    if (e.step == DealStep::kReshuffle && roll < 90) return Action{.kind = K::kReshuffle};
    if (roll < 16) return Action{.kind = K::kReshuffle};  // mostly not due
    if (roll < 22) {
      // A burn reported with its card, face up or down, or unseen.
      const bool unseen_burn = rng() % 2;
      return Action{.kind = K::kBurn,
                    .card = unseen(),
                    .face_up = !unseen_burn && rng() % 2,
                    .unseen = unseen_burn};
    }
    Action a{.kind = K::kDeal, .seat = e.seat, .card = unseen(), .face_up = e.face_up};
    if (roll < 32) a.face_up = !a.face_up;  // face up / down against the rule
    if (roll >= 32 && roll < 35) a.seat = static_cast<int>(rng() % (n + 1));  // wrong seat
    if (roll >= 35 && roll < 37) a.card = st.log.back().card;  // a card already in play
    return a;
  }
  if (st.phase == Phase::kBetting && roll < 20) {
    // [STUD-IRR-PREM-1] a card reported before the betting is over.
    return Action{.kind = K::kDeal, .seat = 1 + static_cast<int>(rng() % n), .card = unseen()};
  }
  const int seat = ToAct(st);
  const std::vector<LegalAction> legal = LegalActions(st, seat);
  if (legal.empty() || roll < 23) {
    return Action{.kind = static_cast<K>(1 + rng() % 9), .seat = static_cast<int>(rng() % (n + 1))};
  }
  const LegalAction& l = legal[rng() % legal.size()];
  return Action{.kind = l.kind, .seat = seat, .amount_to = l.amount_to};
}

std::string Describe(const Input& in) {
  if (const Action* a = std::get_if<Action>(&in)) {
    return absl::StrCat(ActionKindName(a->kind), " seat ", a->seat, " ", a->card.ToString(),
                        a->face_up ? " up" : "", " to ", a->amount_to);
  }
  return absl::StrCat("report kind ", static_cast<int>(std::get<IrregularityReport>(in).kind));
}

TEST(AdvanceProperty, EveryEntryPointGivesTheSameHandAndTheDeckAgreesWithTheLog) {
  std::mt19937 rng(20261127);
  int rulings = 0, refused = 0, steps = 0, from_deal = 0, over_deck = 0;
  for (int hand = 0; hand < 1000; ++hand) {
    Options o = ProfileDefaults(static_cast<Profile>(1 + rng() % 3));
    if (rng() % 2) o.faceup_final_option = FaceupFinalOption::kActFirst;
    if (rng() % 2) o.premature_seventh = PrematureSeventh::kAllPlayers;
    if (rng() % 2) o.final_burn_error = FinalBurnError::kAllStand;
    if (rng() % 3 == 0) o.burn_before_third = true;
    o.deck_exhaustion = static_cast<DeckExhaustion>(rng() % 3);
    HandConfig c;
    c.variant = static_cast<Variant>(1 + rng() % 3);
    c.stakes = *FindStakesPreset("$4-$8");
    c.options = o;
    c.num_seats = 2 + static_cast<int>(rng() % 7);
    for (int i = 1; i <= c.num_seats; ++i)
      c.starting_stacks[i] = 150 + static_cast<Chips>(rng() % 6000);
    c.deal_source = DealSource::kReported;
    HandState x = Start(c);  // Apply and RuleIrregularity
    HandState y = x;         // ApplyStep and RuleIrregularity
    HandState z = x;         // Advance
    std::vector<Card> deck;
    for (int i = 0; i < kDeckSize; ++i) deck.push_back(Card::FromIndex(i));
    std::shuffle(deck.begin(), deck.end(), rng);
    for (int step = 0; step < 400 && z.phase != Phase::kComplete; ++step) {
      const Input in = RandomInput(z, rng, deck);
      const std::string where = absl::StrCat("hand ", hand, " step ", step, ": ", Describe(in));
      const HandState before = z;
      absl::Status sx, sy;
      if (const Action* a = std::get_if<Action>(&in)) {
        sx = Apply(x, *a);
        absl::StatusOr<Step> s = ApplyStep(y, *a);
        sy = s.status();
        if (s.ok() && s->ruling) ++from_deal;
      } else {
        const IrregularityReport& r = std::get<IrregularityReport>(in);
        sx = RuleIrregularity(x, r).status();
        sy = RuleIrregularity(y, r).status();
      }
      absl::StatusOr<Step> sz = Advance(z, in);
      ASSERT_EQ(sx, sz.status()) << where;
      ASSERT_EQ(sy, sz.status()) << where;
      ASSERT_TRUE(x == z) << where;
      ASSERT_TRUE(y == z) << where;
      ++steps;
      if (!sz.ok()) {
        ++refused;
        ASSERT_TRUE(z == before) << where << ": a refused input changed the hand";
        continue;
      }
      ASSERT_EQ(z.version, before.version + 1) << where;
      ASSERT_EQ(sz->first_op, before.log.size()) << where;
      if (sz->ruling) ++rulings;
      ExpectDeckAgreesWithLog(z, where, &over_deck);
      if (::testing::Test::HasFailure()) return;
    }
    absl::StatusOr<HandState> back = Replay(z.config, z.log, z.reports);
    ASSERT_THAT(back, IsOk()) << "hand " << hand << ": " << back.status();
    ASSERT_TRUE(*back == z) << "hand " << hand << ": the replay differs";
  }
  // The sweep reached what it is for.
  EXPECT_GT(rulings, 300);
  EXPECT_GT(from_deal, 50);
  EXPECT_GT(refused, 1000);
  std::printf("%d steps, %d rulings (%d from deal reports), %d refused, %d over the deck\n", steps,
              rulings, from_deal, refused, over_deck);
}

}  // namespace
}  // namespace stud
