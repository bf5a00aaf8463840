// The token plaintext written straight from the engine state, without
// building the internal protobuf message first.
//
// WriteSealedHand produces exactly the bytes that filling a
// stud.internal.v1.SealedHand with EncodeState (schema 2) and serializing it
// deterministically produces: fields in field-number order, proto3 defaults
// omitted, packed repeated scalars, minimal length prefixes. Old servers and
// ParseSealedHand read it as they read any schema-2 plaintext, and "same state
// => same token bytes" holds across versions. tests/service/
// state_codec_golden_test.cc pins the bytes; state_wire_test.cc compares
// against the protobuf path on many states.
#ifndef STUD_SERVICE_STATE_WIRE_H_
#define STUD_SERVICE_STATE_WIRE_H_

#include <string>

#include "service/state_codec.h"

namespace stud::service {

// Replaces *out with the serialized SealedHand (schema kSealedSchema).
void WriteSealedHand(const SealedHand& hand, std::string* out);

}  // namespace stud::service

#endif  // STUD_SERVICE_STATE_WIRE_H_
