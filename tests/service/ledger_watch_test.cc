// The hand ledger keeps each hand's latest token and publishes each change
// (service/trust/ledger.h, "the watch stream"), against a real redis-server:
// Latest returns the token bytes; every Create/Advance that writes appends one
// stream entry "<version>-1" {t, o, e} and an exact retry appends none; the
// stream expires with the hand; GetView by hand id answers exactly as GetView
// on the latest token, with every refusal it can give.
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "ledger_fixture.h"

namespace stud::service::testing {
namespace {
namespace v1 = stud::v1;
using ::stud::testing::IsOk;

const SeatTicketPolicy kTicketsRequired{.required = true};

struct StreamEntry {
  std::string id;
  std::map<std::string, std::string> fields;
};

// XRANGE key - + through hiredis ("" id and no fields on a malformed reply).
std::vector<StreamEntry> ReadStream(const RedisServer& redis, const std::string& key) {
  timeval tv{2, 0};
  redisContext* c = redisConnectWithTimeout("127.0.0.1", redis.port(), tv);
  std::vector<StreamEntry> out;
  if (c == nullptr || c->err != 0) {
    ADD_FAILURE() << "cannot connect to the test redis-server";
    if (c != nullptr) redisFree(c);
    return out;
  }
  auto* r = static_cast<redisReply*>(
      redisCommand(c, "XRANGE %b - +", key.data(), static_cast<size_t>(key.size())));
  if (r != nullptr && r->type == REDIS_REPLY_ARRAY) {
    for (size_t i = 0; i < r->elements; ++i) {
      const redisReply* e = r->element[i];
      StreamEntry entry;
      if (e->type == REDIS_REPLY_ARRAY && e->elements == 2 &&
          e->element[1]->type == REDIS_REPLY_ARRAY) {
        entry.id.assign(e->element[0]->str, e->element[0]->len);
        const redisReply* f = e->element[1];
        for (size_t j = 0; j + 1 < f->elements; j += 2) {
          entry.fields[std::string(f->element[j]->str, f->element[j]->len)] =
              std::string(f->element[j + 1]->str, f->element[j + 1]->len);
        }
      }
      out.push_back(std::move(entry));
    }
  } else {
    ADD_FAILURE() << "XRANGE " << key << ": not an array";
  }
  if (r != nullptr) freeReplyObject(r);
  redisFree(c);
  return out;
}

// A commit of `token` at `version` (built field by field: GCC 12 warns,
// wrongly, about nested aggregate initialisation of strings).
LedgerCommit CommitOf(uint64_t version, const std::string& token, uint64_t first_op = 0,
                      bool ended = false) {
  LedgerCommit c;
  c.entry.version = version;
  c.entry.name = TokenDigest(token);
  c.token = token;
  c.first_op = first_op;
  c.ended = ended;
  return c;
}

long long Number(const RedisServer& redis, const std::string& command) {
  return std::atoll(redis.Command(command).c_str());
}

v1::GetViewRequest ByHandId(const std::string& hand_id) {
  v1::GetViewRequest req;
  req.set_hand_id(hand_id);
  return req;
}

grpc::Status View(v1::StudService::Stub& stub, const v1::GetViewRequest& req,
                  v1::GetViewResponse* resp) {
  return Call(stub, &v1::StudService::Stub::GetView, req, resp);
}

void ExpectRefused(const grpc::Status& st, grpc::StatusCode code, const std::string& reason,
                   const std::string& what) {
  EXPECT_EQ(st.error_code(), code) << what << ": " << st.error_message();
  EXPECT_EQ(ErrorInfoOf(st).reason(), reason) << what << ": " << st.error_message();
}

TEST(LedgerWatch, LatestIsTheTokenBytesAndTheStreamOneEntryPerWrite) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  RedisLedger ledger(*ParseLedgerUrl(redis.url()), nullptr);
  const std::string hand(32, 'a');
  const std::string key = LedgerKey("acme", hand);
  const std::string stream = WatchStreamKey("acme", hand);
  EXPECT_EQ(stream, key + ":watch") << "the contract: same hash tag, same slot";

