// Incremental hand keys: the fast path of hand evaluation.
//
// A HandKey is built card by card (`k.Add(card)`, `a + b`) and evaluated with
// EvaluateHigh(HandKey) / EvaluateLow(HandKey), which return exactly the
// HighValue / LowValue of the CardSet evaluators in hand_eval.h (same
// numbers, same order) for 5..7 distinct cards [STUD-GAME-3, STUD-GAME-4,
// STUD-HILO-2, STUD-HILO-5]. Other card counts give meaningless values but
// never read outside the tables. Adding a card twice is not allowed.
//
// How it works. Each card contributes a 64-bit key (kCardKeys):
//   bits  0..31  rank key: the rank's multiplier (kRankMultipliers). Any two
//                different rank multisets of 5, 6 or 7 cards (at most four of a
//                rank) have different sums, so the sum identifies the ranks
//                with their multiplicities;
//   bits 32..47  four 4-bit suit counters, starting at 3 in an empty key, so
//                bit 3 of a counter is set exactly when its suit holds 5..7
//                cards: the flush test is one AND.
// A HandKey also keeps the CardSet mask (4 x 16-bit suit lanes), read only
// when there is a flush. Evaluation is then:
//   flush:     flush[rank mask of the flush suit] (8,192 entries; within
//              seven cards a flush excludes quads and full houses);
//   otherwise: a perfect hash of the rank key into one table of high and one
//              of low results (row displacement with the row taken from the
//              LOW 13 bits of the key, which spread the keys evenly over 8,192
//              rows of about nine: index = (key >> 13) + row_offset[key &
//              8191]; 83,205 slots for 73,775 keys). Lows ignore suits, so
//              they never branch.
// Results come two ways, each with its own tables (same index): the engine's
// 32-bit HighValue / LowValue, and a 16-bit HighRank / LowRank (the value's
// place among all distinct values, so ranks compare as the values do; half
// the table bytes). ToHighValue / ToLowValue decode a rank (7,462 high ranks).
// Input comes as a HandKey, as Cards or as raw card indices (Card::index()).
// Hot loops hold a KeyEvaluator (the tables' address); the free functions
// EvaluateHigh/EvaluateLow(HandKey) fetch it on each call (one atomic load).
// The tables are built once, thread-safely, at first use (hand_key.cc) from
// the table-free evaluators EvaluateHighByMasks / EvaluateLowByMasks, so they
// are correct by construction; tests/engine/hand_key_eval_test.cc checks every
// 5-, 6- and 7-card hand against those.
#ifndef STUD_ENGINE_HAND_KEY_H_
#define STUD_ENGINE_HAND_KEY_H_

#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "absl/types/span.h"
#include "engine/card.h"
#include "engine/hand_eval.h"

