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
//   flush:     kFlush[rank mask of the flush suit] (8,192 entries; within
//              seven cards a flush excludes quads and full houses);
//   otherwise: a perfect hash of the rank key into one table of high values
//              and one of low values (row displacement with the row taken
//              from the LOW 13 bits of the key, which spread the keys evenly
//              over 8,192 rows of about nine: index = (key >> 13) +
//              row_offset[key & 8191]; 83,205 slots for 73,775 keys). Lows
//              ignore suits, so they never branch.
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

#include "absl/types/span.h"
#include "engine/card.h"
#include "engine/hand_eval.h"

namespace stud {

// Found by tools/bench/find_rank_keys.cc (a greedy search: each multiplier is
// the smallest that keeps all rank multisets seen so far apart). The largest
// key of seven cards is 15,783,829 (< 2^24).
inline constexpr std::array<uint32_t, kNumRanks> kRankMultipliers = {
    1, 4, 16, 67, 295, 1334, 5734, 23800, 60883, 208450, 509982, 1304151, 2967844};

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

struct Tables {
  uint32_t row_offset[kRows];        // index = (rank key >> kRowShift) + row_offset[rank key & kRowMask]
  HighValue flush[1 << kNumRanks];   // by the 13-bit rank mask of the flush suit
  HighValue high[kSlots];            // by index; non-flush hands
  LowValue low[kSlots];              // by index
};
// Set once the tables are built; BuildTables builds them (once, thread-safe).
extern std::atomic<const Tables*> g_tables;
const Tables* BuildTables();
inline const Tables* Get() {
  const Tables* t = g_tables.load(std::memory_order_acquire);
  return __builtin_expect(t != nullptr, 1) ? t : BuildTables();
}

// The suit (0..3) whose counter flag is set in `flags` (the lowest one).
inline int FlushSuit(uint64_t flags) {
  return (__builtin_ctzll(flags) - kSuitShift - 3) >> 2;
}
inline uint32_t Index(const Tables* t, uint64_t key) {
  const uint32_t rank_key = static_cast<uint32_t>(key);
  return (rank_key >> kRowShift) + t->row_offset[rank_key & kRowMask];
}

}  // namespace hand_key_internal

class HandKey {
 public:
  constexpr HandKey() = default;  // no cards
  constexpr explicit HandKey(CardSet cards) : mask_(cards.mask()) {
    for (uint64_t m = mask_; m != 0; m &= m - 1) key_ += hand_key_internal::kBitKeys[std::countr_zero(m)];
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
class KeyEvaluator {
 public:
  KeyEvaluator() : t_(hand_key_internal::Get()) {}

  // Same value as EvaluateHigh(key.cards()) / EvaluateLow(key.cards()).
  // Require 5..7 cards.
  HighValue High(HandKey key) const {
    namespace in = hand_key_internal;
    const uint64_t flags = key.key() & in::kFlushFlags;
    if (__builtin_expect(flags != 0, 0)) {
      return t_->flush[key.cards().SuitMask(static_cast<Suit>(in::FlushSuit(flags)))];
    }
    return t_->high[in::Index(t_, key.key())];
  }
  LowValue Low(HandKey key) const { return t_->low[hand_key_internal::Index(t_, key.key())]; }

  // The same straight from 5..7 distinct cards, without a CardSet: the key is
  // a sum of one 64-bit word per card, and only a flush looks at the cards
  // again (to collect the flush suit's ranks).
  HighValue High(absl::Span<const Card> cards) const {
    namespace in = hand_key_internal;
    const uint64_t key = KeyOf(cards);
    const uint64_t flags = key & in::kFlushFlags;
    if (__builtin_expect(flags != 0, 0)) {
      const int suit = in::FlushSuit(flags);
      uint32_t ranks = 0;
      for (const Card c : cards) {
        if (static_cast<int>(c.suit()) == suit) ranks |= 1u << c.rank_value();
      }
      return t_->flush[ranks];
    }
    return t_->high[in::Index(t_, key)];
  }
  LowValue Low(absl::Span<const Card> cards) const {
    return t_->low[hand_key_internal::Index(t_, KeyOf(cards))];
  }

 private:
  static uint64_t KeyOf(absl::Span<const Card> cards) {
    uint64_t key = hand_key_internal::kEmptyKey;
    for (const Card c : cards) key += hand_key_internal::kCardKeys[c.index()];
    return key;
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
