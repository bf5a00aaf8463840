// Test support for the hand ledger: stud_server replicas with a RedisLedger
// on a test redis-server (redis_fixture.h), helpers that play a hand on one of
// them, and every RPC that takes a token, called on one.
#ifndef STUD_TESTS_SERVICE_LEDGER_FIXTURE_H_
#define STUD_TESTS_SERVICE_LEDGER_FIXTURE_H_

#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "prometheus/registry.h"
#include "redis_fixture.h"
#include "service/trust/redis_ledger.h"
#include "service_fixture.h"

namespace stud::service::testing {

// One stud_server replica with a ledger on `redis`; `options` (ledger aside)
// and the token format as given.
struct Replica {
  explicit Replica(const RedisServer& redis, int64_t ttl_ended = 86400)
      : Replica(redis, ServiceOptions{.allow_preset = true}, ttl_ended) {}
  Replica(const RedisServer& redis, ServiceOptions options, int64_t ttl_ended = 86400,
          uint8_t token_format = kTokenFormat)
      : Replica(WithTtl(*ParseLedgerUrl(redis.url()), ttl_ended), options, token_format) {}
  // Any ledger options (Sentinels, WAIT, a quota, a password).
  explicit Replica(const RedisLedgerOptions& o,
                   ServiceOptions options = ServiceOptions{.allow_preset = true},
                   uint8_t token_format = kTokenFormat) {
    ledger = std::make_unique<RedisLedger>(o, &registry);
    options.ledger = ledger.get();
    server = std::make_unique<Server>(std::vector<Key>{TestKey(1, 7)}, options, token_format);
  }
  static RedisLedgerOptions WithTtl(RedisLedgerOptions o, int64_t ttl_ended) {
    o.ttl_ended_seconds = ttl_ended;
    return o;
  }
  // The value of a stud_ledger_* series (labels as "op=advance,result=applied"; "" for none).
  double Metric(const std::string& name, const std::string& labels) const {
    for (const prometheus::MetricFamily& f : registry.Collect()) {
      if (f.name != name) continue;
      for (const prometheus::ClientMetric& m : f.metric) {
        std::string got;
        for (const prometheus::ClientMetric::Label& l : m.label)
          got += (got.empty() ? "" : ",") + l.name + "=" + l.value;
        if (got == labels)
          return f.type == prometheus::MetricType::Histogram
                     ? static_cast<double>(m.histogram.sample_count)
                     : m.counter.value;
      }
    }
    return -1;
  }
  prometheus::Registry registry;
  std::unique_ptr<RedisLedger> ledger;
  std::unique_ptr<Server> server;
  stud::v1::StudService::Stub& stub() { return server->stub(); }
};

template <typename Req, typename Resp, typename Method>
grpc::Status Call(stud::v1::StudService::Stub& stub, Method method, const Req& req, Resp* resp) {
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  return (stub.*method)(&ctx, req, resp);
}

inline stud::v1::HandUpdate Start(stud::v1::StudService::Stub& stub,
                                  stud::v1::DealingMode mode = stud::v1::DEALING_MODE_SERVICE) {
  stud::v1::NewHandResponse resp;
  EXPECT_THAT(Call(stub, &stud::v1::StudService::Stub::NewHand, BasicHand(3, mode), &resp),
              ::stud::testing::IsOk());
  return resp.update();
}

inline grpc::Status Apply(stud::v1::StudService::Stub& stub, const std::string& token,
                          const stud::v1::Action& a, stud::v1::ApplyActionResponse* resp) {
  stud::v1::ApplyActionRequest req;
  req.set_token(token);
  *req.mutable_action() = a;
  return Call(stub, &stud::v1::StudService::Stub::ApplyAction, req, resp);
}

// The hand after one more (passive) action on `u`.
inline stud::v1::HandUpdate Next(stud::v1::StudService::Stub& stub, const stud::v1::HandUpdate& u) {
  stud::v1::ApplyActionResponse resp;
  EXPECT_THAT(Apply(stub, u.token(), ChooseAction(u, false), &resp), ::stud::testing::IsOk());
  return resp.update();
}

// Every update of the hand `u` begins, played to its end with passive actions
// on `a` and `b` in turn, `b` first (at most 200).
inline std::vector<stud::v1::HandUpdate> PlayInTurn(Replica& a, Replica& b,
                                                    stud::v1::HandUpdate u) {
  std::vector<stud::v1::HandUpdate> seen = {u};
  for (int i = 0; i < 200 && u.public_view().phase() != stud::v1::PHASE_COMPLETE; ++i) {
    u = Next(i % 2 == 0 ? b.stub() : a.stub(), u);
    seen.push_back(u);
  }
  return seen;
}

// `st` refuses a token that is no longer its hand's latest (`what` names the call).
inline void ExpectSuperseded(const grpc::Status& st, const std::string& what) {
  EXPECT_THAT(st, ::stud::testing::StatusIs(grpc::StatusCode::ABORTED)) << what;
  EXPECT_EQ(ErrorInfoOf(st).reason(), "TOKEN_SUPERSEDED") << what << ": " << st.error_message();
}

// `old`, a token of a hand that has moved on since, refused by each of `replicas`.
inline void ExpectStaleOnEach(std::initializer_list<Replica*> replicas,
                              const stud::v1::HandUpdate& old) {
  for (Replica* r : replicas) {
    stud::v1::ApplyActionResponse resp;
    ExpectSuperseded(Apply(r->stub(), old.token(), ChooseAction(old, true), &resp), "stale token");
  }
}

// Every RPC that takes a token, on `token`; the status of each.
inline std::map<std::string, grpc::Status> EveryRpc(stud::v1::StudService::Stub& stub,
                                                    const std::string& token,
                                                    const stud::v1::Action& action) {
  std::map<std::string, grpc::Status> out;
  stud::v1::ApplyActionResponse a;
  out["ApplyAction"] = Apply(stub, token, action, &a);
  stud::v1::LegalActionsRequest lr;
  lr.set_token(token);
  lr.set_seat(1);
  stud::v1::LegalActionsResponse lresp;
  out["LegalActions"] = Call(stub, &stud::v1::StudService::Stub::LegalActions, lr, &lresp);
  stud::v1::GetViewRequest gr;
  gr.set_token(token);
  stud::v1::GetViewResponse gresp;
  out["GetView"] = Call(stub, &stud::v1::StudService::Stub::GetView, gr, &gresp);
  stud::v1::ResolveShowdownRequest sr;
  sr.set_token(token);
  stud::v1::ResolveShowdownResponse sresp;
  out["ResolveShowdown"] = Call(stub, &stud::v1::StudService::Stub::ResolveShowdown, sr, &sresp);
  stud::v1::ExportHandHistoryRequest er;
  er.set_token(token);
  stud::v1::ExportHandHistoryResponse eresp;
  out["ExportHandHistory"] =
      Call(stub, &stud::v1::StudService::Stub::ExportHandHistory, er, &eresp);
  // Last: on a live token it may change the hand.
  stud::v1::RuleIrregularityRequest ir;
  ir.set_token(token);
  ir.mutable_report()->set_kind(stud::v1::IRREGULARITY_KIND_ABSENT_PLAYER);
  ir.mutable_report()->set_seat(2);
  stud::v1::RuleIrregularityResponse iresp;
  out["RuleIrregularity"] = Call(stub, &stud::v1::StudService::Stub::RuleIrregularity, ir, &iresp);
  return out;
}

}  // namespace stud::service::testing

#endif  // STUD_TESTS_SERVICE_LEDGER_FIXTURE_H_