namespace stud {

// Found by tools/bench/find_rank_keys.cc (a greedy search: each multiplier is
// the smallest that keeps all rank multisets seen so far apart). The largest
// key of seven cards is 15,783,829 (< 2^24).
inline constexpr std::array<uint32_t, kNumRanks> kRankMultipliers = {
    1, 4, 16, 67, 295, 1334, 5734, 23800, 60883, 208450, 509982, 1304151, 2967844};

// Compact results: dense indexes of the distinct values in increasing order,
// so HighRank order is HighValue order (and LowRank order LowValue order).
using HighRank = uint16_t;
using LowRank = uint16_t;

namespace hand_key_internal {

inline constexpr int kSuitShift = 32;
inline constexpr uint64_t kEmptyKey = uint64_t{0x3333} << kSuitShift;  // counters start at 3
inline constexpr uint64_t kFlushFlags = uint64_t{0x8888} << kSuitShift;
inline constexpr int kRowShift = 13;
inline constexpr uint32_t kRowMask = (uint32_t{1} << kRowShift) - 1;

inline constexpr std::array<uint64_t, kDeckSize> kCardKeys = [] {
  std::array<uint64_t, kDeckSize> k{};
  for (int i = 0; i < kDeckSize; ++i) {
    const Card c = Card::FromIndex(i);
    k[i] = kRankMultipliers[c.rank_value()] +
           (uint64_t{1} << (kSuitShift + 4 * static_cast<int>(c.suit())));
  }
  return k;
}();

// The card's CardSet bit by its index.
inline constexpr std::array<uint64_t, kDeckSize> kCardBits = [] {
  std::array<uint64_t, kDeckSize> b{};
  for (int i = 0; i < kDeckSize; ++i) b[i] = Card::FromIndex(i).bit();
  return b;
}();

// kCardKeys by the card's bit position in a CardSet mask (16 * suit + rank).
inline constexpr std::array<uint64_t, 64> kBitKeys = [] {
  std::array<uint64_t, 64> k{};
  for (int i = 0; i < kDeckSize; ++i) k[std::countr_zero(Card::FromIndex(i).bit())] = kCardKeys[i];
  return k;
}();

inline constexpr size_t kRows = size_t{1} << kRowShift;
// Slots of the perfect hash; the build checks that its packing fits (it uses
// 83,205: 73,775 keys, the holes between rows, and one row's width of padding).
inline constexpr size_t kSlots = 86016;

// Distinct high values of 5..7 cards (best five of them), and an upper bound
// on the distinct lows (5-card ace-to-five rank multisets: C(17,5) - 13).
inline constexpr size_t kHighRanks = 7462;
inline constexpr size_t kMaxLowRanks = 6175;

struct Tables {
  uint32_t row_offset[kRows];  // index = (rank key >> kRowShift) + row_offset[rank key & kRowMask]
  alignas(
      4096) uint16_t flush[1 << kNumRanks];  // HighRank by the 13-bit rank mask of the flush suit
  alignas(4096) uint16_t high[kSlots];       // HighRank by index; non-flush hands
  alignas(4096) uint16_t low[kSlots];        // LowRank by index
  alignas(4096) HighValue high_value[kHighRanks];  // HighRank -> HighValue
  alignas(4096) LowValue low_value[kMaxLowRanks];  // LowRank -> LowValue
  alignas(4096) HighValue flush_value[1 << kNumRanks];
  alignas(4096) HighValue high_value_by_index[kSlots];
  alignas(4096) LowValue low_value_by_index[kSlots];
};
// Set once the tables are built; BuildTables builds them (once, thread-safe).
extern std::atomic<const Tables*> g_tables;
const Tables* BuildTables();
inline const Tables* Get() {
  const Tables* t = g_tables.load(std::memory_order_acquire);
  return __builtin_expect(t != nullptr, 1) ? t : BuildTables();
}

// The suit (0..3) whose counter flag is set in `flags` (the lowest one).
inline int FlushSuit(uint64_t flags) { return (__builtin_ctzll(flags) - kSuitShift - 3) >> 2; }
inline uint32_t Index(const Tables* t, uint64_t key) {
  const uint32_t rank_key = static_cast<uint32_t>(key);
  return (rank_key >> kRowShift) + t->row_offset[rank_key & kRowMask];
}

}  // namespace hand_key_internal

class HandKey {
 public:
  constexpr HandKey() = default;  // no cards
  constexpr explicit HandKey(CardSet cards) : mask_(cards.mask()) {
    for (uint64_t m = mask_; m != 0; m &= m - 1)
      key_ += hand_key_internal::kBitKeys[std::countr_zero(m)];
  }

  // `c` must not be in the key yet.
  constexpr void Add(Card c) {
    key_ += hand_key_internal::kCardKeys[c.index()];
    mask_ |= c.bit();
  }
  // The union of two keys with no card in common (e.g. hole cards + board).
  constexpr HandKey operator+(HandKey o) const {
    HandKey k;
    k.key_ = key_ + o.key_ - hand_key_internal::kEmptyKey;
    k.mask_ = mask_ | o.mask_;
    return k;
  }

  constexpr CardSet cards() const { return CardSet(mask_); }
  // Rank key and suit counters (see the file comment).
  constexpr uint64_t key() const { return key_; }

 private:
  uint64_t key_ = hand_key_internal::kEmptyKey;
  uint64_t mask_ = 0;
};

// The evaluator: a handle on the tables (building them if this is the first
// use anywhere; afterwards construction is one atomic load). Loops should
// construct one and call it, so the tables' address stays in a register.
//
// Three ways in, all for 5..7 distinct cards:
//   * a HandKey (built incrementally, or from a CardSet);
//   * raw card indices (Card::index(): 4 * rank + suit, rank 0 = deuce),
//     summed straight into a key; only a flush looks at the cards again;
//   * Cards (the same as indices).
// And two kinds of result: HighValue / LowValue (exactly the CardSet
// evaluators' numbers) or the compact HighRank / LowRank (see below), which
// read half as much table and order the same way.
class KeyEvaluator {
 public:
  KeyEvaluator() : t_(hand_key_internal::Get()) {}

