// Engine benchmarks: player actions per second and whole random 8-seat hands
// per second played to showdown, Apply and LegalActions per call, and heap
// allocations per hand. Run: build/tests/engine_bench
//
// Allocations are counted by replacing the global operator new in this binary
// (every engine allocation goes through it); the counters are per thread of
// the benchmark, which runs single-threaded.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <new>
#include <random>
#include <vector>

#include "benchmark/benchmark.h"
#include "engine/engine.h"

namespace {
uint64_t g_allocations = 0;
}  // namespace

// GCC sees operator new calling malloc and free in operator delete, and warns
// about the pair when it inlines them; they are the matching replacements.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

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
  const uint64_t allocations_before = g_allocations;
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
  // Heap allocations per whole hand (NewHand, every LegalActions and Apply, showdown).
  state.counters["allocs_per_hand"] =
      benchmark::Counter(static_cast<double>(g_allocations - allocations_before) /
                         static_cast<double>(state.iterations()));
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

// A pool of (state, action) pairs met while playing random 8-seat hands: every
// decision point of the hands, so all streets, showdown and the dealing that
// follows a closing action are represented in proportion.
struct Decision {
  HandState state;
  Action action;
};
const std::vector<Decision>& DecisionPool() {
  static const std::vector<Decision>* pool = [] {
    auto* out = new std::vector<Decision>();
    std::mt19937_64 rng(23);
    while (out->size() < 4096) {
      HandState st = *NewHand(EightSeats(rng));
      while (st.phase != Phase::kComplete) {
        const int seat = ToAct(st);
        const std::vector<LegalAction> legal = LegalActions(st, seat);
        const LegalAction& l = legal[rng() % legal.size()];
        const Action a{.kind = l.kind, .seat = seat, .amount_to = l.amount_to};
        out->push_back({st, a});
        (void)Apply(st, a);
      }
    }
    return out;
  }();
  return *pool;
}

// Apply per call on the pool. Each iteration copies a batch of states (not
// timed), then times one Apply on each copy. Arg 0: plain copies, whose log
// has no spare capacity, so the first operation Apply logs regrows it (the
// worst case). Arg 1: the log has the headroom the service's state decoder
// gives it (service/token/schema.h), the situation of every ApplyAction.
// Reported: mean per Apply (the benchmark time divided by the batch) and the
// median over batches of the per-batch mean.
void BM_ApplyPerCall(benchmark::State& state) {
  const std::vector<Decision>& pool = DecisionPool();
  constexpr size_t kBatch = 256;
  std::vector<HandState> copies(kBatch);
  std::vector<double> batch_ns;
  size_t next = 0;
  uint64_t allocations = 0;
  for (auto _ : state) {
    const size_t first = next;
    for (size_t k = 0; k < kBatch; ++k) {
      copies[k] = HandState(pool[(first + k) % pool.size()].state);
      if (state.range(0) == 1) copies[k].log.reserve(copies[k].log.size() + 24);
    }
    const uint64_t alloc_before = g_allocations;
    const auto t0 = std::chrono::steady_clock::now();
    for (size_t k = 0; k < kBatch; ++k) {
      benchmark::DoNotOptimize(Apply(copies[k], pool[(first + k) % pool.size()].action));
    }
    const auto t1 = std::chrono::steady_clock::now();
    allocations += g_allocations - alloc_before;
    const double secs = std::chrono::duration<double>(t1 - t0).count();
    state.SetIterationTime(secs);
    batch_ns.push_back(secs * 1e9 / kBatch);
    next = (first + kBatch) % pool.size();
  }
  std::nth_element(batch_ns.begin(), batch_ns.begin() + batch_ns.size() / 2, batch_ns.end());
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(kBatch));
  state.counters["median_batch_ns_per_apply"] = batch_ns[batch_ns.size() / 2];
  state.counters["allocs_per_apply"] =
      static_cast<double>(allocations) / static_cast<double>(state.iterations() * kBatch);
}
BENCHMARK(BM_ApplyPerCall)->Arg(0)->Arg(1)->UseManualTime();

// LegalActions per call over the same pool of mid-hand states.
void BM_LegalActionsPool(benchmark::State& state) {
  const std::vector<Decision>& pool = DecisionPool();
  size_t i = 0;
  for (auto _ : state) {
    const Decision& d = pool[i++ % pool.size()];
    benchmark::DoNotOptimize(LegalActions(d.state, d.action.seat));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_LegalActionsPool);

}  // namespace
}  // namespace stud
