#include "service/rpc/call_hand.h"

#include <string>

namespace stud::service {
namespace {

// The token this thread's current call keeps its hand as, and that hand.
struct KeepAs {
  const SealedHand* hand = nullptr;
  std::string token;   // its capacity kept from call to call
  std::string digest;  // the same
};
KeepAs& ThisThreadsKeep() {
  thread_local KeepAs keep;
  return keep;
}

struct Slot {
  std::unique_ptr<SealedHand> hand;
  bool busy = false;
};
Slot& ThisThreadsHand() {
  thread_local Slot slot;
  return slot;
}

void Name(const SealedHand* hand, absl::string_view token, absl::string_view digest) {
  KeepAs& keep = ThisThreadsKeep();
  keep.hand = hand;
  keep.token.assign(token.data(), token.size());
  keep.digest.assign(digest.data(), digest.size());
}

}  // namespace

void KeepAsSealed(const SealedHand& hand, absl::string_view token, absl::string_view digest) {
  Name(&hand, token, digest);
}

void ForgetKeptAs() { ThisThreadsKeep().hand = nullptr; }

void KeepIfNamed(HandCache* cache, absl::string_view tenant, std::unique_ptr<SealedHand>* hand) {
  KeepAs& keep = ThisThreadsKeep();
  if (keep.hand == nullptr || keep.hand != hand->get()) return;
  keep.hand = nullptr;
  if (cache != nullptr) cache->Keep(keep.token, tenant, hand, keep.digest);
}

ThreadHand::ThreadHand(HandCache* cache, absl::string_view tenant)
    : cache_(cache), tenant_(tenant) {
  Slot& slot = ThisThreadsHand();
  if (slot.busy) {
    hand_ = &own_;
  } else {
    slot.busy = true;
    hand_ = &slot.hand;
  }
  if (*hand_ == nullptr) *hand_ = std::make_unique<SealedHand>();  // the cache took it
  ForgetKeptAs();
}

ThreadHand::~ThreadHand() {
  KeepIfNamed(cache_, tenant_, hand_);
  if (hand_ != &own_) ThisThreadsHand().busy = false;
}

void ThreadHand::KeepAsOpened(absl::string_view token, absl::string_view digest) {
  if (cache_ != nullptr) Name(hand_->get(), token, digest);
}

}  // namespace stud::service
