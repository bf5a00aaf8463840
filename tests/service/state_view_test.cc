// The narrow wire parser (service/state_view.h) decodes every schema-2
// plaintext the writer makes, and ParseSealedHand (wire parser first,
// protobuf parser as fallback) gives exactly what the protobuf parser alone
// gives, states and errors alike, on real plaintexts and on every one-byte
// alteration and truncation of them.
#include "service/state_view.h"

#include <random>

#include "engine/engine.h"
#include "gtest/gtest.h"
#include "service/dealing.h"
#include "service/sealer.h"
#include "service/state_codec.h"

namespace stud::service {
namespace {

void ExpectSameDecode(absl::string_view plain) {
  absl::StatusOr<SealedHand> fast = ParseSealedHand(plain);
  absl::StatusOr<SealedHand> slow = ParseSealedHandViaProtobuf(plain);
  ASSERT_EQ(fast.ok(), slow.ok()) << (fast.ok() ? slow.status() : fast.status()) << " size "
                                  << plain.size();
  if (!fast.ok()) {
    ASSERT_EQ(fast.status(), slow.status());
    return;
  }
  ASSERT_TRUE(fast->state == slow->state);
  ASSERT_TRUE(fast->service == slow->service);
}

std::vector<std::string> Plaintexts() {
  std::mt19937 rng(99);
  std::vector<std::string> out;
  for (int hand = 0; hand < 24; ++hand) {
    HandConfig c;
    c.variant = std::array<Variant, 3>{Variant::kStud, Variant::kStudHiLo,
                                       Variant::kRazz}[static_cast<size_t>(hand % 3)];
    c.stakes = *FindStakesPreset("$5-$10");
    c.options = ProfileDefaults(Profile::kTournament);
    c.num_seats = 2 + hand % 7;
    for (int i = 1; i <= c.num_seats; ++i)
      c.starting_stacks[i] = 100 + static_cast<Chips>(rng() % 3000);
    c.deck = ShuffledDeck();
    c.recycle_order = ShuffledDeck();
    absl::StatusOr<HandState> state = NewHand(c);
    EXPECT_TRUE(state.ok());
    const ServiceData service{1, 2, std::string(32, 'c'), std::string(32, 's')};
    for (int step = 0; step < 400 && state->phase != Phase::kComplete; ++step) {
      out.push_back(SerializeSealedHand(SealedHand{*state, service}));
      const std::vector<LegalAction> legal = LegalActions(*state, ToAct(*state));
      const LegalAction& pick = legal[rng() % legal.size()];
      EXPECT_TRUE(
          Apply(*state, Action{pick.kind, ToAct(*state), pick.amount_to, Card(), false}).ok());
    }
    out.push_back(SerializeSealedHand(SealedHand{*state, service}));
  }
  return out;
}

TEST(StateViewTest, EveryWrittenPlaintextTakesTheWirePathAndDecodesAsProtobufDoes) {
  ASSERT_TRUE(InitSodium().ok());
  for (const std::string& plain : Plaintexts()) {
    view::SealedHand v;
    ASSERT_TRUE(view::ParseSealedHandView(plain, &v));
    ExpectSameDecode(plain);
  }
}

TEST(StateViewTest, AlteredAndTruncatedPlaintextsDecodeAsProtobufDoes) {
  ASSERT_TRUE(InitSodium().ok());
  const std::vector<std::string> plains = Plaintexts();
  for (size_t k = 0; k < plains.size(); k += 37) {
    const std::string& plain = plains[k];
    for (size_t i = 0; i < plain.size(); ++i) {
      for (int x : {0x01, 0x80, 0xFF}) {
        std::string bad = plain;
        bad[i] = static_cast<char>(bad[i] ^ x);
        ExpectSameDecode(bad);
      }
      ExpectSameDecode(plain.substr(0, i));
    }
  }
}

}  // namespace
}  // namespace stud::service
