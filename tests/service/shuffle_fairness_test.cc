// The SERVICE shuffle is fair: statistical tests over 1 000 000 decks from
// the service's own ShuffledDeck() (docs/reliability.md, "Fair shuffle").
//
//   card-by-position  52 x 52 table of where each card lands; chi-square,
//                     (52-1)^2 = 2601 degrees of freedom
//   adjacent pairs    one ordered pair (deck[p], deck[p+1]) per deck, p = deck
//                     number mod 51 (one pair per deck keeps the observations
//                     independent); 52 * 51 = 2652 cells, 2651 d.f.
//   first card        which card is dealt first; 52 cells, 51 d.f.
//
// Each statistic fails when it exceeds the chi-square quantile with upper
// tail 1e-6 (Wilson-Hilferty approximation), so a fair shuffle fails one run
// with probability at most 3e-6 (union bound over the three). Known-biased
// shuffles run through the same three statistics in the same test and must
// fail: Fisher-Yates with one random byte reduced modulo the range ("naive
// modulo": 256 mod 52 != 0), and the classic "swap with any position" loop
// (for i: swap(d[i], d[rand(52)]), 52^52 equally likely paths onto 52!
// permutations). The decks of each run: STUD_SHUFFLES (default 1 000 000).
#include <sodium.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "service/rpc/dealing.h"
#include "service/token/sealer.h"
#include "tests/testing/status_matchers.h"

