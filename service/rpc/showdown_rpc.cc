// HandService::ResolveShowdown: the showdown of a token's hand, or of a hand
// described in the request (stateless).
#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/engine.h"
#include "engine/irregularities.h"
#include "engine/pot.h"
#include "service/api/announce.h"
#include "service/api/convert.h"
#include "service/api/status_mapping.h"
#include "service/observability/tracing.h"
#include "service/rpc/dealing.h"
#include "service/rpc/hand_service.h"
#include "service/token/codec.h"
#include "service/trust/ledger.h"
#include "text/refusal_text.h"

namespace stud::service {
namespace v1 = stud::v1;
namespace {

// [STUD-ALLIN-1] the uncalled chips the engine gave back, from its log.
static void AddReturnedFromLog(const HandState& state, v1::ResolveShowdownResponse* resp) {
  for (const Operation& op : state.log) {
    if (op.type == OpType::kReturnUncalled) (*resp->mutable_returned())[op.seat] += op.amount;
  }
}

}  // namespace

absl::Status HandService::ResolveShowdown(const v1::ResolveShowdownRequest& req,
                                          v1::ResolveShowdownResponse* resp,
                                          const CallContext& call) const {
  const absl::StatusOr<v1::Locale> locale = DecodeLocale(req.locale());
  if (!locale.ok()) return locale.status();
  std::vector<ShowdownSeat> seats;
  Variant variant = Variant::kStud;
  Options options;
  std::optional<Card> common;
  absl::StatusOr<SealedHand> hand;
  if (req.hand_case() == v1::ResolveShowdownRequest::kToken) {
    hand = Unseal(call, req.token(), req.expected_hand_id());
    if (!hand.ok()) return hand.status();
    if (absl::Status st = Permit(call, req, *hand); !st.ok()) return st;
    const HandState& state = hand->state;
    resp->set_hand_id(HandIdText(hand->service));
    if (state.phase != Phase::kComplete) {
      return RuleViolation(RuleId::kShow1,
                           "the hand is not over; showdown is resolved once every live seat "
                           "has shown or mucked");
    }
    variant = state.config.variant;
    options = state.config.options;
    if (state.has_common) common = state.common_card;
    for (int i = 1; i <= state.config.num_seats; ++i) {
      const Seat& s = state.seats[i];
      ShowdownSeat ss{i, {}, s.committed, s.live()};
      for (int k = 0; k < s.num_cards; ++k)
        ss.cards.push_back(s.cards[static_cast<size_t>(k)].card);
      seats.push_back(std::move(ss));
    }
    if (LiveSeatCount(state) < 2 || state.misdeal) {
      // Won without a showdown, or a misdeal (STUD-IRR-EXP-1: it awards
      // nothing): report the awards the engine made. Settling the live hands
      // would rank hands nobody turned up (a misdeal's short hands were
      // refused as INVALID_ARGUMENT).
      for (const Operation& op : state.log) {
        if (op.type != OpType::kAward) continue;
        v1::PotResult* pr = resp->add_pots();
        pr->set_index(op.pot);
        pr->set_amount(op.amount);
        pr->add_eligible_seats(op.seat);
        pr->add_high_winners(op.seat);
        pr->set_rule_id(std::string(RuleIdName(op.rule_id)));
        v1::PotShare* share = pr->add_shares();
        share->set_seat(op.seat);
        share->set_amount(op.amount);
        share->set_half(v1::POT_HALF_WHOLE);
        (*resp->mutable_won())[op.seat] += op.amount;
      }
      AddReturnedFromLog(state, resp);
      return absl::OkStatus();
    }
  } else if (req.hand_case() == v1::ResolveShowdownRequest::kStateless) {
    const v1::StatelessShowdown& sd = req.stateless();
    absl::StatusOr<Variant> v = DecodeVariant(sd.variant(), "stateless.variant");
    if (!v.ok()) return v.status();
    variant = *v;
    absl::StatusOr<Options> o =
        DecodeOptions(sd.profile(), sd.option_overrides(), "stateless.option_overrides");
    if (!o.ok()) return o.status();
    options = *o;
    if (sd.seats_size() < 2 || sd.seats_size() > kMaxSeats) {
      return absl::InvalidArgumentError(
          absl::StrCat("stateless.seats: 2..", kMaxSeats, " seats required"));
    }
    for (int i = 0; i < sd.seats_size(); ++i) {
      const v1::ShowdownSeat& s = sd.seats(i);
      const std::string field = absl::StrCat("stateless.seats[", i, "]");
      if (s.seat() < 1 || s.seat() > kMaxSeats) {
        return absl::InvalidArgumentError(absl::StrCat(field, ".seat: must be 1..", kMaxSeats));
      }
      if (s.contribution() < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat(field, ".contribution: must not be negative"));
      }
      if (s.contribution() > kMaxStack) {  // eight of them must sum without overflow
        return absl::InvalidArgumentError(absl::StrCat(field, ".contribution: at most 2^40 chips"));
      }
      absl::StatusOr<std::vector<Card>> cards =
          DecodeCards(s.cards(), absl::StrCat(field, ".cards"));
      if (!cards.ok()) return cards.status();
      seats.push_back(ShowdownSeat{s.seat(), *std::move(cards), s.contribution(), !s.folded()});
    }
    if (!sd.common_card().empty()) {
      absl::StatusOr<Card> c = DecodeCard(sd.common_card(), "stateless.common_card");
      if (!c.ok()) return c.status();
      common = *c;
    }
  } else {
    return absl::InvalidArgumentError("hand: required (a token or a stateless showdown)");
  }
  absl::StatusOr<Settlement> settlement = [&] {
    ChildSpan span(call.trace.span, "engine");
    return Settle(variant, options, seats, common);
  }();
  if (!settlement.ok() && settlement.status().code() == absl::StatusCode::kInvalidArgument &&
      req.hand_case() == v1::ResolveShowdownRequest::kStateless) {
    // The engine names the position in its list; the request's field is stateless.seats[i].
    return text::RenameField(settlement.status(), "", "stateless.");
  }
  if (!settlement.ok()) return settlement.status();
  EncodeSettlement(*settlement,
                   *locale == v1::LOCALE_ES ? MessageLanguage::kSpanish : MessageLanguage::kEnglish,
                   resp);
  if (hand.ok() && req.hand_case() == v1::ResolveShowdownRequest::kToken) {
    // The settlement is public, whoever asks: a hand only for a seat that
    // showed [STUD-SHOW-1]; a mucked or folded hand stays unseen.
    auto* hands = resp->mutable_hands();
    hands->erase(std::remove_if(hands->begin(), hands->end(),
                                [&](const v1::ShownHand& h) {
                                  return !hand->state.seats[static_cast<size_t>(h.seat())].shown;
                                }),
                 hands->end());
    // The engine already gave any uncalled chips back (and its log says so);
    // `committed` then holds only called chips.
    resp->clear_returned();
    AddReturnedFromLog(hand->state, resp);
  }
  return absl::OkStatus();
}

}  // namespace stud::service
