#include "engine/basics.h"

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"

namespace stud {
absl::string_view StreetName(Street s) {
  switch (s) {
    case Street::kThird:
      return "3rd street";
    case Street::kFourth:
      return "4th street";
    case Street::kFifth:
      return "5th street";
    case Street::kSixth:
      return "6th street";
    case Street::kSeventh:
      return "7th street";
  }
  return "unknown street";
}

absl::string_view ActionKindName(ActionKind k) {
  switch (k) {
    case ActionKind::kFold:
      return "fold";
    case ActionKind::kCheck:
      return "check";
    case ActionKind::kCall:
      return "call";
    case ActionKind::kBringIn:
      return "bring-in";
    case ActionKind::kComplete:
      return "complete";
    case ActionKind::kBet:
      return "bet";
    case ActionKind::kRaise:
      return "raise";
    case ActionKind::kShow:
      return "show";
    case ActionKind::kMuck:
      return "muck";
    case ActionKind::kDeal:
      return "deal";
    case ActionKind::kDeclareAllIn:
      return "declare all-in";
    case ActionKind::kDeclineOption:
      return "decline the option";
    case ActionKind::kBurn:
      return "burn";
    case ActionKind::kReshuffle:
      return "reshuffle";
  }
  return "unknown";
}

absl::Status RuleViolation(RuleId rule_id, absl::string_view message) {
  const absl::string_view id = RuleIdName(rule_id);
  absl::Status s = absl::FailedPreconditionError(absl::StrCat(id, ": ", message));
  s.SetPayload(kRuleIdPayloadUrl, absl::Cord(id));
  return s;
}

std::string RuleIdOf(const absl::Status& status) {
  auto payload = status.GetPayload(kRuleIdPayloadUrl);
  return payload ? std::string(*payload) : std::string();
}

}  // namespace stud
