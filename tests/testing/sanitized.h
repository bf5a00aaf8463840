// kSanitized: true in the sanitizer builds (tools/sanitize.sh), where every
// instrumented step costs several times as much, so the long sweeps run a
// fraction of their hands or cards there. GCC names the sanitizers with
// __SANITIZE_*__, clang (which the sanitizer builds use) with __has_feature.
#ifndef STUD_TESTS_TESTING_SANITIZED_H_
#define STUD_TESTS_TESTING_SANITIZED_H_

namespace stud::testing {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

}  // namespace stud::testing

#endif  // STUD_TESTS_TESTING_SANITIZED_H_
