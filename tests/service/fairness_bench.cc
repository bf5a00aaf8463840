// Verifiable hands (docs/fairness.md), in process, in the service_bench
// binary: NewHand asking for players' seeds (the answer of the seeding phase:
// server seed drawn and committed, nothing dealt); one ACTION_KIND_SEED (arg
// 0: seat 1 of 8, the hand still seeding; arg 1: seat 8, which derives the
// deck by stud-shuffle-v1 and deals); the derivation and deck tree alone; and
// a complete hand's receipt (transcript and Ed25519 signature; the 8-seat hand
// played out with every raise, the longest log).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "service/fairness/merkle.h"
#include "service/fairness/receipt.h"
#include "service/fairness/shuffle.h"
#include "service/rpc/receipt_view.h"
#include "service/server/stud_service.h"
#include "tests/service/bench_support.h"

namespace stud::service {
namespace {

using bench::BenchHand;
using bench::EightSeatNewHand;
using bench::TheSealer;

void BM_Fairness_NewHandWithSeeding(benchmark::State& st) {
  HandService service(&TheSealer(), ServiceOptions{});
  stud::v1::NewHandRequest req = EightSeatNewHand();
  req.mutable_fairness()->set_player_seeds(true);
  for (auto _ : st) {
    stud::v1::NewHandResponse resp;
    if (!service.NewHand(req, &resp).ok()) std::abort();
    benchmark::DoNotOptimize(resp);
  }
}
BENCHMARK(BM_Fairness_NewHandWithSeeding);

void BM_Fairness_SeedStep(benchmark::State& st) {
  HandService service(&TheSealer(), ServiceOptions{});
  stud::v1::NewHandRequest nh = EightSeatNewHand();
  nh.mutable_fairness()->set_player_seeds(true);
  stud::v1::NewHandResponse start;
  if (!service.NewHand(nh, &start).ok()) std::abort();
  std::string token = start.update().token();
  const int last = st.range(0) == 1 ? 8 : 1;
  for (int seat = 1; seat < last; ++seat) {  // every seat but the last has seeded
    stud::v1::ApplyActionRequest req;
    req.set_token(token);
    req.mutable_action()->set_kind(stud::v1::ACTION_KIND_SEED);
    req.mutable_action()->set_seat(seat);
    req.mutable_action()->set_seed(std::string(32, static_cast<char>('a' + seat)));
    stud::v1::ApplyActionResponse resp;
    if (!service.ApplyAction(req, &resp).ok()) std::abort();
    token = resp.update().token();
  }
  stud::v1::ApplyActionRequest req;
  req.set_token(token);
  req.mutable_action()->set_kind(stud::v1::ACTION_KIND_SEED);
  req.mutable_action()->set_seat(last);
  req.mutable_action()->set_seed(std::string(32, 'z'));
  for (auto _ : st) {
    stud::v1::ApplyActionResponse resp;
    if (!service.ApplyAction(req, &resp).ok()) std::abort();
    benchmark::DoNotOptimize(resp);
  }
}
BENCHMARK(BM_Fairness_SeedStep)->Arg(0)->Arg(1);

void BM_Fairness_DeriveAndTree(benchmark::State& st) {
  const std::string seed(32, 's'), hand_id(16, 'h');
  const std::vector<std::string> seeds(8, std::string(32, 'p'));
  for (auto _ : st) {
    fairness::DeckTree tree(fairness::Derive(seed, hand_id, seeds));
    benchmark::DoNotOptimize(tree.root());
  }
}
BENCHMARK(BM_Fairness_DeriveAndTree);

void BM_Fairness_Receipt(benchmark::State& st) {
  SealedHand hand = BenchHand(1);
  hand.service.server_seed = std::string(32, 's');
  hand.service.hand_id = std::string(16, 'h');
  const fairness::SigningKeys keys = fairness::SigningKeys::FromSeed(std::string(32, 'k'));
  size_t bytes = 0;
  for (auto _ : st) {
    stud::v1::HandReceipt receipt;
    FillReceipt(hand, keys, &receipt);
    bytes = receipt.transcript().size();
    benchmark::DoNotOptimize(receipt);
  }
  st.counters["transcript_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_Fairness_Receipt);

void BM_Fairness_SignOnly(benchmark::State& st) {
  SealedHand hand = BenchHand(1);
  const std::string transcript = ReceiptTranscript(hand);
  const fairness::SigningKeys keys = fairness::SigningKeys::FromSeed(std::string(32, 'k'));
  for (auto _ : st) benchmark::DoNotOptimize(keys.Sign(transcript));
}
BENCHMARK(BM_Fairness_SignOnly);

}  // namespace
}  // namespace stud::service
