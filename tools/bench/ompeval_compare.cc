// Side-by-side 7-card evaluator comparison: our evaluators against OMPEval's
// HandEvaluator, on the SAME fixed array of random 7-card hands, in the same
// process and run. Ours are the incremental-key evaluator (engine/hand_key.h:
// EvaluateHigh/EvaluateLow of a HandKey or of 7 cards) and, for before/after,
// the table-free CardSet evaluator (EvaluateHighByMasks/EvaluateLowByMasks). OMPEval is a comparison only: it is
// compiled from a temporary checkout by tools/bench/compare_ompeval.sh and
// none of its code is part of the project.
//
// Each evaluator gets its own native input, prepared before timing (our
// HandKey or CardSet, OMPEval's omp::Hand, 16 bytes each but the CardSet), as
// each library's own benchmark does; a second set of figures starts from 7
// card indices, so it times building the key too. Rounds
// alternate between the evaluators and the best round of each is reported, so
// both see the same machine load.
//
// Before timing, the program checks that both evaluators order the hands the
// same way: it sorts the whole array by our value and checks that OMPEval's
// values never decrease and tie exactly where ours tie (for both of our high
// evaluators), and that the key evaluators equal the CardSet ones, low too.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <random>
#include <vector>

#include "engine/card.h"
#include "engine/hand_eval.h"
#include "engine/hand_key.h"
#include "omp/HandEvaluator.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Hand7 {
  uint8_t idx[7];  // card indices 0..51 = 4 * rank + suit, rank 0 = deuce (both libraries)
};

std::vector<Hand7> RandomHands(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Hand7> hands(n);
  std::array<uint8_t, 52> deck{};
  for (int i = 0; i < 52; ++i) deck[i] = static_cast<uint8_t>(i);
  for (Hand7& h : hands) {
    for (int i = 0; i < 7; ++i) {
      std::uniform_int_distribution<int> pick(i, 51);
      std::swap(deck[i], deck[pick(rng)]);
      h.idx[i] = deck[i];
    }
  }
  return hands;
}

template <typename T>
inline void Keep(T& v) {
  asm volatile("" : "+r"(v));
}

// Evaluations per second of the best of `rounds` rounds of about `round_ms` each.
template <typename Body>
double BestRate(size_t per_pass, Body body, int round_ms, int* out_passes) {
  double seconds = 0;
  int passes = 0;
  const auto start = Clock::now();
  do {
    body();
    ++passes;
    seconds = std::chrono::duration<double>(Clock::now() - start).count();
  } while (seconds * 1000 < round_ms);
  *out_passes = passes;
  return static_cast<double>(per_pass) * passes / seconds;
}

// Sorts the hands by `ours` and counts the places where OMPEval's values do not
// follow the same order and ties, or the category differs.
size_t Disagreements(const std::vector<uint32_t>& ours, const std::vector<uint32_t>& theirs) {
  const size_t n = ours.size();
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return ours[a] < ours[b]; });
  size_t bad = 0;
  for (size_t k = 0; k < n; ++k) {
    const size_t i = order[k];
    if (static_cast<uint32_t>(stud::CategoryOf(ours[i])) + 1 != theirs[i] / 4096) ++bad;
    if (k == 0) continue;
    const size_t j = order[k - 1];
    const bool ours_tie = ours[i] == ours[j];
    if (ours_tie ? theirs[i] != theirs[j] : theirs[i] <= theirs[j]) ++bad;
  }
  return bad;
}

