// A seat ticket's readable part. A ticket (NewHandResponse.seat_tickets) is 40
// bytes: "ST", format 1, a 4-byte key id, the 16-byte hand id, the seat (0 =
// the table) and a 16-byte tag (service/trust/seat_tickets.h). Hand id and seat
// are authenticated, not secret, so a device given only its ticket knows which
// hand and seat it holds. The tag is checked by the service, never here.

export interface SeatTicketInfo {
  // PublicView.hand_id: 32 lowercase hex digits.
  handId: string;
  // 1..8, or 0 for the table ticket.
  seat: number;
}

export const SEAT_TICKET_BYTES = 40;

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

// Throws a TypeError naming what is wrong when `ticket` is not a format-1 seat ticket.
export function readSeatTicket(ticket: Uint8Array): SeatTicketInfo {
  if (ticket.length !== SEAT_TICKET_BYTES) {
    throw new TypeError(`a seat ticket is ${SEAT_TICKET_BYTES} bytes, this one ${ticket.length}`);
  }
  if (ticket[0] !== 0x53 || ticket[1] !== 0x54 || ticket[2] !== 1) {
    throw new TypeError('not a seat ticket (it must start with "ST" and format 1)');
  }
  return { handId: hex(ticket.subarray(7, 23)), seat: ticket[23] };
}

// Standard base64 (as in proto3 JSON) or base64url, padded or not → bytes.
export function ticketFromBase64(text: string): Uint8Array {
  const standard = text.trim().replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(standard + "=".repeat((4 - (standard.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

// Bytes → base64url without padding: fit for a URL fragment or a push payload.
export function ticketToBase64Url(ticket: Uint8Array): string {
  return btoa(String.fromCharCode(...ticket)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
