// Public proto (stud.v1) <-> engine types.
//
// Decoding functions validate shape only (required fields, ranges, card
// syntax) and return INVALID_ARGUMENT whose message starts with the field
// path ("seats[2].stack: must be positive"); the rules themselves stay in the
// engine. Encoding functions never fail.
//
// Visibility (what a viewer may see) is the engine's (engine/view.h): a
// face-up card is public; a face-down card is seen by its owner, and by
// everyone once the seat has shown; burns, recycled piles and the undealt deck
// are never sent. `viewer` is a seat number, or stud::kPublicViewer.
#ifndef STUD_SERVICE_API_CONVERT_H_
#define STUD_SERVICE_API_CONVERT_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/engine.h"
#include "engine/hand_state.h"
#include "engine/pot.h"
#include "engine/view.h"
#include "service/api/localized.h"
#include "stud/v1/stud.pb.h"

namespace stud::service {

// ---- decoding (requests) ----
absl::StatusOr<Card> DecodeCard(absl::string_view text, absl::string_view field);
absl::StatusOr<std::vector<Card>> DecodeCards(
    const google::protobuf::RepeatedPtrField<std::string>& cards, absl::string_view field);
// The request's locale; LOCALE_UNSPECIFIED means English.
absl::StatusOr<stud::v1::Locale> DecodeLocale(stud::v1::Locale locale);
absl::StatusOr<Variant> DecodeVariant(stud::v1::Variant v, absl::string_view field);
absl::StatusOr<Stakes> DecodeStakes(const stud::v1::Stakes& stakes, absl::string_view field);
// The profile's defaults with the overrides applied, then ValidateOptions.
absl::StatusOr<Options> DecodeOptions(stud::v1::Profile profile,
                                      const stud::v1::RuleOptions& overrides,
                                      absl::string_view field);
absl::StatusOr<Action> DecodeAction(const stud::v1::Action& action, absl::string_view field);
// Requested private-view seats: each in 1..num_seats, no duplicates.
absl::StatusOr<std::vector<int>> DecodeViewSeats(
    const google::protobuf::RepeatedField<int32_t>& seats, int num_seats, absl::string_view field);

// ---- encoding (responses) ----
stud::v1::Street EncodeStreet(Street s);
stud::v1::Phase EncodePhase(Phase p);
// The one mapping of a pot half, for awards in the log and pot results.
stud::v1::PotHalf EncodePotHalf(PotHalf half);
stud::v1::ActionKind EncodeActionKind(ActionKind k);
stud::v1::Variant EncodeVariant(Variant v);
stud::v1::Profile EncodeProfile(Profile p);
void EncodeOptions(const Options& options, stud::v1::RuleOptions* out);
void EncodeLegalAction(const LegalAction& a, stud::v1::LegalAction* out);
void EncodeExpectedDeal(const ExpectedDeal& d, stud::v1::ExpectedDeal* out);
// The card operation `op` shows `viewer`: none for an operation without a
// card, or whose card `viewer` may not see (RedactFor).
std::optional<Card> OperationCard(const HandState& state, const Operation& op, int viewer);
// Operation `index` of the log as `viewer` may see it.
void EncodeOperation(const HandState& state, const Operation& op, uint32_t index, int viewer,
                     stud::v1::Operation* out);
// Seat cards as `viewer` sees them.
void EncodeSeatCards(const HandState& state, int seat, int viewer,
                     google::protobuf::RepeatedPtrField<stud::v1::SeatCard>* out);
// The engine's public view (ViewFor(state, kPublicViewer)): everything public
// except the deck commitment and the hand id (filled by the caller).
void EncodePublicView(const TableView& view, stud::v1::PublicView* out);
// The settlement; each shown hand named in `language` (text/hand_names.h).
void EncodeSettlement(const Settlement& settlement, MessageLanguage language,
                      stud::v1::ResolveShowdownResponse* out);

}  // namespace stud::service

#endif  // STUD_SERVICE_API_CONVERT_H_
