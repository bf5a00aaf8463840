// A call that completes through a callback, waited for on the calling
// thread: the ledger's synchronous forms (ledger.h) and RedisPipeline::Run.
#ifndef STUD_SERVICE_TRUST_WAITED_H_
#define STUD_SERVICE_TRUST_WAITED_H_

#include <future>
#include <utility>

namespace stud::service {

// Runs `start(done)` and returns the value `done` is called with. `done`
// may run on any thread, but never on the one waiting here. std::promise
// rather than absl::Notification: ThreadSanitizer sees the hand-over
// (Debian's Abseil is not instrumented).
template <typename T, typename Start>
T Waited(Start start) {
  std::promise<T> answered;
  std::future<T> result = answered.get_future();
  start([&answered](T value) { answered.set_value(std::move(value)); });
  return result.get();
}

}  // namespace stud::service

#endif  // STUD_SERVICE_TRUST_WAITED_H_
