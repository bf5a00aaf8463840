#include "engine/hand_key.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <iterator>
#include <numeric>
#include <vector>

#include "engine/hand_eval.h"

// Table construction for engine/hand_key.h.
//
// Every rank multiset of 5, 6 and 7 cards (73,775 of them) is turned into a
// sample hand with its suits dealt round-robin (at most two cards of a suit
// in seven, so never a flush), evaluated once by the table-free evaluators,
// and its rank key placed by a row-displacement perfect hash: row = the key's
// low kRowShift bits, column = the rest; rows are placed fullest first at the
// smallest displacement where all their columns land on free slots, and the
// lookup is column + row_offset[row]. Every row gets an offset and the tables
// end a full row (of the whole key range, any number of cards up to 52) past
// the last displacement, so no key can index outside them. The 32-bit value
// tables are then recoded as 16-bit ranks: each distinct value's place in
// sorted order. Building takes a few tens of milliseconds.
namespace stud {
namespace hand_key_internal {
namespace {

struct Sample {
  uint32_t rank_key;
  CardSet cards;
};

// Every rank multiset of 5..7 cards as a flush-free sample hand.
std::vector<Sample> Samples() {
  std::vector<Sample> out;
  std::array<int, kNumRanks> count{};
  const auto recurse = [&](const auto& self, int rank, int cards) -> void {
    if (rank == kNumRanks) {
      if (cards < 5) return;
      Sample s{0, CardSet()};
      int dealt = 0;
      for (int r = 0; r < kNumRanks; ++r) {
        for (int i = 0; i < count[r]; ++i) {
          s.rank_key += kRankMultipliers[r];
          s.cards.Add(Card(static_cast<Rank>(r), static_cast<Suit>(dealt++ % kNumSuits)));
        }
      }
      out.push_back(s);
      return;
    }
    for (int n = 0; n <= 4 && cards + n <= 7; ++n) {
      count[rank] = n;
      self(self, rank + 1, cards + n);
    }
    count[rank] = 0;
  };
  recurse(recurse, 0, 0);
  return out;
}

void Build(Tables& b) {
  const std::vector<Sample> samples = Samples();

  // Row = the low kRowShift bits of the key, column = the rest, up to the
  // largest key of any card count (four of every rank).
  uint64_t max_key = 0;
  for (uint32_t m : kRankMultipliers) max_key += 4 * uint64_t{m};
  const uint32_t row_size = static_cast<uint32_t>(max_key >> kRowShift) + 1;
  std::vector<std::vector<uint32_t>> columns(kRows);
  for (const Sample& s : samples) columns[s.rank_key & kRowMask].push_back(s.rank_key >> kRowShift);

  std::vector<size_t> order(kRows);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t c) { return columns[a].size() > columns[c].size(); });
  // First fit over a bitmap of used slots, 64 displacements at a time: the
  // used bits under each of the row's columns are ORed for a window of 64
  // displacements, and any zero bit left is a displacement that fits.
  std::vector<uint64_t> used((samples.size() * 2 + row_size) / 64 + 2, 0);
  const auto window = [&](uint32_t p) {  // used bits p .. p+63
    const uint32_t w = p >> 6, shift = p & 63;
    return shift == 0 ? used[w] : (used[w] >> shift) | (used[w + 1] << (64 - shift));
  };
  std::fill(std::begin(b.row_offset), std::end(b.row_offset), 0u);  // empty rows: displacement 0
  uint32_t end = 0;         // one past the last displacement
  uint32_t first_free = 0;  // every slot below is used
  for (const size_t row : order) {
    std::vector<uint32_t>& cols = columns[row];
    if (cols.empty()) break;
    std::sort(cols.begin(), cols.end());
    uint32_t d = first_free > cols[0] ? first_free - cols[0] : 0;
    for (;; d += 64) {
      if ((d + row_size) / 64 + 2 >= used.size()) used.resize(used.size() * 2, 0);
      uint64_t clash = 0;
      for (size_t i = 0; i < cols.size() && clash != ~uint64_t{0}; ++i)
        clash |= window(d + cols[i]);
      if (clash != ~uint64_t{0}) {
        d += static_cast<uint32_t>(std::countr_one(clash));
        break;
      }
    }
    for (uint32_t c : cols) used[(d + c) >> 6] |= uint64_t{1} << ((d + c) & 63);
    while ((used[first_free >> 6] >> (first_free & 63)) & 1u) ++first_free;
    b.row_offset[row] = d;
    end = std::max(end, d + 1);
  }

  // A full row past the last displacement keeps every key of any card count
  // inside the tables. The packing is deterministic, so this never fails
  // unless the constants change (the tests would then fail at once).
  if (size_t{end} + row_size > kSlots) __builtin_trap();
  std::fill(std::begin(b.high_value_by_index), std::end(b.high_value_by_index), 0u);
  std::fill(std::begin(b.low_value_by_index), std::end(b.low_value_by_index), 0u);
  for (const Sample& s : samples) {
    const uint32_t index = (s.rank_key >> kRowShift) + b.row_offset[s.rank_key & kRowMask];
    b.high_value_by_index[index] = EvaluateHighByMasks(s.cards);
    b.low_value_by_index[index] = EvaluateLowByMasks(s.cards);
  }
  for (uint32_t ranks = 0; ranks < std::size(b.flush_value); ++ranks) {
    const int n = std::popcount(ranks);
    b.flush_value[ranks] = n >= 5 && n <= 7 ? EvaluateHighByMasks(CardSet(ranks)) : 0;  // all clubs
  }

  // The ranks: every distinct value of a real hand by its place in sorted
  // order. Holes and impossible flush masks hold 0 and get rank 0 (never
  // read for a hand of 5..7 cards).
  std::vector<uint32_t> highs, lows;
  for (const Sample& s : samples) {
    const uint32_t index = (s.rank_key >> kRowShift) + b.row_offset[s.rank_key & kRowMask];
    highs.push_back(b.high_value_by_index[index]);
    lows.push_back(b.low_value_by_index[index]);
  }
  for (uint32_t ranks = 0; ranks < std::size(b.flush_value); ++ranks) {
    const int n = std::popcount(ranks);
    if (n >= 5 && n <= 7) highs.push_back(b.flush_value[ranks]);
  }
  for (std::vector<uint32_t>* v : {&highs, &lows}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  if (highs.size() != kHighRanks || lows.size() > kMaxLowRanks) __builtin_trap();
  const auto rank_of = [](const std::vector<uint32_t>& sorted, uint32_t value) {
    return static_cast<uint16_t>(std::lower_bound(sorted.begin(), sorted.end(), value) -
                                 sorted.begin());
  };
  std::copy(highs.begin(), highs.end(), b.high_value);
  std::fill(std::begin(b.low_value), std::end(b.low_value), 0u);
  std::copy(lows.begin(), lows.end(), b.low_value);
  for (size_t i = 0; i < kSlots; ++i) {
    b.high[i] = rank_of(highs, b.high_value_by_index[i]);
    b.low[i] = rank_of(lows, b.low_value_by_index[i]);
  }
  for (size_t i = 0; i < std::size(b.flush); ++i) b.flush[i] = rank_of(highs, b.flush_value[i]);
}

}  // namespace

std::atomic<const Tables*> g_tables{nullptr};

const Tables* BuildTables() {
  // Never freed: evaluations may run until the process ends.
  static const Tables* const built = [] {
    Tables* t = new Tables;
    Build(*t);
    g_tables.store(t, std::memory_order_release);
    return t;
  }();
  return built;
}

}  // namespace hand_key_internal
}  // namespace stud
