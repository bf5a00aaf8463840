// The sealed-state codec is exact: every state of many complete hands (every
// variant, deck and reported dealing) survives encode -> serialize -> parse ->
// decode unchanged, and out-of-range values are refused, not trusted.
#include <random>

#include "absl/strings/escaping.h"
#include "engine/engine.h"
#include "engine/irregularities.h"
#include "gtest/gtest.h"
#include "service/rpc/dealing.h"
#include "service/token/codec.h"
#include "service/token/sealer.h"
#include "stud/internal/v1/state.pb.h"
#include "tests/testing/hands.h"
#include "tests/testing/status_matchers.h"

namespace stud::service {
namespace {
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;

// Every state is also read into one SealedHand that held the state before
// it, or a hand of another variant, size or dealing: a hand reused per
// thread (ParseSealedHandInto) must read as a new one, whatever it held.
SealedHand& Reused() {
  static SealedHand reused;
  return reused;
}

void ExpectRoundTrip(const HandState& state, const ServiceData& service) {
  SealedHand hand{state, service};
  const std::string plain = SerializeSealedHand(hand);
  absl::StatusOr<SealedHand> back = ParseSealedHand(plain);
  ASSERT_THAT(back, IsOk());
  ASSERT_TRUE(back->state == state)
      << "state differs after the round trip at version " << state.version;
  ASSERT_TRUE(back->service == service);
  ASSERT_THAT(ParseSealedHandInto(plain, &Reused()), IsOk());
  ASSERT_TRUE(Reused().state == state)
      << "a reused hand reads another state at version " << state.version;
  ASSERT_TRUE(Reused().service == service);
}

// The state as the protobuf message of proto/stud/internal/v1/state.proto.
stud::internal::v1::HandState AsProto(const HandState& state) {
  stud::internal::v1::SealedHand msg;
  EXPECT_TRUE(
      msg.ParseFromString(SerializeSealedHand(SealedHand{state, {}}, kRollingUpgradeSchema)));
  return msg.state();
}
absl::StatusOr<HandState> FromProto(const stud::internal::v1::HandState& state, int schema = 2) {
  stud::internal::v1::SealedHand msg;
  msg.set_schema(static_cast<uint32_t>(schema));
  *msg.mutable_state() = state;
  absl::StatusOr<SealedHand> hand = ParseSealedHand(msg.SerializeAsString());
  if (!hand.ok()) return hand.status();
  return hand->state;
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
  ASSERT_THAT(InitCrypto(), IsOk());
  std::mt19937 rng(12345);
  // Every other hand without the strings, so that a reused hand must drop them.
  const ServiceData with_strings{1, 2, std::string(32, 'c'), std::string(32, 's')};
  const ServiceData without{3, 1, "", ""};
  int hands = 0;
  for (Variant variant : {Variant::kStud, Variant::kStudHiLo, Variant::kRazz}) {
    for (DealSource source : {DealSource::kDeck, DealSource::kReported}) {
      for (int round = 0; round < 15; ++round) {
        const ServiceData& service = round % 2 == 0 ? with_strings : without;
        const int seats = 2 + static_cast<int>(rng() % 7);
        absl::StatusOr<HandState> state = NewHand(Config(variant, source, seats, rng));
        ASSERT_THAT(state, IsOk());
        std::vector<Card> live_deck = ShuffledDeck();
        size_t next_card = 0;
        ExpectRoundTrip(*state, service);
        for (int step = 0; step < 400 && state->phase != Phase::kComplete; ++step) {
          Action a;
          ASSERT_NO_FATAL_FAILURE(
              stud::testing::RandomLegalStep(*state, live_deck, &next_card, rng, &a));
          ASSERT_THAT(Apply(*state, a), IsOk());
          ExpectRoundTrip(*state, service);
        }
        EXPECT_EQ(state->phase, Phase::kComplete);
        ++hands;
      }
    }
  }
  EXPECT_EQ(hands, 90);
}

// Hands with irregularity rulings (catalogue section 11): the reports and the
// state they leave (exposed cards, dead hands, options, premature cards) survive.
TEST(StateCodecTest, StatesWithIrregularityRulingsRoundTrip) {
  std::mt19937 rng(777);
  ServiceData service{3, 1, "", ""};
  int rulings = 0, out_of_turn = 0, skips = 0;
  for (int round = 0; round < 300; ++round) {
    HandConfig c =
        Config(Variant::kStud, DealSource::kReported, 2 + static_cast<int>(rng() % 7), rng);
    c.options = ProfileDefaults(static_cast<Profile>(1 + rng() % 3));
    c.options.out_of_turn_binding = rng() % 2;  // held out-of-turn chips [STUD-IRR-WRONG-1]
    absl::StatusOr<HandState> state = NewHand(c);
    ASSERT_THAT(state, IsOk());
    std::vector<Card> deck = ShuffledDeck();
    for (int step = 0; step < 300 && state->phase != Phase::kComplete; ++step) {
      const int n = state->config.num_seats;
      if (rng() % 6 == 0) {
        // Only the fields each kind reads: the engine refuses any other.
        using K = IrregularityKind;
        IrregularityReport r;
        r.kind = rng() % 4 == 0 ? K::kActionOutOfTurn : static_cast<K>(1 + rng() % 16);
        r.seat = state->actor != 0 && rng() % 2 && r.kind != K::kActionOutOfTurn
                     ? state->actor
                     : 1 + static_cast<int>(rng() % n);
        const Seat& s = state->seats[r.seat];
        const bool card = r.kind == K::kHolecardExposed || r.kind == K::kCardOffTable ||
                          r.kind == K::kFinalCardFaceUp;
        if (card && s.num_cards > 0) {
          r.has_card = true;
          r.card = s.cards[rng() % s.num_cards].card;
        }
        if (r.kind == K::kTimeout) r.allowance_remaining = static_cast<int>(rng() % 2);
        if (r.kind == K::kWrongCardCount) r.card_count = 6;
        if (r.kind == K::kWrongOpener || r.kind == K::kActionOutOfTurn) {
          const LegalAction any[] = {{ActionKind::kFold, 0},
                                     {ActionKind::kCall, state->bet_to},
                                     {ActionKind::kBringIn, c.stakes.bring_in},
                                     {ActionKind::kComplete, c.stakes.small_bet}};
          const LegalAction& a = any[rng() % 4];
          r.action = a.kind;
          r.amount_to = a.amount_to;
        }
        if (r.kind == K::kBurnError || r.kind == K::kPrematureDeal) {
          r.seat = 0;
          r.street = state->street;
          if (r.kind == K::kBurnError) r.burn_delta = 1;
        }
        if (RuleIrregularity(*state, r).ok()) {
          ++rulings;
          out_of_turn += r.kind == K::kActionOutOfTurn;
        }
      } else if (state->phase == Phase::kAwaitingDeal && NextDeal(*state).seat != kBoardSeat &&
                 state->street != Street::kThird && rng() % 5 == 0) {
        // [STUD-IRR-CARDS-1] the seat the deal is at is skipped (SKIPPED_SEAT).
        const IrregularityReport skip{.kind = IrregularityKind::kSkippedSeat,
                                      .seat = NextDeal(*state).seat,
                                      .street = state->street};
        if (RuleIrregularity(*state, skip).ok()) ++skips;
      } else if (state->phase == Phase::kAwaitingDeal) {
        const ExpectedDeal next = NextDeal(*state);
        Card card = deck[0];
        for (Card d : deck) {
          if (!state->seen.Contains(d)) {
            card = d;
            break;
          }
        }
        const bool up = rng() % 8 == 0 ? !next.face_up : next.face_up;
        if (!Apply(*state, Action{ActionKind::kDeal, next.seat, 0, card, up}).ok()) {
          ASSERT_THAT(Apply(*state, Action{ActionKind::kDeal, next.seat, 0, card, next.face_up}),
                      IsOk());
        }
      } else {
        const std::vector<LegalAction> legal = LegalActions(*state, ToAct(*state));
        ASSERT_FALSE(legal.empty());
        const LegalAction& pick = legal[rng() % legal.size()];
        ASSERT_THAT(Apply(*state, Action{pick.kind, ToAct(*state), pick.amount_to, Card(), false}),
                    IsOk());
      }
      ExpectRoundTrip(*state, service);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  EXPECT_GT(rulings, 50);
  EXPECT_GT(out_of_turn, 5);
  EXPECT_GT(skips, 10);
}

TEST(StateCodecTest, OutOfRangeValuesAreRefused) {
  std::mt19937 rng(1);
  absl::StatusOr<HandState> state = NewHand(Config(Variant::kStud, DealSource::kDeck, 3, rng));
  ASSERT_THAT(state, IsOk());
  const stud::internal::v1::HandState msg = AsProto(*state);
  ASSERT_THAT(FromProto(msg), IsOk());

  auto refused = [&](auto mutate) {
    stud::internal::v1::HandState bad = msg;
    mutate(bad);
    return FromProto(bad).status().code() == absl::StatusCode::kInternal;
  };
  EXPECT_TRUE(refused([](auto& m) { m.mutable_config()->set_variant(9); }));
  EXPECT_TRUE(refused([](auto& m) { m.mutable_config()->set_num_seats(9); }));
  EXPECT_TRUE(refused([](auto& m) { m.mutable_config()->mutable_deck()->at(0) = 60; }));
  EXPECT_TRUE(refused([](auto& m) { m.set_actor(7); }));
  EXPECT_TRUE(refused([](auto& m) { m.set_deck_pos(100); }));
  EXPECT_TRUE(refused([](auto& m) { m.mutable_seats(0)->mutable_packed_cards()->at(0) = 52; }));
  EXPECT_TRUE(refused([](auto& m) { m.mutable_seats(0)->mutable_packed_cards()->at(1) = 5; }));
  EXPECT_TRUE(refused([](auto& m) { m.mutable_seats(0)->mutable_packed_cards()->push_back(0); }));
  EXPECT_TRUE(refused([](auto& m) { m.mutable_packed_log()->at(0) = 0; }));
  EXPECT_TRUE(refused([](auto& m) { m.mutable_packed_log()->pop_back(); }));
  EXPECT_TRUE(refused([](auto& m) { m.clear_rule_ids(); }));
  EXPECT_TRUE(refused([](auto& m) { m.add_log()->set_type(1); }));
  EXPECT_TRUE(refused([](auto& m) { m.add_seats(); }));
  EXPECT_TRUE(refused([](auto& m) { m.set_pending_deal(1u << 12); }));
  EXPECT_TRUE(
      refused([](auto& m) { m.mutable_config()->mutable_options()->set_deck_exhaustion(7); }));
  EXPECT_THAT(ParseSealedHand("\xff\xff garbage"), ::testing::Not(IsOk()));
}

// A thread decodes the rule options once for a run of tokens with the same
// options' bytes (token/message_fields.h, SameBytesMessage): hands of other
// options in between, and the same options again, each read back as their own.
TEST(StateCodecTest, RuleOptionsReadAfterOtherOptionsAreTheirOwn) {
  std::mt19937 rng(77);
  std::vector<std::string> plain;
  std::vector<Options> options;
  for (int h = 0; h < 6; ++h) {
    HandConfig c = Config(Variant::kStud, DealSource::kDeck, 3, rng);
    c.options = ProfileDefaults(static_cast<Profile>(1 + h % 3));
    c.options.max_raises_per_round = 2 + h % 2;
    absl::StatusOr<HandState> state = NewHand(c);
    ASSERT_THAT(state, IsOk());
    plain.push_back(SerializeSealedHand(SealedHand{*state, {}}));
    options.push_back(c.options);
  }
  int read = 0;
  for (size_t i : {0, 0, 1, 1, 0, 2, 3, 3, 4, 5, 0, 5, 5, 2}) {
    absl::StatusOr<SealedHand> hand = ParseSealedHand(plain[i]);
    ASSERT_THAT(hand, IsOk());
    EXPECT_TRUE(hand->state.config.options == options[i]) << "hand " << i << ", read " << read;
    ++read;
  }
  // Refused options are never kept as read: the same bytes are refused again.
  stud::internal::v1::HandState bad = AsProto(ParseSealedHand(plain[1])->state);
  bad.mutable_config()->mutable_options()->set_deck_exhaustion(7);
  EXPECT_FALSE(FromProto(bad).ok());
  EXPECT_FALSE(FromProto(bad).ok());
}

// Tokens sealed before the packed encoding (schema 1: repeated SeatCard and
// Operation messages) still decode to the same state.
TEST(StateCodecTest, Schema1MessagesStillDecode) {
  std::mt19937 rng(7);
  HandState state = *NewHand(Config(Variant::kStudHiLo, DealSource::kDeck, 8, rng));
  while (state.street == Street::kThird) {
    const LegalAction l = LegalActions(state, ToAct(state)).back();
    ASSERT_THAT(Apply(state, Action{l.kind, ToAct(state), l.amount_to, Card(), false}), IsOk());
  }
  stud::internal::v1::HandState msg = AsProto(state);
  msg.clear_packed_log();
  msg.clear_rule_ids();
  for (int i = 1; i <= state.config.num_seats; ++i) {
    stud::internal::v1::Seat* ps = msg.mutable_seats(i - 1);
    ps->clear_packed_cards();
    for (int k = 0; k < state.seats[i].num_cards; ++k) {
      const SeatCard& c = state.seats[i].cards[static_cast<size_t>(k)];
      stud::internal::v1::SeatCard* pc = ps->add_cards();
      pc->set_card(static_cast<uint32_t>(c.card.index()));
      pc->set_face_up(c.face_up);
      pc->set_street(static_cast<uint32_t>(c.street));
    }
  }
  for (const Operation& op : state.log) {
    stud::internal::v1::Operation* po = msg.add_log();
    po->set_type(static_cast<uint32_t>(op.type));
    po->set_seat(op.seat);
    po->set_street(static_cast<uint32_t>(op.street));
    po->set_card(static_cast<uint32_t>(op.card.index()));
    po->set_flags((op.face_up ? 1u : 0u) | (op.all_in ? 2u : 0u) | (op.odd_chip ? 4u : 0u));
    po->set_pot(op.pot);
    po->set_half(static_cast<uint32_t>(op.half));
    po->set_amount(op.amount);
    po->set_amount_to(op.amount_to);
    po->set_rule_id(std::string(RuleIdName(op.rule_id)));
  }
  absl::StatusOr<HandState> back = FromProto(msg, 1);
  ASSERT_THAT(back, IsOk());
  EXPECT_TRUE(*back == state);
  // The same messages labelled schema 2 are refused, not read without their
  // cards and log; an unknown schema is refused.
  EXPECT_EQ(FromProto(msg, 2).status().code(), absl::StatusCode::kInternal);
  EXPECT_EQ(FromProto(msg, kSealedSchema + 1).status().code(), absl::StatusCode::kInternal);
}

// Schema 3 stores rule IDs as RuleId numbers; schema 2 (what a replica
// writes during a rolling upgrade) as names listed once. Both read back to
// the same state; schema 3 carries no rule ID text.
TEST(StateCodecTest, Schema2AndSchema3ReadBackTheSameHand) {
  std::mt19937 rng(11);
  HandState state = *NewHand(Config(Variant::kStud, DealSource::kDeck, 6, rng));
  for (int i = 0; i < 12 && state.phase == Phase::kBetting; ++i) {
    const LegalAction l = LegalActions(state, ToAct(state)).front();
    ASSERT_THAT(Apply(state, Action{l.kind, ToAct(state), l.amount_to, Card(), false}), IsOk());
  }
  const SealedHand hand{state, {}};
  const std::string v2 = SerializeSealedHand(hand, kRollingUpgradeSchema);
  const std::string v3 = SerializeSealedHand(hand);
  EXPECT_NE(v2.find("STUD-SETUP-2"), std::string::npos);
  EXPECT_EQ(v3.find("STUD-"), std::string::npos);
  EXPECT_LT(v3.size(), v2.size());
  for (const std::string& plain : {v2, v3}) {
    absl::StatusOr<SealedHand> back = ParseSealedHand(plain);
    ASSERT_THAT(back, IsOk());
    EXPECT_TRUE(back->state == state);
  }
}

// A rule number this release does not know (a token of a newer one) is
// refused with that reason, and so is an unknown name in schema 2.
TEST(StateCodecTest, UnknownRulesAreRefusedWithTheReason) {
  std::mt19937 rng(12);
  HandState state = *NewHand(Config(Variant::kStud, DealSource::kDeck, 3, rng));
  state.log.back().rule_id = LastRuleId();
  std::string v3 = SerializeSealedHand(SealedHand{state, {}});
  ASSERT_THAT(ParseSealedHand(v3), IsOk());
  // The last operation's rule number is the packed log's last byte, just
  // before the empty ServiceData (field 3, length 0).
  const auto last = static_cast<uint8_t>(LastRuleId());
  ASSERT_EQ(v3.substr(v3.size() - 2), std::string("\x1a\x00", 2));
  char& rule = v3[v3.size() - 3];
  ASSERT_EQ(static_cast<uint8_t>(rule), last);
  rule = static_cast<char>(last + 1);
  absl::StatusOr<SealedHand> newer = ParseSealedHand(v3);
  EXPECT_THAT(newer, StatusIs(absl::StatusCode::kInternal));
  EXPECT_NE(newer.status().message().find("unknown to this release"), absl::string_view::npos)
      << newer.status();

  stud::internal::v1::SealedHand msg;
  ASSERT_TRUE(msg.ParseFromString(SerializeSealedHand(SealedHand{state, {}}, 2)));
  msg.mutable_state()->set_rule_ids(0, "STUD-NOT-A-RULE");
  EXPECT_EQ(ParseSealedHand(msg.SerializeAsString()).status().code(), absl::StatusCode::kInternal);
}

// A hand's id as the API shows it: its bytes in lowercase hex, every byte
// value included (ids are random), and "" for a token without one.
TEST(StateCodecTest, HandIdsAreShownInLowercaseHex) {
  ServiceData service;
  EXPECT_EQ(HandIdText(service), "");
  std::string all(256, '\0');
  for (size_t b = 0; b < all.size(); ++b) all[b] = static_cast<char>(b);
  service.hand_id = all;
  EXPECT_EQ(HandIdText(service), absl::BytesToHexString(all));
  service.hand_id = std::string("\x00\x9f\xa0\xff", 4);
  EXPECT_EQ(HandIdText(service), "009fa0ff");
}

}  // namespace
}  // namespace stud::service
