// What a call's handler knew of the hand it answered for, for the call's
// metrics, span and log line.
//
// The observation of a call (observability.h, ServeUnary) reads most facts
// from the answer, but an answer may leave the public view out
// (UPDATE_DETAIL_CHANGES) or its fixed facts (UPDATE_DETAIL_COMPACT): the
// hands started and finished would then be counted without their game, or
// not at all. So the handler notes the hand's game, dealing mode and phase
// where it builds an update (rpc/hand_rpcs.cc FillUpdate), whatever the
// answer carries. One sink per call (the call's observation owns it), passed
// to the handler as a parameter (call_trace.h, CallTrace::hand).
//
// The hand's id (HandIdText, the 32 hex digits a player's screen shows) is
// noted as soon as the handler knows it: the call's token opened
// (HandService::Unseal) or a new hand was dealt or replayed. Every log line
// written during the call then carries it as "hand_id" (logging.cc) and the
// call's span as "stud.hand_id" (observability.cc), so a disputed hand can be
// followed from its id. A call that names no hand, or whose token does not
// open, has none: an id the caller merely claims is never logged as the hand's.
#ifndef STUD_SERVICE_OBSERVABILITY_HAND_FACTS_H_
#define STUD_SERVICE_OBSERVABILITY_HAND_FACTS_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/string_view.h"

namespace stud::service {

// What a sampled call's span reads of its answer (observability.cc): the
// public view's street (0 when the answer has none) and the rule IDs its
// operations name. Noted by a handler whose answer leaves as bytes, not as
// the message the span would read them from (rpc/update_bytes.cc).
struct AnswerDetail {
  int street = 0;  // stud.v1.Street
  std::vector<std::string> rule_ids;
};

struct HandFacts {
  int variant = 0;                     // stud.v1.Variant
  int dealing_mode = 0;                // stud.v1.DealingMode
  int phase = 0;                       // stud.v1.Phase after the call
  std::optional<AnswerDetail> answer;  // set when the answer is not a message
};

class HandFactsSink {
 public:
  // Records the facts of the update being built.
  void Note(HandFacts facts) {
    facts_ = std::move(facts);
    noted_ = true;
  }
  // Records what the span reads of an answer sent as bytes (after Note).
  void NoteAnswer(AnswerDetail answer) { facts_.answer = std::move(answer); }
  // Records the id of the hand the call is on. A later note wins (a redeal
  // opens the misdealt hand, then deals the new one).
  void NoteHandId(absl::string_view hand_id) { hand_id_.assign(hand_id.begin(), hand_id.end()); }
  // "" before the id is known.
  absl::string_view hand_id() const { return {hand_id_.data(), hand_id_.size()}; }
  // The facts when noted, else null.
  const HandFacts* noted() const { return noted_ ? &facts_ : nullptr; }

 private:
  HandFacts facts_;
  bool noted_ = false;
  absl::InlinedVector<char, 32> hand_id_;  // 32 hex digits: kept in place, no allocation
};

}  // namespace stud::service

#endif  // STUD_SERVICE_OBSERVABILITY_HAND_FACTS_H_