  // Token bytes of any kind, colons and NULs included.
  const std::string t0("tok:0\0zero", 10), t1("\0:\xff one", 7);
  const LedgerCommit c0 = CommitOf(0, t0);
  const LedgerCommit c1 = CommitOf(1, t1, 3, true);
  EXPECT_EQ(ledger.Latest(key)->outcome, LedgerOutcome::kMissing);
  EXPECT_EQ(ledger.Create(key, c0)->outcome, LedgerOutcome::kApplied);
  EXPECT_EQ(ledger.Create(key, c0)->outcome, LedgerOutcome::kRetry);
  absl::StatusOr<LedgerLatest> latest = ledger.Latest(key);
  ASSERT_THAT(latest, IsOk());
  EXPECT_EQ(latest->outcome, LedgerOutcome::kLatest);
  EXPECT_EQ(latest->version, 0u);
  EXPECT_EQ(latest->token, t0);
  EXPECT_EQ(ledger.Check(key, c0.entry)->outcome, LedgerOutcome::kLatest);

  EXPECT_EQ(ledger.Advance(key, c0.entry, c1)->outcome, LedgerOutcome::kApplied);
  EXPECT_EQ(ledger.Advance(key, c0.entry, c1)->outcome, LedgerOutcome::kRetry);
  const LedgerCommit fork = CommitOf(1, "fork", 3);
  EXPECT_EQ(ledger.Advance(key, c0.entry, fork)->outcome, LedgerOutcome::kSuperseded);
  EXPECT_EQ(ledger.Create(key, fork)->outcome, LedgerOutcome::kSuperseded);
  latest = ledger.Latest(key);
  EXPECT_EQ(latest->version, 1u);
  EXPECT_EQ(latest->token, t1);
  const absl::StatusOr<LedgerResult> stale = ledger.Check(key, c0.entry);
  EXPECT_EQ(stale->outcome, LedgerOutcome::kSuperseded);
  EXPECT_EQ(stale->latest_version, 1u);
  EXPECT_EQ(redis.Command("GET " + key), "1:" + TokenDigest(t1) + ":" + t1);

  // Two writes, two entries: the retries and refusals appended nothing.
  const std::vector<StreamEntry> entries = ReadStream(redis, stream);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].id, "0-1");
  EXPECT_EQ(entries[0].fields,
            (std::map<std::string, std::string>{
                {kWatchFieldToken, t0}, {kWatchFieldFirstOp, "0"}, {kWatchFieldEnded, "0"}}));
  EXPECT_EQ(entries[1].id, WatchStreamId(1));
  EXPECT_EQ(entries[1].fields,
            (std::map<std::string, std::string>{
                {kWatchFieldToken, t1}, {kWatchFieldFirstOp, "3"}, {kWatchFieldEnded, "1"}}));
  // The stream expires with the entry (ended: the shorter expiry).
  const long long key_ttl = Number(redis, "PTTL " + key);
  const long long stream_ttl = Number(redis, "PTTL " + stream);
  EXPECT_GT(stream_ttl, 0);
  EXPECT_LE(stream_ttl, 86400 * 1000LL);
  EXPECT_LE(std::llabs(key_ttl - stream_ttl), 1000) << key_ttl << " vs " << stream_ttl;
}

// An entry written before entries kept tokens ("<version>:<digest>") still
// compares; it has no token until its next change.
TEST(LedgerWatch, EntriesWithoutATokenStillCompare) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  RedisLedger ledger(*ParseLedgerUrl(redis.url()), nullptr);
  const std::string key = LedgerKey("", std::string(32, 'b'));
  const LedgerEntry old{7, TokenDigest("seven")};
  redis.Command("SET " + key + " 7:" + old.name);
  absl::StatusOr<LedgerLatest> latest = ledger.Latest(key);
  EXPECT_EQ(latest->outcome, LedgerOutcome::kMissing);
  EXPECT_EQ(latest->version, 7u);
  EXPECT_EQ(ledger.Check(key, old)->outcome, LedgerOutcome::kLatest);
  EXPECT_EQ(ledger.Check(key, {6, old.name})->outcome, LedgerOutcome::kSuperseded);
  const LedgerCommit next = CommitOf(8, "eight", 12);
  EXPECT_EQ(ledger.Advance(key, old, next)->outcome, LedgerOutcome::kApplied);
  latest = ledger.Latest(key);
  EXPECT_EQ(latest->outcome, LedgerOutcome::kLatest);
  EXPECT_EQ(latest->token, "eight");
  EXPECT_EQ(ReadStream(redis, key + kWatchStreamSuffix).size(), 1u);
}

