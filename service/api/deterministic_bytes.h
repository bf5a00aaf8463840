// A message's bytes with every map's entries in key order (protobuf's
// deterministic serialization). protobuf writes a map in its hash table's
// order, which differs between calls and processes, so the same answer or
// error could have different bytes; the service's answers with a map
// (ResolveShowdownResponse's won and returned, ErrorInfo's metadata) use this,
// so that equal answers are equal bytes (golden files, byte-for-byte
// comparisons, caches). Messages without a map are the same bytes either way.
#ifndef STUD_SERVICE_API_DETERMINISTIC_BYTES_H_
#define STUD_SERVICE_API_DETERMINISTIC_BYTES_H_

#include <string>

#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/message_lite.h"

namespace stud::service {

inline std::string DeterministicBytes(const google::protobuf::MessageLite& message) {
  std::string out;
  {
    google::protobuf::io::StringOutputStream stream(&out);
    google::protobuf::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    message.SerializeToCodedStream(&coded);
  }  // the coded stream flushes into `out` when destroyed
  return out;
}

}  // namespace stud::service

#endif  // STUD_SERVICE_API_DETERMINISTIC_BYTES_H_