  // Same value as EvaluateHigh(key.cards()) / EvaluateLow(key.cards()).
  [[gnu::always_inline]] HighValue High(HandKey key) const {
    namespace in = hand_key_internal;
    if (__builtin_expect((key.key() & in::kFlushFlags) != 0, 0))
      return t_->flush_value[FlushRanks(key)];
    return t_->high_value_by_index[in::Index(t_, key.key())];
  }
  [[gnu::always_inline]] LowValue Low(HandKey key) const {
    return t_->low_value_by_index[hand_key_internal::Index(t_, key.key())];
  }
  // The ranks: HighRankOf(a) < HighRankOf(b) exactly when High(a) < High(b).
  [[gnu::always_inline]] HighRank HighRankOf(HandKey key) const {
    namespace in = hand_key_internal;
    if (__builtin_expect((key.key() & in::kFlushFlags) != 0, 0)) return t_->flush[FlushRanks(key)];
    return t_->high[in::Index(t_, key.key())];
  }
  [[gnu::always_inline]] LowRank LowRankOf(HandKey key) const {
    return t_->low[hand_key_internal::Index(t_, key.key())];
  }

  // From `n` (5..7) card indices, e.g. a uint8_t[7].
  [[gnu::always_inline]] HighValue High(const uint8_t* indices, size_t n) const {
    namespace in = hand_key_internal;
    const uint64_t key = KeyOf(indices, n);
    const uint64_t flags = key & in::kFlushFlags;
    if (__builtin_expect(flags != 0, 0)) return t_->flush_value[FlushRanks(indices, n, flags)];
    return t_->high_value_by_index[in::Index(t_, key)];
  }
  [[gnu::always_inline]] LowValue Low(const uint8_t* indices, size_t n) const {
    return t_->low_value_by_index[hand_key_internal::Index(t_, KeyOf(indices, n))];
  }
  [[gnu::always_inline]] HighRank HighRankOf(const uint8_t* indices, size_t n) const {
    namespace in = hand_key_internal;
    const uint64_t key = KeyOf(indices, n);
    const uint64_t flags = key & in::kFlushFlags;
    if (__builtin_expect(flags != 0, 0)) return t_->flush[FlushRanks(indices, n, flags)];
    return t_->high[in::Index(t_, key)];
  }
  [[gnu::always_inline]] LowRank LowRankOf(const uint8_t* indices, size_t n) const {
    return t_->low[hand_key_internal::Index(t_, KeyOf(indices, n))];
  }

  // From 5..7 Cards (a Card is one byte, its index).
  static_assert(sizeof(Card) == 1 && std::is_trivially_copyable_v<Card>);
  HighValue High(absl::Span<const Card> cards) const {
    return High(reinterpret_cast<const uint8_t*>(cards.data()), cards.size());
  }
  LowValue Low(absl::Span<const Card> cards) const {
    return Low(reinterpret_cast<const uint8_t*>(cards.data()), cards.size());
  }

  // Rank -> value: ToHighValue(HighRankOf(k)) == High(k). `r` must come from
  // this evaluator (0 .. kHighRanks - 1 for high).
  HighValue ToHighValue(HighRank r) const { return t_->high_value[r]; }
  LowValue ToLowValue(LowRank r) const { return t_->low_value[r]; }

 private:
  [[gnu::always_inline]] static uint64_t KeyOf(const uint8_t* indices, size_t n) {
    uint64_t key = hand_key_internal::kEmptyKey;
    for (size_t i = 0; i < n; ++i) key += hand_key_internal::kCardKeys[indices[i]];
    return key;
  }
  // The rank mask of the (only) flush suit of `key`. The flags are taken
  // again from an opaque copy of the key so that the hot path tests them
  // (one TEST) instead of keeping them in a register (MOV + AND).
  static uint32_t FlushRanks(HandKey key) {
    uint64_t k = key.key();
    asm("" : "+r"(k));
    const int suit = hand_key_internal::FlushSuit(k & hand_key_internal::kFlushFlags);
    return key.cards().SuitMask(static_cast<Suit>(suit));
  }
  // The rank mask of the flush suit flagged in `flags`: the cards' CardSet
  // bits ORed together (no branch per card: the suits are random).
  static uint32_t FlushRanks(const uint8_t* indices, size_t n, uint64_t flags) {
    uint64_t mask = 0;
    for (size_t i = 0; i < n; ++i) mask |= hand_key_internal::kCardBits[indices[i]];
    return CardSet(mask).SuitMask(static_cast<Suit>(hand_key_internal::FlushSuit(flags)));
  }

  const hand_key_internal::Tables* t_;
};

// One-off evaluations (each checks that the tables exist).
inline HighValue EvaluateHigh(HandKey key) { return KeyEvaluator().High(key); }
inline LowValue EvaluateLow(HandKey key) { return KeyEvaluator().Low(key); }
inline HighValue EvaluateHigh(absl::Span<const Card> cards) { return KeyEvaluator().High(cards); }
inline LowValue EvaluateLow(absl::Span<const Card> cards) { return KeyEvaluator().Low(cards); }

}  // namespace stud

#endif  // STUD_ENGINE_HAND_KEY_H_
