// One unary call of a stud.v1.StudService method, served from its raw bytes.
//
// The service registers its methods as raw callback methods (grpc::ByteBuffer
// in and out) and parses and serializes the messages itself, with gRPC's own
// protobuf serialization (grpc::SerializationTraits, the code typed methods
// run). Two reasons, both measured in docs/benchmarks.md:
// - A request whose bytes are not the method's message is answered by the
//   service (INVALID_ARGUMENT naming the message, counted). With typed
//   methods gRPC answers it UNIMPLEMENTED before any handler runs, and
//   catching that took a server interceptor on every call: about 2 µs of
//   server CPU per call under load, 5-10 % of ApplyAction's throughput.
// - The request and the response are one allocation: the messages live on an
//   arena whose first block is part of this object, so a HandUpdate's few
//   hundred small messages and strings cost no malloc/free of their own.
// A handler may also write the response's bytes itself (response_bytes(),
// rpc/call_context.h): NewHand, ApplyAction and GetView do (rpc/update_bytes.cc), and
// those bytes are sent instead of the (then empty) message.
//
// Contract: one per call, owned by the service's handler. Once the response
// is serialized into gRPC's ByteBuffer nothing refers to the messages, so the
// handler deletes the UnaryCall right after finishing the call: the call's
// reactor stays gRPC's DefaultReactor, whose completion gRPC runs inline (a
// reactor of our own would have its OnDone scheduled on gRPC's executor
// thread, a thread hop per call that measured 12-26 % fewer ApplyActions).
#ifndef STUD_SERVICE_SERVER_UNARY_CALL_H_
#define STUD_SERVICE_SERVER_UNARY_CALL_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "google/protobuf/arena.h"
#include "grpcpp/grpcpp.h"
#include "service/api/deterministic_bytes.h"
#include "service/token/wire.h"

namespace stud::service {

// A slice that takes `bytes`' storage (no copy) and frees it when gRPC is
// done with it; `bytes` is left empty.
inline grpc::Slice SliceOwning(wire::Buffer& bytes) {
  const size_t size = bytes.size();
  return {bytes.Release(), size, [](void* p) { delete[] static_cast<uint8_t*>(p); }};
}

// A protobuf Arena whose first `kBytes` live inside this object: one
// allocation (the object's) for everything a call puts on it up to kBytes.
template <size_t kBytes>
class InlineArena {
 public:
  InlineArena() : arena_(Options(block_)) {}
  InlineArena(const InlineArena&) = delete;
  InlineArena& operator=(const InlineArena&) = delete;
  google::protobuf::Arena* get() { return &arena_; }

 private:
  static google::protobuf::ArenaOptions Options(char* block) {
    google::protobuf::ArenaOptions o;
    o.initial_block = block;
    o.initial_block_size = kBytes;
    return o;
  }
  alignas(std::max_align_t) char block_[kBytes];
  google::protobuf::Arena arena_;  // declared after block_: destroyed before it
};

// `kInitialBlock` bytes of arena live inside the call; a call needing more
// gets further blocks from the heap, as any arena does. A mid-hand full
// ApplyAction takes about 4.5 KB (service_bench BM_ApplyAction_9_Total
// arena_bytes), so 8 KB covers the common calls without a second block.
inline constexpr size_t kCallArenaBlock = 8 * 1024;
template <typename Req, typename Resp, size_t kInitialBlock = kCallArenaBlock>
class UnaryCall final {
 public:
  UnaryCall()
      : request_(google::protobuf::Arena::CreateMessage<Req>(arena_.get())),
        response_(google::protobuf::Arena::CreateMessage<Resp>(arena_.get())) {}
  UnaryCall(const UnaryCall&) = delete;
  UnaryCall& operator=(const UnaryCall&) = delete;

  const Req& request() const { return *request_; }
  Resp* response() { return response_; }
  // Where the handler may write the response's bytes instead of filling
  // response() (rpc/call_context.h, CallContext::response_bytes).
  wire::Buffer* response_bytes() { return &response_bytes_; }

  // Parses the request's bytes; false when they are not a `Req`.
  bool ParseRequest(const grpc::ByteBuffer& bytes) {
    grpc::ByteBuffer shared(bytes);  // the slices are shared, not copied; parsing consumes it
    return grpc::SerializationTraits<Req>::Deserialize(&shared, request_).ok();
  }

  // The same from bytes that are not in a gRPC buffer (ServeBytes).
  bool ParseRequest(absl::string_view bytes) {
    return request_->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
  }
  bool SerializeResponse(std::string* out) {
    if (!response_bytes_.empty()) {
      const absl::string_view bytes = response_bytes_.view();
      out->assign(bytes.data(), bytes.size());
      return true;
    }
    if (HasMap()) {
      *out = DeterministicBytes(*response_);
      return true;
    }
    return response_->SerializeToString(out);
  }

  // The response's bytes into *out, which gRPC sends when the call finishes
  // OK; gRPC's error (INTERNAL) when the response cannot be serialized.
  // Written bytes go to gRPC as they are, without a copy: the slice owns them.
  grpc::Status SerializeResponse(grpc::ByteBuffer* out) {
    if (!response_bytes_.empty()) return SentAs(SliceOwning(response_bytes_), out);
    if (HasMap()) return SentAs(grpc::Slice(DeterministicBytes(*response_)), out);
    bool own_buffer = false;
    grpc::ByteBuffer bytes;
    grpc::Status status =
        grpc::SerializationTraits<Resp>::Serialize(*response_, &bytes, &own_buffer);
    if (status.ok()) out->Swap(&bytes);
    return status;
  }

 private:
  // `slice` as the whole of *out. The slice owns its bytes (written bytes'
  // storage, or a copy), so gRPC sends them after this call is deleted.
  static grpc::Status SentAs(const grpc::Slice& slice, grpc::ByteBuffer* out) {
    grpc::ByteBuffer buffer(&slice, 1);
    out->Swap(&buffer);
    return grpc::Status::OK;
  }

  // A response with a map field is serialized with its maps in key order
  // (api/deterministic_bytes.h): the same answer, the same bytes.
  static bool HasMap() {
    static const bool has_map = [] {
      const google::protobuf::Descriptor* type = Resp::descriptor();
      for (int i = 0; i < type->field_count(); ++i)
        if (type->field(i)->is_map()) return true;
      return false;
    }();
    return has_map;
  }

  InlineArena<kInitialBlock> arena_;  // declared first: the messages live on it
  Req* const request_;
  Resp* const response_;
  wire::Buffer response_bytes_;
};

}  // namespace stud::service

#endif  // STUD_SERVICE_SERVER_UNARY_CALL_H_
