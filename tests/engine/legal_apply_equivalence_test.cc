// LegalActions and Apply agree on every action kind, in every phase: at
// sampled points of many random hands (deck and reported dealing, betting,
// dealing, showdown), every kind for every seat (0..num_seats) with the
// listed amounts and others is tried on a copy. What LegalActions lists is
// accepted; what it does not list is refused with the state unchanged, unless
// Apply rules it as a dealer's error reported by the table (a card dealt early
// or face up: the log then shows the ruling).
#include <algorithm>
#include <random>

#include "engine/engine.h"
#include "tests/testing/hands.h"
#include "tests/testing/sanitized.h"
#include "tests/testing/status_matchers.h"

namespace stud {
namespace {
using ::stud::testing::IsOk;

// The sanitizer builds run a tenth.
constexpr int kHandsPerVariant = stud::testing::kSanitized ? 150 : 1500;
constexpr ActionKind kLastKind = ActionKind::kReshuffle;

bool Listed(const std::vector<LegalAction>& legal, const Action& a) {
  return ChooseLegal(legal, a) != nullptr;
}

// The card a table would report next: the first one not in play.
Card NextUnseen(const HandState& st, const std::vector<Card>& deck) {
  for (Card c : deck) {
    if (!st.seen.Contains(c)) return c;
  }
  return Card();
}

struct Tried {
  int listed = 0, refused = 0, ruled = 0;
  std::array<int, static_cast<size_t>(kLastKind) + 1> accepted_by_kind{};
};

void CheckEveryKind(const HandState& st, const std::vector<Card>& deck, std::mt19937_64& rng,
                    Tried& tried) {
  const ExpectedDeal next = NextDeal(st);
  for (int seat = 0; seat <= st.config.num_seats; ++seat) {
    const std::vector<LegalAction> legal = LegalActions(st, seat);
    for (int k = 1; k <= static_cast<int>(kLastKind); ++k) {
      const auto kind = static_cast<ActionKind>(k);
      std::vector<Chips> amounts = {0, static_cast<Chips>(rng() % (2 * st.config.stakes.big_bet))};
      for (const LegalAction& l : legal) {
        if (l.kind == kind) amounts.push_back(l.amount_to);
      }
      for (Chips amount : amounts) {
        Action a{.kind = kind, .seat = seat, .amount_to = amount};
        if (kind == ActionKind::kDeal || kind == ActionKind::kBurn) {
          a.card = NextUnseen(st, deck);
          a.face_up = kind == ActionKind::kDeal && next.face_up;
        }
        HandState copy = st;
        const absl::Status s = Apply(copy, a);
        const bool listed = Listed(legal, a);
        SCOPED_TRACE(::testing::Message() << ActionKindName(kind) << " seat " << seat << " amount "
                                          << amount << " phase " << static_cast<int>(st.phase)
                                          << " street " << static_cast<int>(st.street));
        if (listed) {
          ASSERT_THAT(s, IsOk()) << "listed but refused: " << s;
          ++tried.listed;
          ++tried.accepted_by_kind[static_cast<size_t>(k)];
          continue;
        }
        if (s.ok()) {
          // Only a dealer's error reported by the table is accepted unlisted:
          // it is ruled, and the log shows the ruling.
          const bool ruled =
              std::any_of(copy.log.begin() + static_cast<ptrdiff_t>(st.log.size()), copy.log.end(),
                          [](const Operation& op) { return op.type == OpType::kRuling; });
          ASSERT_TRUE(ruled && kind == ActionKind::kDeal)
              << "accepted though LegalActions does not list it";
          ++tried.ruled;
          continue;
        }
        ASSERT_TRUE(s.code() == absl::StatusCode::kFailedPrecondition ||
                    s.code() == absl::StatusCode::kInvalidArgument)
            << s;
        if (s.code() == absl::StatusCode::kFailedPrecondition) {
          ASSERT_FALSE(RuleIdOf(s).empty()) << s;
        }
        ++tried.refused;
      }
    }
  }
}

void PlayHand(Variant variant, bool reported, std::mt19937_64& rng, Tried& tried) {
  HandConfig config = testing::RandomConfig(variant, rng, testing::RandomOptions::kVaried);
  const std::vector<Card> deck = config.deck;
  if (reported) {
    config.deal_source = DealSource::kReported;
    config.deck.clear();
    config.recycle_order.clear();
  }
  HandState st = *NewHand(config);
  size_t next_card = 0;
  for (int step = 0; st.phase != Phase::kComplete; ++step) {
    ASSERT_LT(step, 1000) << "hand does not end";
    if (rng() % 3 == 0) {
      ASSERT_NO_FATAL_FAILURE(CheckEveryKind(st, deck, rng, tried));
    }
    Action a;
    ASSERT_NO_FATAL_FAILURE(testing::RandomLegalStep(st, deck, &next_card, rng, &a));
    const absl::Status s = Apply(st, a);
    ASSERT_THAT(s, IsOk());
  }
  ASSERT_NO_FATAL_FAILURE(CheckEveryKind(st, deck, rng, tried));  // nothing after the end
}

class LegalApplyEquivalence : public ::testing::TestWithParam<Variant> {};

TEST_P(LegalApplyEquivalence, EveryKindIsAcceptedIffListed) {
  std::mt19937_64 rng(0xE0 + static_cast<int>(GetParam()));
  Tried tried;
  for (int hand = 0; hand < kHandsPerVariant; ++hand) {
    PlayHand(GetParam(), /*reported=*/hand % 2 == 1, rng, tried);
    if (::testing::Test::HasFatalFailure()) {
      ADD_FAILURE() << "hand " << hand;
      return;
    }
  }
  // Every kind that can be listed was listed and accepted somewhere.
  for (ActionKind k :
       {ActionKind::kFold, ActionKind::kCheck, ActionKind::kCall, ActionKind::kBringIn,
        ActionKind::kBet, ActionKind::kRaise, ActionKind::kShow, ActionKind::kMuck,
        ActionKind::kDeal, ActionKind::kBurn}) {
    EXPECT_GT(tried.accepted_by_kind[static_cast<size_t>(k)], 0) << ActionKindName(k);
  }
  if (GetParam() != Variant::kRazz) {
    EXPECT_GT(tried.accepted_by_kind[static_cast<size_t>(ActionKind::kComplete)], 0);
  }
  EXPECT_GT(tried.refused, tried.listed);
  EXPECT_GT(tried.ruled, 0);
  std::printf("listed %d refused %d ruled %d\n", tried.listed, tried.refused, tried.ruled);
}

INSTANTIATE_TEST_SUITE_P(Variants, LegalApplyEquivalence,
                         ::testing::Values(Variant::kStud, Variant::kStudHiLo, Variant::kRazz),
                         [](const auto& p) {
                           return std::string(p.param == Variant::kStud       ? "Stud"
                                              : p.param == Variant::kStudHiLo ? "StudHiLo"
                                                                              : "Razz");
                         });

}  // namespace
}  // namespace stud
