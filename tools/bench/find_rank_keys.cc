// Finds the 13 rank multipliers of engine/hand_key.h: positive integers m[0..12]
// such that any two different rank multisets (at most four of a rank) of 5, 6
// or 7 cards have different sums  sum(count[r] * m[r]).
//
// Greedy: the multipliers are chosen one rank at a time, each the smallest
// positive value that keeps the multisets built so far apart. Two partial
// multisets whose sizes differ by at most two must already differ, because
// adding the same later cards to both could bring both sizes into 5..7; a new
// multiplier m collides when t * m (t = 1..4 copies more of the new rank on
// one side) equals the difference of two earlier sums, so every such
// difference divisible by t forbids m = difference / t.
//
// Not part of the build (nothing links it):
//   g++ -std=c++20 -O2 -o /tmp/find_rank_keys tools/bench/find_rank_keys.cc && /tmp/find_rank_keys
// It prints the multipliers, the largest 7-card key, and checks the result
// from scratch over every multiset of 5..7 cards.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

constexpr int kRanks = 13;
constexpr int kMaxCards = 7;
constexpr int kMaxOfRank = 4;
constexpr uint64_t kLimit = uint64_t{1} << 27;  // multipliers searched below this

// sums[s]: the sums of every multiset of exactly s cards over the ranks chosen so far.
using Sums = std::array<std::vector<uint64_t>, kMaxCards + 1>;

uint64_t NextMultiplier(const Sums& sums, uint64_t floor) {
  std::vector<bool> forbidden(kLimit, false);
  for (int t = 1; t <= kMaxOfRank; ++t) {
    for (int a = 0; a + t <= kMaxCards; ++a) {
      for (int b = std::max(0, a + t - 2); b <= std::min(kMaxCards, a + t + 2); ++b) {
        for (const uint64_t va : sums[a]) {
          for (const uint64_t vb : sums[b]) {
            if (vb <= va) continue;
            const uint64_t d = vb - va;
            if (d % t == 0 && d / t < kLimit) forbidden[d / t] = true;
          }
        }
      }
    }
  }
  for (uint64_t m = floor; m < kLimit; ++m) {
    if (!forbidden[m]) return m;
  }
  return 0;
}

void AddRank(Sums& sums, uint64_t m) {
  Sums next = sums;
  for (int s = 0; s <= kMaxCards; ++s) {
    for (const uint64_t v : sums[s]) {
      for (int k = 1; k <= kMaxOfRank && s + k <= kMaxCards; ++k) next[s + k].push_back(v + k * m);
    }
  }
  sums = std::move(next);
}

}  // namespace

int main() {
  Sums sums;
  sums[0].push_back(0);
  std::array<uint64_t, kRanks> m{};
  for (int r = 0; r < kRanks; ++r) {
    m[r] = NextMultiplier(sums, 1);
    if (m[r] == 0) {
      std::printf("no multiplier below %llu for rank %d\n", static_cast<unsigned long long>(kLimit),
                  r);
      return 1;
    }
    AddRank(sums, m[r]);
    std::printf("rank %2d: %llu\n", r, static_cast<unsigned long long>(m[r]));
  }
  // Independent check: all sums of 5..7-card multisets are distinct.
  std::vector<uint64_t> all;
  for (int s = 5; s <= kMaxCards; ++s) all.insert(all.end(), sums[s].begin(), sums[s].end());
  std::sort(all.begin(), all.end());
  const bool distinct = std::adjacent_find(all.begin(), all.end()) == all.end();
  std::printf("multisets of 5..7 cards: %zu (5: %zu, 6: %zu, 7: %zu), all sums distinct: %s\n",
              all.size(), sums[5].size(), sums[6].size(), sums[7].size(), distinct ? "yes" : "NO");
  std::printf("largest key of 7 cards: %llu\n", static_cast<unsigned long long>(all.back()));
  std::printf("{");
  for (int r = 0; r < kRanks; ++r)
    std::printf("%llu%s", static_cast<unsigned long long>(m[r]), r + 1 < kRanks ? ", " : "}\n");
  return distinct ? 0 : 1;
}