TEST(LedgerWatch, StreamIsTrimmedToAboutItsMaximum) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  RedisLedger ledger(*ParseLedgerUrl(redis.url()), nullptr);
  const std::string key = LedgerKey("", std::string(32, 'c'));
  LedgerCommit at = CommitOf(0, "0");
  ASSERT_EQ(ledger.Create(key, at)->outcome, LedgerOutcome::kApplied);
  for (uint64_t v = 1; v <= kWatchStreamMaxLen + 300; ++v) {
    const LedgerCommit next = CommitOf(v, absl::StrCat(v), v);
    ASSERT_EQ(ledger.Advance(key, at.entry, next)->outcome, LedgerOutcome::kApplied) << v;
    at = next;
  }
  const long long len = Number(redis, "XLEN " + key + kWatchStreamSuffix);
  EXPECT_GE(len, kWatchStreamMaxLen);
  EXPECT_LT(len, kWatchStreamMaxLen + 300) << "MAXLEN ~ trims whole nodes";
}

// Through the service: one entry per version of a played hand, with the
// token and first operation each call answered.
TEST(LedgerWatch, EveryVersionOfAHandIsPublishedOnce) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica r(redis, /*ttl_ended=*/600);
  std::vector<v1::HandUpdate> versions = {Start(r.stub())};
  const std::string hand_id = versions[0].public_view().hand_id();
  const std::string stream = WatchStreamKey("", hand_id);
  EXPECT_GT(Number(redis, "TTL " + stream), 86400) << "in play: the long expiry";
  for (int i = 0; i < 200 && versions.back().public_view().phase() != v1::PHASE_COMPLETE; ++i) {
    versions.push_back(Next(r.stub(), versions.back()));
    if (i == 2) {  // the exact retry of the last call: the same answer, no new entry
      const v1::HandUpdate& before = versions[versions.size() - 2];
      v1::ApplyActionResponse again;
      ASSERT_THAT(Apply(r.stub(), before.token(), ChooseAction(before, false), &again), IsOk());
      EXPECT_EQ(again.update().token(), versions.back().token());
      EXPECT_EQ(Number(redis, "XLEN " + stream), static_cast<long long>(versions.size()));
    }
  }
  ASSERT_EQ(versions.back().public_view().phase(), v1::PHASE_COMPLETE);
  const std::vector<StreamEntry> entries = ReadStream(redis, stream);
  ASSERT_EQ(entries.size(), versions.size());
  for (size_t i = 0; i < versions.size(); ++i) {
    const v1::HandUpdate& u = versions[i];
    SCOPED_TRACE(absl::StrCat("version ", u.version()));
    EXPECT_EQ(entries[i].id, absl::StrCat(u.version(), "-1"));
    EXPECT_EQ(entries[i].fields.at(kWatchFieldToken), u.token());
    ASSERT_GT(u.operations_size(), 0);
    EXPECT_EQ(entries[i].fields.at(kWatchFieldFirstOp), absl::StrCat(u.operations(0).index()));
    EXPECT_EQ(entries[i].fields.at(kWatchFieldEnded), i + 1 == versions.size() ? "1" : "0");
  }
  EXPECT_EQ(entries[0].fields.at(kWatchFieldFirstOp), "0") << "NewHand";
  const long long ttl = Number(redis, "TTL " + stream);
  EXPECT_GT(ttl, 0);
  EXPECT_LE(ttl, 600) << "ended: the stream takes the entry's shorter expiry";
}

// What one hand costs Redis (docs/ledger.md, "Memory per hand"): an 8-seat
// hand played to showdown (every seat checks or calls), stud_server's token
// format. The bounds are loose; the figures are printed for the docs.
TEST(LedgerWatch, MemoryOfAnEightSeatHand) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica r(redis, ServiceOptions{.allow_preset = true}, 86400, kGcmSivTokenFormat);
  v1::NewHandResponse started;
  ASSERT_THAT(Call(r.stub(), &v1::StudService::Stub::NewHand,
                   BasicHand(8, v1::DEALING_MODE_SERVICE), &started),
              IsOk());
  v1::HandUpdate u = started.update();
  for (int i = 0; i < 400 && u.public_view().phase() != v1::PHASE_COMPLETE; ++i)
    u = Next(r.stub(), u);
  ASSERT_EQ(u.public_view().phase(), v1::PHASE_COMPLETE);
  const std::string hand_id = u.public_view().hand_id();
  const long long key_bytes = Number(redis, "MEMORY USAGE " + LedgerKey("", hand_id));
  const long long stream_bytes =
      Number(redis, "MEMORY USAGE " + WatchStreamKey("", hand_id) + " SAMPLES 0");
  std::cout << "8-seat hand: " << u.version() + 1 << " versions, last token " << u.token().size()
            << " bytes; MEMORY USAGE entry " << key_bytes << " bytes, watch stream " << stream_bytes
            << " bytes\n";
  ::testing::Test::RecordProperty("entry_bytes", static_cast<int>(key_bytes));
  ::testing::Test::RecordProperty("stream_bytes", static_cast<int>(stream_bytes));
  EXPECT_GT(key_bytes, static_cast<long long>(u.token().size()));
  EXPECT_LT(key_bytes, 4096);
  EXPECT_GT(stream_bytes, static_cast<long long>(u.token().size()) * 10);
  EXPECT_LT(stream_bytes, 256 * 1024);
}

