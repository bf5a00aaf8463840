// The bottom floor of the engine: streets, action kinds, chips, rule IDs and
// rule violations. Every other engine file may include it; it includes no
// engine file but the equally basic card.h, stakes.h and rule_id.h.
#ifndef STUD_ENGINE_BASICS_H_
#define STUD_ENGINE_BASICS_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "engine/rule_id.h"
#include "engine/stakes.h"

namespace stud {

enum class Street : uint8_t { kThird = 3, kFourth = 4, kFifth = 5, kSixth = 6, kSeventh = 7 };

enum class ActionKind : uint8_t {
  kFold = 1,
  kCheck,
  kCall,           // amount_to = the level called (less when all-in)
  kBringIn,        // amount_to = the bring-in (less when all-in) [STUD-BRING-4]
  kComplete,       // amount_to = the small bet [STUD-BRING-5]
  kBet,            // amount_to = the bet
  kRaise,          // amount_to = the new level
  kShow,           // showdown: show the hand [STUD-SHOW-1]
  kMuck,           // showdown: surrender without showing [STUD-SHOW-2]
  kDeal,           // reported dealing: `card` to `seat` (kBoardSeat for a common card)
  kDeclareAllIn,   // face-up final card: stay in for what is already in [STUD-IRR-EXP-5]
  kDeclineOption,  // face-up final card: keep playing normally [STUD-IRR-EXP-5]
  // Reported dealing, seat kBoardSeat: a card burned [STUD-DEAL-3] (`card`
  // unless Action::unseen; face_up when the dealer showed it), and the
  // reshuffle of the burns, aside cards and stub when the deck runs out
  // [STUD-DECK-1]. NextDeal's `step` says when each is due.
  kBurn,
  kReshuffle,
};

absl::string_view StreetName(Street s);  // "3rd street" .. "7th street"
absl::string_view ActionKindName(ActionKind k);

// The payload that carries a refusal's rule ID ("STUD-CAP-1").
inline constexpr char kRuleIdPayloadUrl[] = "type.stud.dev/stud.RuleId";
// FAILED_PRECONDITION whose message starts with the rule's catalogue ID
// ("STUD-CAP-1: ...") and which carries it as a payload for RuleIdOf. The
// service's own refusals use it; the engine's carry facts (Refuse,
// engine/refusal.h).
absl::Status RuleViolation(RuleId rule_id, absl::string_view message);
// The rule ID carried by a RuleViolation status, or "".
std::string RuleIdOf(const absl::Status& status);

}  // namespace stud

#endif  // STUD_ENGINE_BASICS_H_
