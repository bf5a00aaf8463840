// Names the calling thread for people and their tools: `top -H`, `ps -L`,
// perf, gdb and /proc/PID/task/TID/comm show the name instead of the
// program's. The service's own threads call it first thing (docs/runbook.md,
// "Threads"): gRPC names its threads, and an unnamed busy thread beside them
// is one an operator cannot place.
//
// Linux keeps 15 bytes of a name and refuses a longer one (ERANGE), which
// would leave the thread unnamed without a word: a longer name is cut to 15.
#ifndef STUD_SERVICE_OBSERVABILITY_THREAD_NAME_H_
#define STUD_SERVICE_OBSERVABILITY_THREAD_NAME_H_

#include <pthread.h>

#include <cstddef>
#include <string>

#include "absl/strings/string_view.h"

namespace stud::service {

inline constexpr size_t kMaxThreadName = 15;

inline void NameThisThread(absl::string_view name) {
  const std::string cut(name.substr(0, kMaxThreadName));
  pthread_setname_np(pthread_self(), cut.c_str());
}

}  // namespace stud::service

#endif  // STUD_SERVICE_OBSERVABILITY_THREAD_NAME_H_
