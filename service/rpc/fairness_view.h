// Verifiable hands in the API (docs/fairness.md): the fairness part of each
// view, the card proofs, the server seed's reveal and the signed receipt of
// a complete hand. The derivation and the tree are service/fairness/ (pure);
// this file maps them onto stud.v1 messages.
//
// What a caller sees: the server seed commitment and the deck root (public
// from NewHand, or from the deal after seeding), the players' seeds once
// seeding is over, and a proof for exactly the cards its view shows face:
// the public view's upcards, shown hands and common card; a private view's
// own cards. A card the view leaves "" never gets a proof, so no proof can
// tell a caller anything its view does not. The server seed itself only in
// the final view of a REVEAL_POLICY_AT_END hand and to GetView's reveal_deck.
#ifndef STUD_SERVICE_RPC_FAIRNESS_VIEW_H_
#define STUD_SERVICE_RPC_FAIRNESS_VIEW_H_

#include <string>

#include "absl/types/span.h"
#include "engine/card.h"
#include "google/protobuf/repeated_ptr_field.h"
#include "service/fairness/shuffle.h"
#include "service/token/codec.h"
#include "service/token/wire.h"
#include "stud/v1/stud.pb.h"

namespace stud::service {

// True for a hand dealt (or being seeded) by stud-shuffle-v1: a SERVICE hand
// sealed since the server seed existed.
bool HasFairness(const ServiceData& service);

// pub->fairness: commitment, root, seeds and a proof for every card `pub`
// shows (its seats' cards and common card); the server seed when the hand
// is complete under REVEAL_POLICY_AT_END. Nothing for other hands.
void EncodeFairness(const SealedHand& hand, stud::v1::PublicView* pub);
// A proof for each card of `cards` the viewer sees (a non-empty code).
void EncodeCardProofs(const SealedHand& hand,
                      const google::protobuf::RepeatedPtrField<stud::v1::SeatCard>& cards,
                      google::protobuf::RepeatedPtrField<stud::v1::CardProof>* out);
// The same two written straight to the wire (rpc/update_bytes.cc), the bytes
// protobuf writes for what they fill. WriteFairness: the public view's field
// `fairness`, `shown` being the cards the view shows face (its seats' in
// order, then its common card); nothing for a hand without fairness or still
// seeding. WriteCardProofs: field `field` of the message being written, a
// proof for each of `cards` (each one the viewer sees).
void WriteFairness(const SealedHand& hand, absl::Span<const Card> shown, wire::Writer& out);
void WriteCardProofs(const SealedHand& hand, absl::Span<const Card> cards, uint32_t field,
                     wire::Writer& out);
// The server seed for GetView's reveal_deck (a trusted caller; CheckDeckReveal).
void EncodeServerSeedReveal(const SealedHand& hand, stud::v1::PublicView* pub);

// The deck root of a hand with fairness (32 raw bytes): its tree's, derived
// once per hand and kept.
std::string DeckRootOf(const ServiceData& service, int num_seats);

// Keeps the tree of a hand just derived (NewHand, the end of seeding), so
// that its first view does not derive it again.
void RememberDeckTree(const ServiceData& service, const fairness::Derived& derived);

}  // namespace stud::service

#endif  // STUD_SERVICE_RPC_FAIRNESS_VIEW_H_
