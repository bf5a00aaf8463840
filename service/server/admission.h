// Load shedding (--max_in_flight): a bounded queue of calls served by a
// fixed set of worker threads.
#ifndef STUD_SERVICE_SERVER_ADMISSION_H_
#define STUD_SERVICE_SERVER_ADMISSION_H_

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/functional/any_invocable.h"

namespace stud::service {

// The bounded queue and workers behind ServiceOptions::max_in_flight.
class Admission {
 public:
  Admission(int max_in_flight, int workers);
  ~Admission();  // runs what is queued, then joins the workers
  Admission(const Admission&) = delete;
  Admission& operator=(const Admission&) = delete;
  // Queues `work` unless max_in_flight calls are queued or running.
  bool TrySubmit(absl::AnyInvocable<void() &&> work);
  int max_in_flight() const { return max_in_flight_; }

 private:
  void Run();
  const int max_in_flight_;
  // std::mutex rather than absl::Mutex: pthread-based, so ThreadSanitizer sees
  // it (Debian's Abseil is not instrumented).
  std::mutex mu_;
  std::condition_variable work_;
  std::deque<absl::AnyInvocable<void() &&>> queue_;  // guarded by mu_
  int in_flight_ = 0;                                // queued + running; guarded by mu_
  bool stop_ = false;                                // guarded by mu_
  std::vector<std::thread> threads_;
};

}  // namespace stud::service

#endif  // STUD_SERVICE_SERVER_ADMISSION_H_
