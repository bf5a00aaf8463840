// Sealing and serialization on the hot path: token sizes and the cost of
// seal/open and of state encode/decode, for a fresh 8-seat hand (typical) and
// an 8-seat hand played to showdown with every raise allowed (largest log).
#include <benchmark/benchmark.h>

#include <cstdio>

#include "engine/engine.h"
#include "service/dealing.h"
#include "service/sealer.h"
#include "service/state_codec.h"

namespace stud::service {
namespace {

SealedHand MakeHand(bool play_out) {
  (void)InitSodium();
  HandConfig c;
  c.variant = Variant::kStudHiLo;
  c.stakes = *FindStakesPreset("$15-$30");
  c.options = ProfileDefaults(Profile::kCash);
  c.num_seats = 8;
  for (int i = 1; i <= 8; ++i) c.starting_stacks[i] = 10000000;
  c.deck = ShuffledDeck();
  c.recycle_order = ShuffledDeck();
  SealedHand hand;
  hand.state = *NewHand(c);
  hand.service = {1, 1, std::string(32, 'c'), std::string(32, 's')};
  for (int step = 0; play_out && step < 1000 && hand.state.phase != Phase::kComplete; ++step) {
    const int seat = ToAct(hand.state);
    std::vector<LegalAction> legal = LegalActions(hand.state, seat);
    LegalAction pick = legal.front();
    for (const LegalAction& a : legal) {
      if (a.kind == ActionKind::kRaise || a.kind == ActionKind::kBet || a.kind == ActionKind::kComplete ||
          a.kind == ActionKind::kShow) {
        pick = a;
      } else if (a.kind == ActionKind::kCall && pick.kind != ActionKind::kRaise) {
        pick = a;
      }
    }
    (void)Apply(hand.state, Action{pick.kind, seat, pick.amount_to, Card(), false});
  }
  return hand;
}

const Sealer& TheSealer() {
  static Sealer* s = [] {
    (void)InitSodium();
    return new Sealer(*Sealer::Create({Sealer::EphemeralKey()}));
  }();
  return *s;
}

void BM_Seal(benchmark::State& st) {
  const std::string plain = SerializeSealedHand(MakeHand(st.range(0) != 0));
  for (auto _ : st) benchmark::DoNotOptimize(TheSealer().Seal(plain));
  st.counters["token_bytes"] = static_cast<double>(plain.size() + kTokenOverhead);
}
BENCHMARK(BM_Seal)->Arg(0)->Arg(1);

void BM_Open(benchmark::State& st) {
  const std::string token = TheSealer().Seal(SerializeSealedHand(MakeHand(st.range(0) != 0)));
  for (auto _ : st) benchmark::DoNotOptimize(TheSealer().Open(token));
  st.counters["token_bytes"] = static_cast<double>(token.size());
}
BENCHMARK(BM_Open)->Arg(0)->Arg(1);

void BM_Serialize(benchmark::State& st) {
  const SealedHand hand = MakeHand(st.range(0) != 0);
  for (auto _ : st) benchmark::DoNotOptimize(SerializeSealedHand(hand));
}
BENCHMARK(BM_Serialize)->Arg(0)->Arg(1);

void BM_Parse(benchmark::State& st) {
  const std::string plain = SerializeSealedHand(MakeHand(st.range(0) != 0));
  for (auto _ : st) benchmark::DoNotOptimize(ParseSealedHand(plain));
}
BENCHMARK(BM_Parse)->Arg(0)->Arg(1);

}  // namespace
}  // namespace stud::service

BENCHMARK_MAIN();
