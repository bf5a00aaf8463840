// Engine benchmarks: player actions per second and whole random 8-seat hands
// per second played to showdown. Run: build/tests/engine_bench
#include <algorithm>
#include <random>

#include "benchmark/benchmark.h"
#include "engine/engine.h"

namespace stud {
namespace {

HandConfig EightSeats(std::mt19937_64& rng) {
  HandConfig c;
  c.variant = Variant::kStud;
  c.stakes = *FindStakesPreset("$15-$30");
  c.num_seats = 8;
  for (int i = 1; i <= 8; ++i) c.starting_stacks[i] = 100000;
  for (int i = 0; i < kDeckSize; ++i) c.deck.push_back(Card::FromIndex(i));
  std::shuffle(c.deck.begin(), c.deck.end(), rng);
  return c;
}

// Plays one hand with a fixed, cheap policy: mostly calls, some raises, few folds.
int PlayHand(HandState& st, std::mt19937_64& rng) {
  int actions = 0;
  while (st.phase != Phase::kComplete) {
    const int seat = ToAct(st);
    const std::vector<LegalAction> legal = LegalActions(st, seat);
    const LegalAction& l = legal[rng() % legal.size()];
    const absl::Status s = Apply(st, {.kind = l.kind, .seat = seat, .amount_to = l.amount_to});
    if (!s.ok()) return -1;
    ++actions;
  }
  return actions;
}

// Whole 8-seat hands (deal, bring-in, five betting rounds, showdown) per second.
void BM_Whole8SeatHand(benchmark::State& state) {
  std::mt19937_64 rng(7);
  std::vector<HandConfig> configs;
  for (int i = 0; i < 256; ++i) configs.push_back(EightSeats(rng));
  size_t i = 0;
  int64_t actions = 0;
  for (auto _ : state) {
    absl::StatusOr<HandState> st = NewHand(configs[i++ % configs.size()]);
    actions += PlayHand(*st, rng);
    benchmark::DoNotOptimize(st->seats[1].stack);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["actions_per_hand"] =
      benchmark::Counter(static_cast<double>(actions) / static_cast<double>(state.iterations()));
  // Player actions per second, NewHand and showdown included in the time.
  state.counters["actions_per_second"] =
      benchmark::Counter(static_cast<double>(actions), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Whole8SeatHand);

// LegalActions for the seat to act, mid-hand (4th street, 8 seats).
void BM_LegalActions(benchmark::State& state) {
  std::mt19937_64 rng(11);
  HandState st = *NewHand(EightSeats(rng));
  while (st.street == Street::kThird) {
    const int seat = ToAct(st);
    const LegalAction l = LegalActions(st, seat)[1];  // call / bring-in
    (void)Apply(st, {.kind = l.kind, .seat = seat, .amount_to = l.amount_to});
  }
  const int seat = ToAct(st);
  for (auto _ : state) benchmark::DoNotOptimize(LegalActions(st, seat));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_LegalActions);

// NewHand: validation, antes, 3rd-street deal, bring-in designation (8 seats).
void BM_NewHand8Seats(benchmark::State& state) {
  std::mt19937_64 rng(17);
  const HandConfig c = EightSeats(rng);
  for (auto _ : state) benchmark::DoNotOptimize(NewHand(c));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_NewHand8Seats);

}  // namespace
}  // namespace stud
