#include "engine/view.h"

namespace stud {
bool SeatCardVisibleTo(const HandState& st, int owner, const SeatCard& c, int viewer) {
  return c.face_up || owner == viewer || st.seats[owner].shown;
}

TableView ViewFor(const HandState& st, int viewer) {
  TableView v;
  v.viewer = viewer;
  v.variant = st.config.variant;
  v.stakes = StakesInPlay(st.config.stakes, st.config.options);
  v.options = st.config.options;
  v.phase = st.phase;
  v.street = st.street;
  v.version = st.version;
  v.actor = ToAct(st);
  v.pot = PotTotal(st);
  v.bet_to = st.bet_to;
  v.raises = st.raises;
  v.bring_in_seat = st.bring_in_seat;
  v.board_order = BoardOrder(st);
  if (st.has_common) v.common_card = st.common_card;
  v.seats.reserve(static_cast<size_t>(st.config.num_seats));
  for (int i = 1; i <= st.config.num_seats; ++i) {
    const Seat& s = st.seats[i];
    SeatView sv{.seat = i,
                .stack = s.stack,
                .committed = s.committed,
                .street_bet = s.street_bet,
                .folded = s.folded,
                .all_in = s.all_in,
                .mucked = s.mucked,
                .shown = s.shown};
    sv.cards.reserve(s.num_cards);
    for (int k = 0; k < s.num_cards; ++k) {
      const SeatCard& c = s.cards[k];
      SeatView::VisibleCard vc{.face_up = c.face_up, .street = c.street};
      if (SeatCardVisibleTo(st, i, c, viewer)) {
        vc.card = c.card;
      } else {
        vc.hidden = true;
      }
      sv.cards.push_back(vc);
    }
    v.seats.push_back(std::move(sv));
  }
  return v;
}

bool CardVisibleTo(const HandState& st, const Operation& op, int viewer) {
  switch (op.type) {
    case OpType::kDeal:
      return op.face_up || op.seat == viewer || st.seats[op.seat].shown;
    case OpType::kCommonCard:
    case OpType::kFirstToAct:  // the door card that brings in is face up
    case OpType::kExpose:      // an exposed card is public [STUD-IRR-EXP-*]
      return true;
    case OpType::kAside:
      return op.amount == 0 && (op.face_up || (op.seat != kBoardSeat && op.seat == viewer));
    case OpType::kReplaceCard:
      return op.face_up || op.seat == viewer || st.seats[op.seat].shown;
    case OpType::kBurn:
      return op.amount == 0 && op.face_up;  // a LIVE burn the dealer showed [STUD-DEAL-3]
    default:
      return false;  // burns and everything without a card
  }
}

Operation RedactFor(const HandState& st, const Operation& op, int viewer, bool* card_hidden) {
  Operation out = op;
  const bool has_card = op.type == OpType::kDeal || op.type == OpType::kBurn ||
                        op.type == OpType::kCommonCard || op.type == OpType::kFirstToAct ||
                        op.type == OpType::kExpose || op.type == OpType::kAside ||
                        op.type == OpType::kReplaceCard;
  const bool hidden = has_card && !CardVisibleTo(st, op, viewer);
  if (hidden || !has_card) out.card = Card();
  if (card_hidden != nullptr) *card_hidden = hidden;
  return out;
}

}  // namespace stud
