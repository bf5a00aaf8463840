// Hand names in words (text/hand_names.h): every English name pinned
// (they are in the API's answers, ShownHand.high_name/low_name), the Spanish
// ones worded from the same vocabulary, and ResolveShowdown naming hands in the
// request's locale.
#include "text/hand_names.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/card.h"
#include "engine/hand_eval.h"
#include "gtest/gtest.h"
#include "service_fixture.h"
#include "tests/testing/grpc_status_matchers.h"
#include "tests/testing/hands.h"

namespace stud::service {
namespace {
namespace v1 = stud::v1;
using ::stud::service::testing::BasicHand;
using ::stud::service::testing::Server;
using ::stud::service::testing::SetDeadline;
using ::stud::service::testing::StartHand;
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;
using text::HighHandName;
using text::LowHandName;
using text::MessageLanguage;

constexpr MessageLanguage kEn = MessageLanguage::kEnglish;
constexpr MessageLanguage kEs = MessageLanguage::kSpanish;

CardSet Cards(const std::string& text) { return CardSet::Of(::stud::testing::Cards(text)); }
std::string High(const std::string& cards, MessageLanguage language) {
  return HighHandName(EvaluateHigh(Cards(cards)), language);
}
std::string Low(const std::string& cards, MessageLanguage language) {
  return LowHandName(EvaluateLow(Cards(cards)), language);
}

TEST(HandNames, STUD_GAME_3_EveryCategoryInEnglishAndSpanish) {
  struct Case {
    const char* cards;
    const char* en;
    const char* es;
  };
  const Case cases[] = {
      {"As Ks Qs Js Ts 2c 2d", "Royal flush", "Escalera real"},
      {"9h 8h 7h 6h 5h Ac Ad", "Straight flush, nine high", "Escalera de color al nueve"},
      {"Qh Jh Th 9h 8h", "Straight flush, queen high", "Escalera de color a la reina"},
      {"Kc Kd Kh Ks 7c 7d 2h", "Four of a kind, kings, seven kicker",
       "Póquer de reyes, kicker siete"},
      {"Kc Kd Kh 5s 5c 5d 2h", "Full house, kings full of fives", "Full de reyes y cincos"},
      {"Ac 9c 7c 4c 2c Kd Kh", "Flush, ace-nine-seven-four-deuce",
       "Color, as-nueve-siete-cuatro-dos"},
      {"Qc Jd Th 9s 8c 2d 2h", "Straight, queen high", "Escalera a la reina"},
      {"Jc Td 9h 8s 7c", "Straight, jack high", "Escalera a la jota"},
      {"Ac 2d 3h 4s 5c", "Straight, five high", "Escalera al cinco"},
      {"7c 7d 7h As Kc 2d 3h", "Three of a kind, sevens, ace-king kickers",
       "Trío de sietes, kickers as-rey"},
      {"Ac Ad 9h 9s Kc 2d 2h", "Two pair, aces and nines, king kicker",
       "Doble pareja de ases y nueves, kicker rey"},
      {"Jc Jd Ah 9s 4c 3d 2h", "Pair of jacks, ace-nine-four kickers",
       "Pareja de jotas, kickers as-nueve-cuatro"},
      {"6c 6d Th 9s 4c", "Pair of sixes, ten-nine-four kickers",
       "Pareja de seises, kickers diez-nueve-cuatro"},
      {"Ac Kd 9h 5s 3c", "High card, ace-king-nine-five-three",
       "Carta alta, as-rey-nueve-cinco-tres"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(High(c.cards, kEn), c.en) << c.cards;
    EXPECT_EQ(High(c.cards, kEs), c.es) << c.cards;
  }
}

TEST(HandNames, STUD_HILO_2_LowsInCardLettersAndPairedLowsInWords) {
  struct Case {
    const char* cards;
    const char* en;
    const char* es;
  };
  const Case cases[] = {
      {"8c 4d 3h 2s Ac", "8-4-3-2-A", "8-4-3-2-A"},
      {"Kc Qd 8c 6h 4s 2d Ah", "8-6-4-2-A", "8-6-4-2-A"},
      {"Ac 2d 3h 4s 5c Kd Kh", "5-4-3-2-A", "5-4-3-2-A"},
      {"Kc Qd Jh Tc 9d", "K-Q-J-T-9", "K-Q-J-T-9"},
      // Razz: a paired low names its pairing [STUD-HILO-5].
      {"6c 6d 9h 7c 3d", "Pair of sixes, 9-7-3 (low)", "Pareja de seises, 9-7-3 (baja)"},
      {"2c 2d 3h 3c 4d", "Two pair, threes and deuces, 4 (low)",
       "Doble pareja de treses y doses, 4 (baja)"},
      {"Qc Qd Qh Jc Td", "Three of a kind, queens, J-T (low)", "Trío de reinas, J-T (baja)"},
      {"Kc Kd Kh Ks Qc", "Four of a kind, kings, Q (low)", "Póquer de reyes, Q (baja)"},
      {"Kc Kd Kh Qc Qd", "Full house, kings full of queens (low)", "Full de reyes y reinas (baja)"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Low(c.cards, kEn), c.en) << c.cards;
    EXPECT_EQ(Low(c.cards, kEs), c.es) << c.cards;
  }
}

TEST(HandNames, NumbersNoEvaluatorReturnsAreNamedInvalid) {
  EXPECT_EQ(HighHandName(9u << 20, kEn), "Invalid hand value");
  EXPECT_EQ(HighHandName(9u << 20, kEs), "Valor de mano no válido");
  EXPECT_EQ(HighHandName(0xFFFFFu, kEn), "Invalid hand value");  // rank slots past the ace
  EXPECT_EQ(LowHandName(0x1000000u, kEn), "Invalid low value");
  EXPECT_EQ(LowHandName(0xFFFFFFu - (4u << 20), kEn), "Invalid low value");  // a "straight" low
  EXPECT_EQ(LowHandName(0x1000000u, kEs), "Valor de baja no válido");
}

// FNV-1a over the names of every distinct value, in ascending value order,
// each followed by '\n'.
uint64_t Fnv1a(const std::map<uint32_t, std::string>& names) {
  uint64_t h = 0xcbf29ce484222325u;
  for (const auto& [value, name] : names) {
    for (unsigned char ch : name + "\n") h = (h ^ ch) * 0x100000001b3u;
  }
  return h;
}

// Every value a hand can have (each five-card hand; six and seven cards
// evaluate to the value of their best five): the English names are exactly
// the ones the API has always answered (the hashes were taken from the names
// the engine built before they moved here), and in each language every value
// has its own name.
TEST(HandNames, EveryHandValueKeepsItsEnglishNameAndHasItsOwnName) {
  std::map<uint32_t, std::string> high_en, low_en, high_es, low_es;
  std::vector<Card> deck;
  for (int i = 0; i < kDeckSize; ++i) deck.push_back(Card::FromIndex(i));
  for (int a = 0; a < kDeckSize; ++a) {
    for (int b = a + 1; b < kDeckSize; ++b) {
      for (int c = b + 1; c < kDeckSize; ++c) {
        for (int d = c + 1; d < kDeckSize; ++d) {
          for (int e = d + 1; e < kDeckSize; ++e) {
            const CardSet five =
                CardSet::Of(std::vector<Card>{deck[a], deck[b], deck[c], deck[d], deck[e]});
            const HighValue high = EvaluateHigh(five);
            if (high_en.emplace(high, "").second) {
              high_en[high] = HighHandName(high, kEn);
              high_es[high] = HighHandName(high, kEs);
            }
            const LowValue low = EvaluateLow(five);
            if (low_en.emplace(low, "").second) {
              low_en[low] = LowHandName(low, kEn);
              low_es[low] = LowHandName(low, kEs);
            }
          }
        }
      }
    }
  }
  ASSERT_EQ(high_en.size(), 7462u);
  ASSERT_EQ(low_en.size(), 6175u);
  EXPECT_EQ(Fnv1a(high_en), 0xb83d8abf99cf9bf7u);
  EXPECT_EQ(Fnv1a(low_en), 0x9decf711af371f6au);
  for (const auto* names : {&high_en, &low_en, &high_es, &low_es}) {
    std::map<std::string, int> seen;
    for (const auto& [value, name] : *names) {
      EXPECT_EQ(name.find("nval"), std::string::npos) << name;  // "Invalid", "no válido"
      EXPECT_EQ(++seen[name], 1) << name;
    }
  }
}

v1::ResolveShowdownRequest RazzShowdown(v1::Locale locale) {
  v1::ResolveShowdownRequest req;
  req.set_locale(locale);
  v1::StatelessShowdown* sd = req.mutable_stateless();
  sd->set_variant(v1::VARIANT_RAZZ);
  const auto add = [&](int seat, const std::vector<std::string>& cards) {
    v1::ShowdownSeat* s = sd->add_seats();
    s->set_seat(seat);
    for (const std::string& c : cards) s->add_cards(c);
    s->set_contribution(100);
  };
  add(1, {"Kc", "Kd", "Kh", "5s", "5c", "5d", "2h"});
  add(2, {"8c", "4d", "3h", "2s", "Ac", "Qd", "Qs"});
  return req;
}

// ResolveShowdown names each hand in ResolveShowdownRequest.locale: English
// unless LOCALE_ES.
TEST(HandNames, ResolveShowdownNamesHandsInTheRequestsLocale) {
  Server server;
  std::map<v1::Locale, v1::ResolveShowdownResponse> answers;
  for (v1::Locale locale : {v1::LOCALE_UNSPECIFIED, v1::LOCALE_EN, v1::LOCALE_ES}) {
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    ASSERT_THAT(server.stub().ResolveShowdown(&ctx, RazzShowdown(locale), &answers[locale]),
                IsOk());
    ASSERT_EQ(answers[locale].hands_size(), 2);
  }
  for (v1::Locale locale : {v1::LOCALE_UNSPECIFIED, v1::LOCALE_EN}) {
    const v1::ResolveShowdownResponse& r = answers[locale];
    EXPECT_EQ(r.hands(0).high_name(), "Full house, kings full of fives");
    EXPECT_EQ(r.hands(0).low_name(), "Two pair, kings and fives, 2 (low)");
    EXPECT_EQ(r.hands(1).high_name(), "Pair of queens, ace-eight-four kickers");
    EXPECT_EQ(r.hands(1).low_name(), "8-4-3-2-A");
  }
  const v1::ResolveShowdownResponse& es = answers[v1::LOCALE_ES];
  EXPECT_EQ(es.hands(0).high_name(), "Full de reyes y cincos");
  EXPECT_EQ(es.hands(0).low_name(), "Doble pareja de reyes y cincos, 2 (baja)");
  EXPECT_EQ(es.hands(1).high_name(), "Pareja de reinas, kickers as-ocho-cuatro");
  EXPECT_EQ(es.hands(1).low_name(), "8-4-3-2-A");
  // Only the words differ.
  v1::ResolveShowdownResponse es_in_english = es;
  for (int i = 0; i < es_in_english.hands_size(); ++i) {
    es_in_english.mutable_hands(i)->set_high_name(answers[v1::LOCALE_EN].hands(i).high_name());
    es_in_english.mutable_hands(i)->set_low_name(answers[v1::LOCALE_EN].hands(i).low_name());
  }
  EXPECT_EQ(es_in_english.SerializeAsString(), answers[v1::LOCALE_EN].SerializeAsString());
}

// [STUD-SHOW-1] a hand still being played has no showdown; the refusal's
// message is what clients have always read (docs/reliability.md).
TEST(HandNames, STUD_SHOW_1_ResolveShowdownOfAHandInProgressIsRefused) {
  Server server;
  const v1::HandUpdate u = StartHand(server, BasicHand(3, v1::DEALING_MODE_PRESET));
  v1::ResolveShowdownRequest req;
  req.set_token(u.token());
  v1::ResolveShowdownResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  EXPECT_THAT(server.stub().ResolveShowdown(&ctx, req, &resp),
              StatusIs(grpc::StatusCode::FAILED_PRECONDITION,
                       "STUD-SHOW-1: the hand is not over; showdown is resolved once "
                       "every live seat has shown or mucked"));
}

}  // namespace
}  // namespace stud::service
