#include "service/api/vocabulary.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace stud::service::words {
namespace {

// The English plurals are the engine's (RankPlural, also in hand names).
constexpr absl::string_view kRanksEs[kNumRanks] = {
    "doses",  "treses", "cuatros", "cincos", "seises", "sietes", "ochos",
    "nueves", "dieces", "jotas",   "reinas", "reyes",  "ases"};

}  // namespace

std::string SeatEn(int seat) { return absl::StrCat("seat ", seat); }
std::string SeatCapEn(int seat) { return absl::StrCat("Seat ", seat); }
std::string SeatEs(int seat) { return absl::StrCat("asiento ", seat); }
std::string SeatCapEs(int seat) { return absl::StrCat("Asiento ", seat); }

std::string SeatListEn(std::span<const int> seats) {
  std::string out;
  for (int seat : seats) absl::StrAppend(&out, out.empty() ? "Seats " : ", ", seat);
  return out;
}
std::string SeatListEs(std::span<const int> seats) {
  std::string out;
  for (int seat : seats) absl::StrAppend(&out, out.empty() ? "Los asientos " : ", ", seat);
  return out;
}

std::string StreetEn(Street street) { return std::string(StreetName(street)); }
std::string StreetEs(Street street) { return absl::StrCat(static_cast<int>(street), "a calle"); }

std::string CardText(Card card) { return card.ToString(); }

absl::string_view RankPluralEn(int rank_value) { return RankPlural(rank_value); }
absl::string_view RankPluralEs(int rank_value) { return kRanksEs[rank_value]; }

std::string ActionText(ActionKind action, Chips amount_to) {
  std::string kind(ActionKindName(action));
  if (action == ActionKind::kFold || action == ActionKind::kCheck) return kind;
  return absl::StrCat(kind, " to ", amount_to);
}

std::string MoneyEn(Chips cents) {
  return absl::StrFormat("$%d.%02d", cents / 100, (cents < 0 ? -cents : cents) % 100);
}
std::string MoneyEs(Chips cents) {
  return absl::StrFormat("%d,%02d $", cents / 100, (cents < 0 ? -cents : cents) % 100);
}

}  // namespace stud::service::words
