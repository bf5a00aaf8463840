// HandService::RuleIrregularity: a dealer's or player's irregularity
// reported by the table, checked against the request's kind and ruled by the
// engine (engine/irregularities.h).
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/advance.h"
#include "engine/engine.h"
#include "engine/irregularities.h"
#include "engine/pot.h"
#include "service/api/announce.h"
#include "service/api/convert.h"
#include "service/api/ruling.h"
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

constexpr size_t kMaxNoteBytes = 500;

// What a report of the request's kind needs (engine/irregularity_report.h),
// or null for no kind.
const IrregularityTraits* RuleFor(v1::IrregularityKind kind) {
  return TraitsOfApiNumber(static_cast<int>(kind));
}

// The engine report of a validated request report.
absl::StatusOr<IrregularityReport> DecodeReport(const v1::IrregularityReport& r,
                                                const IrregularityTraits& rule,
                                                std::vector<Card> cards) {
  IrregularityReport out;
  out.kind = rule.kind;
  out.seat = r.seat();
  if (rule.needs_street) out.street = static_cast<Street>(static_cast<int>(r.street()));
  switch (rule.kind) {
    case IrregularityKind::kHolecardExposed:
    case IrregularityKind::kCardOffTable:
    case IrregularityKind::kFinalCardFaceUp:
      out.has_card = true;
      out.card = cards.at(0);
      break;
    case IrregularityKind::kSkippedSeat:  // none, or the missed card [STUD-IRR-BURN-1]
      if (cards.size() > 1) {
        return absl::InvalidArgumentError("report.cards: at most the one missed card");
      }
      if (!cards.empty()) {
        out.has_card = true;
        out.card = cards[0];
      }
      break;
    case IrregularityKind::kBurnError:
      if (cards.size() > 1)
        return absl::InvalidArgumentError("report.cards: at most the one misplaced card");
      if (!cards.empty()) {
        out.has_card = true;
        out.card = cards[0];
      }
      break;
    // None, or both hole cards: the engine checks them against the seat [STUD-IRR-EXP-2].
    case IrregularityKind::kBothHolecardsExposed:
    case IrregularityKind::kPrematureDeal:
      out.cards = std::move(cards);
      break;
    default:
      break;
  }
  const bool acts = rule.kind == IrregularityKind::kWrongOpener ||
                    rule.kind == IrregularityKind::kActionOutOfTurn;
  if (r.action() != v1::ACTION_KIND_UNSPECIFIED) {
    if (!acts || r.action() < v1::ACTION_KIND_FOLD || r.action() > v1::ACTION_KIND_RAISE) {
      return absl::InvalidArgumentError(
          "report.action: a betting action, for WRONG_OPENER and ACTION_OUT_OF_TURN only");
    }
    out.action = static_cast<ActionKind>(static_cast<int>(r.action()));
  } else if (acts) {
    return absl::InvalidArgumentError(
        "report.action: required for WRONG_OPENER and ACTION_OUT_OF_TURN");
  }
  if (r.amount_to() < 0)
    return absl::InvalidArgumentError("report.amount_to: must not be negative");
  out.amount_to = r.amount_to();
  out.next_acted = r.next_acted();
  out.burn_delta = r.burn_delta();
  if (r.moves_size() > kMaxSeats) {
    return absl::InvalidArgumentError("report.moves: at most one per seat");
  }
  if (r.kept_seats_size() > kMaxSeats) {
    return absl::InvalidArgumentError("report.kept_seats: at most one per seat");
  }
  for (int i = 0; i < r.moves_size(); ++i) {
    absl::StatusOr<Card> c =
        DecodeCard(r.moves(i).card(), absl::StrCat("report.moves[", i, "].card"));
    if (!c.ok()) return c.status();
    out.moves.push_back({r.moves(i).seat(), *c});
  }
  for (int seat : r.kept_seats()) out.seats.push_back(seat);
  out.card_count = r.card_count();
  out.declare_live = r.declare_live();
  out.allowance_remaining = r.allowance_remaining();
  out.disconnect = r.disconnect();
  if (!r.kept_card().empty()) {
    if (rule.kind != IrregularityKind::kPrematureDeal) {
      return absl::InvalidArgumentError("report.kept_card: for PREMATURE_DEAL only");
    }
    absl::StatusOr<Card> c = DecodeCard(r.kept_card(), "report.kept_card");
    if (!c.ok()) return c.status();
    out.has_card = true;
    out.card = *c;
  }
  return out;
}

