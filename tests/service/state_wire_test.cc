// The schema-driven writer (service/token/schema.h) writes canonical
// protobuf: what it writes for every state of many hands, irregularity
// reports included, parses with the protobuf classes of state.proto and
// serializes back (deterministically) to the very same bytes; and it parses
// back to the same state.
#include <algorithm>
#include <memory>
#include <random>
#include <string>

#include "absl/strings/escaping.h"
#include "absl/strings/string_view.h"
#include "engine/engine.h"
#include "engine/irregularities.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/wire_format_lite.h"
#include "gtest/gtest.h"
#include "service/rpc/dealing.h"
#include "service/token/codec.h"
#include "service/token/sealer.h"
#include "service/token/wire.h"
#include "stud/internal/v1/state.pb.h"
#include "tests/testing/grpc_status_matchers.h"
#include "tests/testing/hands.h"

namespace stud::service {
namespace {
using ::stud::testing::IsOk;

// A deck shuffled by the test's own seeded generator, so that a test whose
// counts depend on how the hands go plays the same hands every run.
std::vector<Card> SeededDeck(std::mt19937& rng) {
  std::vector<Card> deck;
  for (int i = 0; i < kDeckSize; ++i) deck.push_back(Card::FromIndex(i));
  std::shuffle(deck.begin(), deck.end(), rng);
  return deck;
}

// Our bytes through protobuf's parser and deterministic serializer.
std::string ViaProtobuf(const std::string& bytes) {
  stud::internal::v1::SealedHand msg;
  EXPECT_TRUE(msg.ParseFromString(bytes));
  std::string out;
  google::protobuf::io::StringOutputStream sos(&out);
  google::protobuf::io::CodedOutputStream cos(&sos);
  cos.SetSerializationDeterministic(true);
  msg.SerializeToCodedStream(&cos);
  cos.Trim();
  return out;
}

// IrregularityReport.card and CardMove.card are written even when 0 (the 2c)
// so that a card never changes the token's length (token/fields.h, CardIndex);
// protobuf leaves a 0 out. Only a hand with such a 0 differs from protobuf's
// bytes, and protobuf's bytes still read back to the same hand.
bool HasACardZeroProtobufLeavesOut(const HandState& s) {
  for (const IrregularityReport& r : s.reports) {
    if (r.card.index() == 0) return true;
    for (const CardMove& m : r.moves) {
      if (m.card.index() == 0) return true;
    }
  }
  return false;
}

void ExpectSame(const SealedHand& hand) {
  const std::string fast = SerializeSealedHand(hand);
  const std::string proto = ViaProtobuf(fast);
  if (!HasACardZeroProtobufLeavesOut(hand.state)) {
    ASSERT_EQ(fast, proto) << "version " << hand.state.version;
  }
  absl::StatusOr<SealedHand> via = ParseSealedHand(proto);
  ASSERT_THAT(via, IsOk());
  ASSERT_EQ(SerializeSealedHand(*via), fast) << "version " << hand.state.version;
  absl::StatusOr<SealedHand> back = ParseSealedHand(fast);
  ASSERT_THAT(back, IsOk());
  ASSERT_TRUE(back->state == hand.state);
  ASSERT_TRUE(back->service == hand.service);
}

TEST(StateWireTest, CanonicalProtobufOnEveryStateOfManyHands) {
  ASSERT_THAT(InitCrypto(), IsOk());
  std::mt19937 rng(777);
  int states = 0;
  for (int hand = 0; hand < 60; ++hand) {
    HandConfig c;
    c.variant = std::array<Variant, 3>{Variant::kStud, Variant::kStudHiLo,
                                       Variant::kRazz}[static_cast<size_t>(hand % 3)];
    c.stakes = *FindStakesPreset(hand % 2 == 0 ? "$15-$30" : "$1-$2");
    c.options = ProfileDefaults(std::array<Profile, 3>{
        Profile::kCash, Profile::kTournament, Profile::kOnline}[static_cast<size_t>(hand % 3)]);
    c.num_seats = 2 + hand % 7;
    for (int i = 1; i <= c.num_seats; ++i)
      c.starting_stacks[i] = 1 + static_cast<Chips>(rng() % 4000);
    const bool reported = hand % 4 == 3;
    c.deal_source = reported ? DealSource::kReported : DealSource::kDeck;
    if (!reported) {
      c.deck = ShuffledDeck();
      c.recycle_order = ShuffledDeck();
    }
    absl::StatusOr<HandState> state = NewHand(c);
    ASSERT_THAT(state, IsOk());
    const ServiceData service = hand % 2 == 0
                                    ? ServiceData{1, 1, std::string(32, 'c'), std::string(32, 's')}
                                    : ServiceData{3, 2, "", ""};
    std::vector<Card> live_deck = ShuffledDeck();
    size_t next_card = 0;
    for (int step = 0; step < 400; ++step) {
      ExpectSame(SealedHand{*state, service});
      ++states;
      if (state->phase == Phase::kComplete) break;
      Action a;
      ASSERT_NO_FATAL_FAILURE(
          stud::testing::RandomLegalStep(*state, live_deck, &next_card, rng, &a));
      ASSERT_THAT(Apply(*state, a), IsOk());
    }
  }
  EXPECT_GT(states, 800);
}

// Fields the plain betting path leaves at zero: irregularity reports (cards,
// moves, negative values), negative and large amounts, every flag.
TEST(StateWireTest, SameBytesForUnusualValues) {
  ASSERT_THAT(InitCrypto(), IsOk());
  HandConfig c;
  c.variant = Variant::kStud;
  c.stakes = *FindStakesPreset("$15-$30");
  c.options = ProfileDefaults(Profile::kCash);
  c.num_seats = 8;
  for (int i = 1; i <= 8; ++i) c.starting_stacks[i] = int64_t{1} << 40;
  c.deck = ShuffledDeck();
  c.recycle_order = ShuffledDeck();
  SealedHand hand{*NewHand(c), {1, 2, std::string(32, 'x'), std::string(32, 'y')}};
  HandState& s = hand.state;
  IrregularityReport r;
  r.kind = IrregularityKind::kPrematureDeal;
  r.seat = 3;
  r.street = Street::kSeventh;
  r.has_card = true;
  r.card = Card::FromIndex(51);
  r.cards = {Card::FromIndex(0), Card::FromIndex(17)};
  r.amount_to = 123456789;
  r.burn_delta = -3;
  r.moves = {CardMove{2, Card::FromIndex(5)}, CardMove{8, Card::FromIndex(0)}};
  r.seats = {1, 2, 8};  // seat numbers are range-checked: negatives are refused
  r.card_count = -1;
  r.allowance_remaining = -7;
  r.next_acted = r.declare_live = r.disconnect = r.from_deal = true;
  s.reports = {r, IrregularityReport{}};
  s.actor = 0;
  s.raises = 0;
  s.dead_low_seat = 2;
  s.premature_pending = 1;
  s.misdeal = true;
  s.seats[4].folded = s.seats[4].checked_out = s.seats[4].has_seventh = true;
  s.log.push_back(Operation{OpType::kAward, 3, Street::kSeventh, Card::FromIndex(9), true, true,
                            200, PotHalf::kLow, true, -(int64_t{1} << 44), int64_t{1} << 44,
                            LastRuleId()});
  s.aside = {Card::FromIndex(33)};
  s.burns = {Card::FromIndex(1), Card::FromIndex(2)};
  ExpectSame(hand);
}

// The redeal of a misdeal that kept its antes [STUD-IRR-EXP-1]: the option
// and the carried antes (a zero stack behind included) survive both paths.
// (A hand without them writes neither field: the golden digests are unchanged.)
TEST(StateWireTest, MisdealAntesAndCarriedAntesRoundTrip) {
  ASSERT_THAT(InitCrypto(), IsOk());
  HandConfig c;
  c.stakes = *FindStakesPreset("$15-$30");
  c.options = ProfileDefaults(Profile::kTournament);
  c.options.misdeal_antes = MisdealAntes::kStayInPot;
  c.num_seats = 3;
  c.starting_stacks = {0, 5000, 0, 9700};
  c.carried_antes = {0, 300, 120, 300};
  c.deck = ShuffledDeck();
  absl::StatusOr<HandState> redeal = NewHand(c);
  ASSERT_THAT(redeal, IsOk());
  ExpectSame(SealedHand{*redeal, {1, 1, "", ""}});
}

// The next token of a hand read from its token copies the packed bytes of
// the log as read (token/packed_log.h, LogAsRead) and packs only the new
// operations: its bytes are those of a hand serialized from scratch, after
// betting steps and after rulings (whose record is closed in the same call).
// A log that no longer begins with the log as read is packed whole.
TEST(StateWireTest, NextTokenFromAReadHandIsTheSameBytesAsFromScratch) {
  ASSERT_THAT(InitCrypto(), IsOk());
  std::mt19937 rng(4242);
  int steps = 0;
  int reused = 0;  // steps whose token copied the log as read
  int rulings = 0;
  for (int hand = 0; hand < 24; ++hand) {
    HandConfig c;
    c.variant = hand % 2 == 0 ? Variant::kStud : Variant::kStudHiLo;
    c.stakes = *FindStakesPreset("$15-$30");
    c.options = ProfileDefaults(hand % 3 == 0 ? Profile::kTournament : Profile::kCash);
    c.num_seats = 2 + hand % 7;
    for (int i = 1; i <= c.num_seats; ++i) c.starting_stacks[i] = 200 + (rng() % 3000);
    c.deck = SeededDeck(rng);
    c.recycle_order = SeededDeck(rng);
    absl::StatusOr<HandState> state = NewHand(c);
    ASSERT_THAT(state, IsOk());
    const ServiceData service{1, 1, std::string(32, 'c'), std::string(32, 's')};
    std::vector<Card> live_deck = SeededDeck(rng);
    size_t next_card = 0;
    for (int step = 0; step < 200 && state->phase != Phase::kComplete; ++step) {
      absl::StatusOr<SealedHand> read = ParseSealedHand(SerializeSealedHand({*state, service}));
      ASSERT_THAT(read, IsOk());
      if (step % 5 == 4) {  // a ruling, or a report the engine refuses
        IrregularityReport r;
        r.kind =
            step % 10 == 4 ? IrregularityKind::kUpcardsReordered : IrregularityKind::kAbsentPlayer;
        r.seat = 1 + static_cast<int>(rng() % static_cast<unsigned>(c.num_seats));
        const bool ruled = RuleIrregularity(read->state, r).ok();
        EXPECT_EQ(ruled, RuleIrregularity(*state, r).ok());
        rulings += ruled ? 1 : 0;
      } else {
        Action a;
        ASSERT_NO_FATAL_FAILURE(
            stud::testing::RandomLegalStep(*state, live_deck, &next_card, rng, &a));
        ASSERT_THAT(Apply(read->state, a), IsOk());
        ASSERT_THAT(Apply(*state, a), IsOk());
      }
      ASSERT_TRUE(read->state == *state);
      ++steps;
      if (read->log_as_read.PrefixOf(read->state.log) != 0) ++reused;
      ASSERT_EQ(SerializeSealedHand(*read), SerializeSealedHand({*state, service}))
          << "hand " << hand << ", step " << step;
    }
    // An earlier operation changed (the engine never does this): the log no
    // longer begins with the log as read, and is packed whole.
    absl::StatusOr<SealedHand> read = ParseSealedHand(SerializeSealedHand({*state, service}));
    ASSERT_THAT(read, IsOk());
    read->state.log.front().amount += 1;
    EXPECT_EQ(read->log_as_read.PrefixOf(read->state.log), 0u);
    EXPECT_EQ(SerializeSealedHand(*read), SerializeSealedHand({read->state, service}));
  }
  // Every step took the path this test is about (a dealt hand's log is never empty).
  EXPECT_EQ(reused, steps);
  EXPECT_GT(steps, 150);
  EXPECT_GT(rulings, 10);
}

// The answer's buffer (wire::Buffer: grown without zero-filling, released to
// gRPC) holds what the same writes put in a string: past the first estimate
// (growth keeps what was written), with a nested body longer than 127 bytes
// (moved forward for its two-byte length) and one shorter.
TEST(StateWireTest, WriterOnABufferWritesWhatItWritesOnAString) {
  auto write = [](wire::Writer& w) {
    for (uint32_t i = 1; i <= 40; ++i) {
      const size_t at = w.Open(3);
      w.VarintField(1, i * 1000);
      w.BytesField(2, std::string(i * 7, static_cast<char>('a' + i % 26)));
      w.Close(at);
    }
    w.Fixed64Field(4, 0x0102030405060708u);
  };
  std::string text;
  wire::Writer on_string(&text, 16);
  write(on_string);
  on_string.Finish();
  wire::Buffer buffer;
  wire::Writer on_buffer(&buffer, 16);
  write(on_buffer);
  on_buffer.Finish();
  EXPECT_GT(text.size(), 5000u);
  EXPECT_EQ(buffer.view(), text);
  // The bytes are valid protobuf framing.
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(text.data()),
                                            static_cast<int>(text.size()));
  EXPECT_TRUE(google::protobuf::internal::WireFormatLite::SkipMessage(&in));