TEST(LedgerWatch, GetViewByHandIdIsGetViewOnTheLatestToken) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica a(redis), b(redis);
  v1::HandUpdate u = Start(a.stub());
  for (int i = 0; i < 5; ++i) u = Next(i % 2 == 0 ? b.stub() : a.stub(), u);
  const std::string hand_id = u.public_view().hand_id();
  for (const std::string& id : {hand_id, absl::AsciiStrToUpper(hand_id)}) {
    for (Replica* r : {&a, &b}) {  // any replica: the token comes from the ledger
      v1::GetViewRequest by_id = ByHandId(id);
      by_id.add_private_view_seats(2);
      v1::GetViewRequest by_token;
      by_token.set_token(u.token());
      by_token.add_private_view_seats(2);
      v1::GetViewResponse got, want;
      ASSERT_THAT(View(r->stub(), by_id, &got), IsOk());
      ASSERT_THAT(View(r->stub(), by_token, &want), IsOk());
      EXPECT_EQ(got.update().version(), u.version());
      EXPECT_EQ(got.update().token(), u.token());
      EXPECT_EQ(got.SerializeAsString(), want.SerializeAsString());
    }
  }
}

TEST(LedgerWatch, GetViewByHandIdRefusals) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica r(redis);
  const v1::HandUpdate u = Start(r.stub());
  const std::string hand_id = u.public_view().hand_id();
  v1::GetViewResponse resp;

  v1::GetViewRequest both = ByHandId(hand_id);
  both.set_token(u.token());
  ExpectRefused(View(r.stub(), both, &resp), grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT",
                "token and hand_id");
  ExpectRefused(View(r.stub(), v1::GetViewRequest(), &resp), grpc::StatusCode::INVALID_ARGUMENT,
                "INVALID_ARGUMENT", "neither");
  for (const std::string& bad : {std::string("abc"), hand_id.substr(1), hand_id + "0",
                                 "g" + hand_id.substr(1), std::string(32, ' ')}) {
    const grpc::Status st = View(r.stub(), ByHandId(bad), &resp);
    ExpectRefused(st, grpc::StatusCode::INVALID_ARGUMENT, "INVALID_ARGUMENT", "hand_id " + bad);
    EXPECT_NE(st.error_message().find("hand_id: "), std::string::npos) << st.error_message();
  }
  const grpc::Status unknown = View(r.stub(), ByHandId(std::string(32, 'e')), &resp);
  ExpectRefused(unknown, grpc::StatusCode::FAILED_PRECONDITION, "HAND_NOT_IN_LEDGER", "unknown");
  EXPECT_NE(unknown.error_message().find("hand_id: hand eeee"), std::string::npos)
      << unknown.error_message();

  Server trusted;  // same key, no ledger
  const grpc::Status off = View(trusted.stub(), ByHandId(hand_id), &resp);
  ExpectRefused(off, grpc::StatusCode::FAILED_PRECONDITION, "LEDGER_NOT_CONFIGURED", "no ledger");
  EXPECT_NE(off.error_message().find("--ledger"), std::string::npos) << off.error_message();

  // An expired entry.
  redis.Command("DEL " + LedgerKey("", hand_id));
  ExpectRefused(View(r.stub(), ByHandId(hand_id), &resp), grpc::StatusCode::FAILED_PRECONDITION,
                "HAND_NOT_IN_LEDGER", "expired");
  // Redis down: fail closed.
  redis.Stop();
  ExpectRefused(View(r.stub(), ByHandId(hand_id), &resp), grpc::StatusCode::UNAVAILABLE,
                "LEDGER_UNAVAILABLE", "redis down");
}

