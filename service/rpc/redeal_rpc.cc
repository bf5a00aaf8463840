// NewHand with redeal_of: the redeal of a tournament misdeal whose antes
// stayed in the pot [STUD-IRR-EXP-1, misdeal_antes = STAY_IN_POT]. The
// service keeps nothing between calls, so the misdealt hand's final token
// carries what the redeal needs: the seats, the chips behind and the antes
// held. The new hand starts with those antes in (HandConfig::carried_antes)
// and posts none, so the chips of the two hands add up.
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/engine.h"
#include "service/api/convert.h"
#include "service/observability/logging.h"
#include "service/rpc/dealing.h"
#include "service/rpc/hand_service.h"

namespace stud::service {
namespace v1 = stud::v1;
namespace {

constexpr RuleId kRule = RuleId::kIrrExp1;

// The request may repeat the misdealt hand's setup; anything it gives must
// agree, so a client cannot change the stakes or the stacks under a redeal.
absl::Status CheckAgrees(const v1::NewHandRequest& req, const HandConfig& misdealt) {
  auto differs = [](absl::string_view field, absl::string_view what) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": ", what,
                     " differs from the misdealt hand; a redeal plays the same hand again "
                     "(omit it or repeat it) (STUD-IRR-EXP-1)"));
  };
  if (req.variant() != v1::VARIANT_UNSPECIFIED) {
    absl::StatusOr<Variant> v = DecodeVariant(req.variant(), "variant");
    if (!v.ok()) return v.status();
    if (*v != misdealt.variant) return differs("variant", "the game");
  }
  if (req.has_stakes()) {
    absl::StatusOr<Stakes> s = DecodeStakes(req.stakes(), "stakes");
    if (!s.ok()) return s.status();
    if (!(*s == misdealt.stakes)) return differs("stakes", "the stakes");
  }
  if (req.profile() != v1::PROFILE_UNSPECIFIED || req.has_option_overrides()) {
    absl::StatusOr<Options> o =
        DecodeOptions(req.profile(), req.option_overrides(), "option_overrides");
    if (!o.ok()) return o.status();
    if (!(*o == misdealt.options)) return differs("option_overrides", "the profile or an option");
  }
  return absl::OkStatus();
}

// Seats given with a redeal: exactly the misdealt hand's seats, each with the
// chips it has behind after the misdeal (the held ante is not part of it).
absl::Status CheckSeats(const v1::NewHandRequest& req, const HandState& misdealt) {
  const int n = misdealt.config.num_seats;
  if (req.seats_size() == 0) return absl::OkStatus();
  if (req.seats_size() != n) {
    return absl::InvalidArgumentError(absl::StrCat("seats: ", req.seats_size(),
                                                   " seats given; the misdealt hand had ", n,
                                                   " (omit them or repeat them) (STUD-IRR-EXP-1)"));
  }
  if (absl::Status st = CheckSeatNumbers(req.seats()); !st.ok()) return st;
  for (int i = 0; i < n; ++i) {
    const v1::SeatConfig& s = req.seats(i);
    const Chips behind = misdealt.seats[s.seat()].stack;
    if (s.stack() != behind) {
      return absl::InvalidArgumentError(absl::StrCat(
          "seats[", i, "].stack: ", s.stack(), " differs from the ", behind, " seat ", s.seat(),
          " has behind after the misdeal; its ante is already in the pot (STUD-IRR-EXP-1)"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status HandService::NewRedeal(const CallContext& call, const v1::NewHandRequest& req,
                                    v1::NewHandResponse* resp) const {
  absl::StatusOr<SealedHand> misdealt = Unseal(call, req.redeal_of(), /*expected_hand_id=*/"");
  if (!misdealt.ok()) {
    const absl::Status& s = misdealt.status();
    if (!absl::StartsWith(s.message(), "token")) return s;
    absl::Status out(s.code(), absl::StrCat("redeal_of", s.message().substr(5)));
    s.ForEachPayload([&](absl::string_view url, const absl::Cord& p) { out.SetPayload(url, p); });
    return out;
  }
  const HandState& old = misdealt->state;
  if (!old.misdeal) {
    return RuleViolation(kRule,
                         "redeal_of: that hand was not misdealt; only a misdeal is dealt again");
  }
  if (old.config.options.misdeal_antes != MisdealAntes::kStayInPot) {
    return RuleViolation(kRule,
                         "redeal_of: that misdeal returned every ante (misdeal_antes = "
                         "RETURNED); deal the next hand as a new hand");
  }
  if (absl::Status st = CheckAgrees(req, old.config); !st.ok()) return st;
  if (absl::Status st = CheckSeats(req, old); !st.ok()) return st;
  absl::StatusOr<std::vector<int>> views =
      DecodeViewSeats(req.private_view_seats(), old.config.num_seats, "private_view_seats");
  if (!views.ok()) return views.status();

  HandConfig config;
  config.variant = old.config.variant;
  config.stakes = old.config.stakes;
  config.options = old.config.options;
  config.num_seats = old.config.num_seats;
  Chips held = 0;
  for (int i = 1; i <= config.num_seats; ++i) {
    config.starting_stacks[i] = old.seats[i].stack;
    config.carried_antes[i] = old.seats[i].committed;  // only antes stay after a misdeal
    held += old.seats[i].committed;
  }
  // The misdealt hand's language and dealing mode unless the request gives them.
  absl::StatusOr<v1::Locale> locale = DecodeLocale(
      req.locale() != v1::LOCALE_UNSPECIFIED ? req.locale()
                                             : static_cast<v1::Locale>(misdealt->service.locale));
  if (!locale.ok()) return locale.status();
  v1::NewHandRequest deal = req;
  if (deal.dealing_mode() == v1::DEALING_MODE_UNSPECIFIED) {
    deal.set_dealing_mode(static_cast<v1::DealingMode>(misdealt->service.dealing_mode));
  }
  const int num_seats = config.num_seats;
  if (absl::Status st = DealNewHand(call, deal, std::move(config), *locale, *views, resp);
      !st.ok()) {
    return st;
  }
  LogLine(call.trace, LogLevel::kInfo, "misdeal_redeal")  // hand_id: the new hand's
      .Str("redeal_of", HandIdText(misdealt->service))
      .Str("rule_id", RuleIdName(kRule))
      .Int("seats", num_seats)
      .Int("antes_carried", held);
  return absl::OkStatus();
}

}  // namespace stud::service
