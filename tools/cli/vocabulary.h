// The words stud_cli uses for API values, both ways: parsing what a person
// types (flags, hand files, the play prompt) and naming what the service
// returns. Parsers are case-insensitive and return std::nullopt for a word
// they do not know.
#ifndef STUD_TOOLS_CLI_VOCABULARY_H_
#define STUD_TOOLS_CLI_VOCABULARY_H_

#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "stud/v1/stud.pb.h"

namespace stud_cli {

namespace v1 = stud::v1;

std::string Lower(absl::string_view s);

// "stud", "hilo" (also "hi-lo", "stud8"), "razz".
std::optional<v1::Variant> ParseVariant(absl::string_view s);
// "Seven Card Stud", "Razz", ...
const char* VariantName(v1::Variant v);

// "en", "es".
std::optional<v1::Locale> ParseLocale(absl::string_view s);

// "cash", "tournament", "online".
std::optional<v1::Profile> ParseProfile(absl::string_view s);
const char* ProfileName(v1::Profile p);

// "$15-$30" (a preset; the server validates the name) or "300/500/1500/3000"
// (ante/bring-in/small bet/big bet in cents).
std::optional<v1::Stakes> ParseStakes(absl::string_view s);

// "fold", "check", "call", "bring-in" (also "bringin", "bring_in"),
// "complete", "bet", "raise", "show", "muck", "declare-all-in", "decline-option".
std::optional<v1::ActionKind> ParseKind(absl::string_view s);
const char* KindNameOf(v1::ActionKind kind);
// Whether an action of this kind carries a street total (call, bring-in,
// complete, bet, raise).
bool KindHasAmount(v1::ActionKind k);

// "3rd street" .. "7th street"; "-" otherwise.
const char* StreetName(v1::Street s);
// "betting", "awaiting deal", "showdown", "complete"; "-" otherwise.
const char* PhaseName(v1::Phase p);
// What `expect-phase` names a phase: "awaiting-deal" for PHASE_AWAITING_DEAL.
std::string PhaseKey(v1::Phase p);
// "high half", "low half", "whole pot".
const char* HalfName(v1::PotHalf h);

}  // namespace stud_cli

#endif  // STUD_TOOLS_CLI_VOCABULARY_H_
