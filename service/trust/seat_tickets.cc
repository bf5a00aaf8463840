#include "service/trust/seat_tickets.h"

#include <algorithm>
#include <optional>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine/view.h"
#include "service/api/status_mapping.h"
#include "service/trust/tenants.h"
#include "sodium.h"

namespace stud::service {
namespace v1 = stud::v1;
namespace {

constexpr size_t kTaggedBytes = 24;  // magic, format, key id, hand id, seat
constexpr absl::string_view kReasonPrefix = "SEAT_TICKET_";

absl::Status Refuse(absl::string_view reason, absl::string_view message) {
  return WithReason(absl::StatusCode::kPermissionDenied, reason, message);
}

// The ticket's first kTaggedBytes into *out (its capacity kept): what the tag covers.
void TaggedInto(uint32_t key_id, absl::string_view hand_id, int seat, std::string* out) {
  out->clear();
  out->reserve(kSeatTicketBytes);  // the tag is appended to it
  out->append("ST");
  out->push_back(static_cast<char>(kSeatTicketFormat));
  for (int shift = 24; shift >= 0; shift -= 8) out->push_back(static_cast<char>(key_id >> shift));
  out->append(hand_id.data(), std::min<size_t>(hand_id.size(), 16));
  out->resize(kTaggedBytes - 1, '\0');
  out->push_back(static_cast<char>(seat));
}

// IssueSeatTicket into *out, its capacity kept.
void IssueSeatTicketInto(const Sealer& sealer, absl::string_view tenant, absl::string_view hand_id,
                         int seat, std::string* out) {
  TaggedInto(sealer.sealing_key_id(), hand_id, seat, out);
  absl::StatusOr<std::array<uint8_t, 16>> tag =
      sealer.TicketTag(sealer.sealing_key_id(), *out, tenant);
  out->append(reinterpret_cast<const char*>(tag->data()),
              tag->size());  // the sealing key is in the ring
}

std::string SeatName(int seat) {
  return seat == kTableTicketSeat ? "the table" : absl::StrCat("seat ", seat);
}

// The seat of an authentic ticket of `tenant`, or SEAT_TICKET_INVALID.
absl::StatusOr<int> VerifiedSeat(const Sealer& sealer, absl::string_view ticket,
                                 absl::string_view tenant) {
  if (ticket.size() != kSeatTicketBytes || ticket.compare(0, 2, "ST") != 0 ||
      static_cast<uint8_t>(ticket[2]) != kSeatTicketFormat) {
    return Refuse(
        "SEAT_TICKET_INVALID",
        absl::StrCat("seat_ticket: not a seat ticket (a ticket is ", kSeatTicketBytes,
                     " bytes from NewHandResponse.seat_tickets; a token is not a ticket)"));
  }
  uint32_t key_id = 0;
  for (int i = 3; i < 7; ++i)
    key_id = (key_id << 8) | static_cast<uint8_t>(ticket[static_cast<size_t>(i)]);
  absl::StatusOr<std::array<uint8_t, 16>> tag =
      sealer.TicketTag(key_id, ticket.substr(0, kTaggedBytes), tenant);
  if (!tag.ok()) {
    return Refuse(
        "SEAT_TICKET_INVALID",
        "seat_ticket: issued under a key this server no longer holds; ask for a new hand");
  }
  if (sodium_memcmp(tag->data(), ticket.data() + kTaggedBytes, tag->size()) != 0) {
    return Refuse(
        "SEAT_TICKET_INVALID",
        "seat_ticket: not authentic: altered, forged, or issued to another tenant; send the ticket "
        "exactly as NewHand returned it");
  }
  return static_cast<int>(static_cast<uint8_t>(ticket[kTaggedBytes - 1]));
}

// The seat the call is scoped to: nullopt when unscoped (no ticket and none
// required); else the ticket's seat, or a refusal. Tickets are required when
// the hand was dealt requiring them (its sealed policy, whatever this
// server's flags) or this server or tenant requires them now.
absl::StatusOr<std::optional<int>> Scope(const Sealer& sealer, const SeatTicketPolicy* policy,
                                         absl::string_view tenant, bool device,
                                         const std::string& ticket, const SealedHand& hand) {
  if (device && !hand.service.requires_seat_tickets) {
    return Refuse("SEAT_TICKET_NOT_PERMITTED",
                  "seat_ticket: this hand was dealt without seat tickets, so a ticket alone does "
                  "not open it; the platform calls for it with its API key");
  }
  if (ticket.empty()) {
    const bool required =
        hand.service.requires_seat_tickets || (policy != nullptr && policy->RequiredFor(tenant));
    if (!required) return std::optional<int>();
    return Refuse(
        "SEAT_TICKET_REQUIRED",
        "seat_ticket: required: this hand is played with seat-scoped access; send the ticket "
        "of your seat (NewHandResponse.seat_tickets) with every call on it");
  }
  absl::StatusOr<int> seat = VerifiedSeat(sealer, ticket, tenant);
  if (!seat.ok()) return seat.status();
  if (hand.service.hand_id.size() != 16 || ticket.compare(7, 16, hand.service.hand_id) != 0) {
    return Refuse("SEAT_TICKET_WRONG_HAND",
                  "seat_ticket: the ticket belongs to another hand; send the ticket NewHand "
                  "returned with this hand");
  }
  if (*seat > hand.state.config.num_seats) {  // authentic, so never; checked all the same
    return Refuse("SEAT_TICKET_INVALID", "seat_ticket: names a seat this hand does not have");
  }
  return std::optional<int>(*seat);
}

// private_view_seats: only the ticket's own seat, and nobody's for the table.
absl::Status CheckViews(int seat, const google::protobuf::RepeatedField<int32_t>& views) {
  for (int32_t v : views) {
    if (v != seat || seat == kTableTicketSeat) {
      return Refuse("SEAT_TICKET_WRONG_SEAT",
                    absl::StrCat("private_view_seats: ", SeatName(seat), "'s ticket may see ",
                                 seat == kTableTicketSeat
                                     ? "no seat's private view"
                                     : absl::StrCat("only seat ", seat, "'s private view"),
                                 ", not seat ", v, "'s"));
    }
  }
  return absl::OkStatus();
}

// Runs `check(seat)` when the call is scoped.
template <typename Check>
absl::Status Scoped(const Sealer& sealer, const SeatTicketPolicy* policy, absl::string_view tenant,
                    bool device, const std::string& ticket, const SealedHand& hand, Check check) {
  absl::StatusOr<std::optional<int>> seat = Scope(sealer, policy, tenant, device, ticket, hand);
  if (!seat.ok()) return seat.status();
  if (!seat->has_value()) return absl::OkStatus();
  return check(**seat);
}

}  // namespace

std::string IssueSeatTicket(const Sealer& sealer, absl::string_view tenant,
                            absl::string_view hand_id, int seat) {
  std::string ticket;
  IssueSeatTicketInto(sealer, tenant, hand_id, seat, &ticket);
  return ticket;
}

void AddSeatTickets(const Sealer& sealer, absl::string_view tenant, const ServiceData& service,
                    int num_seats, v1::NewHandResponse* resp) {
  if (service.hand_id.size() != 16) return;  // every new hand has an id; never happens
  for (int seat = 1; seat <= num_seats; ++seat) {
    v1::SeatTicket* t = resp->add_seat_tickets();
    t->set_seat(seat);
    t->set_ticket(IssueSeatTicket(sealer, tenant, service.hand_id, seat));
  }
  resp->set_table_ticket(IssueSeatTicket(sealer, tenant, service.hand_id, kTableTicketSeat));
}

void WriteSeatTickets(const Sealer& sealer, absl::string_view tenant, const ServiceData& service,
                      int num_seats, wire::Writer& out) {
  if (service.hand_id.size() != 16) return;  // as AddSeatTickets
  thread_local std::string ticket;           // each ticket made here in turn, no allocation
  for (int seat = 1; seat <= num_seats; ++seat) {
    IssueSeatTicketInto(sealer, tenant, service.hand_id, seat, &ticket);
    const size_t at = out.Open(v1::NewHandResponse::kSeatTicketsFieldNumber);
    out.VarintField(v1::SeatTicket::kSeatFieldNumber, static_cast<uint64_t>(seat));
    out.BytesField(v1::SeatTicket::kTicketFieldNumber, ticket);
    out.Close(at);
  }
  IssueSeatTicketInto(sealer, tenant, service.hand_id, kTableTicketSeat, &ticket);
  out.BytesField(v1::NewHandResponse::kTableTicketFieldNumber, ticket);
}

absl::Status CheckSeatTicket(const Sealer& sealer, const SeatTicketPolicy* policy,
                             absl::string_view tenant, bool device,
                             const v1::ApplyActionRequest& req, const SealedHand& hand) {
  return Scoped(
      sealer, policy, tenant, device, req.seat_ticket(), hand, [&](int seat) -> absl::Status {
        if (absl::Status st = CheckViews(seat, req.private_view_seats()); !st.ok()) return st;
        if (!req.has_action()) return absl::OkStatus();  // the handler refuses it
        // Every dealer step of a LIVE hand is the table's: a card dealt (a
        // common card included), a burn [STUD-DEAL-3], the reshuffle [STUD-DECK-1].
        const v1::ActionKind kind = req.action().kind();
        const bool dealer_step = kind == v1::ACTION_KIND_DEAL || kind == v1::ACTION_KIND_BURN ||
                                 kind == v1::ACTION_KIND_RESHUFFLE;
        // Closing seeding for the silent seats is the table's too [STUD-DEAL-6].
        const bool closes_seeding = kind == v1::ACTION_KIND_SEED && req.action().seat() == 0;
        if (seat == kTableTicketSeat && !dealer_step && !closes_seeding) {
          return Refuse("SEAT_TICKET_NOT_PERMITTED",
                        "action.kind: the table's ticket reports the dealer's steps (DEAL, BURN, "
                        "RESHUFFLE), closes seeding and reports irregularities; a seat's action "
                        "(its seed included) needs that seat's ticket");
        }
        if (seat != kTableTicketSeat && dealer_step) {
          return Refuse(
              "SEAT_TICKET_NOT_PERMITTED",
              absl::StrCat("action.kind: seat ", seat,
                           "'s ticket cannot report a dealer's step; LIVE deals, burns and "
                           "the reshuffle come with the table's ticket "
                           "(NewHandResponse.table_ticket)"));
        }
        if (seat != kTableTicketSeat && req.action().seat() != seat) {
          return Refuse("SEAT_TICKET_WRONG_SEAT",
                        absl::StrCat("action.seat: seat ", seat, "'s ticket acts only for seat ",
                                     seat, ", not seat ", req.action().seat()));
        }
        return absl::OkStatus();
      });
}

absl::Status CheckSeatTicket(const Sealer& sealer, const SeatTicketPolicy* policy,
                             absl::string_view tenant, bool device,
                             const v1::LegalActionsRequest& req, const SealedHand& hand) {
  return Scoped(
      sealer, policy, tenant, device, req.seat_ticket(), hand, [&](int seat) -> absl::Status {
        if (req.seat() == seat) return absl::OkStatus();
        return Refuse("SEAT_TICKET_WRONG_SEAT",
                      absl::StrCat("seat: ", SeatName(seat), "'s ticket asks only for seat ", seat,
                                   seat == kTableTicketSeat ? " (the board's deal)" : "",
                                   ", not seat ", req.seat()));
      });
}

absl::Status CheckSeatTicket(const Sealer& sealer, const SeatTicketPolicy* policy,
                             absl::string_view tenant, bool device,
                             const v1::ResolveShowdownRequest& req, const SealedHand& hand) {
  // Any ticket of the hand: the handler answers only once the hand is
  // complete, and then shows only what the showdown showed.
  return Scoped(sealer, policy, tenant, device, req.seat_ticket(), hand,
                [](int) { return absl::OkStatus(); });
}

absl::Status CheckSeatTicket(const Sealer& sealer, const SeatTicketPolicy* policy,
                             absl::string_view tenant, bool device,
                             const v1::RuleIrregularityRequest& req, const SealedHand& hand) {
  return Scoped(
      sealer, policy, tenant, device, req.seat_ticket(), hand, [&](int seat) -> absl::Status {
        if (seat != kTableTicketSeat) {
          return Refuse(
              "SEAT_TICKET_NOT_PERMITTED",
              absl::StrCat("seat_ticket: seat ", seat,
                           "'s ticket cannot report irregularities; the floor "
                           "reports them with the table's ticket (NewHandResponse.table_ticket)"));
        }
        return CheckViews(seat, req.private_view_seats());
      });
}

absl::Status CheckSeatTicket(const Sealer& sealer, const SeatTicketPolicy* policy,
                             absl::string_view tenant, bool device, const v1::GetViewRequest& req,
                             const SealedHand& hand) {
  return Scoped(sealer, policy, tenant, device, req.seat_ticket(), hand,
                [&](int seat) { return CheckViews(seat, req.private_view_seats()); });
}

absl::Status CheckSeatTicket(const Sealer& sealer, const SeatTicketPolicy* policy,
                             absl::string_view tenant, bool device,
                             const v1::ExportHandHistoryRequest& req, const SealedHand& hand) {
  return Scoped(
      sealer, policy, tenant, device, req.seat_ticket(), hand, [&](int seat) -> absl::Status {
        if (req.reveal_hidden_cards()) {
          return Refuse(
              "SEAT_TICKET_NOT_PERMITTED",
              "reveal_hidden_cards: a ticket never reveals other seats' down cards; export "
              "your own seat's view");
        }
        if (req.viewer_seat() != seat && req.viewer_seat() != kPublicViewer) {
          return Refuse(
              "SEAT_TICKET_WRONG_SEAT",
              absl::StrCat("viewer_seat: ", SeatName(seat), "'s ticket exports ",
                           seat == kTableTicketSeat
                               ? std::string("the public record (0)")
                               : absl::StrCat("seat ", seat, "'s view or the public record (0)"),
                           ", not seat ", req.viewer_seat(), "'s"));
        }
        return absl::OkStatus();
      });
}

absl::StatusOr<TicketHolder> AuthenticateSeatTicket(const Sealer& sealer, absl::string_view ticket,
                                                    const std::vector<std::string>& tenants) {
  for (const std::string& tenant : tenants) {
    absl::StatusOr<int> seat = VerifiedSeat(sealer, ticket, tenant);
    if (seat.ok()) {
      return TicketHolder{
          .tenant = tenant, .hand_id = std::string(ticket.substr(7, 16)), .seat = *seat};
    }
    if (ticket.size() != kSeatTicketBytes) break;  // not a ticket for any tenant
  }
  return CallerUnauthenticated(
      "caller: the seat ticket is not one this server issued to a tenant whose hands use seat "
      "tickets; send the ticket exactly as NewHand returned it (or the platform's API key)");
}

absl::Status CheckTicketNamesHand(absl::string_view ticket, absl::string_view hand_id_hex) {
  if (ticket.empty()) return absl::OkStatus();
  if (ticket.size() == kSeatTicketBytes &&
      absl::EqualsIgnoreCase(absl::BytesToHexString(ticket.substr(7, 16)), hand_id_hex)) {
    return absl::OkStatus();
  }
  return Refuse("SEAT_TICKET_WRONG_HAND",
                "seat_ticket: the ticket is not one of this hand's; send the ticket NewHand "
                "returned with this hand");
}

std::string SeatTicketReasonOf(const absl::Status& status) {
  std::string reason = ReasonOf(status);
  return absl::StartsWith(reason, kReasonPrefix) ? reason : std::string();
}

}  // namespace stud::service
