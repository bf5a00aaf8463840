#include "tools/cli/table_setup.h"

#include <algorithm>
#include <iterator>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tools/cli/preset_deck.h"
#include "tools/cli/vocabulary.h"

namespace stud_cli {

bool TableSetup::IsSetupLine(const std::string& word) {
  static const char* kSetup[] = {"variant", "stakes", "seats",   "deal",
                                 "deck",    "cards",  "profile", "locale"};
  return std::any_of(std::begin(kSetup), std::end(kSetup),
                     [&](const char* s) { return word == s; });
}

bool TableSetup::ChoosesDealing(const std::string& word) {
  return word == "deal" || word == "deck" || word == "cards";
}

std::string TableSetup::Add(const std::vector<std::string>& w) {
  const std::string& key = w[0];
  if (key == "deck") {
    for (size_t i = 1; i < w.size(); ++i) deck_.push_back(w[i]);
    preset_ = true;
    return "";
  }
  if (key == "cards") {
    int seat = 0;
    if (w.size() < 3 || !absl::SimpleAtoi(w[1], &seat) || seat < 1 || seat > 8) {
      return "expected: cards SEAT CARD CARD ...";
    }
    seat_cards_[seat].assign(w.begin() + 2, w.end());
    preset_ = true;
    return "";
  }
  if (key == "seats") {
    stacks_.clear();
    for (size_t i = 1; i < w.size(); ++i) {
      int64_t v = 0;
      if (!absl::SimpleAtoi(w[i], &v)) return "seats: stacks are whole chips (cents)";
      stacks_.push_back(v);
    }
    return "";
  }
  if (w.size() != 2) return absl::StrCat(key, " takes one value");
  if (key == "variant") {
    variant_ = ParseVariant(w[1]);
    if (!variant_) return "variant: stud, hilo or razz";
  } else if (key == "stakes") {
    stakes_ = ParseStakes(w[1]);
    if (!stakes_) return "stakes: a preset such as $15-$30, or ANTE/BRING_IN/SMALL/BIG";
  } else if (key == "deal") {
    if (w[1] == "service") {
      preset_ = false;
      live_ = false;
      explicit_service_ = true;
    } else if (w[1] == "preset") {
      preset_ = true;
      live_ = false;
    } else if (w[1] == "live") {
      live_ = true;
    } else {
      return "deal: service, preset or live";
    }
  } else if (key == "profile") {
    std::optional<v1::Profile> p = ParseProfile(w[1]);
    if (!p) return "profile: cash, tournament or online";
    profile_ = *p;
  } else if (key == "locale") {
    std::optional<v1::Locale> loc = ParseLocale(w[1]);
    if (!loc) return "locale: en or es";
    locale_ = *loc;
  }
  return "";
}

std::string TableSetup::Incomplete() const {
  if (!variant_) return "the hand needs a `variant` line before the first step";
  if (!stakes_) return "the hand needs a `stakes` line before the first step";
  if (stacks_.size() < 2)
    return "the hand needs a `seats` line with 2..8 stacks before the first step";
  if (preset_ && explicit_service_) return "`deal service` cannot be used with deck or cards lines";
  if (live_ && preset_)
    return "`deal live` cannot be used with deck or cards lines: report each card";
  if (!deck_.empty() && !seat_cards_.empty())
    return "use either deck lines or cards lines, not both";
  if (preset_ && deck_.empty() && seat_cards_.empty())
    return "`deal preset` needs deck or cards lines";
  const int n = static_cast<int>(stacks_.size());
  for (const auto& [seat, cards] : seat_cards_) {
    if (seat > n) return absl::StrCat("cards for seat ", seat, " but only ", n, " seats");
  }
  return "";
}

v1::NewHandRequest TableSetup::Request(std::optional<v1::Locale> locale) const {
  const int n = static_cast<int>(stacks_.size());
  v1::NewHandRequest req;
  req.set_variant(*variant_);
  *req.mutable_stakes() = *stakes_;
  req.set_profile(profile_);
  req.set_locale(locale ? *locale : locale_);
  for (int i = 1; i <= n; ++i) {
    v1::SeatConfig* s = req.add_seats();
    s->set_seat(i);
    s->set_stack(stacks_[static_cast<size_t>(i - 1)]);
    req.add_private_view_seats(i);
  }
  if (live_) {
    req.set_dealing_mode(v1::DEALING_MODE_LIVE);
  } else if (preset_) {
    req.set_dealing_mode(v1::DEALING_MODE_PRESET);
    const std::vector<std::string> deck =
        deck_.empty() ? PresetDeckFromSeatCards(seat_cards_, n) : deck_;
    for (const std::string& c : deck) req.add_preset_deck(c);
  } else {
    req.set_dealing_mode(v1::DEALING_MODE_SERVICE);
  }
  return req;
}

std::string TableSetup::Summary() const {
  return absl::StrCat(
      VariantName(*variant_), ", ", live_ ? "LIVE" : (preset_ ? "PRESET" : "SERVICE"), " dealing, ",
      ProfileName(profile_), " profile, ", stacks_.size(), " seats: ", absl::StrJoin(stacks_, " "));
}

}  // namespace stud_cli
