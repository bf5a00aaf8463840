// Amounts in words (text/vocabulary.h): dollars and cents in each language,
// as the announcements, rulings and refusals write them.

#include "text/vocabulary.h"

#include <cstdint>
#include <string>

#include "absl/strings/str_format.h"
#include "gtest/gtest.h"

namespace stud::text::words {
namespace {

TEST(VocabularyTest, MoneyIsWrittenWithTwoDigitsOfCents) {
  EXPECT_EQ(MoneyEn(0), "$0.00");
  EXPECT_EQ(MoneyEn(5), "$0.05");
  EXPECT_EQ(MoneyEn(150), "$1.50");
  EXPECT_EQ(MoneyEn(100000), "$1000.00");
  EXPECT_EQ(MoneyEs(0), "0,00 $");
  EXPECT_EQ(MoneyEs(1999), "19,99 $");
  EXPECT_EQ(MoneyEs(100000), "1000,00 $");
}

// The printf spelling the words were first written with, over amounts from a
// cent to the largest stacks, negatives included (a chip count never is, but
// a difference may be).
TEST(VocabularyTest, MoneyMatchesItsPrintfSpelling) {
  for (int64_t c = -100'000; c <= 100'000; c += 7) {
    const int64_t whole = c / 100, cents = (c < 0 ? -c : c) % 100;
    EXPECT_EQ(MoneyEn(c), absl::StrFormat("$%d.%02d", whole, cents)) << c;
    EXPECT_EQ(MoneyEs(c), absl::StrFormat("%d,%02d $", whole, cents)) << c;
  }
  for (int64_t c : {int64_t{1} << 40, (int64_t{1} << 44) + 3, -(int64_t{1} << 44) - 99}) {
    const int64_t whole = c / 100, cents = (c < 0 ? -c : c) % 100;
    EXPECT_EQ(MoneyEn(c), absl::StrFormat("$%d.%02d", whole, cents)) << c;
    EXPECT_EQ(MoneyEs(c), absl::StrFormat("%d,%02d $", whole, cents)) << c;
  }
}

}  // namespace
}  // namespace stud::text::words
