// What the service benchmarks share (service_bench.cc, fairness_bench.cc,
// hand_run_bench.cc): the benchmarks' hands, their sealers, and one
// ApplyAction made as the server makes it.
#ifndef STUD_TESTS_SERVICE_BENCH_SUPPORT_H_
#define STUD_TESTS_SERVICE_BENCH_SUPPORT_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "grpcpp/grpcpp.h"
#include "service/server/stud_service.h"
#include "service/token/codec.h"
#include "service/token/sealer.h"
#include "stud/v1/stud.pb.h"

namespace stud::service::bench {

// The benchmarks' hand: Stud $15-$30, cash profile, SERVICE dealing, eight
// seats of 100,000.
stud::v1::NewHandRequest EightSeatNewHand();

// A sealed Stud Hi-Lo hand of eight seats, $15-$30, dealt from the service's
// shuffle, made in the engine. `kind` 0: fresh, on 3rd street; 1: played out
// to the end with every raise taken (the longest log); 2: mid-hand, on 5th
// street after calls and checks (typical).
SealedHand BenchHand(int64_t kind);

// A sealer of token format `format`, one key, made once per format.
const Sealer& SealerOfFormat(uint8_t format);
// The sealer the whole-call benchmarks use: stud_server's default format (5),
// or STUD_BENCH_TOKEN_FORMAT (e.g. 1) to measure another.
const Sealer& TheSealer();

// One ApplyAction as stud_server makes the call (its UnaryCall,
// service/server/unary_call.h): parse the request, HandService::ApplyAction
// (open, decode, engine, views, legal actions, announcements, encode, seal,
// the answer written as bytes: rpc/update_bytes.cc), the response's bytes into
// gRPC's buffer as the server sends them. The request lives on the call's
// arena, whose first 8 KB are inside it. Not inlined, so that
// tools/bench/instructions_per_call.py counts the whole call by its name.
// `detail`: set on the request unless UNSPECIFIED. `as_message`: the update
// as a message (FillUpdate) serialized by protobuf, as every answer was before
// the writer, and as tests and tools still read it. Adds the arena's bytes to
// *arena_bytes.
grpc::ByteBuffer ServerApplyAction(const HandService& service, const std::string& request,
                                   stud::v1::UpdateDetail detail, bool as_message,
                                   size_t* arena_bytes);

}  // namespace stud::service::bench

#endif  // STUD_TESTS_SERVICE_BENCH_SUPPORT_H_
