// The request pool of stud_loadgen (loadgen.cc): real requests built and
// checked before any timing, and the do-nothing baseline's twin of each.
//
// BuildWorkload plays hands against the server at `target` (synchronous
// calls) to get real tokens: mid-hand ApplyAction and LegalActions requests,
// runs of one hand's consecutive actions (--chain), finished hands for
// ResolveShowdown by token, random 8-seat showdowns for the stateless form, or
// one NewHand request; for play_hands (play.h) no pool, only a check that the
// server deals. Each request is then sent once, through the generic
// stub the load loop uses, to check that it succeeds and to measure its
// response's size. EchoTwin makes, for every request, an echo request of the
// same size asking for a response of the same size.
#ifndef STUD_TOOLS_LOADGEN_WORKLOAD_H_
#define STUD_TOOLS_LOADGEN_WORKLOAD_H_

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "grpcpp/grpcpp.h"

namespace stud::bench {

struct Request {
  grpc::ByteBuffer bytes;
  size_t request_size = 0;
  size_t response_size = 0;  // measured on a first call
  std::string hand_id;       // hand_header: sent as x-stud-hand-id; empty: no metadata
};

struct Workload {
  std::string method;  // "/package.Service/Method"
  std::vector<Request> pool;
  size_t chain = 0;   // the pool is runs of this many requests of one hand each (0: no runs)
  bool play = false;  // no pool: each call slot plays whole hands (play.h)
};

// What to build (the flags of the same names, loadgen.cc).
struct WorkloadOptions {
  std::string rpc;     // apply_action | new_hand | play_hands | legal_actions | ...
  std::string target;  // the stud_server that answers the pool's calls
  int pool = 256;
  int seed = 1;
  int chain = 0;
  bool hand_header = false;
  bool changes_only = false;  // UPDATE_DETAIL_CHANGES on ApplyAction and NewHand
  int echo_request_bytes = 1000;
  int echo_response_bytes = 2000;
};

// The pool; exits the program (Die) when the server refuses a call.
Workload BuildWorkload(const WorkloadOptions& options);
// The baseline's pool: one echo request per request of `real`.
Workload EchoTwin(const Workload& real);

// `bytes` (a serialized message) as a buffer of one slice, for the generic stub.
grpc::ByteBuffer ToBuffer(const std::string& bytes);

// A channel of its own to `target` (a distinct `id`: a connection gRPC does not share).
std::shared_ptr<grpc::Channel> MakeChannel(const std::string& target, int id);

// Prints "stud_loadgen: <what>" and exits with status 2.
[[noreturn]] void Die(const std::string& what);

}  // namespace stud::bench

#endif  // STUD_TOOLS_LOADGEN_WORKLOAD_H_
