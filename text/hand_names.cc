#include "text/hand_names.h"

#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "text/vocabulary.h"

namespace stud::text {
namespace {

using words::kLowTagEn;
using words::kLowTagEs;
using words::RankNameEn;
using words::RankNameEs;
using words::RankPluralEn;
using words::RankPluralEs;

constexpr absl::string_view kInvalidHighEn = "Invalid hand value";
constexpr absl::string_view kInvalidHighEs = "Valor de mano no válido";
constexpr absl::string_view kInvalidLowEn = "Invalid low value";
constexpr absl::string_view kInvalidLowEs = "Valor de baja no válido";

// "ace-nine-four" (names) or "9-7-3" (card letters) for ranks[from..4].
template <typename Word>
std::string Dashed(const HandRanks& h, int from, Word word) {
  std::string out;
  for (int i = from; i < 5; ++i) {
    absl::StrAppend(&out, i == from ? "" : "-", word(h.ranks[static_cast<size_t>(i)]));
  }
  return out;
}

// A low's ranks are written as card letters: "8-6-4-2-A".
std::string Letter(int rank_value) { return std::string(1, RankChar(rank_value)); }

std::string HighEn(const HandRanks& h) {
  const auto& r = h.ranks;
  switch (h.category) {
    case HandCategory::kStraightFlush:
      if (r[0] == static_cast<int>(Rank::kAce)) return "Royal flush";
      return absl::StrCat("Straight flush, ", RankNameEn(r[0]), " high");
    case HandCategory::kFourOfAKind:
      return absl::StrCat("Four of a kind, ", RankPluralEn(r[0]), ", ", RankNameEn(r[4]),
                          " kicker");
    case HandCategory::kFullHouse:
      return absl::StrCat("Full house, ", RankPluralEn(r[0]), " full of ", RankPluralEn(r[3]));
    case HandCategory::kFlush:
      return absl::StrCat("Flush, ", Dashed(h, 0, RankNameEn));
    case HandCategory::kStraight:
      return absl::StrCat("Straight, ", RankNameEn(r[0]), " high");
    case HandCategory::kThreeOfAKind:
      return absl::StrCat("Three of a kind, ", RankPluralEn(r[0]), ", ", Dashed(h, 3, RankNameEn),
                          " kickers");
    case HandCategory::kTwoPair:
      return absl::StrCat("Two pair, ", RankPluralEn(r[0]), " and ", RankPluralEn(r[2]), ", ",
                          RankNameEn(r[4]), " kicker");
    case HandCategory::kPair:
      return absl::StrCat("Pair of ", RankPluralEn(r[0]), ", ", Dashed(h, 2, RankNameEn),
                          " kickers");
    case HandCategory::kHighCard:
      return absl::StrCat("High card, ", Dashed(h, 0, RankNameEn));
  }
  return std::string(kInvalidHighEn);
}

std::string HighEs(const HandRanks& h) {
  const auto& r = h.ranks;
  switch (h.category) {
    case HandCategory::kStraightFlush:
      if (r[0] == static_cast<int>(Rank::kAce)) return "Escalera real";
      return absl::StrCat("Escalera de color ", words::RankToEs(r[0]));
    case HandCategory::kFourOfAKind:
      return absl::StrCat("Póquer de ", RankPluralEs(r[0]), ", kicker ", RankNameEs(r[4]));
    case HandCategory::kFullHouse:
      return absl::StrCat("Full de ", RankPluralEs(r[0]), " y ", RankPluralEs(r[3]));
    case HandCategory::kFlush:
      return absl::StrCat("Color, ", Dashed(h, 0, RankNameEs));
    case HandCategory::kStraight:
      return absl::StrCat("Escalera ", words::RankToEs(r[0]));
    case HandCategory::kThreeOfAKind:
      return absl::StrCat("Trío de ", RankPluralEs(r[0]), ", kickers ", Dashed(h, 3, RankNameEs));
    case HandCategory::kTwoPair:
      return absl::StrCat("Doble pareja de ", RankPluralEs(r[0]), " y ", RankPluralEs(r[2]),
                          ", kicker ", RankNameEs(r[4]));
    case HandCategory::kPair:
      return absl::StrCat("Pareja de ", RankPluralEs(r[0]), ", kickers ", Dashed(h, 2, RankNameEs));
    case HandCategory::kHighCard:
      return absl::StrCat("Carta alta, ", Dashed(h, 0, RankNameEs));
  }
  return std::string(kInvalidHighEs);
}

std::string LowEn(const HandRanks& h) {
  const auto& r = h.ranks;
  switch (h.category) {
    case HandCategory::kHighCard:
      return Dashed(h, 0, Letter);
    case HandCategory::kPair:
      return absl::StrCat("Pair of ", RankPluralEn(r[0]), ", ", Dashed(h, 2, Letter), kLowTagEn);
    case HandCategory::kTwoPair:
      return absl::StrCat("Two pair, ", RankPluralEn(r[0]), " and ", RankPluralEn(r[2]), ", ",
                          Letter(r[4]), kLowTagEn);
    case HandCategory::kThreeOfAKind:
      return absl::StrCat("Three of a kind, ", RankPluralEn(r[0]), ", ", Dashed(h, 3, Letter),
                          kLowTagEn);
    case HandCategory::kFullHouse:
      return absl::StrCat("Full house, ", RankPluralEn(r[0]), " full of ", RankPluralEn(r[3]),
                          kLowTagEn);
    case HandCategory::kFourOfAKind:
      return absl::StrCat("Four of a kind, ", RankPluralEn(r[0]), ", ", Letter(r[4]), kLowTagEn);
    default:  // a low has no straight or flush (RanksOfLow returns none)
      return std::string(kInvalidLowEn);
  }
}

std::string LowEs(const HandRanks& h) {
  const auto& r = h.ranks;
  switch (h.category) {
    case HandCategory::kHighCard:
      return Dashed(h, 0, Letter);
    case HandCategory::kPair:
      return absl::StrCat("Pareja de ", RankPluralEs(r[0]), ", ", Dashed(h, 2, Letter), kLowTagEs);
    case HandCategory::kTwoPair:
      return absl::StrCat("Doble pareja de ", RankPluralEs(r[0]), " y ", RankPluralEs(r[2]), ", ",
                          Letter(r[4]), kLowTagEs);
    case HandCategory::kThreeOfAKind:
      return absl::StrCat("Trío de ", RankPluralEs(r[0]), ", ", Dashed(h, 3, Letter), kLowTagEs);
    case HandCategory::kFullHouse:
      return absl::StrCat("Full de ", RankPluralEs(r[0]), " y ", RankPluralEs(r[3]), kLowTagEs);
    case HandCategory::kFourOfAKind:
      return absl::StrCat("Póquer de ", RankPluralEs(r[0]), ", ", Letter(r[4]), kLowTagEs);
    default:  // a low has no straight or flush (RanksOfLow returns none)
      return std::string(kInvalidLowEs);
  }
}

}  // namespace

std::string HighHandName(HighValue value, MessageLanguage language) {
  const bool es = language == MessageLanguage::kSpanish;
  const std::optional<HandRanks> h = RanksOfHigh(value);
  if (!h) return std::string(es ? kInvalidHighEs : kInvalidHighEn);
  return es ? HighEs(*h) : HighEn(*h);
}

std::string LowHandName(LowValue value, MessageLanguage language) {
  const bool es = language == MessageLanguage::kSpanish;
  const std::optional<HandRanks> h = RanksOfLow(value);
  if (!h) return std::string(es ? kInvalidLowEs : kInvalidLowEn);
  return es ? LowEs(*h) : LowEn(*h);
}

}  // namespace stud::text
