// What a call's handler knew of the hand it answered for, for the call's
// metrics, span and log line.
//
// The observation of a call (observability.h, ServeUnary) reads most facts
// from the answer, but an answer may leave the public view out
// (UPDATE_DETAIL_CHANGES) or its fixed facts (UPDATE_DETAIL_COMPACT): the
// hands started and finished would then be counted without their game, or
// not at all. So the handler notes the hand's game, dealing mode and phase
// where it builds an update (rpc/hand_rpcs.cc FillUpdate), whatever the
// answer carries. One scope per call, on the call's thread.
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

#include <string>
#include <utility>

#include "absl/strings/string_view.h"

namespace stud::service {

struct HandFacts {
  int variant = 0;       // stud.v1.Variant
  int dealing_mode = 0;  // stud.v1.DealingMode
  int phase = 0;         // stud.v1.Phase after the call
};

class HandFactsScope {
 public:
  HandFactsScope() : previous_(current()) { current() = this; }
  ~HandFactsScope() { current() = previous_; }
  HandFactsScope(const HandFactsScope&) = delete;
  HandFactsScope& operator=(const HandFactsScope&) = delete;

  // Records the facts of the update being built; no-op without a scope.
  static void Note(const HandFacts& facts) {
    if (HandFactsScope* scope = current(); scope != nullptr) {
      scope->facts_ = facts;
      scope->noted_ = true;
    }
  }
  // Records the id of the hand the call is on; no-op without a scope. A
  // later note wins (a redeal opens the misdealt hand, then deals the new one).
  static void NoteHandId(std::string hand_id) {
    if (HandFactsScope* scope = current(); scope != nullptr) scope->hand_id_ = std::move(hand_id);
  }
  // The innermost scope's hand id; "" outside a call or before it is known.
  static absl::string_view HandId() {
    const HandFactsScope* scope = current();
    return scope != nullptr ? absl::string_view(scope->hand_id_) : absl::string_view();
  }
  // The innermost scope's facts when noted, else null.
  static const HandFacts* Noted() {
    const HandFactsScope* scope = current();
    return scope != nullptr && scope->noted_ ? &scope->facts_ : nullptr;
  }

 private:
  static HandFactsScope*& current() {
    thread_local HandFactsScope* scope = nullptr;
    return scope;
  }
  HandFactsScope* previous_;
  HandFacts facts_;
  bool noted_ = false;
  std::string hand_id_;
};

}  // namespace stud::service

#endif  // STUD_SERVICE_OBSERVABILITY_HAND_FACTS_H_
