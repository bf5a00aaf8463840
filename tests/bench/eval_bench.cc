// Hand evaluator throughput. Random benchmarks evaluate a fixed array of 1<<16
// card sets drawn from a fixed seed; items_per_second is evaluations/second.
// EvaluateHigh/EvaluateLow(CardSet) go through the incremental key
// (engine/hand_key.h); BM_Key* time the key evaluator itself (values and
// compact ranks; prepared keys, Cards and raw card indices) and
// BM_*ByMasks the table-free evaluators it replaced at showdown.
#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "benchmark/benchmark.h"
#include "engine/card.h"
#include "engine/hand_eval.h"
#include "engine/hand_key.h"

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

// The incremental-key evaluator (engine/hand_key.h) on the same hands: keys
// prepared before timing, and straight from 7 cards (building the key is timed).
const std::vector<HandKey>& RandomKeys(int cards) {
  static std::array<std::vector<HandKey>, 8> cache;
  std::vector<HandKey>& keys = cache[static_cast<size_t>(cards)];
  if (keys.empty()) {
    for (const CardSet s : RandomSets(cards)) keys.emplace_back(s);
  }
  return keys;
}

const std::vector<std::array<Card, 7>>& RandomCardArrays() {
  static std::vector<std::array<Card, 7>> arrays;
  if (arrays.empty()) {
    for (const CardSet s : RandomSets(7)) {
      std::array<Card, 7> a{};
      const std::vector<Card> cards = s.Cards();
      std::copy(cards.begin(), cards.end(), a.begin());
      arrays.push_back(a);
    }
  }
  return arrays;
}

template <typename Eval>
void RunKeys(benchmark::State& state, int cards, Eval eval) {
  const std::vector<HandKey>& keys = RandomKeys(cards);
  const KeyEvaluator evaluator;
  uint64_t sum = 0;
  for (auto _ : state) {
    for (const HandKey& k : keys) sum += eval(evaluator, k);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * kSetCount);
}

void BM_KeyHigh7Random(benchmark::State& state) {
  RunKeys(state, 7, [](const KeyEvaluator& e, HandKey k) { return e.High(k); });
}
BENCHMARK(BM_KeyHigh7Random);

void BM_KeyHigh5Random(benchmark::State& state) {
  RunKeys(state, 5, [](const KeyEvaluator& e, HandKey k) { return e.High(k); });
}
BENCHMARK(BM_KeyHigh5Random);

void BM_KeyLow7Random(benchmark::State& state) {
  RunKeys(state, 7, [](const KeyEvaluator& e, HandKey k) { return e.Low(k); });
}
BENCHMARK(BM_KeyLow7Random);

// The compact rank (16-bit tables; the same order as the values).
void BM_KeyHighRank7Random(benchmark::State& state) {
  RunKeys(state, 7, [](const KeyEvaluator& e, HandKey k) { return e.HighRankOf(k); });
}
BENCHMARK(BM_KeyHighRank7Random);

void BM_KeyLowRank7Random(benchmark::State& state) {
  RunKeys(state, 7, [](const KeyEvaluator& e, HandKey k) { return e.LowRankOf(k); });
}
BENCHMARK(BM_KeyLowRank7Random);

// The free function: fetches the tables on every call.
void BM_KeyHigh7RandomFreeFunction(benchmark::State& state) {
  RunKeys(state, 7, [](const KeyEvaluator&, HandKey k) { return EvaluateHigh(k); });
}
BENCHMARK(BM_KeyHigh7RandomFreeFunction);

template <typename Eval>
void RunCardArrays(benchmark::State& state, Eval eval) {
  const std::vector<std::array<Card, 7>>& arrays = RandomCardArrays();
  const KeyEvaluator evaluator;
  uint64_t sum = 0;
  for (auto _ : state) {
    for (const std::array<Card, 7>& a : arrays) sum += eval(evaluator, a);
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * kSetCount);
}

void BM_KeyHigh7FromCards(benchmark::State& state) {
  RunCardArrays(state,
                [](const KeyEvaluator& e, const std::array<Card, 7>& a) { return e.High(a); });
}
BENCHMARK(BM_KeyHigh7FromCards);

void BM_KeyLow7FromCards(benchmark::State& state) {
  RunCardArrays(state,
                [](const KeyEvaluator& e, const std::array<Card, 7>& a) { return e.Low(a); });
}
BENCHMARK(BM_KeyLow7FromCards);

// From 7 raw card indices (uint8_t[7], 4 * rank + suit): building the key is timed.
template <typename Eval>
void RunIndices(benchmark::State& state, Eval eval) {
  static const std::vector<std::array<uint8_t, 7>> indices = [] {
    std::vector<std::array<uint8_t, 7>> out;
    for (const std::array<Card, 7>& a : RandomCardArrays()) {
      std::array<uint8_t, 7> idx{};
      for (size_t i = 0; i < 7; ++i) idx[i] = static_cast<uint8_t>(a[i].index());
      out.push_back(idx);
    }
    return out;
  }();
  const KeyEvaluator evaluator;
  uint64_t sum = 0;
  for (auto _ : state) {
    for (const std::array<uint8_t, 7>& a : indices) sum += eval(evaluator, a.data());
    benchmark::DoNotOptimize(sum);
  }
  state.SetItemsProcessed(state.iterations() * kSetCount);
}

void BM_KeyHigh7FromIndices(benchmark::State& state) {
  RunIndices(state, [](const KeyEvaluator& e, const uint8_t* idx) { return e.High(idx, 7); });
}
BENCHMARK(BM_KeyHigh7FromIndices);

void BM_KeyHighRank7FromIndices(benchmark::State& state) {
  RunIndices(state, [](const KeyEvaluator& e, const uint8_t* idx) { return e.HighRankOf(idx, 7); });
}
BENCHMARK(BM_KeyHighRank7FromIndices);

void BM_KeyLow7FromIndices(benchmark::State& state) {
  RunIndices(state, [](const KeyEvaluator& e, const uint8_t* idx) { return e.Low(idx, 7); });
}
BENCHMARK(BM_KeyLow7FromIndices);

// The table-free evaluators EvaluateHigh/EvaluateLow(CardSet) used before the keys.
void BM_EvaluateHighByMasks7Random(benchmark::State& state) {
  RunRandom(state, 7, [](CardSet s) { return EvaluateHighByMasks(s); });
}
BENCHMARK(BM_EvaluateHighByMasks7Random);

void BM_EvaluateLowByMasks7Random(benchmark::State& state) {
  RunRandom(state, 7, [](CardSet s) { return EvaluateLowByMasks(s); });
}
BENCHMARK(BM_EvaluateLowByMasks7Random);

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
