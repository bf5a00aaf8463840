#include "play.h"

#include <utility>

#include "workload.h"

namespace stud::bench {

namespace v1 = stud::v1;

const std::string& NewHandMethod() {
  static const auto* const method = new std::string("/stud.v1.StudService/NewHand");
  return *method;
}
const std::string& ApplyActionMethod() {
  static const auto* const method = new std::string("/stud.v1.StudService/ApplyAction");
  return *method;
}

v1::NewHandRequest EightSeatHand() {
  v1::NewHandRequest req;
  req.set_variant(v1::VARIANT_STUD);
  req.mutable_stakes()->set_preset("$15-$30");
  req.set_dealing_mode(v1::DEALING_MODE_SERVICE);
  req.set_profile(v1::PROFILE_CASH);
  for (int s = 1; s <= 8; ++s) {
    v1::SeatConfig* seat = req.add_seats();
    seat->set_seat(s);
    seat->set_stack(100000);
  }
  return req;
}

v1::Action PickAction(const v1::HandUpdate& u, std::mt19937_64& rng, bool passive) {
  const int n = u.legal_actions_size();
  int pick = static_cast<int>(rng() % static_cast<uint64_t>(n));
  if (passive) {  // play to showdown: check/call/show where possible
    for (int i = 0; i < n; ++i) {
      const v1::ActionKind k = u.legal_actions(i).kind();
      if (k == v1::ACTION_KIND_CHECK || k == v1::ACTION_KIND_CALL || k == v1::ACTION_KIND_SHOW ||
          k == v1::ACTION_KIND_BRING_IN) {
        pick = i;
      }
    }
  } else if (u.legal_actions(pick).kind() == v1::ACTION_KIND_FOLD && n > 1) {
    pick = (pick + 1) % n;  // keep hands going: folds rarely
  }
  v1::Action a;
  a.set_kind(u.legal_actions(pick).kind());
  a.set_seat(u.to_act());
  a.set_amount_to(u.legal_actions(pick).amount_to());
  return a;
}

namespace {

// The message's bytes, in one piece.
bool Parse(const grpc::ByteBuffer& buffer, google::protobuf::Message* out) {
  grpc::Slice whole;
  if (!buffer.TrySingleSlice(&whole).ok() && !buffer.DumpToSingleSlice(&whole).ok()) return false;
  return out->ParseFromArray(whole.begin(), static_cast<int>(whole.size()));
}

}  // namespace

HandPlayer::HandPlayer(uint64_t seed, bool hand_header, bool changes_only)
    : rng_(seed), hand_header_(hand_header), changes_only_(changes_only) {}

HandPlayer::Call HandPlayer::Next() {
  std::string bytes;
  Call call;
  if (dealing_) {
    call.method = &NewHandMethod();
    bytes = EightSeatHand().SerializeAsString();
  } else {
    call.method = &ApplyActionMethod();
    v1::ApplyActionRequest req;
    req.set_token(update_.token());
    *req.mutable_action() = PickAction(update_, rng_, false);
    if (changes_only_) req.set_detail(v1::UPDATE_DETAIL_CHANGES);
    bytes = req.SerializeAsString();
    if (hand_header_) call.hand_id = hand_id_;
  }
  call.size = bytes.size();
  call.bytes = ToBuffer(bytes);
  return call;
}

bool HandPlayer::Answered(const grpc::ByteBuffer* response) {
  const bool was_dealing = std::exchange(dealing_, true);
  if (response == nullptr) return true;  // a failed call: counted by the caller
  if (was_dealing) {
    v1::NewHandResponse r;
    if (!Parse(*response, &r)) return false;
    update_ = std::move(*r.mutable_update());
    hand_id_ = update_.public_view().hand_id();
  } else {
    v1::ApplyActionResponse r;
    if (!Parse(*response, &r)) return false;
    update_ = std::move(*r.mutable_update());
  }
  if (update_.to_act() == 0 || update_.legal_actions_size() == 0) {
    ++hands_finished_;
  } else {
    dealing_ = false;
  }
  return true;
}

}  // namespace stud::bench
