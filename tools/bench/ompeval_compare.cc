// Side-by-side 7-card evaluator comparison: our EvaluateHigh/EvaluateLow
// against OMPEval's HandEvaluator, on the SAME fixed array of random 7-card
// hands, in the same process and run. OMPEval is a comparison only: it is
// compiled from a temporary checkout by tools/bench/compare_ompeval.sh and
// none of its code is part of the project.
//
// Each evaluator gets its own native input, prepared before timing (our
// CardSet mask, OMPEval's omp::Hand), as each library's own benchmark does; a
// second pair of figures times the conversion from 7 card indices too. Rounds
// alternate between the evaluators and the best round of each is reported, so
// both see the same machine load.
//
// Before timing, the program checks that both evaluators order the hands the
// same way: it sorts the whole array by our value and checks that OMPEval's
// values never decrease and tie exactly where ours tie.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <vector>

#include "engine/card.h"
#include "engine/hand_eval.h"
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

}  // namespace

int main(int argc, char** argv) {
  const size_t n = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : (1u << 16);
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 5;
  const int round_ms = argc > 3 ? std::atoi(argv[3]) : 400;

  const std::vector<Hand7> hands = RandomHands(n, 0x5EED0007u);
  omp::HandEvaluator omp_eval;

  std::vector<stud::CardSet> ours(n);
  std::vector<omp::Hand> theirs(n);
  for (size_t i = 0; i < n; ++i) {
    stud::CardSet s;
    omp::Hand h = omp::Hand::empty();
    for (uint8_t c : hands[i].idx) {
      s.Add(stud::Card::FromIndex(c));
      h += omp::Hand(c);
    }
    ours[i] = s;
    theirs[i] = h;
  }

  // Agreement on ordering over the whole array (and on the category).
  {
    std::vector<uint32_t> ov(n), tv(n);
    for (size_t i = 0; i < n; ++i) {
      ov[i] = stud::EvaluateHigh(ours[i]);
      tv[i] = omp_eval.evaluate(theirs[i]);
    }
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return ov[a] < ov[b]; });
    size_t bad = 0;
    for (size_t k = 0; k < n; ++k) {
      const size_t i = order[k];
      if (static_cast<uint32_t>(stud::CategoryOf(ov[i])) + 1 != tv[i] / 4096) ++bad;
      if (k == 0) continue;
      const size_t j = order[k - 1];
      const bool ours_tie = ov[i] == ov[j];
      if (ours_tie ? tv[i] != tv[j] : tv[i] <= tv[j]) ++bad;
    }
    std::printf("agreement: %zu hands sorted by our value, %zu disagreements with OMPEval "
                "(order, ties, category)\n", n, bad);
    if (bad != 0) return 1;
  }

  double best_ours = 0, best_theirs = 0, best_low = 0, best_ours_idx = 0, best_theirs_idx = 0;
  int passes = 0;
  for (int r = 0; r < rounds; ++r) {
    best_ours = std::max(best_ours, BestRate(n, [&] {
      uint64_t sum = 0;
      for (const stud::CardSet s : ours) sum += stud::EvaluateHigh(s);
      Keep(sum);
    }, round_ms, &passes));
    best_theirs = std::max(best_theirs, BestRate(n, [&] {
      uint64_t sum = 0;
      for (const omp::Hand& h : theirs) sum += omp_eval.evaluate(h);
      Keep(sum);
    }, round_ms, &passes));
    best_low = std::max(best_low, BestRate(n, [&] {
      uint64_t sum = 0;
      for (const stud::CardSet s : ours) sum += stud::EvaluateLow(s);
      Keep(sum);
    }, round_ms, &passes));
    best_ours_idx = std::max(best_ours_idx, BestRate(n, [&] {
      uint64_t sum = 0;
      for (const Hand7& h : hands) {
        uint64_t m = 0;
        for (uint8_t c : h.idx) m |= stud::Card::FromIndex(c).bit();
        sum += stud::EvaluateHigh(stud::CardSet(m));
      }
      Keep(sum);
    }, round_ms, &passes));
    best_theirs_idx = std::max(best_theirs_idx, BestRate(n, [&] {
      uint64_t sum = 0;
      for (const Hand7& h : hands) {
        omp::Hand oh = omp::Hand::empty();
        for (uint8_t c : h.idx) oh += omp::Hand(c);
        sum += omp_eval.evaluate(oh);
      }
      Keep(sum);
    }, round_ms, &passes));
  }

  std::printf("hands: %zu random 7-card hands (fixed seed), best of %d alternating rounds of %d ms\n",
              n, rounds, round_ms);
  std::printf("%-44s %10.1f M eval/s\n", "ours   EvaluateHigh (CardSet prepared)", best_ours / 1e6);
  std::printf("%-44s %10.1f M eval/s\n", "OMPEval evaluate   (omp::Hand prepared)", best_theirs / 1e6);
  std::printf("%-44s %10.1f M eval/s\n", "ours   EvaluateLow  (CardSet prepared)", best_low / 1e6);
  std::printf("%-44s %10.1f M eval/s\n", "ours   EvaluateHigh from 7 card indices", best_ours_idx / 1e6);
  std::printf("%-44s %10.1f M eval/s\n", "OMPEval evaluate   from 7 card indices", best_theirs_idx / 1e6);
  std::printf("ratio high ours/OMPEval (prepared):     %.2f\n", best_ours / best_theirs);
  std::printf("ratio high ours/OMPEval (from indices): %.2f\n", best_ours_idx / best_theirs_idx);
  std::printf("ratio low ours / OMPEval high:          %.2f\n", best_low / best_theirs);
  return 0;
}
