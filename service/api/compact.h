// Compact answers for devices (UPDATE_DETAIL_COMPACT).
//
// A phone on a slow link reads a hand's fixed facts once (NewHand, GetView)
// and then wants each change small. A compact HandUpdate is a full one
// (token, version, operations, private views, turn, legal actions,
// announcements) whose public view leaves out
//   - what never changes within a hand: variant, stakes, profile, rule
//     options, dealing mode, policy;
//   - the seats this call's operations did not touch (the device keeps them
//     from its previous answer; GetView gives the whole table at any time);
//   - each card's street, in public and private views (a seat's cards are in
//     deal order; GetView gives the streets when an irregularity moved one);
//   - in a private view, the operations it sees as everyone does (they are in
//     the update's operations): only its own down cards remain.
// A typical 8-seat ApplyAction answer is then under 2 KB of JSON
// (docs/mobile.md has the figures).
#ifndef STUD_SERVICE_API_COMPACT_H_
#define STUD_SERVICE_API_COMPACT_H_

#include <array>
#include <cstddef>

#include "engine/hand_state.h"
#include "stud/v1/stud.pb.h"

namespace stud::service {

// Trims a full `update` of `state` whose call appended the operations from
// `first_op` on. HandService::WriteUpdate writes the same answer as bytes
// (rpc/update_bytes.cc); the two share TouchedSeats and SeenAsEveryone.
void MakeCompact(const HandState& state, size_t first_op, stud::v1::HandUpdate* update);

// The seats the operations from `first_op` on name (by seat number): those a
// compact public view keeps.
std::array<bool, kMaxSeats + 1> TouchedSeats(const HandState& state, size_t first_op);

// Whether `seat` sees `op` as everyone does: its card, the one field of an
// operation that depends on the viewer (EncodeOperation), is the public one.
// A compact private view leaves such operations out.
bool SeenAsEveryone(const HandState& state, const Operation& op, int seat);

}  // namespace stud::service

#endif  // STUD_SERVICE_API_COMPACT_H_
