// HandService::WriteUpdate: FillUpdate's HandUpdate written straight to its
// wire bytes, for the answers that go out as bytes (CallContext::
// response_bytes: NewHand's, ApplyAction's, GetView's and WatchHand's). Building the message and
// then serializing it was most of an ApplyAction's work (docs/benchmarks.md): a few hundred small
// messages and strings set, then walked twice by protobuf (sizes, then bytes), each card proof's
// path included. Here each field is written once, in field-number order as protobuf writes it, a
// card proof copied from the bytes made once per hand and deck position (fairness_view.h,
// WriteFairness).
//
// The mapping is FillUpdate's (hand_rpcs.cc, api/convert.cc, fairness_view.cc)
// and every field number is the generated code's; the few sub-messages with
// many fields and no repeated parts (the rule options, an announcement) are
// filled by the same Encode function as the message and serialized by
// protobuf (the rule options' bytes kept per thread). tests/service/update_bytes_test.cc checks the
// bytes against protobuf's serialization of FillUpdate's message over many hands. A sampled call's
// span reads its street and rule IDs from the message; here they are noted for it
// (HandFactsSink::NoteAnswer).
#include <algorithm>
#include <array>
#include <string>

#include "absl/container/inlined_vector.h"
#include "absl/strings/string_view.h"
#include "engine/view.h"
#include "service/api/announce.h"
#include "service/api/compact.h"
#include "service/api/convert.h"
#include "service/observability/hand_facts.h"
#include "service/observability/tracing.h"
#include "service/rpc/dealing.h"
#include "service/rpc/fairness_view.h"
#include "service/rpc/hand_service.h"
#include "service/rpc/receipt_view.h"

