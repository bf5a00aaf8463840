// Hand evaluator throughput. Random benchmarks evaluate a fixed array of 1<<16
// card sets drawn from a fixed seed; items_per_second is evaluations/second.
#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "benchmark/benchmark.h"
#include "engine/card.h"
#include "engine/hand_eval.h"

namespace stud {
namespace {

constexpr int kSetCount = 1 << 16;

const std::vector<CardSet>& RandomSets(int cards) {
  static std::array<std::vector<CardSet>, 8> cache;
  std::vector<CardSet>& sets = cache[static_cast<size_t>(cards)];
  if (sets.empty()) {
    std::mt19937_64 rng(0x5EED0000u + static_cast<uint64_t>(cards));
    std::array<int, kDeckSize> deck{};
    for (int i = 0; i < kDeckSize; ++i) deck[i] = i;
    sets.reserve(kSetCount);
    for (int n = 0; n < kSetCount; ++n) {
      CardSet s;
      for (int i = 0; i < cards; ++i) {
        std::uniform_int_distribution<int> pick(i, kDeckSize - 1);
        std::swap(deck[i], deck[pick(rng)]);
        s.Add(Card::FromIndex(deck[i]));
      }
      sets.push_back(s);
    }
  }
  return sets;
}

template <typename Eval>
void RunRandom(benchmark::State& state, int cards, Eval eval) {
  const std::vector<CardSet>& sets = RandomSets(cards);
  uint64_t sum = 0;
  for (auto _ : state) {
    for (const CardSet s : sets) sum += eval(s);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * kSetCount);
}

void BM_EvaluateHigh7Random(benchmark::State& state) {
  RunRandom(state, 7, [](CardSet s) { return EvaluateHigh(s); });
}
BENCHMARK(BM_EvaluateHigh7Random);

void BM_EvaluateHigh5Random(benchmark::State& state) {
  RunRandom(state, 5, [](CardSet s) { return EvaluateHigh(s); });
}
BENCHMARK(BM_EvaluateHigh5Random);

void BM_EvaluateLow7Random(benchmark::State& state) {
  RunRandom(state, 7, [](CardSet s) { return EvaluateLow(s); });
}
BENCHMARK(BM_EvaluateLow7Random);

// Razz showdown: the low plus the eight-or-better check a hi-lo game makes.
void BM_RazzLow7Random(benchmark::State& state) {
  RunRandom(state, 7, [](CardSet s) {
    const LowValue v = EvaluateLow(s);
    return static_cast<uint64_t>(v) + (QualifiesEightOrBetter(v) ? 1u : 0u);
  });
}
BENCHMARK(BM_RazzLow7Random);

void BM_HighBoardValue4Random(benchmark::State& state) {
  RunRandom(state, 4, [](CardSet s) { return HighBoardValue(s); });
}
BENCHMARK(BM_HighBoardValue4Random);

void BM_RazzBoardValue4Random(benchmark::State& state) {
  RunRandom(state, 4, [](CardSet s) { return RazzBoardValue(s); });
}
BENCHMARK(BM_RazzBoardValue4Random);

// Up-card boards of 1..4 cards (3rd to 6th street) for "who acts first".
void BM_HighBoardValueRandom(benchmark::State& state) {
  RunRandom(state, static_cast<int>(state.range(0)), [](CardSet s) { return HighBoardValue(s); });
}
BENCHMARK(BM_HighBoardValueRandom)->DenseRange(1, 4);

void BM_RazzBoardValueRandom(benchmark::State& state) {
  RunRandom(state, static_cast<int>(state.range(0)), [](CardSet s) { return RazzBoardValue(s); });
}
BENCHMARK(BM_RazzBoardValueRandom)->DenseRange(1, 4);

// Every seven-card hand once per iteration (133,784,560 evaluations), built
// incrementally the way an enumerator would.
template <typename Eval>
void RunEnumerate(benchmark::State& state, Eval eval) {
  std::array<uint64_t, kDeckSize> bit{};
  for (int i = 0; i < kDeckSize; ++i) bit[i] = Card::FromIndex(i).bit();
  uint64_t sum = 0;
  int64_t hands = 0;
  for (auto _ : state) {
    for (int a = 0; a < kDeckSize; ++a)
      for (int b = a + 1; b < kDeckSize; ++b)
        for (int c = b + 1; c < kDeckSize; ++c)
          for (int d = c + 1; d < kDeckSize; ++d)
            for (int e = d + 1; e < kDeckSize; ++e) {
              const uint64_t five = bit[a] | bit[b] | bit[c] | bit[d] | bit[e];
              for (int f = e + 1; f < kDeckSize; ++f) {
                const uint64_t six = five | bit[f];
                for (int g = f + 1; g < kDeckSize; ++g) {
                  sum += eval(CardSet(six | bit[g]));
                  ++hands;
                }
              }
            }
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(hands);
}

void BM_EvaluateLow7Enumerate(benchmark::State& state) {
  RunEnumerate(state, [](CardSet s) { return EvaluateLow(s); });
}
BENCHMARK(BM_EvaluateLow7Enumerate)->Unit(benchmark::kMillisecond);

void BM_RazzLow7Enumerate(benchmark::State& state) {
  RunEnumerate(state, [](CardSet s) {
    const LowValue v = EvaluateLow(s);
    return static_cast<uint64_t>(v) + (QualifiesEightOrBetter(v) ? 1u : 0u);
  });
}
BENCHMARK(BM_RazzLow7Enumerate)->Unit(benchmark::kMillisecond);

void BM_EvaluateHigh7Enumerate(benchmark::State& state) {
  RunEnumerate(state, [](CardSet s) { return EvaluateHigh(s); });
}
BENCHMARK(BM_EvaluateHigh7Enumerate)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace stud
