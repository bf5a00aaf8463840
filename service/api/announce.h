// Dealer announcements [STUD-IRR-ANN-1]: the low card bringing in, the high
// hand acting first, open pairs, completions, raises and pot awards, each with
// ready-made English and Spanish text worded from the service's one
// vocabulary (text/vocabulary.h). Derived from the operations a call
// appended; presentation only, so it lives in the service, not the engine.
// Possible straights and flushes are never announced (announce_draws is off by
// default and not yet supported here).
#ifndef STUD_SERVICE_API_ANNOUNCE_H_
#define STUD_SERVICE_API_ANNOUNCE_H_

#include <cstddef>

#include "engine/hand_state.h"
#include "stud/v1/stud.pb.h"

namespace stud::service {

// Appends announcements for state.log[first_op..] to `out`; `locale` picks
// the `text` field (LOCALE_ES: Spanish, otherwise English).
void Announce(const HandState& state, size_t first_op, stud::v1::Locale locale,
              google::protobuf::RepeatedPtrField<stud::v1::Announcement>* out);

}  // namespace stud::service

#endif  // STUD_SERVICE_API_ANNOUNCE_H_
