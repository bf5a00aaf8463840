#include "tools/cli/vocabulary.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"

namespace stud_cli {
namespace {

struct KindName {
  v1::ActionKind kind;
  const char* name;
};
constexpr KindName kKinds[] = {
    {v1::ACTION_KIND_FOLD, "fold"},
    {v1::ACTION_KIND_CHECK, "check"},
    {v1::ACTION_KIND_CALL, "call"},
    {v1::ACTION_KIND_BRING_IN, "bring-in"},
    {v1::ACTION_KIND_COMPLETE, "complete"},
    {v1::ACTION_KIND_BET, "bet"},
    {v1::ACTION_KIND_RAISE, "raise"},
    {v1::ACTION_KIND_SHOW, "show"},
    {v1::ACTION_KIND_MUCK, "muck"},
    {v1::ACTION_KIND_DECLARE_ALL_IN, "declare-all-in"},
    {v1::ACTION_KIND_DECLINE_OPTION, "decline-option"},
    {v1::ACTION_KIND_BURN, "burn"},
    {v1::ACTION_KIND_RESHUFFLE, "reshuffle"},
};

}  // namespace

std::string Lower(absl::string_view s) { return absl::AsciiStrToLower(s); }

const char* VariantName(v1::Variant v) {
  switch (v) {
    case v1::VARIANT_STUD:
      return "Seven Card Stud";
    case v1::VARIANT_STUD_HI_LO:
      return "Seven Card Stud Hi-Lo (eight or better)";
    case v1::VARIANT_RAZZ:
      return "Razz";
    default:
      return "?";
  }
}

std::optional<v1::Variant> ParseVariant(absl::string_view s) {
  const std::string l = Lower(s);
  if (l == "stud") return v1::VARIANT_STUD;
  if (l == "hilo" || l == "hi-lo" || l == "stud8") return v1::VARIANT_STUD_HI_LO;
  if (l == "razz") return v1::VARIANT_RAZZ;
  return std::nullopt;
}

std::optional<v1::Locale> ParseLocale(absl::string_view s) {
  const std::string l = Lower(s);
  if (l == "en") return v1::LOCALE_EN;
  if (l == "es") return v1::LOCALE_ES;
  return std::nullopt;
}

std::optional<v1::Profile> ParseProfile(absl::string_view s) {
  const std::string l = Lower(s);
  if (l == "cash") return v1::PROFILE_CASH;
  if (l == "tournament") return v1::PROFILE_TOURNAMENT;
  if (l == "online") return v1::PROFILE_ONLINE;
  return std::nullopt;
}

// "$15-$30" (a preset; the server validates the name) or "300/500/1500/3000".
std::optional<v1::Stakes> ParseStakes(absl::string_view s) {
  v1::Stakes out;
  if (s.empty()) return std::nullopt;
  if (s.find('/') == absl::string_view::npos) {
    out.set_preset(std::string(s));
    return out;
  }
  std::vector<std::string> parts = absl::StrSplit(s, '/');
  int64_t v[4];
  if (parts.size() != 4) return std::nullopt;
  for (size_t i = 0; i < 4; ++i) {
    if (!absl::SimpleAtoi(parts[i], &v[i])) return std::nullopt;
  }
  v1::CustomStakes* c = out.mutable_custom();
  c->set_ante(v[0]);
  c->set_bring_in(v[1]);
  c->set_small_bet(v[2]);
  c->set_big_bet(v[3]);
  return out;
}

std::optional<v1::ActionKind> ParseKind(absl::string_view s) {
  std::string l = Lower(s);
  if (l == "bringin" || l == "bring_in") l = "bring-in";
  for (const KindName& k : kKinds) {
    if (l == k.name) return k.kind;
  }
  return std::nullopt;
}

const char* KindNameOf(v1::ActionKind kind) {
  for (const KindName& k : kKinds) {
    if (k.kind == kind) return k.name;
  }
  return "?";
}

bool KindHasAmount(v1::ActionKind k) {
  return k == v1::ACTION_KIND_CALL || k == v1::ACTION_KIND_BRING_IN ||
         k == v1::ACTION_KIND_COMPLETE || k == v1::ACTION_KIND_BET || k == v1::ACTION_KIND_RAISE;
}

const char* ProfileName(v1::Profile p) {
  switch (p) {
    case v1::PROFILE_TOURNAMENT:
      return "tournament";
    case v1::PROFILE_ONLINE:
      return "online";
    default:
      return "cash";
  }
}

const char* StreetName(v1::Street s) {
  switch (s) {
    case v1::STREET_THIRD:
      return "3rd street";
    case v1::STREET_FOURTH:
      return "4th street";
    case v1::STREET_FIFTH:
      return "5th street";
    case v1::STREET_SIXTH:
      return "6th street";
    case v1::STREET_SEVENTH:
      return "7th street";
    default:
      return "-";
  }
}

const char* PhaseName(v1::Phase p) {
  switch (p) {
    case v1::PHASE_BETTING:
      return "betting";
    case v1::PHASE_AWAITING_DEAL:
      return "awaiting deal";
    case v1::PHASE_SHOWDOWN:
      return "showdown";
    case v1::PHASE_COMPLETE:
      return "complete";
    default:
      return "-";
  }
}

const char* HalfName(v1::PotHalf h) {
  switch (h) {
    case v1::POT_HALF_HIGH:
      return "high half";
    case v1::POT_HALF_LOW:
      return "low half";
    default:
      return "whole pot";
  }
}

// What `expect-phase` names a phase: "awaiting-deal" for PHASE_AWAITING_DEAL.
std::string PhaseKey(v1::Phase p) {
  std::string s = PhaseName(p);
  std::replace(s.begin(), s.end(), ' ', '-');
  return s;
}

}  // namespace stud_cli
