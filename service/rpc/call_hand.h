// The hand a call works on, and how it meets the hand cache
// (token/hand_cache.h): a call opens its token into a hand kept per thread,
// or is given the hand the cache kept as that token; when it ends, its hand
// goes to the cache under the token it answered with, if it named one.
//
// Naming is per thread and names the hand by address, so that only the owner
// of that hand keeps it, and only once: BeginUpdate names the token it sealed
// from a hand (KeepAsSealed), a call that only reads its hand names the token
// it opened (ThreadHand::KeepAsOpened), and a call that fails after changing
// its hand names nothing, so that hand is never kept.
#ifndef STUD_SERVICE_RPC_CALL_HAND_H_
#define STUD_SERVICE_RPC_CALL_HAND_H_

#include <memory>

#include "absl/strings/string_view.h"
#include "service/token/codec.h"
#include "service/token/hand_cache.h"

namespace stud::service {

// The token just sealed from `hand`: its owner keeps it as that token when
// its call ends (a ThreadHand, or NewHand's KeepIfNamed), with the ledger's
// `digest` of it ("" without a ledger).
void KeepAsSealed(const SealedHand& hand, absl::string_view token, absl::string_view digest);
// Nothing named yet on this thread: the start of a call that owns its hand.
void ForgetKeptAs();
// Keeps **hand in `cache` (null: none) as the token named for it on this
// thread, if one was; *hand may then be another hand or null.
void KeepIfNamed(HandCache* cache, absl::string_view tenant, std::unique_ptr<SealedHand>* hand);

// The SealedHand a call opens its token into: this thread's, reused from call
// to call so that its vectors and strings keep their capacity
// (ParseSealedHandInto), or a new one for a call made while the thread's is
// in use (a call within a call: none today, and still correct). The hand
// cache may trade it for the hand it kept (HandCache::Take); when the call
// ends it goes to the cache if the call named a token for it.
class ThreadHand {
 public:
  // `cache` (null: none) and `tenant` (the call's) must outlive this.
  ThreadHand(HandCache* cache, absl::string_view tenant);
  ~ThreadHand();
  ThreadHand(const ThreadHand&) = delete;
  ThreadHand& operator=(const ThreadHand&) = delete;
  // The hand's owner, for UnsealInto; the hand itself once it is opened.
  std::unique_ptr<SealedHand>* owner() { return hand_; }
  SealedHand* get() { return hand_->get(); }
  // The call opened its hand from `token` and does not change it: the hand
  // is kept as that token, with the ledger's `digest` of it ("" without a
  // ledger), when the call ends.
  void KeepAsOpened(absl::string_view token, absl::string_view digest);

 private:
  HandCache* const cache_;
  const absl::string_view tenant_;
  std::unique_ptr<SealedHand> own_;  // a call within a call
  std::unique_ptr<SealedHand>* hand_;
};

}  // namespace stud::service

#endif  // STUD_SERVICE_RPC_CALL_HAND_H_
