// Shared test support: a real stud.v1 gRPC server on 127.0.0.1 (port 0) in
// the test process, a stub to it, and helpers to read structured errors and
// to play a hand with a simple bounded policy.
#ifndef STUD_TESTS_SERVICE_SERVICE_FIXTURE_H_
#define STUD_TESTS_SERVICE_SERVICE_FIXTURE_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "service/server/stud_service.h"
#include "service/token/codec.h"
#include "service/token/hand_cache.h"
#include "service/token/sealer.h"
#include "service/trust/ledger.h"
#include "service/trust/tenants.h"
#include "stud/v1/stud.grpc.pb.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service::testing {

// A fixed key so tests can build sealers that share or do not share it.
inline Key TestKey(uint32_t id, uint8_t fill) {
  Key k;
  k.id = id;
  k.bytes.fill(fill);
  return k;
}

// A tenant's API key of `fill` bytes (trust/tenants.h).
inline TenantKey TestTenantKey(const std::string& tenant, uint8_t fill) {
  TenantKey k;
  k.tenant = tenant;
  k.key.fill(fill);
  return k;
}

class Server {
 public:
  // `token_format`: the format the server seals (stud_server's default is
  // kGcmSivTokenFormat; most tests keep format 1/2, whose layout they inspect).
  explicit Server(std::vector<Key> keys = {TestKey(1, 7)}, bool allow_preset = true,
                  const Observability* observability = nullptr, uint8_t token_format = kTokenFormat)
      : Server(std::move(keys),
               ServiceOptions{.allow_preset = allow_preset, .observability = observability},
               token_format) {}
  // Any service options (tenants, history reveal, ...). Without a hand cache
  // in them, the server gets one, as stud_server does by default
  // (--hand_cache): every test through this server runs with it.
  Server(std::vector<Key> keys, ServiceOptions options, uint8_t token_format = kTokenFormat)
      : hand_cache_(64) {
    EXPECT_THAT(InitCrypto(), ::stud::testing::IsOk());
    sealer_ = std::make_unique<Sealer>(*Sealer::Create(std::move(keys), token_format));
    if (options.hand_cache == nullptr) options.hand_cache = &hand_cache_;
    service_ = std::make_unique<StudServiceImpl>(sealer_.get(), options);
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port_);
    builder.RegisterService(service_.get());
    server_ = builder.BuildAndStart();
    channel_ = grpc::CreateChannel("127.0.0.1:" + std::to_string(port_),
                                   grpc::InsecureChannelCredentials());
    stub_ = stud::v1::StudService::NewStub(channel_);
  }
  // A call still open (a WatchHand stream) is cancelled after 5 s.
  ~Server() { server_->Shutdown(absl::ToChronoTime(absl::Now() + absl::Seconds(5))); }

  stud::v1::StudService::Stub& stub() { return *stub_; }
  StudServiceImpl& service() { return *service_; }
  const Sealer& sealer() const { return *sealer_; }
  int port() const { return port_; }

 private:
  int port_ = 0;
  HandCache hand_cache_;
  std::unique_ptr<Sealer> sealer_;
  std::unique_ptr<StudServiceImpl> service_;
  std::unique_ptr<grpc::Server> server_;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<stud::v1::StudService::Stub> stub_;
};

// Every one-bit change of any byte of `token`, and every truncation, is
// refused by `sealer` (sealed for `tenant`).
inline void ExpectEveryAlterationRefused(const Sealer& sealer, const std::string& token,
                                         const std::string& tenant) {
  const auto refused = ::testing::Not(::stud::testing::IsOk());
  for (size_t byte = 0; byte < token.size(); ++byte) {
    std::string bad = token;
    bad[byte] = static_cast<char>(bad[byte] ^ 0x01);
    EXPECT_THAT(sealer.Open(bad, tenant), refused) << "byte " << byte;
  }
  for (size_t len = 0; len < token.size(); ++len) {
    EXPECT_THAT(sealer.Open(token.substr(0, len), tenant), refused) << "length " << len;
  }
}

// The ErrorInfo of an error status (empty reason when missing).
inline google::rpc::ErrorInfo ErrorInfoOf(const grpc::Status& status) {
  google::rpc::Status details;
  google::rpc::ErrorInfo info;
  if (details.ParseFromString(status.error_details())) {
    for (const auto& any : details.details()) {
      if (any.Is<google::rpc::ErrorInfo>()) any.UnpackTo(&info);
    }
  }
  return info;
}

// A deadline so that no test call can hang.
inline void SetDeadline(grpc::ClientContext* ctx) {
  ctx->set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
}

// The 52 cards in the natural order 2c 2d 2h 2s 3c ... As.
inline std::vector<std::string> NaturalDeck() {
  static const char kRanks[] = "23456789TJQKA";
  static const char kSuits[] = "cdhs";
  std::vector<std::string> deck;
  for (int r = 0; r < 13; ++r) {
    for (int s = 0; s < 4; ++s) deck.push_back(std::string{kRanks[r], kSuits[s]});
  }
  return deck;
}

inline stud::v1::NewHandRequest BasicHand(int seats, stud::v1::DealingMode mode,
                                          stud::v1::Variant variant = stud::v1::VARIANT_STUD) {
  stud::v1::NewHandRequest req;
  req.set_variant(variant);
  req.mutable_stakes()->set_preset("$15-$30");
  for (int i = 1; i <= seats; ++i) {
    auto* s = req.add_seats();
    s->set_seat(i);
    s->set_stack(100000);
  }
  req.set_dealing_mode(mode);
  if (mode == stud::v1::DEALING_MODE_PRESET) {
    for (const std::string& c : NaturalDeck()) req.add_preset_deck(c);
  }
  return req;
}