  // A second answer in the same buffer starts from its beginning.
  wire::Writer again(&buffer, 8);
  again.VarintField(1, 7);
  again.Finish();
  EXPECT_EQ(buffer.view(), std::string("\x08\x07", 2));

  const size_t size = buffer.size();
  std::unique_ptr<uint8_t[]> released(buffer.Release());
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(released.get()), size),
            std::string("\x08\x07", 2));
  EXPECT_TRUE(buffer.empty());
  EXPECT_EQ(buffer.view(), "");
}

// OpenLong keeps two bytes for the length, where Open keeps one: the bytes
// are the same (the shortest varint) for a body of every length around both
// boundaries, 127/128 (one byte: moved back) and 16383/16384 (three: moved
// forward), written on a string and on a buffer, nested in another.
TEST(StateWireTest, LongBodiesAreWrittenAsShortOnes) {
  for (const size_t n : {size_t{0}, size_t{1}, size_t{125}, size_t{126}, size_t{127}, size_t{128},
                         size_t{129}, size_t{300}, size_t{16380}, size_t{16381}, size_t{16382},
                         size_t{16383}, size_t{16384}, size_t{16385}, size_t{40000}}) {
    const std::string body(n, 'x');
    auto write = [&body](wire::Writer& w, bool long_body) {
      w.VarintField(1, 5);
      const size_t outer = long_body ? w.OpenLong(2) : w.Open(2);
      const size_t inner = long_body ? w.OpenLong(3) : w.Open(3);
      w.BytesField(4, body);
      long_body ? w.CloseLong(inner) : w.Close(inner);
      w.VarintField(5, 9);
      long_body ? w.CloseLong(outer) : w.Close(outer);
      w.VarintField(6, 1);
    };
    std::string as_short, as_long;
    wire::Writer short_writer(&as_short, 8);
    write(short_writer, false);
    short_writer.Finish();
    wire::Writer long_writer(&as_long, 8);
    write(long_writer, true);
    long_writer.Finish();
    EXPECT_EQ(as_long, as_short) << n;
    wire::Buffer buffer;
    wire::Writer on_buffer(&buffer, 8);
    write(on_buffer, true);
    on_buffer.Finish();
    EXPECT_EQ(buffer.view(), as_short) << n;
    // Framing protobuf reads: field 2 holds field 3, which holds the body.
    google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(as_long.data()),
                                              static_cast<int>(as_long.size()));
    EXPECT_TRUE(google::protobuf::internal::WireFormatLite::SkipMessage(&in)) << n;
    // And what protobuf's own encoder writes for the same fields.
    auto field = [](uint32_t number, absl::string_view value) {
      std::string out;
      {
        google::protobuf::io::StringOutputStream stream(&out);
        google::protobuf::io::CodedOutputStream coded(&stream);
        coded.WriteTag(google::protobuf::internal::WireFormatLite::MakeTag(
            static_cast<int>(number),
            google::protobuf::internal::WireFormatLite::WIRETYPE_LENGTH_DELIMITED));
        coded.WriteVarint32(static_cast<uint32_t>(value.size()));
        coded.WriteRaw(value.data(), static_cast<int>(value.size()));
      }
      return out;
    };
    const std::string inner = body.empty() ? std::string() : field(4, body);  // proto3: omitted
    const std::string outer = field(3, inner) + std::string("\x28\x09", 2);   // field 5 = 9
    EXPECT_EQ(as_long, std::string("\x08\x05", 2) + field(2, outer) + std::string("\x30\x01", 2))
        << n;
  }
}

