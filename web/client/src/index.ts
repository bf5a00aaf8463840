// @stud/client: the stud.v1 API for apps on players' devices (docs/mobile.md).
//   - SeatSession: a seat's live hand from its ticket alone (fetch, watch, act,
//     retry and resume);
//   - the generated messages and service descriptor (protoc-gen-es), so an app
//     can make any other call with @connectrpc/connect's createClient;
//   - errorDetails / recoveryFor: what each refusal means and what to do.
// Transports come from @connectrpc/connect-web (browsers, React Native with a
// fetch that streams) or @connectrpc/connect-node.
export * from "../gen/stud/v1/stud_pb.js";
export * from "../gen/stud/v1/options_pb.js";
export { ErrorInfoSchema, LocalizedMessageSchema, type ErrorInfo, type LocalizedMessage } from "../gen/google/rpc/error_details_pb.js";
export {
  SeatSession,
  ActionNoLongerLegalError,
  ownCards,
  type SeatSessionOptions,
  type SeatState,
  type ConnectionStatus,
  type UpdateSource,
} from "./seat_session.js";
export { errorDetails, recoveryFor, retryAfterMs, type Recovery, type StudErrorDetails } from "./errors.js";
export { readSeatTicket, ticketFromBase64, ticketToBase64Url, SEAT_TICKET_BYTES, type SeatTicketInfo } from "./ticket.js";
// Verifiable hands (docs/fairness.md): stud-shuffle-v1, card proofs and receipts, WebCrypto only.
export { derive, verifyCardProof, merkleRoot, auditPath, leafHash, cardCode, cardIndex, type Derived } from "./fairness.js";
export { verifyReceipt, type Verdict, type Check, type VerifyInput, type ReceiptInput } from "./receipt_check.js";