TEST(LedgerWatch, GetViewByHandIdChecksTheSeatTicket) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  Replica r(redis, ServiceOptions{.allow_preset = true, .seat_tickets = &kTicketsRequired});
  v1::NewHandResponse a, b;
  ASSERT_THAT(
      Call(r.stub(), &v1::StudService::Stub::NewHand, BasicHand(3, v1::DEALING_MODE_SERVICE), &a),
      IsOk());
  ASSERT_THAT(
      Call(r.stub(), &v1::StudService::Stub::NewHand, BasicHand(3, v1::DEALING_MODE_SERVICE), &b),
      IsOk());
  ASSERT_EQ(a.seat_tickets_size(), 3);
  const std::string hand_id = a.update().public_view().hand_id();
  v1::GetViewResponse resp;
  ExpectRefused(View(r.stub(), ByHandId(hand_id), &resp), grpc::StatusCode::PERMISSION_DENIED,
                "SEAT_TICKET_REQUIRED", "no ticket");
  v1::GetViewRequest other = ByHandId(hand_id);
  other.set_seat_ticket(b.seat_tickets(0).ticket());
  ExpectRefused(View(r.stub(), other, &resp), grpc::StatusCode::PERMISSION_DENIED,
                "SEAT_TICKET_WRONG_HAND", "another hand's ticket");
  v1::GetViewRequest wrong_seat = ByHandId(hand_id);
  wrong_seat.set_seat_ticket(a.seat_tickets(0).ticket());
  wrong_seat.add_private_view_seats(a.seat_tickets(1).seat());
  ExpectRefused(View(r.stub(), wrong_seat, &resp), grpc::StatusCode::PERMISSION_DENIED,
                "SEAT_TICKET_WRONG_SEAT", "another seat's view");

  v1::GetViewRequest own = ByHandId(hand_id);
  own.set_seat_ticket(a.seat_tickets(0).ticket());
  ASSERT_THAT(View(r.stub(), own, &resp), IsOk());
  EXPECT_EQ(resp.update().token(), a.update().token());
  v1::GetViewRequest by_token;
  by_token.set_token(a.update().token());
  by_token.set_seat_ticket(a.seat_tickets(0).ticket());
  v1::GetViewResponse want;
  ASSERT_THAT(View(r.stub(), by_token, &want), IsOk());
  EXPECT_EQ(resp.SerializeAsString(), want.SerializeAsString());
}

// The hand id names a hand of the calling tenant only.
TEST(LedgerWatch, GetViewByHandIdStaysWithinTheTenant) {
  RedisServer redis;
  ASSERT_TRUE(redis.Start());
  const absl::StatusOr<TenantAuth> auth =
      TenantAuth::Create({TestTenantKey("acme", 1), TestTenantKey("bet", 2)});
  ASSERT_THAT(auth, IsOk());
  Replica r(redis, ServiceOptions{.allow_preset = true, .tenants = &*auth});
  auto as = [](const std::string& tenant, uint8_t fill) {
    auto ctx = std::make_unique<grpc::ClientContext>();
    SetDeadline(ctx.get());
    ctx->AddMetadata(kTenantHeader, tenant);
    const std::string key = FormatTenantKey(TestTenantKey(tenant, fill));
    ctx->AddMetadata(kApiKeyHeader, key.substr(tenant.size() + 1));
    return ctx;
  };
  v1::NewHandResponse started;
  ASSERT_THAT(
      r.stub().NewHand(as("acme", 1).get(), BasicHand(3, v1::DEALING_MODE_SERVICE), &started),
      IsOk());
  const std::string hand_id = started.update().public_view().hand_id();
  EXPECT_EQ(Number(redis, "EXISTS " + LedgerKey("acme", hand_id)), 1);
  v1::GetViewResponse resp;
  const grpc::Status theirs = r.stub().GetView(as("bet", 2).get(), ByHandId(hand_id), &resp);
  ExpectRefused(theirs, grpc::StatusCode::FAILED_PRECONDITION, "HAND_NOT_IN_LEDGER",
                "another tenant's hand");
  ASSERT_THAT(r.stub().GetView(as("acme", 1).get(), ByHandId(hand_id), &resp), IsOk());
  EXPECT_EQ(resp.update().token(), started.update().token());
}

}  // namespace
}  // namespace stud::service::testing
