#include "engine/ruling.h"

namespace stud {

absl::string_view DecisionName(Decision d) {
  switch (d) {
    case Decision::kThirdCardDown:
      return "THIRD_CARD_DOWN";
    case Decision::kMisdeal:
      return "MISDEAL";
    case Decision::kHandDeadAnteReturned:
      return "HAND_DEAD_ANTE_RETURNED";
    case Decision::kNoEffect:
      return "NO_EFFECT";
    case Decision::kKeepFaceUp:
      return "KEEP_FACE_UP";
    case Decision::kAllInOption:
      return "ALL_IN_OPTION";
    case Decision::kActFirstOption:
      return "ACT_FIRST_OPTION";
    case Decision::kBothFinalCardsUp:
      return "BOTH_FINAL_CARDS_UP";
    case Decision::kActionCorrected:
      return "ACTION_CORRECTED";
    case Decision::kActionStands:
      return "ACTION_STANDS";
    case Decision::kHandKilled:
      return "HAND_KILLED";
    case Decision::kBringInPostedHandKilled:
      return "BRING_IN_POSTED_HAND_KILLED";
    case Decision::kCheckedOut:
      return "CHECKED_OUT";
    case Decision::kCardsCorrected:
      return "CARDS_CORRECTED";
    case Decision::kCardsStand:
      return "CARDS_STAND";
    case Decision::kCardsTakenOut:
      return "CARDS_TAKEN_OUT";
    case Decision::kPlayerKeepsCard:
      return "PLAYER_KEEPS_CARD";
    case Decision::kHandLive:
      return "HAND_LIVE";
    case Decision::kNoRefund:
      return "NO_REFUND";
    case Decision::kWarning:
      return "WARNING";
    case Decision::kTimeoutAllIn:
      return "TIMEOUT_ALL_IN";
    case Decision::kTimeoutFold:
      return "TIMEOUT_FOLD";
    case Decision::kTimeoutCheck:
      return "TIMEOUT_CHECK";
    case Decision::kActionBinding:
      return "ACTION_BINDING";
    case Decision::kPlaysShort:
      return "PLAYS_SHORT";
  }
  return "UNKNOWN";
}

}  // namespace stud
