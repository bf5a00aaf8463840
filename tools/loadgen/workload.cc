#include "workload.h"

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <random>
#include <utility>

#include "absl/strings/str_cat.h"
#include "echo.grpc.pb.h"
#include "grpcpp/generic/generic_stub.h"
#include "play.h"
#include "stud/v1/stud.grpc.pb.h"

namespace stud::bench {

void Die(const std::string& what) {
  std::fprintf(stderr, "stud_loadgen: %s\n", what.c_str());
  std::exit(2);
}

std::shared_ptr<grpc::Channel> MakeChannel(const std::string& target, int id) {
  grpc::ChannelArguments args;
  // A distinct argument per channel keeps gRPC from sharing one connection.
  args.SetInt("stud.loadgen.channel_id", id);
  args.SetMaxReceiveMessageSize(16 << 20);
  return grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args);
}

grpc::ByteBuffer ToBuffer(const std::string& bytes) {
  grpc::Slice slice(bytes);
  return grpc::ByteBuffer(&slice, 1);
}

namespace {

namespace v1 = stud::v1;

v1::HandUpdate Call(v1::StudService::Stub& stub, const v1::NewHandRequest& req) {
  grpc::ClientContext ctx;
  v1::NewHandResponse resp;
  grpc::Status st = stub.NewHand(&ctx, req, &resp);
  if (!st.ok()) Die("NewHand failed while building the pool: " + st.error_message());
  return resp.update();
}

v1::HandUpdate Apply(v1::StudService::Stub& stub, const std::string& token, const v1::Action& a) {
  grpc::ClientContext ctx;
  v1::ApplyActionRequest req;
  req.set_token(token);
  *req.mutable_action() = a;
  v1::ApplyActionResponse resp;
  grpc::Status st = stub.ApplyAction(&ctx, req, &resp);
  if (!st.ok()) Die("ApplyAction failed while building the pool: " + st.error_message());
  return resp.update();
}

// A hand played `steps` actions in (fewer if it ends), with the update to act on.
v1::HandUpdate MidHand(v1::StudService::Stub& stub, int steps, std::mt19937_64& rng) {
  for (;;) {
    v1::HandUpdate u = Call(stub, EightSeatHand());
    bool ok = true;
    for (int i = 0; i < steps; ++i) {
      v1::HandUpdate next = Apply(stub, u.token(), PickAction(u, rng, false));
      if (next.to_act() == 0 || next.legal_actions_size() == 0) {
        ok = i > 0;
        break;
      }
      u = std::move(next);
    }
    if (ok && u.to_act() != 0) return u;
  }
}

std::string CardName(int index) {
  static const char kRanks[] = "23456789TJQKA";
  static const char kSuits[] = "cdhs";
  return {kRanks[index / 4], kSuits[index % 4]};
}

}  // namespace