// NewHand through `server`; the test fails (and the update is empty) on an error.
inline stud::v1::HandUpdate StartHand(Server& server, const stud::v1::NewHandRequest& req) {
  stud::v1::NewHandResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  EXPECT_THAT(server.stub().NewHand(&ctx, req, &resp), ::stud::testing::IsOk());
  return resp.update();
}

// ApplyAction of `action` on `u`'s token; the test fails on an error.
inline stud::v1::HandUpdate ApplyExpectingOk(Server& server, const stud::v1::HandUpdate& u,
                                             const stud::v1::Action& action) {
  stud::v1::ApplyActionRequest req;
  req.set_token(u.token());
  *req.mutable_action() = action;
  stud::v1::ApplyActionResponse resp;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  EXPECT_THAT(server.stub().ApplyAction(&ctx, req, &resp), ::stud::testing::IsOk());
  return resp.update();
}

// RuleIrregularity of `report` on `u`'s token.
inline grpc::Status RuleReport(Server& server, const stud::v1::HandUpdate& u,
                               const stud::v1::IrregularityReport& report,
                               stud::v1::RuleIrregularityResponse* resp) {
  stud::v1::RuleIrregularityRequest req;
  req.set_token(u.token());
  *req.mutable_report() = report;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  return server.stub().RuleIrregularity(&ctx, req, resp);
}

// A passive policy: check, call, bring in, show; raise when `aggressive`.
inline stud::v1::Action ChooseAction(const stud::v1::HandUpdate& u, bool aggressive) {
  stud::v1::Action a;
  a.set_seat(u.to_act());
  const stud::v1::LegalAction* pick = nullptr;
  const stud::v1::ActionKind order[] = {
      aggressive ? stud::v1::ACTION_KIND_RAISE : stud::v1::ACTION_KIND_CHECK,
      stud::v1::ACTION_KIND_CHECK, stud::v1::ACTION_KIND_CALL, stud::v1::ACTION_KIND_BRING_IN,
      stud::v1::ACTION_KIND_SHOW};
  for (stud::v1::ActionKind k : order) {
    for (const auto& la : u.legal_actions()) {
      if (pick == nullptr && la.kind() == k) pick = &la;
    }
  }
  if (pick == nullptr && !u.legal_actions().empty()) pick = &u.legal_actions(0);
  if (pick != nullptr) {
    a.set_kind(pick->kind());
    a.set_amount_to(pick->amount_to());
  }
  return a;
}

// The hand sealed in `token`, opened with `sealer`. A token that does not
// open or parse is a test failure and gives an empty hand.
inline SealedHand OpenSealedHand(const Sealer& sealer, const std::string& token) {
  absl::StatusOr<std::string> plain = sealer.Open(token);
  EXPECT_THAT(plain, ::stud::testing::IsOk());
  absl::StatusOr<SealedHand> hand = ParseSealedHand(plain.ok() ? *plain : "");
  EXPECT_THAT(hand, ::stud::testing::IsOk());
  return hand.ok() ? *std::move(hand) : SealedHand{};
}

// A stateless showdown needs no ledger: it is answered at once whatever
// Redis does, even while calls that need it wait (the ledger's calls hold no
// thread).
inline void ExpectAnsweredWithoutTheLedger(stud::v1::StudService::Stub& stub,
                                           absl::string_view meanwhile) {
  stud::v1::ResolveShowdownRequest showdown;
  stud::v1::StatelessShowdown* sd = showdown.mutable_stateless();
  sd->set_variant(stud::v1::VARIANT_STUD);
  for (const auto& [seat, cards] : std::vector<std::pair<int, std::vector<std::string>>>{
           {1, {"As", "Ad", "Kc", "Kd", "2h", "3h", "7s"}},
           {2, {"Qs", "Qd", "Jc", "Jd", "4h", "5h", "8s"}}}) {
    stud::v1::ShowdownSeat* s = sd->add_seats();
    s->set_seat(seat);
    for (const std::string& c : cards) s->add_cards(c);
    s->set_contribution(100);
  }
  stud::v1::ResolveShowdownResponse settled;
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  EXPECT_TRUE(stub.ResolveShowdown(&ctx, showdown, &settled).ok())
      << "a call that needs no ledger, while " << meanwhile;
  const auto won = settled.won().find(1);
  EXPECT_TRUE(won != settled.won().end() && won->second == 200) << settled.ShortDebugString();
}

// Called once a server that uses `ledger` is built: one command through
// the ledger's queue from this thread (not waited for; Redis need not be up).
// The calls' work that runs on the ledger's thread (a call finished from
// Redis's reply, GetView by hand id) reads the server this thread built, and
// this thread hands each call to gRPC's threads through gRPC's own
// synchronisation, which ThreadSanitizer cannot see (tests/sanitizers/tsan.supp);
// the queue's mutex is the edge it can see.
inline void PublishToLedgerThread(Ledger& ledger) {
  ledger.StartLatest(LedgerKey("", "published"), [](const absl::StatusOr<LedgerLatest>&) {});
}

}  // namespace stud::service::testing

#endif  // STUD_TESTS_SERVICE_SERVICE_FIXTURE_H_
