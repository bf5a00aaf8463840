// HandService: the seeding phase of a hand dealt with players' seeds
// (FairnessOptions.player_seeds; docs/fairness.md) [STUD-DEAL-6], and
// GetSigningKeys.
//
// The phase lives in the service, not in the engine (the engine never sees a
// seed, nor any randomness): NewHand draws and commits the server seed and
// seals the hand's configuration with nothing dealt (ServiceData.seeding).
// Each ACTION_KIND_SEED is one call and one version, sealed and recorded in
// the ledger like any action; the call that completes the seeds (the last
// seat's, or the table closing seeding for the silent seats) derives the
// deck by stud-shuffle-v1 and has the engine deal it, in the same version.
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/basics.h"
#include "engine/engine.h"
#include "engine/view.h"
#include "service/api/convert.h"
#include "service/fairness/shuffle.h"
#include "service/observability/tracing.h"
#include "service/rpc/dealing.h"
#include "service/rpc/fairness_view.h"
#include "service/rpc/hand_service.h"
#include "service/rpc/receipt_view.h"
#include "text/ruling_text.h"

namespace stud::service {
namespace v1 = stud::v1;

absl::Status SeedingPending() {
  return RuleViolation(RuleId::kDeal6,
                       "the hand is in PHASE_SEEDING: no card is dealt until every seat has sent "
                       "ACTION_KIND_SEED (or the table closes seeding for the silent seats)");
}

HandState SeedingState(const HandConfig& config) {
  HandState state;
  state.config = config;
  for (int seat = 1; seat <= config.num_seats; ++seat) {
    state.seats[static_cast<size_t>(seat)].stack =
        config.starting_stacks[static_cast<size_t>(seat)];
  }
  return state;
}

absl::Status HandService::ApplySeed(const CallContext& call, const v1::ApplyActionRequest& req,
                                    SealedHand hand, v1::ApplyActionResponse* resp) const {
  const int n = hand.state.config.num_seats;
  absl::StatusOr<std::vector<int>> views =
      DecodeViewSeats(req.private_view_seats(), n, "private_view_seats");
  if (!views.ok()) return views.status();
  absl::StatusOr<UpdateParts> parts = DecodeDetail(req.detail());
  if (!parts.ok()) return parts.status();
  if (absl::Status st =
          CheckVersion(req.has_expected_version(), req.expected_version(), hand.state);
      !st.ok()) {
    return st;
  }
  const v1::Action& action = req.action();
  if (!hand.service.seeding) {
    return RuleViolation(RuleId::kDeal6,
                         "action.kind: ACTION_KIND_SEED only while the hand is in PHASE_SEEDING; "
                         "this hand did not ask for players' seeds, or its seeding is over");
  }
  if (action.kind() != v1::ACTION_KIND_SEED) return SeedingPending();
  const int seat = action.seat();
  if (seat < 0 || seat > n) {
    return absl::InvalidArgumentError(
        absl::StrCat("action.seat: ", seat, " is not 1..", n, " (0 = the table closing seeding)"));
  }
  std::vector<std::string> seeds = PlayerSeeds(hand.service);
  seeds.resize(static_cast<size_t>(n));
  if (seat == 0) {  // the table closes seeding for every silent seat [STUD-DEAL-6]
    if (!action.seed().empty()) {
      return absl::InvalidArgumentError(
          "action.seed: seat 0 (the table) closes seeding and gives no seed; a seat's seed "
          "comes with that seat");
    }
    for (int s = 1; s <= n; ++s) {
      if (seeds[static_cast<size_t>(s - 1)].empty()) hand.service.seeds_closed |= 1u << s;
    }
    v1::Ruling* ruling = resp->mutable_ruling();
    ruling->set_rule_id(std::string(RuleIdName(RuleId::kDeal6)));
    ruling->set_decision("SEEDING_CLOSED");
    text::RulingText worded = text::SeedingClosedText();
    ruling->set_explanation_en(std::move(worded.en));
    ruling->set_explanation_es(std::move(worded.es));
  } else {
    if (action.seed().empty() || action.seed().size() > fairness::kMaxPlayerSeedBytes) {
      return absl::InvalidArgumentError(absl::StrCat("action.seed: 1 to ",
                                                     fairness::kMaxPlayerSeedBytes, " bytes, not ",
                                                     action.seed().size()));
    }
    if (!seeds[static_cast<size_t>(seat - 1)].empty()) {
      return RuleViolation(RuleId::kDeal6,
                           absl::StrCat("action.seat: seat ", seat,
                                        " has already given its seed; a seed is given once"));
    }
    SetPlayerSeed(&hand.service, n, seat, action.seed());
    seeds[static_cast<size_t>(seat - 1)] = action.seed();
  }
  bool all_in = true;
  for (int s = 1; s <= n; ++s) {
    all_in = all_in && (!seeds[static_cast<size_t>(s - 1)].empty() ||
                        (hand.service.seeds_closed >> s & 1) != 0);
  }
  const uint64_t version = hand.state.version + 1;  // one call, one version, as any action
  if (all_in) {
    HandConfig config = hand.state.config;
    DealFromSeeds(&config, &hand.service);
    absl::StatusOr<HandState> state = [&] {
      ChildSpan span(call.trace.span, "engine");
      return stud::NewHand(std::move(config));
    }();
    if (!state.ok()) return state.status();
    hand.state = *std::move(state);
  }
  hand.state.version = version;
  FillUpdate(call, hand, 0, *views, *parts, "", resp->mutable_update());
  return absl::OkStatus();
}

void HandService::FillSeeding(const SealedHand& hand, const std::vector<int>& view_seats,
                              UpdateParts parts, v1::HandUpdate* out) const {
  if (parts != UpdateParts::kChanges) {
    v1::PublicView* pub = out->mutable_public_view();
    EncodePublicView(ViewFor(hand.state, kPublicViewer), pub);
    pub->set_phase(v1::PHASE_SEEDING);
    pub->set_hand_id(HandIdText(hand.service));
    pub->set_dealing_mode(static_cast<v1::DealingMode>(hand.service.dealing_mode));
    pub->mutable_policy()->set_seat_tickets(hand.service.requires_seat_tickets);
    pub->mutable_policy()->set_ledger(hand.service.requires_ledger);
    EncodeFairness(hand, pub);
  }
  for (int seat : view_seats) out->add_private_views()->set_seat(seat);
}

const fairness::SigningKeys& HandService::SigningKeys() const {
  return options_.signing_keys != nullptr ? *options_.signing_keys : EphemeralSigningKeys();
}

absl::Status HandService::GetSigningKeys(const v1::GetSigningKeysRequest&,
                                         v1::GetSigningKeysResponse* resp) const {
  for (const fairness::SigningKey& key : SigningKeys().keys()) {
    v1::SigningKey* k = resp->add_keys();
    k->set_key_id(key.key_id);
    k->set_public_key(key.public_key);
  }
  return absl::OkStatus();
}

}  // namespace stud::service