struct Mode {
  const char* label;
  std::function<void()> body;
  double best = 0;
};

}  // namespace

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : (1u << 16);
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 5;
  const int round_ms = argc > 3 ? std::atoi(argv[3]) : 400;

  const std::vector<Hand7> hands = RandomHands(n, 0x5EED0007u);
  omp::HandEvaluator omp_eval;

  std::vector<stud::CardSet> sets(n);
  std::vector<stud::HandKey> keys(n);
  std::vector<omp::Hand> theirs(n);
  for (size_t i = 0; i < n; ++i) {
    omp::Hand h = omp::Hand::empty();
    for (uint8_t c : hands[i].idx) {
      keys[i].Add(stud::Card::FromIndex(c));
      h += omp::Hand(c);
    }
    sets[i] = keys[i].cards();
    theirs[i] = h;
  }

  // Agreement: ordering against OMPEval, and the key evaluators against the
  // CardSet ones (prepared keys and card indices alike).
  {
    std::vector<uint32_t> by_masks(n), by_key(n), omp_values(n);
    size_t key_mismatches = 0;
    for (size_t i = 0; i < n; ++i) {
      by_masks[i] = stud::EvaluateHighByMasks(sets[i]);
      by_key[i] = stud::EvaluateHigh(keys[i]);
      omp_values[i] = omp_eval.evaluate(theirs[i]);
      std::array<stud::Card, 7> cards;
      for (int c = 0; c < 7; ++c) cards[c] = stud::Card::FromIndex(hands[i].idx[c]);
      if (by_key[i] != by_masks[i] || stud::EvaluateHigh(cards) != by_masks[i]) ++key_mismatches;
      const stud::LowValue low = stud::EvaluateLowByMasks(sets[i]);
      if (stud::EvaluateLow(keys[i]) != low || stud::EvaluateLow(cards) != low) ++key_mismatches;
    }
    const size_t bad_masks = Disagreements(by_masks, omp_values);
    const size_t bad_key = Disagreements(by_key, omp_values);
    std::printf("agreement: %zu hands sorted by our value, disagreements with OMPEval (order, ties, "
                "category): %zu HandKey, %zu CardSet; HandKey vs CardSet values (high and low): "
                "%zu mismatches\n", n, bad_key, bad_masks, key_mismatches);
    if (bad_masks != 0 || bad_key != 0 || key_mismatches != 0) return 1;
  }

  const auto cards_of = [](const Hand7& h) {
    std::array<stud::Card, 7> cards;
    for (int c = 0; c < 7; ++c) cards[c] = stud::Card::FromIndex(h.idx[c]);
    return cards;
  };
  const stud::KeyEvaluator eval;  // like OMPEval's evaluator object: tables at hand
  std::vector<Mode> modes = {
      {"OMPEval evaluate (omp::Hand prepared)", [&] {
         uint64_t sum = 0;
         for (const omp::Hand& h : theirs) sum += omp_eval.evaluate(h);
         Keep(sum);
       }},
      {"ours KeyEvaluator::High (HandKey prepared)", [&] {
         uint64_t sum = 0;
         for (const stud::HandKey k : keys) sum += eval.High(k);
         Keep(sum);
       }},
      {"ours KeyEvaluator::Low (HandKey prepared)", [&] {
         uint64_t sum = 0;
         for (const stud::HandKey k : keys) sum += eval.Low(k);
         Keep(sum);
       }},
      {"OMPEval evaluate from 7 card indices", [&] {
         uint64_t sum = 0;
         for (const Hand7& h : hands) {
           omp::Hand oh = omp::Hand::empty();
           for (uint8_t c : h.idx) oh += omp::Hand(c);
           sum += omp_eval.evaluate(oh);
         }
         Keep(sum);
       }},
      {"ours KeyEvaluator::High from 7 card indices", [&] {
         uint64_t sum = 0;
         for (const Hand7& h : hands) sum += eval.High(cards_of(h));
         Keep(sum);
       }},
      {"ours KeyEvaluator::Low from 7 card indices", [&] {
         uint64_t sum = 0;
         for (const Hand7& h : hands) sum += eval.Low(cards_of(h));
         Keep(sum);
       }},
      {"ours EvaluateHigh(HandKey) (free function)", [&] {
         uint64_t sum = 0;
         for (const stud::HandKey k : keys) sum += stud::EvaluateHigh(k);
         Keep(sum);
       }},
      {"before: EvaluateHighByMasks (CardSet prepared)", [&] {
         uint64_t sum = 0;
         for (const stud::CardSet s : sets) sum += stud::EvaluateHighByMasks(s);
         Keep(sum);
       }},
      {"before: EvaluateLowByMasks (CardSet prepared)", [&] {
         uint64_t sum = 0;
         for (const stud::CardSet s : sets) sum += stud::EvaluateLowByMasks(s);
         Keep(sum);
       }},
      {"before: EvaluateHighByMasks from 7 card indices", [&] {
         uint64_t sum = 0;
         for (const Hand7& h : hands) {
           uint64_t m = 0;
           for (uint8_t c : h.idx) m |= stud::Card::FromIndex(c).bit();
           sum += stud::EvaluateHighByMasks(stud::CardSet(m));
         }
         Keep(sum);
       }},
      {"EvaluateHigh(CardSet) (CardSet prepared)", [&] {
         uint64_t sum = 0;
         for (const stud::CardSet s : sets) sum += stud::EvaluateHigh(s);
         Keep(sum);
       }},
      {"EvaluateLow(CardSet) (CardSet prepared)", [&] {
         uint64_t sum = 0;
         for (const stud::CardSet s : sets) sum += stud::EvaluateLow(s);
         Keep(sum);
       }},
  };
  int passes = 0;
  for (int r = 0; r < rounds; ++r) {
    for (Mode& m : modes) m.best = std::max(m.best, BestRate(n, m.body, round_ms, &passes));
  }

  std::printf("hands: %zu random 7-card hands (fixed seed), best of %d alternating rounds of %d ms\n",
              n, rounds, round_ms);
  for (const Mode& m : modes) std::printf("%-48s %8.1f M eval/s\n", m.label, m.best / 1e6);
  const auto rate = [&](int i) { return modes[static_cast<size_t>(i)].best; };
  std::printf("ratio high HandKey / OMPEval (prepared):           %.2f\n", rate(1) / rate(0));
  std::printf("ratio high ours / OMPEval (from 7 card indices):   %.2f\n", rate(4) / rate(3));
  std::printf("ratio low HandKey / OMPEval high (prepared):       %.2f\n", rate(2) / rate(0));
  std::printf("ratio low ours / OMPEval high (from card indices): %.2f\n", rate(5) / rate(3));
  std::printf("ratio high EvaluateHigh(HandKey) free function / OMPEval (prepared): %.2f\n",
              rate(6) / rate(0));
  std::printf("before (CardSet, no tables) / OMPEval: high %.2f prepared, %.2f from indices; "
              "low %.2f prepared\n", rate(7) / rate(0), rate(9) / rate(3), rate(8) / rate(0));
  return 0;
}
