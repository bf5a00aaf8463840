// Side-by-side 7-card evaluator comparison: our evaluators against OMPEval's
// HandEvaluator, on the SAME fixed array of random 7-card hands, in the same
// process and run. Ours are the incremental-key evaluator (engine/hand_key.h:
// EvaluateHigh/EvaluateLow of a HandKey or of 7 cards) and, for before/after,
// the table-free CardSet evaluator (EvaluateHighByMasks/EvaluateLowByMasks). OMPEval is a
// comparison only: it is compiled from a temporary checkout by tools/bench/compare_ompeval.sh and
// none of its code is part of the project.
//
// Each evaluator gets its own native input, prepared before timing (our
// HandKey or CardSet, OMPEval's omp::Hand, 16 bytes each but the CardSet), as
// each library's own benchmark does; a second set of figures starts from the
// same 7 raw card indices (uint8_t, 4 * rank + suit in both libraries), so it
// times building the key too. Ours come as the 16-bit HighRank / LowRank (the
// like-for-like result: OMPEval also returns a 16-bit comparable rank) and as
// the engine's 32-bit HighValue / LowValue. Rounds alternate between the
// evaluators and the best round of each is reported, so all see the same
// machine load. The timing loops are kept scalar (no-tree-vectorize below):
// GCC 12 otherwise turns the branch-free low loop into emulated SSE gathers,
// which are slower, and leaves the others (with a flush branch) scalar.
//
// Before timing, the program checks that both evaluators order the hands the
// same way: it sorts the whole array by our value and checks that OMPEval's
// values never decrease and tie exactly where ours tie (for both of our high
// evaluators), and that the key evaluators equal the CardSet ones, low too.
#pragma GCC optimize("no-tree-vectorize")
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <random>
#include <string>
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
// `category_value` is our HighValue of each hand (ours may be a HighRank).
size_t Disagreements(const std::vector<uint32_t>& ours, const std::vector<uint32_t>& category_value,
                     const std::vector<uint32_t>& theirs) {
  const size_t n = ours.size();
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return ours[a] < ours[b]; });
  size_t bad = 0;
  for (size_t k = 0; k < n; ++k) {
    const size_t i = order[k];
    if (static_cast<uint32_t>(stud::CategoryOf(category_value[i])) + 1 != theirs[i] / 4096) ++bad;
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
  // Optional: only these modes (comma-separated numbers) besides OMPEval's.
  const std::string only = argc > 4 ? "," + std::string(argv[4]) + "," : "";

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

  const stud::KeyEvaluator eval;  // like OMPEval's evaluator object: tables at hand

  // Agreement: ordering against OMPEval, and the key evaluators (values and
  // ranks, prepared keys, card indices and Cards alike) against the CardSet ones.
  {
    std::vector<uint32_t> by_masks(n), by_key(n), by_rank(n), omp_values(n);
    size_t key_mismatches = 0;
    for (size_t i = 0; i < n; ++i) {
      const uint8_t* idx = hands[i].idx;
      by_masks[i] = stud::EvaluateHighByMasks(sets[i]);
      by_key[i] = stud::EvaluateHigh(keys[i]);
      by_rank[i] = eval.HighRankOf(keys[i]);
      omp_values[i] = omp_eval.evaluate(theirs[i]);
      std::array<stud::Card, 7> cards;
      for (int c = 0; c < 7; ++c) cards[c] = stud::Card::FromIndex(idx[c]);
      if (by_key[i] != by_masks[i] || stud::EvaluateHigh(cards) != by_masks[i] ||
          eval.High(idx, 7) != by_masks[i] || eval.HighRankOf(idx, 7) != by_rank[i] ||
          eval.ToHighValue(by_rank[i]) != by_masks[i]) {
        ++key_mismatches;
      }
      const stud::LowValue low = stud::EvaluateLowByMasks(sets[i]);
      if (stud::EvaluateLow(keys[i]) != low || stud::EvaluateLow(cards) != low ||
          eval.Low(idx, 7) != low || eval.ToLowValue(eval.LowRankOf(keys[i])) != low ||
          eval.LowRankOf(idx, 7) != eval.LowRankOf(keys[i])) {
        ++key_mismatches;
      }
    }
    const size_t bad_masks = Disagreements(by_masks, by_masks, omp_values);
    const size_t bad_key = Disagreements(by_key, by_key, omp_values);
    const size_t bad_rank = Disagreements(by_rank, by_masks, omp_values);
    std::printf(
        "agreement: %zu hands sorted by our value, disagreements with OMPEval (order, ties, "
        "category): %zu HandKey HighValue, %zu HandKey HighRank, %zu CardSet; key evaluator "
        "vs CardSet values (high and low, values and ranks, keys/indices/Cards): "
        "%zu mismatches\n",
        n, bad_key, bad_rank, bad_masks, key_mismatches);
    if (bad_masks != 0 || bad_key != 0 || bad_rank != 0 || key_mismatches != 0) return 1;
  }

  const auto cards_of = [](const Hand7& h) {
    std::array<stud::Card, 7> cards;
    for (int c = 0; c < 7; ++c) cards[c] = stud::Card::FromIndex(h.idx[c]);
    return cards;
  };
  // Each body sums the results so that nothing is optimised away.
#define STUD_LOOP(range, var, expr)            \
  [&] {                                        \
    uint64_t sum = 0;                          \
    for (const auto& var : range) sum += expr; \
    Keep(sum);                                 \
  }
  std::vector<Mode> modes = {
      // Prepared input (0..5).
      {"OMPEval evaluate (omp::Hand prepared)", STUD_LOOP(theirs, h, omp_eval.evaluate(h))},
      {"ours HighRankOf (HandKey prepared)", STUD_LOOP(keys, k, eval.HighRankOf(k))},
      {"ours High -> HighValue (HandKey prepared)", STUD_LOOP(keys, k, eval.High(k))},
      {"ours LowRankOf (HandKey prepared)", STUD_LOOP(keys, k, eval.LowRankOf(k))},
      {"ours Low -> LowValue (HandKey prepared)", STUD_LOOP(keys, k, eval.Low(k))},
      {"ours ToHighValue(HighRankOf) (HandKey prepared)",
       STUD_LOOP(keys, k, eval.ToHighValue(eval.HighRankOf(k)))},
      // From the same 7 card indices (6..11): building the key is timed.
      {"OMPEval evaluate from 7 card indices", STUD_LOOP(hands, h,
                                                         [&] {
                                                           omp::Hand oh = omp::Hand::empty();
                                                           for (uint8_t c : h.idx)
                                                             oh += omp::Hand(c);
                                                           return omp_eval.evaluate(oh);
                                                         }())},
      {"ours HighRankOf(7 indices)", STUD_LOOP(hands, h, eval.HighRankOf(h.idx, 7))},
      {"ours High(7 indices) -> HighValue", STUD_LOOP(hands, h, eval.High(h.idx, 7))},
      {"ours LowRankOf(7 indices)", STUD_LOOP(hands, h, eval.LowRankOf(h.idx, 7))},
      {"ours Low(7 indices) -> LowValue", STUD_LOOP(hands, h, eval.Low(h.idx, 7))},
      {"ours High(7 Cards via Card::FromIndex)", STUD_LOOP(hands, h, eval.High(cards_of(h)))},
      // Others (12..).
      {"ours EvaluateHigh(HandKey) (free function)", STUD_LOOP(keys, k, stud::EvaluateHigh(k))},
      {"before: EvaluateHighByMasks (CardSet prepared)",
       STUD_LOOP(sets, s, stud::EvaluateHighByMasks(s))},
      {"before: EvaluateLowByMasks (CardSet prepared)",
       STUD_LOOP(sets, s, stud::EvaluateLowByMasks(s))},
      {"before: EvaluateHighByMasks from 7 card indices",
       STUD_LOOP(hands, h,
                 [&] {
                   uint64_t m = 0;
                   for (uint8_t c : h.idx) m |= stud::Card::FromIndex(c).bit();
                   return stud::EvaluateHighByMasks(stud::CardSet(m));
                 }())},
      {"EvaluateHigh(CardSet) (CardSet prepared)", STUD_LOOP(sets, s, stud::EvaluateHigh(s))},
      {"EvaluateLow(CardSet) (CardSet prepared)", STUD_LOOP(sets, s, stud::EvaluateLow(s))},
  };
#undef STUD_LOOP
  int passes = 0;
  for (int r = 0; r < rounds; ++r) {
    for (size_t i = 0; i < modes.size(); ++i) {
      if (only.empty() || i == 0 || i == 6 ||
          only.find("," + std::to_string(i) + ",") != std::string::npos) {
        modes[i].best = std::max(modes[i].best, BestRate(n, modes[i].body, round_ms, &passes));
      }
    }
  }

  std::printf(
      "hands: %zu random 7-card hands (fixed seed), best of %d alternating rounds of %d ms\n", n,
      rounds, round_ms);
  for (const Mode& m : modes) std::printf("%-48s %8.1f M eval/s\n", m.label, m.best / 1e6);
  const auto rate = [&](int i) { return modes[static_cast<size_t>(i)].best; };
  std::printf("ratios, ours / OMPEval high (>= 1.00: ours at least as fast):\n");
  std::printf(
      "  prepared:          high HighRank %.2f, high HighValue %.2f (decoded %.2f); "
      "low LowRank %.2f, low LowValue %.2f\n",
      rate(1) / rate(0), rate(2) / rate(0), rate(5) / rate(0), rate(3) / rate(0),
      rate(4) / rate(0));
  std::printf(
      "  from 7 indices:    high HighRank %.2f, high HighValue %.2f (via Cards %.2f); "
      "low LowRank %.2f, low LowValue %.2f\n",
      rate(7) / rate(6), rate(8) / rate(6), rate(11) / rate(6), rate(9) / rate(6),
      rate(10) / rate(6));
  std::printf("  free function EvaluateHigh(HandKey), prepared: %.2f\n", rate(12) / rate(0));
  std::printf(
      "  before (CardSet, no tables): high %.2f prepared, %.2f from indices; low %.2f "
      "prepared\n",
      rate(13) / rate(0), rate(15) / rate(6), rate(14) / rate(0));
  return 0;
}
