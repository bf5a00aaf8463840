// Cards and card sets.
//
// A Card is a value 0..51 ordered "by suit" the way stud rules compare single
// cards: rank first (deuce lowest, ace highest), suit second with
// clubs < diamonds < hearts < spades [STUD-BRING-2, STUD-ODD-1]. So comparing
// two Cards with < answers "which is lower by suit" with the ace high.
//
// A CardSet is a 64-bit mask made of four 16-bit suit lanes (clubs in bits
// 0..12, diamonds in 16..28, hearts in 32..44, spades in 48..60); bit `rank`
// of a lane is set when that card is present. The same mask serves high
// evaluation, ace-to-five lows and up-card ranking.
//
// Notation: "As", "Td", "2c" (rank 2..9, T, J, Q, K, A; suit c, d, h, s).
// Parsing also accepts "10d" and upper-case suits.
#ifndef STUD_ENGINE_CARD_H_
#define STUD_ENGINE_CARD_H_

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace stud {

// Rank 0..12 stands for 2..A.
enum class Rank : uint8_t {
  kTwo = 0,
  kThree,
  kFour,
  kFive,
  kSix,
  kSeven,
  kEight,
  kNine,
  kTen,
  kJack,
  kQueen,
  kKing,
  kAce
};
// Suit order of the rule documents: clubs < diamonds < hearts < spades.
enum class Suit : uint8_t { kClubs = 0, kDiamonds, kHearts, kSpades };

inline constexpr int kNumRanks = 13;
inline constexpr int kNumSuits = 4;
inline constexpr int kDeckSize = 52;

class Card {
 public:
  constexpr Card() = default;
  constexpr Card(Rank rank, Suit suit)
      : index_(static_cast<uint8_t>(static_cast<int>(rank) * 4 + static_cast<int>(suit))) {}
  // `index` must be in 0..51.
  static constexpr Card FromIndex(int index) {
    Card c;
    c.index_ = static_cast<uint8_t>(index);
    return c;
  }

  constexpr int index() const { return index_; }
  constexpr Rank rank() const { return static_cast<Rank>(index_ >> 2); }
  constexpr Suit suit() const { return static_cast<Suit>(index_ & 3); }
  constexpr int rank_value() const { return index_ >> 2; }  // 0 = deuce .. 12 = ace
  // Bit of this card inside a CardSet mask.
  constexpr uint64_t bit() const { return uint64_t{1} << ((index_ & 3) * 16 + (index_ >> 2)); }

  // "As", "Td", "2c".
  std::string ToString() const;
  // The same two characters without a string (a view of a static table).
  absl::string_view Code() const;

  friend constexpr bool operator==(Card a, Card b) { return a.index_ == b.index_; }
  friend constexpr auto operator<=>(Card a, Card b) { return a.index_ <=> b.index_; }

 private:
  uint8_t index_ = 0;
};

// Parses one card; INVALID_ARGUMENT names the text on failure.
absl::StatusOr<Card> ParseCard(absl::string_view text);
// Parses cards written one after another with optional spaces: "As Kd" or "AsKd".
absl::StatusOr<std::vector<Card>> ParseCards(absl::string_view text);
// "As Kd 7c".
std::string CardsToString(const std::vector<Card>& cards);
// The rank's letter in card notation (rank_value 0 = deuce .. 12 = ace):
// '2'..'9', 'T', 'J', 'Q', 'K', 'A'. Its names in words are the service's
// (text/vocabulary.h).
char RankChar(int rank_value);

class CardSet {
 public:
  constexpr CardSet() = default;
  constexpr explicit CardSet(uint64_t mask) : mask_(mask) {}
  template <typename Range>
  static CardSet Of(const Range& cards) {
    CardSet s;
    for (Card c : cards) s.Add(c);
    return s;
  }

  constexpr void Add(Card c) { mask_ |= c.bit(); }
  constexpr void Remove(Card c) { mask_ &= ~c.bit(); }
  constexpr bool Contains(Card c) const { return (mask_ & c.bit()) != 0; }
  constexpr int size() const { return std::popcount(mask_); }
  constexpr bool empty() const { return mask_ == 0; }
  constexpr uint64_t mask() const { return mask_; }
  // 13-bit rank mask of one suit.
  constexpr uint32_t SuitMask(Suit s) const {
    return static_cast<uint32_t>(mask_ >> (16 * static_cast<int>(s))) & 0x1FFF;
  }
  // Cards in ascending order (by rank, then suit).
  std::vector<Card> Cards() const;

  constexpr CardSet operator|(CardSet o) const { return CardSet(mask_ | o.mask_); }
  constexpr CardSet operator&(CardSet o) const { return CardSet(mask_ & o.mask_); }
  friend constexpr bool operator==(CardSet a, CardSet b) { return a.mask_ == b.mask_; }

 private:
  uint64_t mask_ = 0;
};

}  // namespace stud

#endif  // STUD_ENGINE_CARD_H_
