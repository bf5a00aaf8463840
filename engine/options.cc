#include "engine/options.h"

#include "absl/strings/str_cat.h"

namespace stud {

absl::string_view VariantName(Variant v) {
  switch (v) {
    case Variant::kStud:
      return "Seven Card Stud";
    case Variant::kStudHiLo:
      return "Seven Card Stud Hi-Lo eight-or-better";
    case Variant::kRazz:
      return "Razz";
  }
  return "unknown variant";
}

absl::string_view ProfileName(Profile p) {
  switch (p) {
    case Profile::kCash:
      return "cash";
    case Profile::kTournament:
      return "tournament";
    case Profile::kOnline:
      return "online";
  }
  return "unknown profile";
}

Options ProfileDefaults(Profile profile) {
  Options o;
  o.profile = profile;
  switch (profile) {
    case Profile::kCash:
      break;
    case Profile::kTournament:
      o.exposed_holecard = ExposedHolecard::kMisdeal;   // STUD-IRR-EXP-1 (000, 001 note)
      o.absent_kill = AbsentKill::kAfterStartingHands;  // STUD-IRR-ABS-1 (001 note)
      break;
    case Profile::kOnline:
      o.fold_when_check = FoldWhenCheck::kAtOnce;  // STUD-IRR-FOLD-1: the fold takes effect at once
      break;
  }
  return o;
}

absl::Status ValidateOptions(const Options& o) {
  if (o.max_raises_per_round < 1 || o.max_raises_per_round > 100) {
    return absl::InvalidArgumentError(
        absl::StrCat("options.max_raises_per_round: ", o.max_raises_per_round,
                     " is out of range 1..100 (STUD-CAP-1)"));
  }
  if (o.odd_chip_unit <= 0) {
    return absl::InvalidArgumentError("options.odd_chip_unit: must be positive (STUD-ODD-5)");
  }
  if (o.disconnect_allins_per_period < 0) {
    return absl::InvalidArgumentError(
        "options.disconnect_allins_per_period: must not be negative (STUD-ALLIN-5)");
  }
  return absl::OkStatus();
}

Stakes StakesInPlay(const Stakes& stakes, const Options& options) {
  Stakes out = stakes;
  if (options.bring_in_source == BringInSource::kHalfSmallBet) {
    out.bring_in = HalfSmallBetBringIn(stakes, options.odd_chip_unit);
  }
  return out;
}

}  // namespace stud
