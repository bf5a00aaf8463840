// A serialized message as proto3 JSON text, written straight from its wire
// bytes along the generated descriptors: byte for byte what the web gateway
// (protobuf-es toJson, then JSON.stringify) writes for the same bytes, so a
// caller gets the same answer from stud_server's Connect listener as from the
// gateway. protobuf's own converter (util::BinaryToJsonString) takes 93-101
// us for a 3.3 KB ApplyAction answer, this 16-19 us (docs/benchmarks.md); and
// it escapes strings as JSON.stringify does (protobuf also escapes < > U+2028
// and DEL).
//
// The form: fields in declaration order, under their JSON names; 64-bit
// integers as strings; enums by name (a number when unknown); bytes as
// standard base64 with padding; maps as objects keyed by the key's text;
// repeated fields as arrays; a message as an object.
//
// It declines (returns false, `out` unspecified) what it does not write the
// gateway's way, and the caller falls back to protobuf's converter: bytes that
// do not parse, unknown fields, float and double fields, google.protobuf.*
// messages (well-known types have their own JSON forms), a field without
// presence carrying its default value, a singular field twice, and strings
// that are not valid UTF-8. The service's answers contain none of these.
#ifndef STUD_SERVICE_CONNECT_JSON_TEXT_H_
#define STUD_SERVICE_CONNECT_JSON_TEXT_H_

#include <string>

#include "absl/strings/string_view.h"
#include "google/protobuf/descriptor.h"

namespace stud::service {

// Appends the JSON of `wire`, a serialized `type`, to *out; false: declined.
bool AppendJsonText(const google::protobuf::Descriptor& type, absl::string_view wire,
                    std::string* out);

// Appends `text` as a JSON string as JavaScript's JSON.stringify writes it
// (", \ and control characters escaped, everything else as is).
void AppendJsonString(absl::string_view text, std::string* out);

}  // namespace stud::service

#endif  // STUD_SERVICE_CONNECT_JSON_TEXT_H_
