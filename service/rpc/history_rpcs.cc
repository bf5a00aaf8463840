// Hand histories over the API: ExportHandHistory and ReplayHandHistory, thin
// adapters around the PHH library (history/phh.h). No rules live here.
#include <algorithm>
#include <string>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "history/phh.h"
#include "service/api/convert.h"
#include "service/observability/hand_facts.h"
#include "service/observability/observability.h"
#include "service/observability/tracing.h"
#include "service/rpc/dealing.h"
#include "service/rpc/hand_service.h"
#include "service/token/codec.h"
#include "service/trust/ledger.h"
#include "text/refusal_text.h"

namespace stud::service {
namespace v1 = stud::v1;
namespace {

// A PHH hand is a few kilobytes; this bounds the work one call can ask for.
constexpr size_t kMaxPhhBytes = 64 * 1024;

}  // namespace

absl::Status HandService::ExportHandHistory(const v1::ExportHandHistoryRequest& req,
                                            v1::ExportHandHistoryResponse* resp,
                                            const CallContext& call) const {
  absl::StatusOr<SealedHand> hand = Unseal(call, req.token(), req.expected_hand_id());
  if (!hand.ok()) return hand.status();
  if (absl::Status st = Permit(call, req, *hand); !st.ok()) return st;
  if (hand->service.seeding) return SeedingPending();  // nothing dealt yet [STUD-DEAL-6]
  const HandState& state = hand->state;
  if (req.viewer_seat() < 0 || req.viewer_seat() > state.config.num_seats) {
    return absl::InvalidArgumentError(absl::StrCat("viewer_seat: ", req.viewer_seat(),
                                                   " is not 1..", state.config.num_seats,
                                                   " (0 = the public record)"));
  }
  if (req.reveal_hidden_cards() && !options_.allow_history_reveal) {
    return absl::PermissionDeniedError(
        "reveal_hidden_cards: this server does not reveal hidden cards in hand histories "
        "(it runs without --allow_history_reveal); ask for the public record or a seat's view");
  }
  history::ExportOptions options;
  options.viewer = req.viewer_seat();
  options.reveal_all = req.reveal_hidden_cards();
  options.extra_fields.emplace_back("_hand_version", absl::StrCat(state.version));
  const v1::DealingMode mode = static_cast<v1::DealingMode>(hand->service.dealing_mode);
  std::string mode_name = v1::DealingMode_Name(mode);
  if (mode_name.rfind("DEALING_MODE_", 0) == 0) mode_name = mode_name.substr(13);
  options.extra_fields.emplace_back("_dealing_mode", absl::StrCat("'", mode_name, "'"));
  if (!hand->service.commitment.empty()) {
    options.extra_fields.emplace_back(
        "_deck_commitment",
        absl::StrCat("'", absl::BytesToHexString(hand->service.commitment), "'"));
  }
  std::string text = [&] {
    ChildSpan span(call.trace.span, "engine");
    return history::ExportPhh(state, options);
  }();
  int hidden = 0;
  for (size_t at = text.find("??"); at != std::string::npos; at = text.find("??", at + 2)) ++hidden;
  resp->set_phh(std::move(text));
  resp->set_complete(state.phase == Phase::kComplete);
  resp->set_version(state.version);
  resp->set_hand_id(HandIdText(hand->service));
  resp->set_hidden_cards(hidden);
  return absl::OkStatus();
}

absl::Status HandService::ReplayHandHistory(const v1::ReplayHandHistoryRequest& req,
                                            v1::ReplayHandHistoryResponse* resp,
                                            const CallContext& call) const {
  if (req.phh().empty())
    return absl::InvalidArgumentError("phh: required (the text of a PHH hand history)");
  if (req.phh().size() > kMaxPhhBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("phh: at most ", kMaxPhhBytes, " bytes (one hand)"));
  }
  absl::StatusOr<Options> rules =
      DecodeOptions(req.profile(), req.option_overrides(), "option_overrides");
  if (!rules.ok()) return rules.status();
  absl::StatusOr<history::PhhHand> hand = history::ParsePhh(req.phh());
  if (!hand.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("phh: ", text::Worded(hand.status()).message()));
  }
  absl::StatusOr<history::ReplayReport> report = [&] {
    ChildSpan span(call.trace.span, "engine");
    return history::ReplayPhh(*hand, {.rules = *rules});
  }();
  if (!report.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("phh: ", text::Worded(report.status()).message()));
  }

  resp->set_matches(report->ok());
  resp->set_legal(report->legal);
  resp->set_complete(report->complete);
  resp->set_result_checked(report->result_checked);
  resp->set_actions_applied(report->actions_applied);
  resp->set_action_count(static_cast<int32_t>(hand->actions.size()));
  if (report->divergence) {
    const history::ReplayDivergence& d = *report->divergence;
    v1::ReplayDivergence* out = resp->mutable_divergence();
    const bool result = static_cast<size_t>(std::max(d.action_index, 0)) >= hand->actions.size();
    out->set_point(d.action_index < 0 ? v1::REPLAY_POINT_SETUP
                   : result           ? v1::REPLAY_POINT_RESULT
                                      : v1::REPLAY_POINT_ACTION);
    if (out->point() == v1::REPLAY_POINT_ACTION) {
      out->set_action_index(d.action_index);
      out->set_action(d.action);
    }
    out->set_rule_id(d.rule_id);
    out->set_message(d.message);
    out->set_expected(d.expected);
  }
  for (size_t i = 0; i < report->final_stacks.size(); ++i) {
    v1::ReplaySeat* s = resp->add_seats();
    s->set_seat(static_cast<int32_t>(i + 1));
    s->set_stack(report->final_stacks[i]);
    s->set_won(report->won[i]);
  }
  resp->set_summary(history::DescribeReport(*hand, *report));
  resp->set_variant(static_cast<v1::Variant>(static_cast<int>(report->state.config.variant)));
  resp->set_unknown_cards(report->unknown_cards);
  // A hand with stand-in cards is never sealed: a token would treat invented
  // cards as real (views, later reports, a showdown won with one).
  if (report->state.config.num_seats > 0 && report->unknown_cards == 0) {
    SealedHand sealed;
    sealed.state = std::move(report->state);
    sealed.service.dealing_mode = v1::DEALING_MODE_LIVE;
    sealed.service.locale = v1::LOCALE_EN;
    sealed.service.hand_id = NewHandId();
    SetHandPolicy(call, &sealed.service);
    resp->set_hand_id(HandIdText(sealed.service));
    if (call.trace.hand != nullptr)
      call.trace.hand->NoteHandId(resp->hand_id());  // the new hand's id, for logs and span
    ChildSpan span(call.trace.span, "seal");
    resp->set_token(sealer_->Seal(SerializeSealedHand(sealed, options_.sealed_schema), call.tenant,
                                  sealed.service.hand_id));
    if (call.ledger != nullptr) {
      call.ledger->NoteSealed(sealed.service.hand_id, sealed.state.version, /*first_op=*/0,
                              sealed.state.phase == Phase::kComplete, resp->token());
    }
  }
  return absl::OkStatus();
}

}  // namespace stud::service
