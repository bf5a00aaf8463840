#include "tests/service/bench_support.h"

#include <cstdlib>
#include <map>

#include "engine/engine.h"
#include "service/rpc/dealing.h"
#include "service/server/unary_call.h"

namespace stud::service::bench {

stud::v1::NewHandRequest EightSeatNewHand() {
  stud::v1::NewHandRequest nh;
  nh.set_variant(stud::v1::VARIANT_STUD);
  nh.mutable_stakes()->set_preset("$15-$30");
  nh.set_dealing_mode(stud::v1::DEALING_MODE_SERVICE);
  nh.set_profile(stud::v1::PROFILE_CASH);
  for (int i = 1; i <= 8; ++i) {
    stud::v1::SeatConfig* seat = nh.add_seats();
    seat->set_seat(i);
    seat->set_stack(100000);
  }
  return nh;
}

SealedHand BenchHand(int64_t kind) {
  const bool play_out = kind != 0;
  (void)InitCrypto();
  HandConfig c;
  c.variant = Variant::kStudHiLo;
  c.stakes = *FindStakesPreset("$15-$30");
  c.options = ProfileDefaults(Profile::kCash);
  c.num_seats = 8;
  for (int i = 1; i <= 8; ++i) c.starting_stacks[i] = 10000000;
  c.deck = ShuffledDeck();
  c.recycle_order = ShuffledDeck();
  SealedHand hand;
  hand.state = *NewHand(c);
  hand.service = {1, 1, std::string(32, 'c'), std::string(32, 's')};
  for (int step = 0; play_out && step < 1000 && hand.state.phase != Phase::kComplete; ++step) {
    if (kind == 2 && hand.state.street == Street::kFifth) break;
    const int seat = ToAct(hand.state);
    std::vector<LegalAction> legal = LegalActions(hand.state, seat);
    LegalAction pick = legal.front();
    for (const LegalAction& a : legal) {
      if (kind == 2) {  // mid-hand: calls and checks, a bring-in completed
        if (a.kind == ActionKind::kCall || a.kind == ActionKind::kCheck ||
            a.kind == ActionKind::kComplete)
          pick = a;
        continue;
      }
      if (a.kind == ActionKind::kRaise || a.kind == ActionKind::kBet ||
          a.kind == ActionKind::kComplete || a.kind == ActionKind::kShow) {
        pick = a;
      } else if (a.kind == ActionKind::kCall && pick.kind != ActionKind::kRaise) {
        pick = a;
      }
    }
    (void)Apply(hand.state, Action{pick.kind, seat, pick.amount_to, Card(), false});
  }
  return hand;
}

const Sealer& SealerOfFormat(uint8_t format) {
  static const Key key = [] {
    (void)InitCrypto();
    return Sealer::EphemeralKey();
  }();
  static std::map<uint8_t, Sealer>* sealers = new std::map<uint8_t, Sealer>();
  auto it = sealers->find(format);
  if (it == sealers->end()) it = sealers->emplace(format, *Sealer::Create({key}, format)).first;
  return it->second;
}

const Sealer& TheSealer() {
  static const uint8_t format = [] {
    const char* env = std::getenv("STUD_BENCH_TOKEN_FORMAT");
    return static_cast<uint8_t>(env != nullptr ? std::atoi(env) : kDerivedTokenFormat);
  }();
  return SealerOfFormat(format);
}

[[gnu::noinline]] grpc::ByteBuffer ServerApplyAction(const HandService& service,
                                                     const std::string& request,
                                                     stud::v1::UpdateDetail detail, bool as_message,
                                                     size_t* arena_bytes) {
  UnaryCall<stud::v1::ApplyActionRequest, stud::v1::ApplyActionResponse> call;
  if (!call.ParseRequest(request)) std::abort();
  auto& req = const_cast<stud::v1::ApplyActionRequest&>(call.request());
  if (detail != stud::v1::UPDATE_DETAIL_UNSPECIFIED) req.set_detail(detail);
  const CallContext context{.response_bytes = as_message ? nullptr : call.response_bytes()};
  if (!service.ApplyAction(req, call.response(), context).ok()) std::abort();
  grpc::ByteBuffer out;
  if (!call.SerializeResponse(&out).ok()) std::abort();
  *arena_bytes += req.GetArena()->SpaceUsed();
  return out;
}

}  // namespace stud::service::bench
