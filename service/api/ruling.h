// A ruling of the engine (engine/irregularities.h) as the API's Ruling:
// decision, rule ID, the seats it concerns and its text in the call's locale.
#ifndef STUD_SERVICE_API_RULING_H_
#define STUD_SERVICE_API_RULING_H_

#include "engine/hand_state.h"
#include "engine/irregularities.h"
#include "stud/v1/stud.pb.h"

namespace stud::service {

void EncodeRuling(const HandState& state, const Ruling& r, stud::v1::Ruling* out);

}  // namespace stud::service

#endif  // STUD_SERVICE_API_RULING_H_
