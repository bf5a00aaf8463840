// Whole hands on one replica: every call of a hand, from the first action
// after NewHand to the last, on the token the call before it answered with,
// as a device's calls reach the replica that keeps its hand (the hand hint,
// deploy/README.md). BM_ApplyAction_9_TotalKept measures one call on a hand
// just opened from its token; here a hand stays kept for its whole run, its
// log growing call by call, as on a server that serves the hand from start to
// end.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <random>
#include <string>
#include <utility>

#include "service/server/stud_service.h"
#include "service/server/unary_call.h"
#include "service/token/hand_cache.h"
#include "tests/service/bench_support.h"

namespace stud::service {
namespace {

using bench::EightSeatNewHand;
using bench::ServerApplyAction;
using bench::TheSealer;

// The answer a call wrote, read back as the client reads it.
stud::v1::ApplyActionResponse Parse(grpc::ByteBuffer buffer) {
  using Response = stud::v1::ApplyActionResponse;
  Response response;
  if (!grpc::GenericDeserialize<grpc::ProtoBufferReader, Response>(&buffer, &response).ok()) {
    std::abort();
  }
  return response;
}

// The next call of the hand `u` shows: a legal action of the seat to act,
// chosen at random, a fold replaced by the last legal action (so that hands
// run long, as BM_ApplyAction_9_Total's cases do).
std::string NextRequest(const stud::v1::HandUpdate& u, std::mt19937_64& rng) {
  const int n = u.legal_actions_size();
  const stud::v1::LegalAction& pick =
      u.legal_actions(static_cast<int>(rng() % static_cast<uint64_t>(n)));
  const stud::v1::LegalAction& play =
      pick.kind() == stud::v1::ACTION_KIND_FOLD ? u.legal_actions(n - 1) : pick;
  stud::v1::ApplyActionRequest req;
  req.set_token(u.token());
  req.mutable_action()->set_kind(play.kind());
  req.mutable_action()->set_seat(u.to_act());
  req.mutable_action()->set_amount_to(play.amount_to());
  return req.SerializeAsString();
}

// Arg 0: the full update; 1: UPDATE_DETAIL_CHANGES; 3: UPDATE_DETAIL_COMPACT.
// Timed and counted: the ApplyAction calls only (NewHand, choosing the next
// action and reading the answer are outside both).
void BM_ApplyAction_9_KeptRun(benchmark::State& st) {
  // One for the process, as a server's (the library runs this function more
  // than once): its kept hands reach their steady capacity early in a run.
  static HandCache* const cache = new HandCache(64);
  static const HandService* const service =
      new HandService(&TheSealer(), ServiceOptions{.hand_cache = cache});
  const stud::v1::UpdateDetail detail = st.range(0) == 1   ? stud::v1::UPDATE_DETAIL_CHANGES
                                        : st.range(0) == 3 ? stud::v1::UPDATE_DETAIL_COMPACT
                                                           : stud::v1::UPDATE_DETAIL_UNSPECIFIED;
  const stud::v1::NewHandRequest new_hand = EightSeatNewHand();
  std::mt19937_64 rng(7);
  stud::v1::HandUpdate u;
  size_t hands = 0;
  size_t arena_bytes = 0;
  // One call of the run; its time.
  auto call = [&] {
    if (u.to_act() == 0) {  // the hand is over (or not begun): the next one
      stud::v1::NewHandResponse r;
      if (!service->NewHand(new_hand, &r).ok()) std::abort();
      u = r.update();
      ++hands;
    }
    const std::string request = NextRequest(u, rng);
    const auto t0 = std::chrono::steady_clock::now();
    grpc::ByteBuffer out = ServerApplyAction(*service, request, detail, false, &arena_bytes);
    const auto t1 = std::chrono::steady_clock::now();
    u = Parse(std::move(out)).update();
    return std::chrono::duration<double>(t1 - t0).count();
  };
  // Untimed, a few whole hands first: what is made once per process (the
  // evaluator's tables, first used by a board of five up cards when the deck
  // runs short and a common card is dealt) is not counted as a call's work
  // (tools/bench/instructions_per_call.py counts the difference of two runs).
  while (hands < 4 || u.to_act() != 0) call();
  hands = 0;
  u.clear_to_act();
  const HandCache::Counts before = cache->counts();
  for (auto _ : st) st.SetIterationTime(call());
  const HandCache::Counts after = cache->counts();
  // 1 when every call found its hand kept (a count: a change that missed shows).
  st.counters["hit_ratio"] =
      static_cast<double>(after.hits - before.hits) /
      static_cast<double>(after.hits - before.hits + after.misses - before.misses);
  st.counters["calls_per_hand"] = static_cast<double>(st.iterations()) / static_cast<double>(hands);
}
BENCHMARK(BM_ApplyAction_9_KeptRun)->Arg(0)->Arg(1)->Arg(3)->UseManualTime();

// A complete hand's last version read again, as each of its watching devices
// and GetView read it: the update carries the hand's signed receipt
// (rpc/receipt_view.h). Counted: GetView. Arg 0: the answer written as bytes,
// as the server answers; 1: the message, as tests and tools read it.
void BM_GetView_CompleteHand(benchmark::State& st) {
  static HandCache* const cache = new HandCache(64);
  static const HandService* const service =
      new HandService(&TheSealer(), ServiceOptions{.hand_cache = cache});
  std::mt19937_64 rng(11);
  stud::v1::NewHandResponse dealt;
  if (!service->NewHand(EightSeatNewHand(), &dealt).ok()) std::abort();
  stud::v1::HandUpdate u = dealt.update();
  size_t arena_bytes = 0;
  while (u.to_act() != 0) {
    u = Parse(ServerApplyAction(*service, NextRequest(u, rng), stud::v1::UPDATE_DETAIL_UNSPECIFIED,
                                false, &arena_bytes))
            .update();
  }
  stud::v1::GetViewRequest read;
  read.set_token(u.token());
  const std::string request = read.SerializeAsString();
  for (auto _ : st) {  // as the server makes the call (bench_support.h, ServerApplyAction)
    UnaryCall<stud::v1::GetViewRequest, stud::v1::GetViewResponse> call;
    if (!call.ParseRequest(request)) std::abort();
    const CallContext context{.response_bytes = st.range(0) == 1 ? nullptr : call.response_bytes()};
    if (!service->GetView(call.request(), call.response(), context).ok()) std::abort();
    grpc::ByteBuffer out;
    if (!call.SerializeResponse(&out).ok()) std::abort();
    benchmark::DoNotOptimize(out);
  }
  st.counters["transcript_bytes"] = static_cast<double>(u.receipt().transcript().size());
}
BENCHMARK(BM_GetView_CompleteHand)->Arg(0)->Arg(1);

}  // namespace
}  // namespace stud::service
