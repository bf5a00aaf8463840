#include "service/api/compact.h"

#include <array>

#include "engine/engine.h"
#include "service/api/convert.h"

namespace stud::service {
namespace v1 = stud::v1;

std::array<bool, kMaxSeats + 1> TouchedSeats(const HandState& state, size_t first_op) {
  std::array<bool, kMaxSeats + 1> touched{};
  for (size_t i = first_op; i < state.log.size(); ++i) {
    const int seat = state.log[i].seat;
    if (seat >= 1 && seat <= kMaxSeats) touched[static_cast<size_t>(seat)] = true;
  }
  return touched;
}

bool SeenAsEveryone(const HandState& state, const Operation& op, int seat) {
  return OperationCard(state, op, seat) == OperationCard(state, op, kPublicViewer);
}

void MakeCompact(const HandState& state, size_t first_op, v1::HandUpdate* update) {
  const std::array<bool, kMaxSeats + 1> touched = TouchedSeats(state, first_op);
  v1::PublicView* pub = update->mutable_public_view();
  pub->clear_variant();
  pub->clear_stakes();
  pub->clear_profile();
  pub->clear_options();
  pub->clear_dealing_mode();
  pub->clear_policy();
  auto* seats = pub->mutable_seats();
  int kept = 0;
  for (int i = 0; i < seats->size(); ++i) {
    const int seat = seats->Get(i).seat();
    if (seat < 1 || seat > kMaxSeats || !touched[static_cast<size_t>(seat)]) continue;
    if (kept != i) seats->SwapElements(kept, i);
    ++kept;
  }
  seats->DeleteSubrange(kept, seats->size() - kept);
  for (v1::SeatView& s : *seats) {
    for (v1::SeatCard& c : *s.mutable_cards()) c.clear_street();
  }
  for (v1::PrivateView& pv : *update->mutable_private_views()) {
    for (v1::SeatCard& c : *pv.mutable_cards()) c.clear_street();
    // Keep only the operations this seat sees differently from everyone
    // (its own down cards): the others are in update->operations already.
    // The list holds the call's operations, log[first_op] on, in order.
    auto* ops = pv.mutable_operations();
    int kept_ops = 0;
    for (int i = 0; i < ops->size(); ++i) {
      const size_t at = first_op + static_cast<size_t>(i);
      if (at < state.log.size() && SeenAsEveryone(state, state.log[at], pv.seat())) continue;
      if (kept_ops != i) ops->SwapElements(kept_ops, i);
      ++kept_ops;
    }
    ops->DeleteSubrange(kept_ops, ops->size() - kept_ops);
  }
}

}  // namespace stud::service
