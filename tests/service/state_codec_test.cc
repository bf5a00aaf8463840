// The sealed-state codec is exact: every state of many complete hands (every
// variant, deck and reported dealing) survives encode -> serialize -> parse ->
// decode unchanged, and out-of-range values are refused, not trusted.
#include "service/state_codec.h"

#include <random>

#include "engine/engine.h"
#include "gtest/gtest.h"
#include "service/dealing.h"
#include "service/sealer.h"

namespace stud::service {
namespace {

void ExpectRoundTrip(const HandState& state, const ServiceData& service) {
  SealedHand hand{state, service};
  absl::StatusOr<SealedHand> back = ParseSealedHand(SerializeSealedHand(hand));
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_TRUE(back->state == state) << "state differs after the round trip at version " << state.version;
  ASSERT_TRUE(back->service == service);
}

HandConfig Config(Variant variant, DealSource source, int seats, std::mt19937& rng) {
  HandConfig c;
  c.variant = variant;
  c.stakes = *FindStakesPreset("$1-$2");
  c.options = ProfileDefaults(Profile::kCash);
  c.num_seats = seats;
  for (int i = 1; i <= seats; ++i) c.starting_stacks[i] = 300 + static_cast<Chips>(rng() % 3000);
  c.deal_source = source;
  if (source == DealSource::kDeck) {
    c.deck = ShuffledDeck();
    c.recycle_order = ShuffledDeck();
  }
  return c;
}

TEST(StateCodecTest, EveryStateOfManyHandsRoundTrips) {
  ASSERT_TRUE(InitSodium().ok());
  std::mt19937 rng(12345);
  ServiceData service{1, 2, std::string(32, 'c'), std::string(32, 's')};
  int hands = 0;
  for (Variant variant : {Variant::kStud, Variant::kStudHiLo, Variant::kRazz}) {
    for (DealSource source : {DealSource::kDeck, DealSource::kReported}) {
      for (int round = 0; round < 15; ++round) {
        const int seats = 2 + static_cast<int>(rng() % 7);
        absl::StatusOr<HandState> state = NewHand(Config(variant, source, seats, rng));
        ASSERT_TRUE(state.ok()) << state.status();
        std::vector<Card> live_deck = ShuffledDeck();
        size_t next_card = 0;
        ExpectRoundTrip(*state, service);
        for (int step = 0; step < 400 && state->phase != Phase::kComplete; ++step) {
          Action a;
          if (state->phase == Phase::kAwaitingDeal) {
            const ExpectedDeal next = NextDeal(*state);
            while (next_card < live_deck.size() && state->seen.Contains(live_deck[next_card])) ++next_card;
            ASSERT_LT(next_card, live_deck.size());
            a = Action{ActionKind::kDeal, next.seat, 0, live_deck[next_card], next.face_up};
          } else {
            const std::vector<LegalAction> legal = LegalActions(*state, ToAct(*state));
            ASSERT_FALSE(legal.empty());
            const LegalAction& pick = legal[rng() % legal.size()];
            a = Action{pick.kind, ToAct(*state), pick.amount_to, Card(), false};
          }
          ASSERT_TRUE(Apply(*state, a).ok());
          ExpectRoundTrip(*state, service);
        }
        EXPECT_EQ(state->phase, Phase::kComplete);
        ++hands;
      }
    }
  }
  EXPECT_EQ(hands, 90);
}

TEST(StateCodecTest, OutOfRangeValuesAreRefused) {
  std::mt19937 rng(1);
  absl::StatusOr<HandState> state = NewHand(Config(Variant::kStud, DealSource::kDeck, 3, rng));
  ASSERT_TRUE(state.ok());
  stud::internal::v1::HandState msg;
  EncodeState(*state, &msg);
  ASSERT_TRUE(DecodeState(msg).ok());

  auto refused = [&](auto mutate) {
    stud::internal::v1::HandState bad = msg;
    mutate(bad);
    return DecodeState(bad).status().code() == absl::StatusCode::kInternal;
  };
  EXPECT_TRUE(refused([](auto& m) { m.mutable_config()->set_variant(9); }));
  EXPECT_TRUE(refused([](auto& m) { m.mutable_config()->set_num_seats(9); }));
  EXPECT_TRUE(refused([](auto& m) { m.mutable_config()->mutable_deck()->at(0) = 60; }));
  EXPECT_TRUE(refused([](auto& m) { m.set_actor(7); }));
  EXPECT_TRUE(refused([](auto& m) { m.set_deck_pos(100); }));
  EXPECT_TRUE(refused([](auto& m) { m.mutable_seats(0)->mutable_cards(0)->set_card(52); }));
  EXPECT_TRUE(refused([](auto& m) { m.mutable_log(0)->set_type(0); }));
  EXPECT_TRUE(refused([](auto& m) { m.add_seats(); }));
  EXPECT_TRUE(refused([](auto& m) { m.set_pending_deal(1u << 12); }));
  EXPECT_TRUE(refused([](auto& m) { m.mutable_config()->mutable_options()->set_deck_exhaustion(7); }));
  EXPECT_FALSE(ParseSealedHand("\xff\xff garbage").ok());
}

TEST(StateCodecTest, RuleIdsAreInternedToStableStorage) {
  absl::StatusOr<absl::string_view> a = InternRuleId(std::string("STUD-TEST-1"));
  absl::StatusOr<absl::string_view> b = InternRuleId(std::string("STUD-TEST-1"));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->data(), b->data());
  EXPECT_EQ(*a, "STUD-TEST-1");
  EXPECT_FALSE(InternRuleId(std::string(100, 'x')).ok());
}

}  // namespace
}  // namespace stud::service
