#include "engine/card.h"

#include <array>
#include <cctype>
#include <cstddef>

#include "engine/refusal.h"

namespace stud {
namespace {
constexpr char kRankChars[] = "23456789TJQKA";
constexpr char kSuitChars[] = "cdhs";
constexpr size_t kCards = kDeckSize;

// Every card's two characters, in index order: "2c2d2h2s3c...".
constexpr std::array<char, 2 * kCards> kCodes = [] {
  std::array<char, 2 * kCards> codes{};
  for (size_t i = 0; i < kCards; ++i) {
    codes[2 * i] = kRankChars[i >> 2];
    codes[2 * i + 1] = kSuitChars[i & 3];
  }
  return codes;
}();
}  // namespace

std::string Card::ToString() const { return std::string(Code()); }

absl::string_view Card::Code() const { return {&kCodes[2 * size_t{index_}], 2}; }

absl::StatusOr<Card> ParseCard(absl::string_view text) {
  absl::string_view rank_text = text.substr(0, text.empty() ? 0 : text.size() - 1);
  int rank = -1;
  if (rank_text == "10") {
    rank = 8;
  } else if (rank_text.size() == 1) {
    const char r = static_cast<char>(std::toupper(static_cast<unsigned char>(rank_text[0])));
    for (int i = 0; i < kNumRanks; ++i) {
      if (kRankChars[i] == r) rank = i;
    }
  }
  int suit = -1;
  if (!text.empty()) {
    const char s = static_cast<char>(std::tolower(static_cast<unsigned char>(text.back())));
    for (int i = 0; i < kNumSuits; ++i) {
      if (kSuitChars[i] == s) suit = i;
    }
  }
  if (rank < 0 || suit < 0) {
    return Malformed({.what = Refusal::kCardUnreadable, .text = std::string(text)});
  }
  return Card(static_cast<Rank>(rank), static_cast<Suit>(suit));
}

absl::StatusOr<std::vector<Card>> ParseCards(absl::string_view text) {
  std::vector<Card> cards;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ' ' || text[i] == ',') {
      ++i;
      continue;
    }
    // A card is two characters, or three for "10x".
    size_t len = (text.substr(i, 2) == "10") ? 3 : 2;
    if (i + len > text.size()) len = text.size() - i;
    absl::StatusOr<Card> card = ParseCard(text.substr(i, len));
    if (!card.ok()) return card.status();
    cards.push_back(*card);
    i += len;
  }
  return cards;
}

std::string CardsToString(const std::vector<Card>& cards) {
  std::string out;
  for (size_t i = 0; i < cards.size(); ++i) {
    if (i > 0) out += ' ';
    out += cards[i].ToString();
  }
  return out;
}

std::vector<Card> CardSet::Cards() const {
  std::vector<Card> cards;
  cards.reserve(static_cast<size_t>(size()));
  for (int i = 0; i < kDeckSize; ++i) {
    Card c = Card::FromIndex(i);
    if (Contains(c)) cards.push_back(c);
  }
  return cards;
}

char RankChar(int rank_value) { return kRankChars[rank_value]; }

}  // namespace stud
