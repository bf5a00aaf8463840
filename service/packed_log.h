// The packed operation log of sealed-state schema 2 (internal HandState
// fields packed_log and rule_ids), split out of state_codec.cc.
//
// Per operation:
//   byte 0  type (1..19) | (street - 3) << 5
//   byte 1  seat (0..8) | face_up << 4 | all_in << 5 | odd_chip << 6 | more << 7
//   when more: byte 2, a presence mask of the fields that differ from their
//   defaults, each following in this order when present:
//     1 card (1 byte), 2 pot (1 byte), 4 half (1 byte), 8 amount (zigzag
//     varint), 16 amount_to (zigzag varint), 32 rule ID (varint index into
//     rule_ids, which lists each distinct ID once, in order of first use).
// Every value is range-checked when decoding; a truncated or overlong entry
// is refused.
//
// Both directions run once per call on the hot path (a mid-hand log is 50 to
// 100 operations), so they work on raw bytes: no per-byte string growth, no
// per-operation string comparison in the common case.
#ifndef STUD_SERVICE_PACKED_LOG_H_
#define STUD_SERVICE_PACKED_LOG_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engine/hand_state.h"
#include "google/protobuf/repeated_ptr_field.h"

namespace stud::service {

// Replaces *packed and *rule_ids with the encoding of `log`. Deterministic:
// the same log always gives the same bytes.
void PackLog(const std::vector<Operation>& log, std::string* packed,
             google::protobuf::RepeatedPtrField<std::string>* rule_ids);

// The same bytes written at `w`, which must have room for
// kMaxPackedLogEntryBytes per operation; returns the end. `rules` receives
// the distinct rule IDs in order of first use (the rule_ids field).
inline constexpr size_t kMaxPackedLogEntryBytes = 6 + 3 * 10;
uint8_t* PackLogTo(const std::vector<Operation>& log, uint8_t* w,
                   std::vector<absl::string_view>* rules);

// Appends the operations of `packed` to *log. INTERNAL ("sealed state: field
// packed_log... is out of range") on any malformed or out-of-range entry.
absl::Status UnpackLog(absl::string_view packed, absl::Span<const absl::string_view> rule_ids,
                       int num_seats, std::vector<Operation>* log);

}  // namespace stud::service

#endif  // STUD_SERVICE_PACKED_LOG_H_