namespace stud::service {
namespace v1 = stud::v1;

namespace {

// An int32, int64 or enum field: negative values sign-extended, as protobuf.
void Int(wire::Writer& out, uint32_t field, int64_t v) {
  out.VarintField(field, static_cast<uint64_t>(v));
}
void Bool(wire::Writer& out, uint32_t field, bool v) { out.VarintField(field, v ? 1 : 0); }

// A sub-message serialized by protobuf.
void MessageField(wire::Writer& out, uint32_t field, const google::protobuf::MessageLite& m) {
  const size_t size = m.ByteSizeLong();
  out.Room(size + 16);
  out.Tag(field, wire::kLen);
  out.Varint(size);
  out.set_p(m.SerializeWithCachedSizesToArray(out.p()));
}

// The public view's RuleOptions as protobuf serializes EncodeOptions(o),
// kept per thread for the last few distinct options: a hand's options never
// change, and most tables share a profile's, so nearly every answer copies
// bytes instead of filling and serializing a 30-field message.
absl::string_view OptionsBytes(const Options& o) {
  struct Kept {
    Options options;
    std::string bytes;
  };
  constexpr size_t kKept = 4;
  thread_local std::array<Kept, kKept> kept;
  thread_local size_t used = 0, next = 0;  // kept[0..used) hold options; next is replaced next
  for (size_t i = 0; i < used; ++i) {
    if (kept[i].options == o) return kept[i].bytes;
  }
  Kept& k = kept[next];
  next = (next + 1) % kKept;
  used = std::max(used, next == 0 ? kKept : next);
  v1::RuleOptions message;  // scalars only: no allocation
  EncodeOptions(o, &message);
  k.options = o;
  message.SerializeToString(&k.bytes);
  return k.bytes;
}

// One stud.v1.SeatCard; `card` null when the viewer may not see it; a
// compact answer's without its street (api/compact.h).
void WriteSeatCard(wire::Writer& out, uint32_t field, const Card* card, bool face_up, Street street,
                   bool compact) {
  const size_t at = out.Open(field);
  if (card != nullptr) out.TwoByteField(v1::SeatCard::kCardFieldNumber, card->Code());
  Bool(out, v1::SeatCard::kFaceUpFieldNumber, face_up);
  if (!compact) Int(out, v1::SeatCard::kStreetFieldNumber, EncodeStreet(street));
  out.Close(at);
}

// EncodeOperation's message.
void WriteOperation(wire::Writer& out, uint32_t field, const HandState& state, const Operation& op,
                    uint32_t index, int viewer) {
  using O = v1::Operation;
  const size_t at = out.Open(field);
  out.VarintField(O::kIndexFieldNumber, index);
  Int(out, O::kTypeFieldNumber, static_cast<int>(op.type));
  Int(out, O::kSeatFieldNumber, op.seat);
  Int(out, O::kStreetFieldNumber, EncodeStreet(op.street));
  if (const std::optional<Card> card = OperationCard(state, op, viewer)) {
    out.TwoByteField(O::kCardFieldNumber, card->Code());
  }
  Bool(out, O::kFaceUpFieldNumber, op.face_up);
  Bool(out, O::kAllInFieldNumber, op.all_in);
  if (op.type == OpType::kAward) {
    Int(out, O::kPotFieldNumber, op.pot);
    Int(out, O::kHalfFieldNumber, EncodePotHalf(op.half));
    Bool(out, O::kOddChipFieldNumber, op.odd_chip);
  }
  Int(out, O::kAmountFieldNumber, op.amount);
  Int(out, O::kAmountToFieldNumber, op.amount_to);
  out.BytesField(O::kRuleIdFieldNumber, RuleIdName(op.rule_id));
  out.Close(at);
}

// FillUpdate's public view: EncodePublicView, the hand's id, dealing mode,
// policy and commitment, then EncodeFairness. Compact (api/compact.h): without
// the hand's fixed facts, the seats the operations from `first_op` on do not
// touch, or the cards' streets; the proofs are still for every card the whole
// view shows, as MakeCompact leaves them.
void WritePublicView(const SealedHand& hand, bool compact, size_t first_op, wire::Writer& out) {
  using P = v1::PublicView;
  const TableView v = ViewFor(hand.state, kPublicViewer);
  const size_t at = out.OpenLong(v1::HandUpdate::kPublicViewFieldNumber);
  if (!compact) {
    Int(out, P::kVariantFieldNumber, EncodeVariant(v.variant));
    const size_t stakes = out.Open(P::kStakesFieldNumber);
    Int(out, v1::CustomStakes::kAnteFieldNumber, v.stakes.ante);
    Int(out, v1::CustomStakes::kBringInFieldNumber, v.stakes.bring_in);
    Int(out, v1::CustomStakes::kSmallBetFieldNumber, v.stakes.small_bet);
    Int(out, v1::CustomStakes::kBigBetFieldNumber, v.stakes.big_bet);
    out.Close(stakes);
    Int(out, P::kProfileFieldNumber, EncodeProfile(v.options.profile));
    out.BytesField(P::kOptionsFieldNumber, OptionsBytes(v.options), /*always=*/true);
    Int(out, P::kDealingModeFieldNumber, hand.service.dealing_mode);
  }
  out.VarintField(P::kVersionFieldNumber, v.version);
  Int(out, P::kPhaseFieldNumber, EncodePhase(v.phase));
  Int(out, P::kStreetFieldNumber, EncodeStreet(v.street));
  absl::InlinedVector<Card, kMaxSeats * 7 + 1> shown;  // what the proofs are for, in order
  const std::array<bool, kMaxSeats + 1> touched =
      compact ? TouchedSeats(hand.state, first_op) : std::array<bool, kMaxSeats + 1>{};
  for (const SeatView& s : v.seats) {
    using S = v1::SeatView;
    if (compact && !touched[static_cast<size_t>(s.seat)]) {
      for (const SeatView::VisibleCard& c : s.cards) {
        if (!c.hidden) shown.push_back(c.card);
      }
      continue;
    }
    const size_t seat = out.Open(P::kSeatsFieldNumber);
    Int(out, S::kSeatFieldNumber, s.seat);
    Int(out, S::kStackFieldNumber, s.stack);
    Int(out, S::kCommittedFieldNumber, s.committed);
    Int(out, S::kStreetBetFieldNumber, s.street_bet);
    Bool(out, S::kFoldedFieldNumber, s.folded);
    Bool(out, S::kAllInFieldNumber, s.all_in);
    Bool(out, S::kMuckedFieldNumber, s.mucked);
    Bool(out, S::kShownFieldNumber, s.shown);
    for (const SeatView::VisibleCard& c : s.cards) {
      WriteSeatCard(out, S::kCardsFieldNumber, c.hidden ? nullptr : &c.card, c.face_up, c.street,
                    compact);
      if (!c.hidden) shown.push_back(c.card);
    }
    out.Close(seat);
  }
  Int(out, P::kPotTotalFieldNumber, v.pot);
  Int(out, P::kBetToFieldNumber, v.bet_to);
  Int(out, P::kRaisesFieldNumber, v.raises);
  Int(out, P::kToActFieldNumber, v.actor);
  Int(out, P::kBringInSeatFieldNumber, v.bring_in_seat);
  if (v.common_card.has_value()) {
    out.TwoByteField(P::kCommonCardFieldNumber, v.common_card->Code());
    shown.push_back(*v.common_card);
  }
  const size_t commitment = out.Open(P::kDeckCommitmentFieldNumber);  // EncodeCommitment
  out.BytesField(v1::DeckCommitment::kCommitmentFieldNumber, hand.service.commitment);
  out.Close(commitment);
  for (const BoardPlace& place : v.board_order) {
    const size_t board = out.Open(P::kBoardOrderFieldNumber);
    Int(out, v1::BoardPlace::kSeatFieldNumber, place.seat);
    Int(out, v1::BoardPlace::kRankFieldNumber, place.rank);
    out.Close(board);
  }
  thread_local std::string hand_id;  // this thread's, its capacity kept
  HandIdTextTo(hand.service, &hand_id);
  out.BytesField(P::kHandIdFieldNumber, hand_id);
  if (!compact) {
    const size_t policy = out.Open(P::kPolicyFieldNumber);
    Bool(out, v1::HandPolicy::kSeatTicketsFieldNumber, hand.service.requires_seat_tickets);
    Bool(out, v1::HandPolicy::kLedgerFieldNumber, hand.service.requires_ledger);
    out.Close(policy);
  }
  WriteFairness(hand, shown, out);
  out.CloseLong(at);
}

}  // namespace

bool HandService::Writable(const CallContext& call, const SealedHand& hand) {
  return call.response_bytes != nullptr && !hand.service.seeding;
}

void HandService::WriteAnswer(const CallContext& call, const SealedHand& hand, size_t first_op,
                              const std::vector<int>& view_seats, UpdateParts parts,
                              absl::string_view token, const NextStep* next, uint32_t update_field,
                              absl::FunctionRef<void(wire::Writer&)> rest) const {
  wire::Writer out(call.response_bytes,
                   parts == UpdateParts::kChanges ? kChangesBytesEstimate : kUpdateBytesEstimate);
  const size_t at = out.OpenLong(update_field);
  WriteUpdate(call, hand, first_op, view_seats, parts, token, next, out);
  out.CloseLong(at);
  rest(out);
  out.Finish();
}

void HandService::WriteUpdate(const CallContext& call, const SealedHand& hand, size_t first_op,
                              const std::vector<int>& view_seats, UpdateParts parts,
                              absl::string_view token, const NextStep* given_next,
                              wire::Writer& out) const {
  using U = v1::HandUpdate;
  const HandState& state = hand.state;
  const absl::string_view answer_token = BeginUpdate(call, hand, first_op, token);
  out.BytesField(U::kTokenFieldNumber, answer_token);
  if (call.trace.hand != nullptr && call.trace.span != nullptr && call.trace.span->sampled()) {
    AnswerDetail answer;  // what the span would have read of the message
    if (parts != UpdateParts::kChanges) answer.street = EncodeStreet(state.street);
    for (size_t i = first_op; i < state.log.size(); ++i) {
      const absl::string_view rule = RuleIdName(state.log[i].rule_id);
      if (!rule.empty()) answer.rule_ids.emplace_back(rule);
    }
    call.trace.hand->NoteAnswer(std::move(answer));
  }
  out.VarintField(U::kVersionFieldNumber, state.version);
  const bool compact = parts == UpdateParts::kCompact;
  if (parts != UpdateParts::kChanges) WritePublicView(hand, compact, first_op, out);
  for (int seat : view_seats) {
    using V = v1::PrivateView;
    const size_t at = out.Open(U::kPrivateViewsFieldNumber);
    Int(out, V::kSeatFieldNumber, seat);
    absl::InlinedVector<Card, 8> shown;  // EncodeSeatCards, the viewer the seat itself
    const Seat& s = state.seats[static_cast<size_t>(seat)];
    for (int k = 0; k < s.num_cards; ++k) {
      const SeatCard& c = s.cards[static_cast<size_t>(k)];
      const bool visible = SeatCardVisibleTo(state, seat, c, seat);
      WriteSeatCard(out, V::kCardsFieldNumber, visible ? &c.card : nullptr, c.face_up, c.street,
                    compact);
      if (visible) shown.push_back(c.card);
    }
    for (size_t i = first_op; i < state.log.size(); ++i) {
      // Compact: only what this seat sees otherwise than everyone (its own down cards).
      const Operation& op = state.log[i];
      if (compact && SeenAsEveryone(state, op, seat)) continue;
      WriteOperation(out, V::kOperationsFieldNumber, state, op, static_cast<uint32_t>(i), seat);
    }
    WriteCardProofs(hand, shown, V::kCardProofsFieldNumber, out);
    out.Close(at);
  }
  for (size_t i = first_op; i < state.log.size(); ++i) {
    WriteOperation(out, U::kOperationsFieldNumber, state, state.log[i], static_cast<uint32_t>(i),
                   kPublicViewer);
  }
  std::optional<NextStep> asked;
  const NextStep& now = given_next != nullptr ? *given_next : asked.emplace(Next(state));
  Int(out, U::kToActFieldNumber, now.to_act);
  for (const LegalAction& a : now.legal) {  // EncodeLegalAction
    const size_t at = out.Open(U::kLegalActionsFieldNumber);
    Int(out, v1::LegalAction::kKindFieldNumber, EncodeActionKind(a.kind));
    Int(out, v1::LegalAction::kAmountToFieldNumber, a.amount_to);
    Int(out, v1::LegalAction::kAmountByFieldNumber, a.amount_by);
    Bool(out, v1::LegalAction::kAllInFieldNumber, a.all_in);
    out.Close(at);
  }
  if (now.deal.has_value()) {  // EncodeExpectedDeal
    const size_t at = out.Open(U::kExpectedDealFieldNumber);
    Int(out, v1::ExpectedDeal::kSeatFieldNumber, now.deal->seat);
    Bool(out, v1::ExpectedDeal::kFaceUpFieldNumber, now.deal->face_up);
    Int(out, v1::ExpectedDeal::kStreetFieldNumber, EncodeStreet(now.deal->street));
    Int(out, v1::ExpectedDeal::kStepFieldNumber, static_cast<int>(now.deal->step));
    out.Close(at);
  }
  if (parts == UpdateParts::kAll || compact) {
    // This thread's messages, cleared and refilled: their strings keep their capacity.
    thread_local google::protobuf::RepeatedPtrField<v1::Announcement> announced;
    announced.Clear();
    Announce(state, first_op, static_cast<v1::Locale>(hand.service.locale), &announced);
    for (const v1::Announcement& a : announced) MessageField(out, U::kAnnouncementsFieldNumber, a);
  }
  if (state.phase == Phase::kComplete) {  // FillReceiptOf's, as kept
    MessageField(out, U::kReceiptFieldNumber,
                 *ReceiptOf(hand, SigningKeys(), call.tenant, answer_token));
  }
}

}  // namespace stud::service
