// Seat-scoped access: seat tickets.
//
// A hand's token is an all-seeing key: whoever holds it may ask for any
// seat's private view or act for any seat. That is right for a trusted
// backend that relays each player only their own view (the default), and
// wrong when tokens reach the players' devices. A seat ticket narrows a call
// to one seat: NewHand returns one ticket per seat and a table ticket (seat
// 0) for the dealer or floor device. With a ticket, a call
//   - seat S: sees only S's private view (private_view_seats [] or [S]), acts
//     only as S (betting, show/muck, its all-in options), asks LegalActions for
//     S, exports the history of S's view (or the public record), never with
//     reveal_hidden_cards, and reports no irregularity (that is the floor's);
//   - table (0): reports every dealer step of a LIVE hand (ACTION_KIND_DEAL,
//     BURN, RESHUFFLE, a common card) and irregularities,
//     asks LegalActions for seat 0, exports the public record; sees no seat's
//     private view and takes no seat's action;
//   - either: ResolveShowdown(token), which answers only once the hand is
//     complete (STUD-SHOW-1), when every card is revealed anyway.
// NewHand and stateless ResolveShowdown / ReplayHandHistory take no ticket:
// NewHand's caller is the one who hands the tickets out, and the others
// carry no hidden state.
//
// When tickets are required (the hand's sealed policy, fixed at NewHand from
// the server's --seat_tickets or the tenant's ":tickets" mark; or this
// server's policy now), a call on a token without a ticket is refused. A ticket sent when not
// required scopes the call all the same, so a client can narrow itself before its operator turns
// the requirement on.
//
// Ticket layout (40 bytes, integers big-endian):
//   offset 0  2 bytes  magic "ST" (a token starts "SK": neither opens as the other)
//   offset 2  1 byte   format (kSeatTicketFormat = 1)
//   offset 3  4 bytes  key id of the ring key that tagged it
//   offset 7 16 bytes  hand id (ServiceData::hand_id)
//   offset 23 1 byte   seat, 0 = the table
//   offset 24 16 bytes tag = Sealer::TicketTag(key id, bytes 0..23 || tenant)
// The tenant is bound by the tag but not written: a ticket of another tenant
// fails the tag check. Hand id and seat are not secret (the hand id is in
// every PublicView; the holder knows its seat), so they are authenticated,
// not encrypted. The tag is deterministic: the same hand, seat and tenant
// give the same ticket, so a retried NewHand (PRESET) answers byte for byte.
// Any key of the ring verifies, so every replica accepts every ticket and key
// rotation (sealer.h) carries tickets along with tokens.
//
// Refusals: PERMISSION_DENIED with ErrorInfo.reason
//   SEAT_TICKET_REQUIRED     no ticket and this server/tenant requires one
//   SEAT_TICKET_INVALID      not a ticket, altered, forged, of another tenant,
//                            or tagged by a key no longer in the ring
//   SEAT_TICKET_WRONG_HAND   an authentic ticket of another hand
//   SEAT_TICKET_WRONG_SEAT   a view, action, history or legal-action question
//                            for a seat other than the ticket's
//   SEAT_TICKET_NOT_PERMITTED  what no ticket of this kind may do (reveal, a
//                            seat reporting an irregularity or a deal, the
//                            table acting for a seat)
#ifndef STUD_SERVICE_TRUST_SEAT_TICKETS_H_
#define STUD_SERVICE_TRUST_SEAT_TICKETS_H_

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "service/token/codec.h"
#include "service/token/sealer.h"
#include "service/token/wire.h"
#include "stud/v1/stud.pb.h"

