#include "engine/hand_eval.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>

#include "engine/hand_key.h"

// Value layout (shared by high values, lows and boards):
//
//   bits 20..23  category: the HandCategory number, so CategoryOf is a shift;
//   bits  0..19  five 4-bit rank slots, most significant first, holding the
//                ranks of the five cards in the order they are compared
//                (the set/paired cards first, then kickers from the top):
//                quads q q q q k, full house t t t p p, two pair a a b b k,
//                pair p p k k k, flush/high card r r r r r, straights the five
//                ranks of the run from the top (the wheel is 5 4 3 2 A).
//
// High values use rank 0 = deuce .. 12 = ace in the slots. An ace-to-five low
// is built the same way from the cards with the ace moved below the deuce
// (slot rank 0 = ace .. 12 = king) and without straights and flushes; that
// gives the "badness" of the low (smaller is better, exactly the reversed
// high-hand order), and LowValue = kLowBase - badness.
//
// Evaluation works on the four 13-bit suit lanes of the CardSet. Flushes are
// found with a SWAR popcount per lane (no flush hand can also hold quads or a
// full house within seven cards, so a flush settles the hand). Otherwise the
// lanes are combined with bit operations into the masks of ranks held at
// least once, twice, three and four times; one value candidate per category is
// built from those masks and each valid one overrides the ones below it, in
// category order (no decision tree; GCC turns a few of the selects into
// well-predicted branches, which measured faster than forced masks here).
// The only table is kTop (8192 entries, built at compile time): for each rank
// mask, its top five ranks as slots plus the top card of its best straight.
namespace stud {
namespace {

constexpr int kSlotShift = 16;  // shift of the first rank slot
constexpr int kCategoryShift = 20;
constexpr uint32_t kSlots = 0xFFFFF;
constexpr uint32_t kLaneBits = 0x1FFF;
constexpr LowValue kLowBase = 0xFFFFFF;            // LowValue = kLowBase - badness
constexpr uint32_t kEightOrBetterLimit = 0x80000;  // badness below: 8-high or better no-pair

constexpr uint32_t Cat(HandCategory c) { return static_cast<uint32_t>(c) << kCategoryShift; }

// kTop[mask]: bits 0..19 the five highest ranks of `mask` as slots (missing
// slots are 0), bits 20..23 the top rank of the best straight in `mask` (3 for
// the wheel, 0 for no straight).
constexpr uint32_t TopEntry(uint32_t mask) {
  uint32_t word = 0;
  int n = 0;
  for (int r = 12; r >= 0 && n < 5; --r) {
    if ((mask >> r) & 1u) {
      word |= static_cast<uint32_t>(r) << (kSlotShift - 4 * n);
      ++n;
    }
  }
  uint32_t straight = 0;
  for (int hi = 12; hi >= 4 && straight == 0; --hi) {
    const uint32_t run = 0x1Fu << (hi - 4);
    if ((mask & run) == run) straight = static_cast<uint32_t>(hi);
  }
  if (straight == 0 && (mask & 0x100Fu) == 0x100Fu) straight = 3;
  return word | (straight << kCategoryShift);
}

alignas(64) constexpr std::array<uint32_t, 8192> kTop = [] {
  std::array<uint32_t, 8192> t{};
  for (uint32_t m = 0; m < 8192; ++m) t[m] = TopEntry(m);
  return t;
}();

// Slots of the straight whose top rank is the index (3 = wheel, 5-4-3-2-A).
constexpr std::array<uint32_t, 16> kStraightSlots = [] {
  std::array<uint32_t, 16> w{};
  w[3] = 0x3210C;
  for (uint32_t hi = 4; hi <= 12; ++hi) w[hi] = hi * 0x11111u - 0x01234u;
  return w;
}();

// Index of the highest set bit; 0 for 0 (callers discard that case).
inline uint32_t Msb(uint32_t x) { return static_cast<uint32_t>(31 ^ __builtin_clz(x | 1u)); }
inline uint32_t Lane(uint64_t mask, int suit) {
  return static_cast<uint32_t>(mask >> (16 * suit)) & kLaneBits;
}
constexpr int PopCount13(uint32_t x) {
  x = x - ((x >> 1) & 0x5555u);
  x = (x & 0x3333u) + ((x >> 2) & 0x3333u);
  x = (x + (x >> 4)) & 0x0F0Fu;
  return static_cast<int>((x + (x >> 8)) & 0x1Fu);
}
int PopCount64(uint64_t x) {
  int n = 0;
  for (int s = 0; s < 4; ++s) n += PopCount13(Lane(x, s));
  return n;
}
// Moves the ace of every lane from bit 12 to bit 0 (ranks become A=0 .. K=12).
constexpr uint64_t AceLow(uint64_t mask) {
  return ((mask << 1) & 0x1FFE1FFE1FFE1FFEull) | ((mask >> 12) & 0x0001000100010001ull);
}

// Ranks held at least once, twice, three and four times.
struct RankMasks {
  uint32_t one, two, three, four;
};
inline RankMasks Masks(uint64_t mask) {
  const uint32_t c = Lane(mask, 0), d = Lane(mask, 1), h = Lane(mask, 2), s = Lane(mask, 3);
  const uint32_t cd_or = c | d, hs_or = h | s, cd_and = c & d, hs_and = h & s;
  return {cd_or | hs_or, (cd_or & hs_or) | cd_and | hs_and, (cd_and & hs_or) | (hs_and & cd_or),
          cd_and & hs_and};
}

// Best value ignoring flushes (and straights unless kStraights) of 5..7 cards.
template <bool kStraights>
inline uint32_t RankValue(const RankMasks& m) {
  const uint32_t top = kTop[m.one];
  uint32_t v = top & kSlots;  // high card
  const uint32_t p = Msb(m.two);
  const uint32_t without_p = m.one & ~(1u << p);
  const uint32_t pair = Cat(HandCategory::kPair) | p * 0x11000u | ((kTop[without_p] >> 8) & 0xFFFu);
  v = m.two != 0 ? pair : v;
  const uint32_t second_pairs = m.two & ~(1u << p);
  const uint32_t p2 = Msb(second_pairs);
  const uint32_t two_pair =
      Cat(HandCategory::kTwoPair) | p * 0x11000u | p2 * 0x110u | Msb(without_p & ~(1u << p2));
  v = second_pairs != 0 ? two_pair : v;
  const uint32_t t = Msb(m.three);
  const uint32_t trips =
      Cat(HandCategory::kThreeOfAKind) | t * 0x11100u | ((kTop[m.one & ~(1u << t)] >> 12) & 0xFFu);
  v = m.three != 0 ? trips : v;
  if constexpr (kStraights) {
    const uint32_t hi = (top >> kCategoryShift) & 0xFu;
    v = hi != 0 ? (Cat(HandCategory::kStraight) | kStraightSlots[hi]) : v;
  }
  const uint32_t fill = m.two & ~(1u << t);
  const uint32_t full = Cat(HandCategory::kFullHouse) | t * 0x11100u | Msb(fill) * 0x11u;
  v = (m.three != 0 && fill != 0) ? full : v;
  const uint32_t q = Msb(m.four);
  const uint32_t quads = Cat(HandCategory::kFourOfAKind) | q * 0x11110u | Msb(m.one & ~(1u << q));
  v = m.four != 0 ? quads : v;
  return v;
}

// Low badness (smaller = better) of 5..7 cards with ace-low lanes, by trying
// every five-card subset. Only used when the cards hold three or fewer ranks.
uint32_t SlowLowBadness(uint64_t ace_low) {
  std::array<uint64_t, kDeckSize> bits{};
  int n = 0;
  for (uint64_t rest = ace_low; rest != 0; rest &= rest - 1) bits[n++] = rest & (~rest + 1);
  if (n <= 5 || n > 7) return RankValue<false>(Masks(ace_low));
  uint32_t best = ~0u;
  for (uint32_t pick = 0; pick < (1u << n); ++pick) {
    if (PopCount13(pick) != 5) continue;
    uint64_t five = 0;
    for (int i = 0; i < n; ++i) {
      if ((pick >> i) & 1u) five |= bits[i];
    }
    best = std::min(best, RankValue<false>(Masks(five)));
  }
  return best;
}

uint32_t Slot(uint32_t value, int i) { return (value >> (kSlotShift - 4 * i)) & 0xFu; }

// Board slots for 1..4 cards: ranks by count then rank, from the top; a missing
// card gets `missing`. `rank_offset` is added to present ranks.
uint32_t PatternValue(const RankMasks& m, uint32_t rank_offset, uint32_t missing) {
  uint32_t word = 0;
  int slot = 0;
  const uint32_t groups[4] = {m.four, m.three & ~m.four, m.two & ~m.three, m.one & ~m.two};
  for (int g = 0; g < 4; ++g) {
    for (uint32_t rest = groups[g]; rest != 0;) {
      const uint32_t r = Msb(rest);
      rest &= ~(1u << r);
      for (int k = 0; k < 4 - g && slot < 5; ++k) {
        word |= (r + rank_offset) << (kSlotShift - 4 * slot++);
      }
    }
  }
  for (; slot < 5; ++slot) word |= missing << (kSlotShift - 4 * slot);
  HandCategory cat = HandCategory::kHighCard;
  if (m.four != 0) {
    cat = HandCategory::kFourOfAKind;
  } else if (m.three != 0) {
    cat = (m.two & ~m.three) != 0 ? HandCategory::kFullHouse : HandCategory::kThreeOfAKind;
  } else if (m.two != 0) {
    cat = (m.two & (m.two - 1)) != 0 ? HandCategory::kTwoPair : HandCategory::kPair;
  }
  return Cat(cat) | word;
}

// Every five-card subset of `cards` (5..7 of them; extra cards past the
// seventh are ignored), in ascending card order, handed to `visit`.
template <typename Visit>
void ForEachFive(CardSet cards, Visit visit) {
  std::array<Card, 7> all{};
  int n = 0;
  for (int i = 0; i < kDeckSize && n < 7; ++i) {
    if (cards.Contains(Card::FromIndex(i))) all[n++] = Card::FromIndex(i);
  }
  for (uint32_t pick = 0; pick < (1u << n); ++pick) {
    if (PopCount13(pick) != 5) continue;
    std::array<Card, 5> five{};
    int k = 0;
    for (int i = 0; i < n; ++i) {
      if ((pick >> i) & 1u) five[k++] = all[i];
    }
    visit(five);
  }
}

std::array<Card, 5> BestFive(CardSet cards, bool low) {
  std::array<Card, 5> best{};
  uint32_t best_value = 0;
  bool found = false;
  const auto value_of = [low](const std::array<Card, 5>& five) {
    const CardSet s = CardSet::Of(five);
    return low ? EvaluateLow(s) : EvaluateHigh(s);
  };
  ForEachFive(cards, [&](const std::array<Card, 5>& five) {
    const uint32_t v = value_of(five);
    // Equal-valued subsets: the one with the higher cards wins, comparing from
    // the top card down (so of two kings that could play, the higher suit does).
    if (!found || v > best_value ||
        (v == best_value &&
         std::lexicographical_compare(best.rbegin(), best.rend(), five.rbegin(), five.rend()))) {
      best = five;
      best_value = v;
      found = true;
    }
  });
  return best;
}

}  // namespace

HighValue EvaluateHighByMasks(CardSet cards) {
  const uint64_t m = cards.mask();
  // Per-lane card counts; bit 3 of (count + 3) is set for counts 5..12.
  uint64_t x = m - ((m >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  x = (x + (x >> 8)) & 0x00FF00FF00FF00FFull;
  const uint64_t flush = (x + 0x0003000300030003ull) & 0x0008000800080008ull;
  if (__builtin_expect(flush != 0, 0)) {
    const uint32_t suited = static_cast<uint32_t>(m >> (__builtin_ctzll(flush) - 3)) & kLaneBits;
    const uint32_t top = kTop[suited];
    const uint32_t hi = (top >> kCategoryShift) & 0xFu;
    return hi != 0 ? (Cat(HandCategory::kStraightFlush) | kStraightSlots[hi])
                   : (Cat(HandCategory::kFlush) | (top & kSlots));
  }
  return RankValue<true>(Masks(m));
}

HighValue EvaluateHigh(CardSet cards) { return EvaluateHigh(HandKey(cards)); }

HandCategory CategoryOf(HighValue value) {
  return static_cast<HandCategory>(value >> kCategoryShift);
}

std::array<Card, 5> BestFiveHigh(CardSet cards) {
  std::array<Card, 5> five = BestFive(cards, /*low=*/false);
  const HighValue v = EvaluateHigh(CardSet::Of(five));
  // Importance order: the cards in the order of the value's rank slots.
  std::array<int, kNumRanks> used{};
  std::array<Card, 5> ordered{};
  std::sort(five.begin(), five.end(), [](Card a, Card b) { return a > b; });
  for (int i = 0; i < 5; ++i) {
    const int rank = static_cast<int>(Slot(v, i));
    int seen = 0;
    for (Card c : five) {
      if (c.rank_value() == rank && seen++ == used[rank]) ordered[i] = c;
    }
    ++used[rank];
  }
  return ordered;
}

std::optional<HandRanks> RanksOfHigh(HighValue value) {
  const uint32_t cat = value >> kCategoryShift;
  if (cat > static_cast<uint32_t>(HandCategory::kStraightFlush)) return std::nullopt;
  HandRanks out{static_cast<HandCategory>(cat), {}};
  for (int i = 0; i < 5; ++i) {
    const uint32_t r = Slot(value, i);
    if (r >= kNumRanks) return std::nullopt;
    out.ranks[static_cast<size_t>(i)] = static_cast<int>(r);
  }
  return out;
}

LowValue EvaluateLowByMasks(CardSet cards) {
  const uint64_t m = cards.mask();
  const uint32_t any_high = Lane(m, 0) | Lane(m, 1) | Lane(m, 2) | Lane(m, 3);
  const uint32_t any = ((any_high << 1) | (any_high >> 12)) & kLaneBits;  // ace low
  const int distinct = PopCount13(any);
  uint32_t badness;
  if (__builtin_expect(distinct >= 5, 1)) {
    // No pair: the five lowest ranks.
    uint32_t rest = any, low5 = 0;
    for (int i = 0; i < 5; ++i) {
      const uint32_t bit = rest & (~rest + 1);
      low5 |= bit;
      rest ^= bit;
    }
    badness = kTop[low5] & kSlots;
  } else if (distinct == 4) {
    // One pair, all four ranks used; pair the lowest rank held twice.
    const uint32_t two = Masks(AceLow(m)).two;
    const uint32_t p = static_cast<uint32_t>(__builtin_ctz(two | 0x2000u));
    badness = Cat(HandCategory::kPair) | p * 0x11000u | ((kTop[any & ~(1u << p)] >> 8) & 0xFFFu);
  } else {
    badness = SlowLowBadness(AceLow(m));
  }
  return kLowBase - badness;
}

LowValue EvaluateLow(CardSet cards) { return EvaluateLow(HandKey(cards)); }

bool QualifiesEightOrBetter(LowValue value) {
  return value <= kLowBase && kLowBase - value < kEightOrBetterLimit;
}

std::array<Card, 5> BestFiveLow(CardSet cards) {
  std::array<Card, 5> five = BestFive(cards, /*low=*/true);
  const auto low_rank = [](Card c) { return c.rank() == Rank::kAce ? -1 : c.rank_value(); };
  std::sort(five.begin(), five.end(), [&](Card a, Card b) {
    if (low_rank(a) != low_rank(b)) return low_rank(a) > low_rank(b);
    return a.suit() > b.suit();
  });
  return five;
}

std::optional<HandRanks> RanksOfLow(LowValue value) {
  if (value > kLowBase) return std::nullopt;
  const uint32_t badness = kLowBase - value;
  const auto cat = static_cast<HandCategory>(badness >> kCategoryShift);
  switch (cat) {  // a low has no straight or flush
    case HandCategory::kHighCard:
    case HandCategory::kPair:
    case HandCategory::kTwoPair:
    case HandCategory::kThreeOfAKind:
    case HandCategory::kFullHouse:
    case HandCategory::kFourOfAKind:
      break;
    default:
      return std::nullopt;
  }
  HandRanks out{cat, {}};
  for (int i = 0; i < 5; ++i) {
    const uint32_t r = Slot(badness, i);  // ace-low: 0 = ace .. 12 = king
    if (r >= kNumRanks) return std::nullopt;
    out.ranks[static_cast<size_t>(i)] = static_cast<int>((r + kNumRanks - 1) % kNumRanks);
  }
  return out;
}

// Board values across sizes [STUD-ORDER-2]. Up to four cards rank by pattern
// only; five or more as a poker hand (best five of them). To keep boards of
// different sizes comparable (a face-up seventh card or a common card can
// leave one seat showing five cards while others show four) every board value
// uses the layout above with slot = rank + 1 and an absent card as 0: the
// category decides first (a four-card trips board is below a five-card
// flush; four-card boards top out at quads), then the ranks in comparison
// order, and a board that runs out of cards loses to one that still has a
// kicker there (Kh Kd 7c 2s is below Kc Ks 7d 2d 3h).
BoardValue HighBoardValue(CardSet up_cards) {
  uint64_t rest = up_cards.mask();
  for (int i = 0; i < 4; ++i) rest &= rest - 1;  // the fifth card on, if any
  if (rest != 0) return EvaluateHigh(up_cards) + 0x11111u;
  // At most four cards, so no full house and no fifth slot: PatternValue's
  // layout (slot = rank + 1) written for each pattern directly. The board
  // order asks for it once per seat on every public view.
  const RankMasks m = Masks(up_cards.mask());
  if (m.four != 0) return Cat(HandCategory::kFourOfAKind) | (Msb(m.four) + 1) * 0x11110u;
  if (m.three != 0) {
    const uint32_t kicker = m.one & ~m.three;
    return Cat(HandCategory::kThreeOfAKind) | (Msb(m.three) + 1) * 0x11100u |
           (kicker != 0 ? (Msb(kicker) + 1) << 4 : 0u);
  }
  uint32_t word = 0;
  int shift = kSlotShift;
  if (m.two != 0) {  // one pair, or two (four cards)
    const uint32_t p = Msb(m.two);
    const uint32_t second = m.two & ~(1u << p);
    if (second != 0) {
      return Cat(HandCategory::kTwoPair) | (p + 1) * 0x11000u | (Msb(second) + 1) * 0x110u;
    }
    word = Cat(HandCategory::kPair) | (p + 1) * 0x11000u;
    shift -= 8;
  }
  for (uint32_t singles = m.one & ~m.two; singles != 0; shift -= 4) {
    const uint32_t r = Msb(singles);
    singles &= ~(1u << r);
    word |= (r + 1) << shift;
  }
  return word;
}

// Razz boards: the ace-low badness of the board (pairs worst, then the paired
// ranks, then the other cards from the highest down; five or more cards use
// their best low), with an absent card counted as worse than any rank (slot
// 0xF), so a board that is still short a card ranks behind one that is not,
// and RazzBoardValue = kLowBase - badness, like LowValue.
BoardValue RazzBoardValue(CardSet up_cards) {
  const int n = PopCount64(up_cards.mask());
  if (n >= 5) return EvaluateLow(up_cards);
  return kLowBase - PatternValue(Masks(AceLow(up_cards.mask())), 0, 0xF);
}

}  // namespace stud