// The varint reader against protobuf's over byte strings of every length up
// to twelve, most bytes with the continuation bit set so that long varints,
// overlong ones and ones cut short are all common: the same verdict, the same
// value and the same bytes consumed.
TEST(StateWireTest, VarintsAreReadAsProtobufReadsThem) {
  std::mt19937 rng(31);
  int read = 0, refused = 0;
  for (int i = 0; i < 200'000; ++i) {
    std::string bytes(rng() % 13, '\0');
    for (char& c : bytes) {
      const auto r = static_cast<uint32_t>(rng());
      c = static_cast<char>((r % 4 != 0 ? 0x80u : 0u) | ((r >> 8) % 0x80u));
    }
    if (i % 7 == 0 && !bytes.empty()) bytes.back() = static_cast<char>(0xFF);  // any last byte
    const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
    const uint8_t* const begin = p;
    uint64_t ours = 0;
    const bool ours_ok = wire::GetVarint(p, begin + bytes.size(), &ours);
    google::protobuf::io::CodedInputStream in(begin, static_cast<int>(bytes.size()));
    uint64_t theirs = 0;
    const bool theirs_ok = in.ReadVarint64(&theirs);
    ASSERT_EQ(ours_ok, theirs_ok) << absl::CEscape(bytes);
    if (!ours_ok) {
      ++refused;
      continue;
    }
    ++read;
    ASSERT_EQ(ours, theirs) << absl::CEscape(bytes);
    ASSERT_EQ(p - begin, in.CurrentPosition()) << absl::CEscape(bytes);
  }
  // Both ways out were taken many times.
  EXPECT_GT(read, 50'000);
  EXPECT_GT(refused, 50'000);
}

}  // namespace
}  // namespace stud::service
