// The one schema of the sealed hand (service/token/schema.h) against the
// proto that documents it, and its reader against protobuf's: the reader
// accepts nothing protobuf would refuse, skips what it does not know, and
// refuses (never trusts) what is out of range.
#include <random>
#include <set>
#include <tuple>

#include "engine/engine.h"
#include "google/protobuf/descriptor.h"
#include "gtest/gtest.h"
#include "service/rpc/dealing.h"
#include "service/token/codec.h"
#include "service/token/schema.h"
#include "service/token/sealer.h"
#include "stud/internal/v1/state.pb.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service {
namespace {
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;

using google::protobuf::Descriptor;
using google::protobuf::DescriptorPool;

template <typename T>
void ExpectSchemaMatchesProto() {
  using token::Schema;
  const std::string full_name = absl::StrCat("stud.internal.v1.", Schema<T>::kName);
  const Descriptor* d = DescriptorPool::generated_pool()->FindMessageTypeByName(full_name);
  ASSERT_NE(d, nullptr) << full_name;
  std::set<int> in_schema;
  std::apply(
      [&](const auto&... f) {
        (([&] {
           const auto* pf = d->FindFieldByNumber(static_cast<int>(f.number));
           ASSERT_NE(pf, nullptr) << full_name << " has no field " << f.number;
           EXPECT_EQ(pf->name(), f.name) << full_name << " field " << f.number;
           in_schema.insert(static_cast<int>(f.number));
         }()),
         ...);
      },
      Schema<T>::kFields);
  for (int i = 0; i < d->field_count(); ++i) {
    const int number = d->field(i)->number();
    bool known = in_schema.count(number) > 0;
    std::apply([&](const auto&... f) { ((known = known || f.Has(number)), ...); },
               Schema<T>::kFields);
    EXPECT_TRUE(known) << full_name << "." << d->field(i)->name() << " is not in the schema";
  }
}

TEST(TokenSchema, MatchesTheProto) {
  ExpectSchemaMatchesProto<Stakes>();
  ExpectSchemaMatchesProto<Options>();
  ExpectSchemaMatchesProto<HandConfig>();
  ExpectSchemaMatchesProto<Seat>();
  ExpectSchemaMatchesProto<CardMove>();
  ExpectSchemaMatchesProto<IrregularityReport>();
  ExpectSchemaMatchesProto<HandState>();
  ExpectSchemaMatchesProto<ServiceData>();
  ExpectSchemaMatchesProto<SealedHand>();
}

std::vector<std::string> Plaintexts() {
  std::mt19937 rng(99);
  std::vector<std::string> out;
  for (int hand = 0; hand < 24; ++hand) {
    HandConfig c;
    c.variant = std::array<Variant, 3>{Variant::kStud, Variant::kStudHiLo,
                                       Variant::kRazz}[static_cast<size_t>(hand % 3)];
    c.stakes = *FindStakesPreset("$5-$10");
    c.options = ProfileDefaults(Profile::kTournament);
    c.num_seats = 2 + hand % 7;
    for (int i = 1; i <= c.num_seats; ++i)
      c.starting_stacks[i] = 100 + static_cast<Chips>(rng() % 3000);
    c.deck = ShuffledDeck();
    c.recycle_order = ShuffledDeck();
    absl::StatusOr<HandState> state = NewHand(c);
    EXPECT_THAT(state, IsOk());
    const ServiceData service{1, 2, std::string(32, 'c'), std::string(32, 's'),
                              std::string(16, 'h')};
    for (int step = 0; step < 400 && state->phase != Phase::kComplete; ++step) {
      out.push_back(SerializeSealedHand(SealedHand{*state, service}));
      const std::vector<LegalAction> legal = LegalActions(*state, ToAct(*state));
      const LegalAction& pick = legal[rng() % legal.size()];
      EXPECT_THAT(Apply(*state, Action{pick.kind, ToAct(*state), pick.amount_to, Card(), false}),
                  IsOk());
    }
  }
  return out;
}

// Whatever the reader accepts, protobuf parses too, and the hand it read
// writes back to bytes that read back to the same hand.
void ExpectNoMoreLenientThanProtobuf(absl::string_view plain) {
  absl::StatusOr<SealedHand> ours = ParseSealedHand(plain);
  if (!ours.ok()) {
    ASSERT_THAT(ours, StatusIs(absl::StatusCode::kInternal)) << ours.status();
    return;
  }
  stud::internal::v1::SealedHand msg;
  ASSERT_TRUE(msg.ParseFromArray(plain.data(), static_cast<int>(plain.size())))
      << "accepted bytes protobuf refuses, size " << plain.size();
  absl::StatusOr<SealedHand> again = ParseSealedHand(SerializeSealedHand(*ours));
  ASSERT_THAT(again, IsOk());
  ASSERT_TRUE(again->state == ours->state);
  ASSERT_TRUE(again->service == ours->service);
}

TEST(TokenReader, AlteredAndTruncatedPlaintextsAreReadNoMoreLenientlyThanProtobuf) {
  ASSERT_THAT(InitCrypto(), IsOk());
  const std::vector<std::string> plains = Plaintexts();
  ASSERT_GT(plains.size(), 150u);
  size_t refused = 0, checked = 0;
  for (size_t k = 0; k < plains.size(); k += 37) {
    const std::string& plain = plains[k];
    for (size_t i = 0; i < plain.size(); ++i) {
      for (int x : {0x01, 0x80, 0xFF}) {
        std::string bad = plain;
        bad[i] = static_cast<char>(bad[i] ^ x);
        ASSERT_NO_FATAL_FAILURE(ExpectNoMoreLenientThanProtobuf(bad));
        refused += ParseSealedHand(bad).ok() ? 0 : 1;
        ++checked;
      }
      ASSERT_NO_FATAL_FAILURE(ExpectNoMoreLenientThanProtobuf(plain.substr(0, i)));
    }
  }
  // Most single-byte changes make a value invalid or the framing wrong.
  EXPECT_GT(refused, checked / 4);
}

TEST(TokenReader, UnknownFieldsAreSkipped) {
  const std::string plain = Plaintexts()[5];
  const absl::StatusOr<SealedHand> hand = ParseSealedHand(plain);
  ASSERT_THAT(hand, IsOk());
  // Field 99: a varint, then a length-delimited one, as a newer writer might add.
  const std::string newer = plain + std::string("\x98\x06\x07\x9a\x06\x02hi", 8);
  const absl::StatusOr<SealedHand> read = ParseSealedHand(newer);
  ASSERT_THAT(read, IsOk());
  EXPECT_TRUE(read->state == hand->state);
}

TEST(TokenReader, ValuesOutOfRangeNameTheirField) {
  stud::internal::v1::SealedHand msg;
  ASSERT_TRUE(msg.ParseFromString(Plaintexts()[3]));
  msg.mutable_state()->mutable_seats(1)->set_stack(-5);
  const absl::StatusOr<SealedHand> read = ParseSealedHand(msg.SerializeAsString());
  EXPECT_THAT(read, StatusIs(absl::StatusCode::kInternal));
  EXPECT_EQ(read.status().message(), "sealed state: field Seat.stack is out of range");
}

}  // namespace
}  // namespace stud::service
