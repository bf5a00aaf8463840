#include "engine/options.h"

#include "engine/refusal.h"

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
    return Malformed({.what = Refusal::kMaxRaisesOutOfRange,
                      .field = "options.max_raises_per_round",
                      .count = o.max_raises_per_round});
  }
  if (o.odd_chip_unit <= 0) {
    return Malformed({.what = Refusal::kOddChipUnitNotPositive, .field = "options.odd_chip_unit"});
  }
  if (o.disconnect_allins_per_period < 0) {
    return Malformed({.what = Refusal::kDisconnectAllInsNegative,
                      .field = "options.disconnect_allins_per_period"});
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
