// Sealing and serialization on the hot path: token sizes and the cost of
// seal/open and of state encode/decode, for a fresh 8-seat hand (arg 0), an
// 8-seat hand played to showdown with every raise allowed (arg 1, the largest
// log) and a mid-hand 8-seat state on 5th street (arg 2, typical); where the
// token's bytes go (BM_TokenBytes); and one ApplyAction taken apart step by
// step on a pool of real mid-hand requests (BM_ApplyAction_*), in process,
// without the transport. The verifiable-hands benchmarks are in
// fairness_bench.cc, in the same binary.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <random>

#include "engine/engine.h"
#include "service/server/stud_service.h"
#include "service/server/unary_call.h"
#include "service/token/codec.h"
#include "service/token/hand_cache.h"
#include "service/token/sealer.h"
#include "stud/internal/v1/state.pb.h"
#include "tests/service/bench_support.h"

namespace stud::service {
namespace {

using bench::BenchHand;
using bench::EightSeatNewHand;
using bench::SealerOfFormat;
using bench::ServerApplyAction;
using bench::TheSealer;

// A hand id (format 4's nonce), as NewHand makes them: 16 bytes.
constexpr absl::string_view kBenchHandId = "0123456789abcdef";

// Seal and open of the mid-hand state (Arg 2 of BM_Seal) in each format.
void BM_SealFormat(benchmark::State& st) {
  const std::string plain = SerializeSealedHand(BenchHand(2));
  const Sealer& sealer = SealerOfFormat(static_cast<uint8_t>(st.range(0)));
  for (auto _ : st) benchmark::DoNotOptimize(sealer.Seal(plain, "", kBenchHandId));
}
BENCHMARK(BM_SealFormat)->Arg(1)->Arg(3)->Arg(4)->Arg(5);

// The same with a tenant (formats 2/3/4 carry its id, 5 a keyed tag of it).
void BM_SealFormatTenant(benchmark::State& st) {
  const std::string plain = SerializeSealedHand(BenchHand(2));
  const Sealer& sealer = SealerOfFormat(static_cast<uint8_t>(st.range(0)));
  for (auto _ : st) benchmark::DoNotOptimize(sealer.Seal(plain, "tenant-a", kBenchHandId));
}
BENCHMARK(BM_SealFormatTenant)->Arg(1)->Arg(4)->Arg(5);

void BM_OpenFormatTenant(benchmark::State& st) {
  const Sealer& sealer = SealerOfFormat(static_cast<uint8_t>(st.range(0)));
  const std::string token =
      sealer.Seal(SerializeSealedHand(BenchHand(2)), "tenant-a", kBenchHandId);
  std::string plain;
  for (auto _ : st) benchmark::DoNotOptimize(sealer.OpenInto(token, "tenant-a", &plain));
}
BENCHMARK(BM_OpenFormatTenant)->Arg(1)->Arg(4)->Arg(5);

void BM_OpenFormat(benchmark::State& st) {
  const Sealer& sealer = SealerOfFormat(static_cast<uint8_t>(st.range(0)));
  const std::string token = sealer.Seal(SerializeSealedHand(BenchHand(2)), "", kBenchHandId);
  std::string plain;
  for (auto _ : st) benchmark::DoNotOptimize(sealer.OpenInto(token, "", &plain));
}
BENCHMARK(BM_OpenFormat)->Arg(1)->Arg(3)->Arg(4)->Arg(5);

void BM_Seal(benchmark::State& st) {
  const std::string plain = SerializeSealedHand(BenchHand(st.range(0)));
  for (auto _ : st) benchmark::DoNotOptimize(TheSealer().Seal(plain, "", kBenchHandId));
  st.counters["token_bytes"] =
      static_cast<double>(TheSealer().Seal(plain, "", kBenchHandId).size());
}
BENCHMARK(BM_Seal)->Arg(0)->Arg(1)->Arg(2);

void BM_Open(benchmark::State& st) {
  const std::string token =
      TheSealer().Seal(SerializeSealedHand(BenchHand(st.range(0))), "", kBenchHandId);
  for (auto _ : st) benchmark::DoNotOptimize(TheSealer().Open(token));
  st.counters["token_bytes"] = static_cast<double>(token.size());
}
BENCHMARK(BM_Open)->Arg(0)->Arg(1)->Arg(2);

void BM_Serialize(benchmark::State& st) {
  const SealedHand hand = BenchHand(st.range(0));
  for (auto _ : st) benchmark::DoNotOptimize(SerializeSealedHand(hand));
}
BENCHMARK(BM_Serialize)->Arg(0)->Arg(1)->Arg(2);

void BM_Parse(benchmark::State& st) {
  const std::string plain = SerializeSealedHand(BenchHand(st.range(0)));
  for (auto _ : st) benchmark::DoNotOptimize(ParseSealedHand(plain));
}
BENCHMARK(BM_Parse)->Arg(0)->Arg(1)->Arg(2);

// Where the bytes of a token go: the serialized size of each part of the
// plaintext, plus the sealing overhead (header, nonce, tag).
void BM_TokenBytes(benchmark::State& st) {
  const SealedHand hand = BenchHand(st.range(0));
  stud::internal::v1::SealedHand msg;
  msg.ParseFromString(SerializeSealedHand(hand));
  for (auto _ : st) benchmark::DoNotOptimize(msg.ByteSizeLong());
  const stud::internal::v1::HandState& s = msg.state();
  size_t seats = 0;
  for (const auto& seat : s.seats()) seats += seat.ByteSizeLong() + 2;
  const size_t deck = s.config().deck().size() + s.config().recycle_order().size() + 4;
  const size_t log = s.packed_log().size() + 3;
  size_t rule_ids = 0;
  for (const std::string& r : s.rule_ids()) rule_ids += r.size() + 2;
  const size_t total = msg.ByteSizeLong() + kTokenOverhead;
  st.counters["token"] = static_cast<double>(total);
  st.counters["config_decks"] = static_cast<double>(deck);
  st.counters["config_other"] = static_cast<double>(s.config().ByteSizeLong() + 3 - deck);
  st.counters["seats"] = static_cast<double>(seats);
  st.counters["log"] = static_cast<double>(log);
  st.counters["log_ops"] = static_cast<double>(hand.state.log.size());
  st.counters["rule_ids"] = static_cast<double>(rule_ids);
  st.counters["service"] = static_cast<double>(msg.service().ByteSizeLong() + 2);
  st.counters["seal_overhead"] = static_cast<double>(kTokenOverhead);
}
BENCHMARK(BM_TokenBytes)->Arg(0)->Arg(1)->Arg(2);

// ---- One ApplyAction, step by step ----

struct ApplyCase {
  std::string request;  // serialized stud.v1.ApplyActionRequest
  std::string token;
  std::string plain;
  SealedHand hand;
  Action action;
};

// Real mid-hand requests (8 seats, 3rd to 6th street) made through the
// service itself, as tools/loadgen makes them.
const std::vector<ApplyCase>& ApplyCases() {
  static const std::vector<ApplyCase>* cases = [] {
    auto* out = new std::vector<ApplyCase>();
    HandService service(&TheSealer(), ServiceOptions{});
    std::mt19937_64 rng(5);
    while (out->size() < 64) {
      const stud::v1::NewHandRequest nh = EightSeatNewHand();
      stud::v1::NewHandResponse nr;
      if (!service.NewHand(nh, &nr).ok()) std::abort();
      stud::v1::HandUpdate u = nr.update();
      const int steps = 4 + static_cast<int>(rng() % 21);
      for (int i = 0; i < steps && u.to_act() != 0; ++i) {
        stud::v1::ApplyActionRequest req;
        req.set_token(u.token());
        const auto& legal = u.legal_actions(
            static_cast<int>(rng() % static_cast<uint64_t>(u.legal_actions_size())));
        req.mutable_action()->set_kind(legal.kind() == stud::v1::ACTION_KIND_FOLD
                                           ? u.legal_actions(u.legal_actions_size() - 1).kind()
                                           : legal.kind());
        req.mutable_action()->set_seat(u.to_act());
        req.mutable_action()->set_amount_to(
            legal.kind() == stud::v1::ACTION_KIND_FOLD
                ? u.legal_actions(u.legal_actions_size() - 1).amount_to()
                : legal.amount_to());
        stud::v1::ApplyActionResponse resp;
        if (i + 1 == steps) {
          ApplyCase c;
          c.request = req.SerializeAsString();
          c.token = u.token();
          c.plain = *TheSealer().Open(c.token);
          c.hand = *ParseSealedHand(c.plain);
          c.action = Action{static_cast<ActionKind>(req.action().kind()), req.action().seat(),
                            req.action().amount_to(), Card(), false};
          out->push_back(std::move(c));
          break;
        }
        if (!service.ApplyAction(req, &resp).ok()) std::abort();
        u = resp.update();
      }
    }
    return out;
  }();
  return *cases;
}

// Runs `body` on the cases in turn, one per iteration, then, untimed, on the
// rest of the last turn: every run makes whole turns, so a count over the
// calls of two runs of different lengths (tools/bench/instructions_per_call.py)
// weighs every case the same and is exact, whatever number of iterations the
// library chose. Returns the number of calls made.
template <typename Body>
size_t OverCases(benchmark::State& st, Body body) {
  const std::vector<ApplyCase>& cases = ApplyCases();
  size_t i = 0;
  size_t bytes = 0;
  for (auto _ : st) {
    const ApplyCase& c = cases[i++ % cases.size()];
    body(c);
    bytes += c.token.size();
  }
  st.counters["token_bytes"] = static_cast<double>(bytes) / static_cast<double>(st.iterations());
  for (; i % cases.size() != 0; ++i) body(cases[i % cases.size()]);
  return i;
}

void BM_ApplyAction_1_DecodeRequest(benchmark::State& st) {
  OverCases(st, [](const ApplyCase& c) {
    stud::v1::ApplyActionRequest req;
    benchmark::DoNotOptimize(req.ParseFromString(c.request));
  });
}
BENCHMARK(BM_ApplyAction_1_DecodeRequest);

void BM_ApplyAction_2_OpenToken(benchmark::State& st) {
  OverCases(st, [](const ApplyCase& c) { benchmark::DoNotOptimize(TheSealer().Open(c.token)); });
}
BENCHMARK(BM_ApplyAction_2_OpenToken);

void BM_ApplyAction_3_DecodeState(benchmark::State& st) {
  OverCases(st, [](const ApplyCase& c) { benchmark::DoNotOptimize(ParseSealedHand(c.plain)); });
}
BENCHMARK(BM_ApplyAction_3_DecodeState);

// The engine's Apply on decoded states; copies made outside the timed part.
void BM_ApplyAction_4_Engine(benchmark::State& st) {
  const std::vector<ApplyCase>& cases = ApplyCases();
  std::vector<HandState> copies(cases.size());
  for (auto _ : st) {
    for (size_t k = 0; k < cases.size(); ++k) copies[k] = ParseSealedHand(cases[k].plain)->state;
    const auto t0 = std::chrono::steady_clock::now();
    for (size_t k = 0; k < cases.size(); ++k)
      benchmark::DoNotOptimize(Apply(copies[k], cases[k].action));
    st.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  st.SetItemsProcessed(st.iterations() * static_cast<int64_t>(cases.size()));
}
BENCHMARK(BM_ApplyAction_4_Engine)->UseManualTime();

void BM_ApplyAction_5_EncodeState(benchmark::State& st) {
  OverCases(st, [](const ApplyCase& c) { benchmark::DoNotOptimize(SerializeSealedHand(c.hand)); });
}
BENCHMARK(BM_ApplyAction_5_EncodeState);

void BM_ApplyAction_6_Seal(benchmark::State& st) {
  OverCases(st, [](const ApplyCase& c) {
    benchmark::DoNotOptimize(TheSealer().Seal(c.plain, "", kBenchHandId));
  });
}
BENCHMARK(BM_ApplyAction_6_Seal);

// Arg 0: the full update; 1: UPDATE_DETAIL_CHANGES (no public view, no
// announcements); 2: the full update as a message.
void BM_ApplyAction_9_Total(benchmark::State& st) {
  // As stud_server runs by default, with a hand cache: every call here misses
  // it (no token of the cases was answered by this service) and keeps its
  // answer's hand, the cost of a call a replica sees for the first time.
  // One for the process, as a server's: the library runs this function
  // several times, and a cache filling again each time would count its
  // filling as calls (tools/bench/instructions_per_call.py). Small, so that
  // the hands it trades with the calls have each held many hands, as on a
  // server that has run a while: at 1,024 a short run sees every kept hand
  // only once or twice, still growing its vectors (about 2.5k instructions
  // and 4 allocations more per call).
  static HandCache* const cache = new HandCache(64);
  static const HandService* const service =
      new HandService(&TheSealer(), ServiceOptions{.hand_cache = cache});
  size_t response_bytes = 0;
  size_t arena_bytes = 0;
  // Each case first, the first time enough times to fill the hand cache as a
  // server's fills (the hands it hands back then have their capacity): a
  // hand's deck tree is derived on its first answer and then found in the
  // tree cache (fairness_view.cc), as on a server.
  static bool filled = false;
  for (size_t kept = 0; kept <= (filled ? 0 : cache->capacity()); kept += ApplyCases().size()) {
    for (const ApplyCase& c : ApplyCases())
      ServerApplyAction(*service, c.request, stud::v1::UPDATE_DETAIL_UNSPECIFIED, false,
                        &arena_bytes);
  }
  filled = true;
  arena_bytes = 0;
  const size_t calls = OverCases(st, [&](const ApplyCase& c) {
    grpc::ByteBuffer out = ServerApplyAction(
        *service, c.request,
        st.range(0) == 1 ? stud::v1::UPDATE_DETAIL_CHANGES : stud::v1::UPDATE_DETAIL_UNSPECIFIED,
        st.range(0) == 2, &arena_bytes);
    response_bytes += out.Length();
    benchmark::DoNotOptimize(out);
  });
  st.counters["response_bytes"] = static_cast<double>(response_bytes) / static_cast<double>(calls);
  // Arena bytes the request and response messages take.
  st.counters["arena_bytes"] = static_cast<double>(arena_bytes) / static_cast<double>(calls);
}
BENCHMARK(BM_ApplyAction_9_Total)->Arg(0)->Arg(1)->Arg(2);

// The same call on a token this replica answered with, as stud_server (its
// --hand_cache on by default) sees the next call of a hand it serves: the
// hand is found decoded (token/hand_cache.h) instead of opened. Before each
// call, outside the function counted (ServerApplyAction) and the time, the
// case's hand is kept as its token, as the call before it would have left
// it. Arg 0: the full update; 1: UPDATE_DETAIL_CHANGES; 3: UPDATE_DETAIL_COMPACT
// (what @stud/client's SeatSession asks for).
void BM_ApplyAction_9_TotalKept(benchmark::State& st) {
  // Small, so that the hands passed around reach their steady capacity within
  // a short run (a call finds the hand kept just before it either way).
  HandCache cache(16);
  HandService service(&TheSealer(), ServiceOptions{.hand_cache = &cache});
  const std::vector<ApplyCase>& cases = ApplyCases();
  std::unique_ptr<SealedHand> spare;  // the copy kept; the cache hands back another
  size_t arena_bytes = 0;
  auto call = [&](const ApplyCase& c) {
    if (spare == nullptr) spare = std::make_unique<SealedHand>();
    *spare = c.hand;
    cache.Keep(c.token, "", &spare, "");
    const auto t0 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(ServerApplyAction(service, c.request,
                                               st.range(0) == 1 ? stud::v1::UPDATE_DETAIL_CHANGES
                                               : st.range(0) == 3
                                                   ? stud::v1::UPDATE_DETAIL_COMPACT
                                                   : stud::v1::UPDATE_DETAIL_UNSPECIFIED,
                                               false, &arena_bytes));
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  for (const ApplyCase& c : cases) call(c);  // each case's deck tree, as in _Total
  const uint64_t hits_before = cache.counts().hits;
  size_t i = 0;
  for (auto _ : st) st.SetIterationTime(call(cases[i++ % cases.size()]));
  for (; i % cases.size() != 0; ++i) call(cases[i % cases.size()]);  // whole turns, as OverCases
  // 1 when every call found its hand (a count, so a change that missed shows).
  st.counters["hit_ratio"] =
      static_cast<double>(cache.counts().hits - hits_before) / static_cast<double>(i);
}
BENCHMARK(BM_ApplyAction_9_TotalKept)->Arg(0)->Arg(1)->Arg(3)->UseManualTime();

// A whole NewHand in process as the server makes the call (8 seats, SERVICE
// dealing: shuffle, deck commitment, seal, the first update and the tickets
// written as bytes into the call's buffer). Arg 1: UPDATE_DETAIL_CHANGES (no
// public view, no announcements); 2: the full answer as a message (FillUpdate
// and AddSeatTickets) serialized by protobuf, as before the writer.
void BM_NewHand_Total(benchmark::State& st) {
  // With a hand cache, as stud_server by default: each new hand is kept.
  static HandCache* const cache = new HandCache(64);
  HandService service(&TheSealer(), ServiceOptions{.hand_cache = cache});
  stud::v1::NewHandRequest nh = EightSeatNewHand();
  if (st.range(0) == 1) nh.set_detail(stud::v1::UPDATE_DETAIL_CHANGES);
  const std::string request = nh.SerializeAsString();
  size_t response_bytes = 0;
  for (auto _ : st) {
    UnaryCall<stud::v1::NewHandRequest, stud::v1::NewHandResponse> call;
    if (!call.ParseRequest(request)) std::abort();
    const CallContext context{.response_bytes = st.range(0) == 2 ? nullptr : call.response_bytes()};
    if (!service.NewHand(call.request(), call.response(), context).ok()) std::abort();
    grpc::ByteBuffer out;
    if (!call.SerializeResponse(&out).ok()) std::abort();
    response_bytes += out.Length();
    benchmark::DoNotOptimize(out);
  }
  st.counters["response_bytes"] =
      static_cast<double>(response_bytes) / static_cast<double>(st.iterations());
}
BENCHMARK(BM_NewHand_Total)->Arg(0)->Arg(1)->Arg(2);

// Response encoding alone: serializing a typical ApplyActionResponse.
void BM_ApplyAction_7_EncodeResponse(benchmark::State& st) {
  HandService service(&TheSealer(), ServiceOptions{});
  std::vector<stud::v1::ApplyActionResponse> responses;
  for (const ApplyCase& c : ApplyCases()) {
    stud::v1::ApplyActionRequest req;
    req.ParseFromString(c.request);
    responses.emplace_back();
    if (!service.ApplyAction(req, &responses.back()).ok()) std::abort();
  }
  size_t i = 0;
  for (auto _ : st) benchmark::DoNotOptimize(responses[i++ % responses.size()].SerializeAsString());
}
BENCHMARK(BM_ApplyAction_7_EncodeResponse);

}  // namespace
}  // namespace stud::service

BENCHMARK_MAIN();
