#include "engine/hand_state.h"

namespace stud {

absl::string_view OpTypeName(OpType t) {
  switch (t) {
    case OpType::kAnte:
      return "ante";
    case OpType::kDeal:
      return "deal";
    case OpType::kBurn:
      return "burn";
    case OpType::kRecycle:
      return "recycle";
    case OpType::kCommonCard:
      return "common_card";
    case OpType::kBringIn:
      return "bring_in";
    case OpType::kComplete:
      return "complete";
    case OpType::kBet:
      return "bet";
    case OpType::kRaise:
      return "raise";
    case OpType::kCall:
      return "call";
    case OpType::kCheck:
      return "check";
    case OpType::kFold:
      return "fold";
    case OpType::kFirstToAct:
      return "first_to_act";
    case OpType::kStreetEnd:
      return "street_end";
    case OpType::kReturnUncalled:
      return "return_uncalled";
    case OpType::kShow:
      return "show";
    case OpType::kMuck:
      return "muck";
    case OpType::kAward:
      return "award";
    case OpType::kHandEnd:
      return "hand_end";
    case OpType::kRuling:
      return "ruling";
    case OpType::kExpose:
      return "expose";
    case OpType::kKill:
      return "kill";
    case OpType::kReturnAnte:
      return "return_ante";
    case OpType::kMisdeal:
      return "misdeal";
    case OpType::kAside:
      return "aside";
    case OpType::kReplaceCard:
      return "replace_card";
    case OpType::kDeclareAllIn:
      return "declare_all_in";
    case OpType::kDeclineOption:
      return "decline_option";
    case OpType::kTimeoutAllIn:
      return "timeout_all_in";
    case OpType::kOutOfTurn:
      return "out_of_turn";
  }
  return "unknown";
}

int LiveSeatCount(const HandState& st) {
  int n = 0;
  for (int i = 1; i <= st.config.num_seats; ++i) n += st.seats[i].live() ? 1 : 0;
  return n;
}

int ActiveSeatCount(const HandState& st) {
  int n = 0;
  for (int i = 1; i <= st.config.num_seats; ++i) n += st.seats[i].can_act() ? 1 : 0;
  return n;
}

Chips PotTotal(const HandState& st) {
  Chips total = 0;
  for (int i = 1; i <= st.config.num_seats; ++i) total += st.seats[i].committed;
  return total - st.paid_out;
}

CardSet UpCards(const HandState& st, int seat) {
  CardSet up;
  const Seat& s = st.seats[seat];
  for (int i = 0; i < s.num_cards; ++i) {
    if (s.cards[i].face_up) up.Add(s.cards[i].card);
  }
  if (st.has_common) up.Add(st.common_card);  // [STUD-ORDER-6, STUD-DECK-5]
  return up;
}

CardSet OwnCards(const HandState& st, int seat) {
  CardSet own;
  const Seat& s = st.seats[seat];
  for (int i = 0; i < s.num_cards; ++i) own.Add(s.cards[i].card);
  return own;
}

}  // namespace stud