namespace stud::service {
namespace {

using ::stud::testing::IsOk;

constexpr int kN = kDeckSize;
constexpr double kTail = 1e-6;
constexpr double kZ = 4.753424;  // standard normal upper quantile for 1e-6

// Chi-square quantile with upper tail kTail (Wilson-Hilferty).
double Critical(double df) {
  const double a = 2.0 / (9.0 * df);
  return df * std::pow(1.0 - a + kZ * std::sqrt(a), 3.0);
}

double ChiSquare(const std::vector<uint64_t>& observed, double expected) {
  double sum = 0;
  for (uint64_t o : observed)
    sum += (static_cast<double>(o) - expected) * (static_cast<double>(o) - expected) / expected;
  return sum;
}

struct Statistic {
  std::string name;
  double value, df, critical;
  bool fails() const { return value > critical; }
};

// Runs the three statistics over `decks` shuffles of `shuffle`, which writes
// a permutation of 0..51 (card indices) in dealing order.
std::vector<Statistic> Measure(const std::function<void(std::array<uint8_t, kN>&)>& shuffle,
                               int decks) {
  std::vector<uint64_t> position(kN * kN, 0), pairs(kN * kN, 0), first(kN, 0);
  std::array<uint8_t, kN> d{};
  for (int n = 0; n < decks; ++n) {
    shuffle(d);
    for (int p = 0; p < kN; ++p) ++position[static_cast<size_t>(d[p] * kN + p)];
    const int p = n % (kN - 1);
    ++pairs[static_cast<size_t>(d[p] * kN + d[p + 1])];
    ++first[d[0]];
  }
  // The diagonal (a card next to itself) cannot occur.
  std::vector<uint64_t> offdiag;
  for (int a = 0; a < kN; ++a) {
    for (int b = 0; b < kN; ++b) {
      if (a != b) offdiag.push_back(pairs[static_cast<size_t>(a * kN + b)]);
    }
  }
  const double dn = decks;
  std::vector<Statistic> out = {
      {"card-by-position", ChiSquare(position, dn / kN), (kN - 1.0) * (kN - 1.0), 0},
      {"adjacent pairs", ChiSquare(offdiag, dn / (kN * (kN - 1.0))), kN * (kN - 1.0) - 1, 0},
      {"first card", ChiSquare(first, dn / kN), kN - 1.0, 0},
  };
  for (Statistic& s : out) s.critical = Critical(s.df);
  return out;
}

int Decks() {
  const char* env = std::getenv("STUD_SHUFFLES");
  return env != nullptr ? std::atoi(env) : 1000000;
}

void Report(const char* shuffle, const std::vector<Statistic>& stats) {
  for (const Statistic& s : stats) {
    std::printf("shuffle=%s statistic=\"%s\" chi2=%.1f df=%.0f critical(1e-6)=%.1f %s\n", shuffle,
                s.name.c_str(), s.value, s.df, s.critical, s.fails() ? "FAIL" : "pass");
  }
}

// The service's shuffle, as NewHand uses it.
void Service(std::array<uint8_t, kN>& d) {
  const std::vector<Card> deck = ShuffledDeck();
  for (int i = 0; i < kN; ++i)
    d[static_cast<size_t>(i)] = static_cast<uint8_t>(deck[static_cast<size_t>(i)].index());
}

// The biased shuffles draw from a Mersenne Twister seeded from libsodium:
// their bias comes from the algorithm, not from the generator (and one
// system call per card would make them slow).
std::mt19937_64& Rng() {
  static std::mt19937_64 rng(randombytes_random() | (uint64_t{randombytes_random()} << 32));
  return rng;
}

// Fisher-Yates with one random byte modulo the range: small values favoured.
void NaiveModulo(std::array<uint8_t, kN>& d) {
  for (int i = 0; i < kN; ++i) d[static_cast<size_t>(i)] = static_cast<uint8_t>(i);
  for (int i = kN - 1; i > 0; --i) {
    const auto byte = static_cast<unsigned>(Rng()() & 0xff);
    std::swap(d[static_cast<size_t>(i)], d[byte % static_cast<unsigned>(i + 1)]);
  }
}

// Every position swaps with a uniformly random position of the whole deck.
void SwapWithAny(std::array<uint8_t, kN>& d) {
  std::uniform_int_distribution<int> any(0, kN - 1);
  for (int i = 0; i < kN; ++i) d[static_cast<size_t>(i)] = static_cast<uint8_t>(i);
  for (int i = 0; i < kN; ++i)
    std::swap(d[static_cast<size_t>(i)], d[static_cast<size_t>(any(Rng()))]);
}

TEST(ShuffleFairnessTest, ServiceShufflePassesAndBiasedShufflesFail) {
  ASSERT_THAT(InitCrypto(), IsOk());
  const int decks = Decks();
  ASSERT_GE(decks, 1000);
  std::printf(
      "decks per shuffle: %d; a fair shuffle fails a statistic with probability %g (%g per run)\n",
      decks, kTail, 3 * kTail);

  const std::vector<Statistic> fair = Measure(Service, decks);
  Report("service", fair);
  for (const Statistic& s : fair)
    EXPECT_FALSE(s.fails()) << s.name << " chi2 " << s.value << " > " << s.critical;

  // The same test must reject known-biased shuffles: at least one statistic
  // fails, by a wide margin, so it fails always and not by luck.
  using Shuffle = void (*)(std::array<uint8_t, kN>&);
  const std::pair<const char*, Shuffle> biased_shuffles[] = {{"naive-modulo", NaiveModulo},
                                                             {"swap-with-any", SwapWithAny}};
  for (const auto& [name, shuffle] : biased_shuffles) {
    const std::vector<Statistic> biased = Measure(shuffle, decks);
    Report(name, biased);
    double worst = 0;
    for (const Statistic& s : biased) worst = std::max(worst, s.value / s.critical);
    EXPECT_GT(worst, decks >= 1000000 ? 2.0 : 1.0) << name << " should be rejected";
  }
}

// Sanity of the thresholds: the Wilson-Hilferty quantiles against the exact
// chi-square quantiles with upper tail 1e-6 (computed from the regularized
// incomplete gamma function): 114.08 (51 d.f.), 2958.35 (2601), 3011.63
// (2651). The approximation errs on the high side, i.e. fewer false alarms.
TEST(ShuffleFairnessTest, CriticalValues) {
  EXPECT_NEAR(Critical(51), 114.08, 0.5);
  EXPECT_NEAR(Critical(2601), 2958.35, 0.5);
  EXPECT_NEAR(Critical(2651), 3011.63, 0.5);
}

}  // namespace
}  // namespace stud::service