Workload BuildWorkload(const WorkloadOptions& options) {
  const std::string& rpc = options.rpc;
  const int pool_size = options.pool;
  Workload w;
  std::mt19937_64 rng(static_cast<uint64_t>(options.seed));
  auto stub = v1::StudService::NewStub(MakeChannel(options.target, -1));
  std::vector<std::string> requests;
  std::vector<std::string> hands;  // --hand_header: each request's hand id
  const int chain = options.chain;
  if (rpc == "apply_action" && chain > 0) {
    w.method = "/stud.v1.StudService/ApplyAction";
    w.chain = static_cast<size_t>(chain);
    while (requests.size() + w.chain <= static_cast<size_t>(std::max(pool_size, chain))) {
      // A run from 3rd street on; a hand that ends within it is played again.
      v1::HandUpdate u = MidHand(*stub, 1 + static_cast<int>(rng() % 4), rng);
      const std::string hand_id = u.public_view().hand_id();
      std::vector<std::string> run;
      while (run.size() < w.chain && u.to_act() != 0 && u.legal_actions_size() > 0) {
        v1::ApplyActionRequest req;
        req.set_token(u.token());
        *req.mutable_action() = PickAction(u, rng, false);
        if (options.changes_only) req.set_detail(v1::UPDATE_DETAIL_CHANGES);
        run.push_back(req.SerializeAsString());
        u = Apply(*stub, req.token(), req.action());
      }
      if (run.size() != w.chain) continue;
      requests.insert(requests.end(), run.begin(), run.end());
      if (options.hand_header) hands.resize(requests.size(), hand_id);
    }
  } else if (rpc == "apply_action" || rpc == "legal_actions") {
    w.method = rpc == "apply_action" ? "/stud.v1.StudService/ApplyAction"
                                     : "/stud.v1.StudService/LegalActions";
    for (int i = 0; i < pool_size; ++i) {
      // Mid-hand: 4 to 24 actions in, so every street from 3rd to 6th is represented.
      const v1::HandUpdate u = MidHand(*stub, 4 + static_cast<int>(rng() % 21), rng);
      if (rpc == "apply_action") {
        v1::ApplyActionRequest req;
        req.set_token(u.token());
        *req.mutable_action() = PickAction(u, rng, false);
        if (options.changes_only) req.set_detail(v1::UPDATE_DETAIL_CHANGES);
        requests.push_back(req.SerializeAsString());
      } else {
        v1::LegalActionsRequest req;
        req.set_token(u.token());
        req.set_seat(u.to_act());
        requests.push_back(req.SerializeAsString());
      }
    }
  } else if (rpc == "play_hands") {
    w.method = "play_hands";
    w.play = true;
    Call(*stub, EightSeatHand());  // the server deals (dies otherwise)
  } else if (rpc == "new_hand") {
    w.method = "/stud.v1.StudService/NewHand";
    v1::NewHandRequest req = EightSeatHand();
    if (options.changes_only) req.set_detail(v1::UPDATE_DETAIL_CHANGES);
    requests.push_back(req.SerializeAsString());
  } else if (rpc == "showdown_token") {
    w.method = "/stud.v1.StudService/ResolveShowdown";
    for (int i = 0; i < pool_size; ++i) {
      v1::HandUpdate u = Call(*stub, EightSeatHand());
      while (u.to_act() != 0 && u.legal_actions_size() > 0)
        u = Apply(*stub, u.token(), PickAction(u, rng, true));
      v1::ResolveShowdownRequest req;
      req.set_token(u.token());
      requests.push_back(req.SerializeAsString());
    }
  } else if (rpc == "showdown_stateless") {
    w.method = "/stud.v1.StudService/ResolveShowdown";
    for (int i = 0; i < pool_size; ++i) {
      std::vector<int> deck(52);
      for (int c = 0; c < 52; ++c) deck[static_cast<size_t>(c)] = c;
      std::shuffle(deck.begin(), deck.end(), rng);
      v1::ResolveShowdownRequest req;
      v1::StatelessShowdown* sd = req.mutable_stateless();
      sd->set_variant(v1::VARIANT_STUD_HI_LO);
      sd->set_profile(v1::PROFILE_CASH);
      for (int s = 1; s <= 7; ++s) {  // 7 seats x 7 cards = 49 cards
        v1::ShowdownSeat* seat = sd->add_seats();
        seat->set_seat(s);
        seat->set_contribution(100 * (1 + static_cast<int64_t>(rng() % 4)));
        for (int k = 0; k < 7; ++k)
          seat->add_cards(CardName(deck[static_cast<size_t>(s - 1) * 7 + static_cast<size_t>(k)]));
      }
      requests.push_back(req.SerializeAsString());
    }
  } else if (rpc == "echo") {
    w.method = "/stud.loadgen.v1.EchoService/Echo";
    stud::loadgen::v1::EchoRequest req;
    req.set_payload(
        std::string(static_cast<size_t>(std::max(0, options.echo_request_bytes - 6)), 'x'));
    req.set_response_bytes(static_cast<uint32_t>(std::max(0, options.echo_response_bytes - 4)));
    requests.push_back(req.SerializeAsString());
  } else {
    Die("unknown --rpc " + rpc);
  }
  // One call per request: checks it succeeds and measures the response size.
  grpc::GenericStub generic(MakeChannel(options.target, -1));
  for (size_t i = 0; i < requests.size(); ++i) {
    const std::string& r = requests[i];
    Request req{ToBuffer(r), r.size(), 0, i < hands.size() ? hands[i] : ""};
    grpc::ClientContext ctx;
    grpc::ByteBuffer resp;
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    grpc::Status status;
    generic.UnaryCall(&ctx, w.method, grpc::StubOptions(), &req.bytes, &resp, [&](grpc::Status s) {
      std::lock_guard<std::mutex> l(mu);
      status = std::move(s);
      done = true;
      cv.notify_one();
    });
    std::unique_lock<std::mutex> l(mu);
    cv.wait(l, [&] { return done; });
    if (!status.ok())
      Die(absl::StrCat(w.method, " failed on a pool request: ", status.error_message()));
    req.response_size = resp.Length();
    w.pool.push_back(std::move(req));
  }
  return w;
}

// Twin echo requests: same request size, asking for the same response size.
Workload EchoTwin(const Workload& real) {
  Workload w;
  w.method = "/stud.loadgen.v1.EchoService/Echo";
  for (const Request& r : real.pool) {
    stud::loadgen::v1::EchoRequest req;
    req.set_response_bytes(static_cast<uint32_t>(r.response_size));
    // Pad until the serialized request is exactly as large as the real one.
    size_t pad = r.request_size > 8 ? r.request_size - 8 : 0;
    req.set_payload(std::string(pad, 'x'));
    while (req.ByteSizeLong() < r.request_size) req.mutable_payload()->push_back('x');
    while (req.ByteSizeLong() > r.request_size && !req.payload().empty())
      req.mutable_payload()->pop_back();
    // The response has 1 tag + a length varint around the payload.
    stud::loadgen::v1::EchoResponse probe;
    size_t payload = r.response_size;
    for (;;) {
      probe.set_payload(std::string(payload, '\0'));
      if (probe.ByteSizeLong() <= r.response_size || payload == 0) break;
      --payload;
    }
    req.set_response_bytes(static_cast<uint32_t>(payload));
    const std::string s = req.SerializeAsString();
    w.pool.push_back({ToBuffer(s), s.size(), probe.ByteSizeLong()});
  }
  return w;
}

}  // namespace stud::bench
