// Request and response messages of a callback RPC on one protobuf Arena: the
// echo server's --message_arena, which puts its messages on an arena as
// stud_server does (stud_server's own calls are service/server/unary_call.h).
//
// gRPC's callback API heap-allocates each call's request and response by
// default; a HandUpdate is a tree of a few hundred small messages and strings
// (seats, cards, operations, announcements), so building and freeing it was
// a large share of the server's malloc/free time. With ArenaMessageAllocator
// registered for a method (the generated SetMessageAllocatorFor_<Method>),
// both messages live on an arena whose first block is part of the holder
// itself: one allocation per call for everything but long strings' buffers,
// freed at once when gRPC releases the call.
//
// Contract: gRPC calls AllocateMessages once per call and Release once when
// the call is done (after the response is sent); FreeRequest may come earlier
// and is a no-op here (the arena goes with the holder). The messages must not
// be used after Release, which is gRPC's rule for callback messages anyway.
#ifndef STUD_TOOLS_LOADGEN_ARENA_ALLOCATOR_H_
#define STUD_TOOLS_LOADGEN_ARENA_ALLOCATOR_H_

#include <cstddef>

#include "google/protobuf/arena.h"
#include "grpcpp/support/message_allocator.h"
#include "service/server/unary_call.h"

namespace stud::loadgen {

// `kInitialBlock` bytes of arena live inside the holder; a call needing more
// gets further blocks from the heap, as any arena does. A mid-hand
// ApplyAction takes about 4 KB (service_bench BM_ApplyAction_9_Total
// arena_bytes), so 8 KB covers the common calls without a second block.
template <typename Req, typename Resp, size_t kInitialBlock = 8 * 1024>
class ArenaMessageAllocator final : public grpc::MessageAllocator<Req, Resp> {
 public:
  grpc::MessageHolder<Req, Resp>* AllocateMessages() override { return new Holder(); }

 private:
  class Holder final : public grpc::MessageHolder<Req, Resp> {
   public:
    Holder() {
      this->set_request(google::protobuf::Arena::CreateMessage<Req>(arena_.get()));
      this->set_response(google::protobuf::Arena::CreateMessage<Resp>(arena_.get()));
    }
    void FreeRequest() override {}
    void Release() override { delete this; }

   private:
    stud::service::InlineArena<kInitialBlock> arena_;
  };
};

}  // namespace stud::loadgen

#endif  // STUD_TOOLS_LOADGEN_ARENA_ALLOCATOR_H_