// The engine names its own report fields; the request names some of them
// differently: `card` is cards[0] (kept_card for PREMATURE_DEAL) and `seats`
// is kept_seats. Rewrites the path at the start of an INVALID_ARGUMENT.
absl::Status WithRequestFieldPath(absl::Status s, IrregularityKind kind) {
  if (s.code() != absl::StatusCode::kInvalidArgument) return s;
  s = text::Worded(std::move(s));
  const absl::string_view msg = s.message();
  if (absl::StartsWith(msg, "report.card:")) {
    return text::RenameField(
        std::move(s), "report.card",
        kind == IrregularityKind::kPrematureDeal ? "report.kept_card" : "report.cards[0]");
  }
  if (absl::StartsWith(msg, "report.seats")) {
    return text::RenameField(std::move(s), "report.seats", "report.kept_seats");
  }
  return s;
}

}  // namespace

absl::Status HandService::RuleIrregularity(const v1::RuleIrregularityRequest& req,
                                           v1::RuleIrregularityResponse* resp,
                                           const CallContext& call) const {
  absl::StatusOr<SealedHand> hand = Unseal(call, req.token(), req.expected_hand_id());
  if (!hand.ok()) return hand.status();
  if (absl::Status st = Permit(call, req, *hand); !st.ok()) return st;
  if (hand->service.seeding) return SeedingPending();  // nothing dealt yet [STUD-DEAL-6]
  if (!req.has_report()) return absl::InvalidArgumentError("report: required");
  const v1::IrregularityReport& r = req.report();
  const IrregularityTraits* const traits = RuleFor(r.kind());
  if (traits == nullptr)
    return absl::InvalidArgumentError("report.kind: required: an IRREGULARITY_KIND_ value");
  const IrregularityTraits& rule = *traits;
  const int n = hand->state.config.num_seats;
  if (rule.needs_seat && (r.seat() < 1 || r.seat() > n)) {
    return absl::InvalidArgumentError(
        absl::StrCat("report.seat: required for this kind; must be 1..", n));
  }
  if (!rule.needs_seat && r.seat() != 0 && r.kept_card().empty()) {
    return absl::InvalidArgumentError("report.seat: not used by this kind; leave it 0");
  }
  if (rule.kind == IrregularityKind::kBothHolecardsExposed && r.cards_size() != 0 &&
      r.cards_size() != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("report.cards: none, or both hole cards of the seat; got ", r.cards_size()));
  }
  if (rule.cards >= 0 && r.cards_size() != rule.cards &&
      !(rule.kind == IrregularityKind::kBothHolecardsExposed && r.cards_size() == 2)) {
    return absl::InvalidArgumentError(absl::StrCat("report.cards: this kind names exactly ",
                                                   rule.cards, " card(s), got ", r.cards_size()));
  }
  if (r.cards_size() > kMaxSeats) {  // before decoding: never parse an unbounded list
    return absl::InvalidArgumentError(
        absl::StrCat("report.cards: at most ", kMaxSeats, ", got ", r.cards_size()));
  }
  absl::StatusOr<std::vector<Card>> cards = DecodeCards(r.cards(), "report.cards");
  if (!cards.ok()) return cards.status();
  const int street = static_cast<int>(r.street());
  if (rule.needs_street && (street < 3 || street > 7)) {
    return absl::InvalidArgumentError(
        "report.street: required for this kind: STREET_THIRD..STREET_SEVENTH");
  }
  if (!rule.needs_street && street != 0) {
    return absl::InvalidArgumentError("report.street: not used by this kind; leave it unspecified");
  }
  if (r.note().size() > kMaxNoteBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("report.note: at most ", kMaxNoteBytes, " bytes"));
  }
  if (absl::Status st =
          CheckVersion(req.has_expected_version(), req.expected_version(), hand->state);
      !st.ok()) {
    return st;
  }
  absl::StatusOr<std::vector<int>> views =
      DecodeViewSeats(req.private_view_seats(), n, "private_view_seats");
  if (!views.ok()) return views.status();
  absl::StatusOr<UpdateParts> parts = DecodeDetail(req.detail());
  if (!parts.ok()) return parts.status();
  absl::StatusOr<IrregularityReport> report = DecodeReport(r, rule, *std::move(cards));
  if (!report.ok()) return report.status();
  const size_t first_op = hand->state.log.size();
  absl::StatusOr<Step> step = Advance(hand->state, *report, NextSteps::kSkip);
  if (!step.ok()) return WithRequestFieldPath(step.status(), report->kind);
  EncodeRuling(hand->state, *step->ruling, resp->mutable_ruling());
  FillUpdate(call, *hand, first_op, *views, *parts, "", resp->mutable_update());
  return absl::OkStatus();
}

}  // namespace stud::service
