#include "service/server/admission.h"

#include <algorithm>
#include <utility>

#include "service/observability/thread_name.h"

namespace stud::service {

Admission::Admission(int max_in_flight, int workers) : max_in_flight_(max_in_flight) {
  if (workers <= 0) workers = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (int i = 0; i < workers; ++i)
    threads_.emplace_back([this] {
      NameThisThread("stud-worker");
      Run();
    });
}

Admission::~Admission() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  work_.notify_all();
  for (std::thread& t : threads_) t.join();
}

bool Admission::TrySubmit(absl::AnyInvocable<void() &&> work) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (in_flight_ >= max_in_flight_) return false;
    ++in_flight_;
    queue_.push_back(std::move(work));
  }
  work_.notify_one();
  return true;
}

void Admission::Run() {
  for (;;) {
    absl::AnyInvocable<void() &&> work;
    {
      std::unique_lock<std::mutex> lock(mu_);
      work_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, nothing left
      work = std::move(queue_.front());
      queue_.pop_front();
    }
    std::move(work)();
    std::lock_guard<std::mutex> lock(mu_);
    --in_flight_;
  }
}

}  // namespace stud::service