namespace stud::service {

inline constexpr uint8_t kSeatTicketFormat = 1;
inline constexpr size_t kSeatTicketBytes = 40;
inline constexpr int kTableTicketSeat = 0;

// Where seat tickets are required. Default: nowhere (trusted backend).
struct SeatTicketPolicy {
  bool required = false;          // --seat_tickets=required: every call on a token
  std::set<std::string> tenants;  // tenants marked ":tickets" in the tenant key file
  bool RequiredFor(absl::string_view tenant) const {
    return required || tenants.count(std::string(tenant)) > 0;
  }
};

// The ticket of `seat` (0 = table) of the hand `hand_id` for `tenant`.
std::string IssueSeatTicket(const Sealer& sealer, absl::string_view tenant,
                            absl::string_view hand_id, int seat);
// NewHand: one ticket per seat and the table ticket, for the calling `tenant`.
void AddSeatTickets(const Sealer& sealer, absl::string_view tenant, const ServiceData& service,
                    int num_seats, stud::v1::NewHandResponse* resp);
// The same written as the wire bytes of those two NewHandResponse fields
// (seat_tickets, table_ticket), for a NewHand answered as bytes
// (rpc/update_bytes.cc): what protobuf serializes from AddSeatTickets.
void WriteSeatTickets(const Sealer& sealer, absl::string_view tenant, const ServiceData& service,
                      int num_seats, wire::Writer& out);

// One check per handler, after the token is opened: OK when the call needs no
// ticket or its ticket allows it; else PERMISSION_DENIED with a reason above.
// `policy` null = tickets required nowhere. `tenant`: the caller's; `device`:
// the caller was authenticated by its seat ticket alone (server/callers.h), so
// it may act and read only as that ticket allows, on a hand that requires tickets.
absl::Status CheckSeatTicket(const Sealer& sealer, const SeatTicketPolicy* policy,
                             absl::string_view tenant, bool device,
                             const stud::v1::ApplyActionRequest& req, const SealedHand& hand);
absl::Status CheckSeatTicket(const Sealer& sealer, const SeatTicketPolicy* policy,
                             absl::string_view tenant, bool device,
                             const stud::v1::LegalActionsRequest& req, const SealedHand& hand);
absl::Status CheckSeatTicket(const Sealer& sealer, const SeatTicketPolicy* policy,
                             absl::string_view tenant, bool device,
                             const stud::v1::ResolveShowdownRequest& req, const SealedHand& hand);
absl::Status CheckSeatTicket(const Sealer& sealer, const SeatTicketPolicy* policy,
                             absl::string_view tenant, bool device,
                             const stud::v1::RuleIrregularityRequest& req, const SealedHand& hand);
absl::Status CheckSeatTicket(const Sealer& sealer, const SeatTicketPolicy* policy,
                             absl::string_view tenant, bool device,
                             const stud::v1::GetViewRequest& req, const SealedHand& hand);
absl::Status CheckSeatTicket(const Sealer& sealer, const SeatTicketPolicy* policy,
                             absl::string_view tenant, bool device,
                             const stud::v1::ExportHandHistoryRequest& req, const SealedHand& hand);

// A seat ticket as a device's whole credential (no API key): the tenant it
// was issued to, its hand id (16 raw bytes) and its seat.
struct TicketHolder {
  std::string tenant;
  std::string hand_id;
  int seat = 0;
};
// The holder of `ticket` when it is an authentic ticket of one of `tenants`
// (the tenants whose hands use tickets; tried in turn, each a keyed hash);
// else UNAUTHENTICATED, CALLER_UNAUTHENTICATED. A ticket opens only calls on
// its own hand and seat: CheckSeatTicket then scopes the call as for any
// ticket, and refuses a hand dealt without tickets.
absl::StatusOr<TicketHolder> AuthenticateSeatTicket(const Sealer& sealer, absl::string_view ticket,
                                                    const std::vector<std::string>& tenants);

// Before a hand is looked up by its id (GetView by hand_id, WatchHand): OK
// when `ticket` is empty or names the hand `hand_id_hex` (case-insensitive);
// else SEAT_TICKET_WRONG_HAND, so that a ticket holder cannot learn whether
// another hand id exists. The ticket's authenticity is checked afterwards,
// against the hand, by CheckSeatTicket.
absl::Status CheckTicketNamesHand(absl::string_view ticket, absl::string_view hand_id_hex);

// The SEAT_TICKET_* reason of a refusal from CheckSeatTicket, or "".
std::string SeatTicketReasonOf(const absl::Status& status);

}  // namespace stud::service

#endif  // STUD_SERVICE_TRUST_SEAT_TICKETS_H_
