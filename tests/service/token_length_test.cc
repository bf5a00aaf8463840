// Constant-size tokens: a token's length depends only on public facts. Each
// random hand is played twice with the same actions from two decks that differ
// only in the hidden cards (down cards, burns and the undealt stub are
// shuffled among themselves; every up card stays where it was). As long as the
// two public histories are equal, the sealed states must have the same length
// at every step, so neither token sizes nor TLS record sizes tell anything
// about a hidden card.
#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/view.h"
#include "gtest/gtest.h"
#include "service/token/codec.h"
#include "tests/testing/grpc_status_matchers.h"
#include "tests/testing/hands.h"

namespace stud::service {
namespace {
using ::stud::testing::IsOk;

constexpr int kHands = 12000;

size_t SealedLength(const HandState& st) {
  SealedHand hand;
  hand.state = st;
  hand.service = {.dealing_mode = 1,
                  .locale = 1,
                  .commitment = std::string(32, 'c'),
                  .salt = std::string(32, 's'),
                  .hand_id = std::string(16, 'h')};
  std::string plain;
  SerializeSealedHandTo(hand, &plain);
  return plain.size();
}

// The log as everyone sees it.
std::vector<Operation> PublicLog(const HandState& st) {
  std::vector<Operation> out;
  for (const Operation& op : st.log) {
    bool hidden = false;
    out.push_back(RedactFor(st, op, kPublicViewer, &hidden));
  }
  return out;
}

// `deck` with the cards not face up in `st` shuffled among their positions.
std::vector<Card> ShuffleHidden(const HandState& st, const std::vector<Card>& deck,
                                std::mt19937_64& rng) {
  CardSet up;
  for (int i = 1; i <= st.config.num_seats; ++i) up = up | UpCards(st, i);
  std::vector<size_t> hidden_at;
  for (size_t i = 0; i < deck.size(); ++i) {
    if (!up.Contains(deck[i])) hidden_at.push_back(i);
  }
  std::vector<Card> hidden;
  for (size_t i : hidden_at) hidden.push_back(deck[i]);
  std::shuffle(hidden.begin(), hidden.end(), rng);
  std::vector<Card> out = deck;
  for (size_t k = 0; k < hidden_at.size(); ++k) out[hidden_at[k]] = hidden[k];
  return out;
}

TEST(TokenLength, SamePublicHistoryGivesTheSameTokenLength) {
  std::mt19937_64 rng(0x70CE);
  int compared_steps = 0, deals_of_the_2c_down = 0;
  for (int hand = 0; hand < kHands; ++hand) {
    const Variant variant = static_cast<Variant>(1 + hand % 3);
    HandConfig config = testing::RandomConfig(variant, rng, testing::RandomOptions::kVaried);
    // Play the hand to showdown (cards shown there are public) with random actions.
    absl::StatusOr<HandState> first = NewHand(config);
    ASSERT_THAT(first, IsOk());
    std::vector<Action> actions;
    HandState st = *first;
    while (st.phase == Phase::kBetting) {
      const int seat = ToAct(st);
      const std::vector<LegalAction> legal = LegalActions(st, seat);
      const LegalAction& l = legal[rng() % legal.size()];
      actions.push_back({.kind = l.kind, .seat = seat, .amount_to = l.amount_to});
      ASSERT_THAT(Apply(st, actions.back()), IsOk());
    }
    HandConfig twin = config;
    twin.deck = ShuffleHidden(st, config.deck, rng);
    absl::StatusOr<HandState> second = NewHand(twin);
    ASSERT_THAT(second, IsOk());
    HandState a = *first, b = *second;
    for (size_t i = 0;; ++i) {
      if (PublicLog(a) != PublicLog(b)) break;  // public histories differ from here on
      ASSERT_EQ(SealedLength(a), SealedLength(b))
          << "hand " << hand << ", step " << i << ": same public history, different length";
      ++compared_steps;
      if (i == actions.size() || a.phase != Phase::kBetting || b.phase != Phase::kBetting) break;
      ASSERT_THAT(Apply(a, actions[i]), IsOk());
      if (!Apply(b, actions[i]).ok()) break;
    }
    for (const Operation& op : st.log) {
      deals_of_the_2c_down += op.type == OpType::kDeal && !op.face_up && op.card == Card();
    }
  }
  std::printf("%d steps compared, the 2c dealt down %d times\n", compared_steps,
              deals_of_the_2c_down);
  EXPECT_GT(compared_steps, kHands * 5);
  EXPECT_GT(deals_of_the_2c_down, kHands / 20);  // the case that once changed the length
}

// LIVE dealing: the dealer reports each card. A down card dealt face up is
// recorded as an irregularity report naming the card [STUD-IRR-EXP-1]; the
// same deal with any other card must seal to the same length, as must a report
// that moves the card (CardMove). Before, the 2c (card index 0) was left out
// of the report and its token was 2 bytes shorter.
TEST(TokenLength, ALiveReportGivesTheSameLengthWhateverTheCard) {
  std::mt19937_64 rng(0x11FE);
  for (int round = 0; round < 6; ++round) {
    HandConfig config = testing::RandomConfig(static_cast<Variant>(1 + round % 3), rng,
                                              testing::RandomOptions::kVaried);
    config.deal_source = DealSource::kReported;
    config.deck.clear();
    config.recycle_order.clear();
    absl::StatusOr<HandState> start = NewHand(config);
    ASSERT_THAT(start, IsOk());
    ASSERT_EQ(start->phase, Phase::kAwaitingDeal);
    const ExpectedDeal next = NextDeal(*start);
    ASSERT_FALSE(next.face_up);  // third street starts with down cards
    std::map<size_t, std::vector<int>> cards_by_length;
    for (int c = 0; c < kDeckSize; ++c) {
      HandState st = *start;
      const Action exposed{.kind = ActionKind::kDeal,
                           .seat = next.seat,
                           .card = Card::FromIndex(c),
                           .face_up = true};
      ASSERT_THAT(Apply(st, exposed), IsOk()) << "card " << c;
      ASSERT_EQ(st.reports.size(), 1u) << "card " << c;
      ASSERT_TRUE(st.reports[0].has_card);
      // A move of the same card, as a ruling that hands it to another seat writes.
      st.reports[0].moves.push_back(CardMove{.seat = next.seat, .card = Card::FromIndex(c)});
      cards_by_length[SealedLength(st)].push_back(c);
    }
    EXPECT_EQ(cards_by_length.size(), 1u)
        << "round " << round << ": the token length depends on the reported card ("
        << cards_by_length.size()
        << " lengths; the first card of the shortest: " << cards_by_length.begin()->second.front()
        << ")";
  }
}

}  // namespace
}  // namespace stud::service
