// Read-only views of the internal sealed-state messages
// (proto/stud/internal/v1/state.proto), filled by ParseSealedHandView
// straight from the wire instead of by the protobuf parser. They offer the
// accessors of the generated classes that DecodeState uses, so the one
// decoder (state_codec.cc, a template over the message type) checks and
// converts both. Bytes and strings are views into the plaintext, which must
// outlive the view.
//
// The wire parser is deliberately narrow: it accepts only what the schema-2
// writer produces (state_wire.h) in any field order: known fields with their
// declared wire types, each singular field at most once, minimal varints. On
// anything else (schema 1, unknown fields, duplicates, odd encodings) it
// returns false and the caller uses the protobuf parser, so every input is
// decoded exactly as before; this path only makes the common case cheaper.
#ifndef STUD_SERVICE_STATE_VIEW_H_
#define STUD_SERVICE_STATE_VIEW_H_

#include <cstdint>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/string_view.h"

namespace stud::service::view {

#define STUD_VIEW_FIELD(type, name) \
  type name##_{};                   \
  type name() const { return name##_; }

struct Stakes {
  STUD_VIEW_FIELD(int64_t, ante)
  STUD_VIEW_FIELD(int64_t, bring_in)
  STUD_VIEW_FIELD(int64_t, small_bet)
  STUD_VIEW_FIELD(int64_t, big_bet)
};

struct Options {
  STUD_VIEW_FIELD(uint32_t, profile)
  STUD_VIEW_FIELD(uint32_t, bring_in_source)
  STUD_VIEW_FIELD(bool, burn_before_third)
  STUD_VIEW_FIELD(uint32_t, third_street_opener)
  STUD_VIEW_FIELD(bool, bring_in_option)
  STUD_VIEW_FIELD(int32_t, max_raises_per_round)
  STUD_VIEW_FIELD(bool, uncapped_heads_up)
  STUD_VIEW_FIELD(uint32_t, short_allin_rule)
  STUD_VIEW_FIELD(uint32_t, open_pair_scope)
  STUD_VIEW_FIELD(bool, hilo_open_pair_double)
  STUD_VIEW_FIELD(uint32_t, deck_exhaustion)
  STUD_VIEW_FIELD(uint32_t, odd_chip_cards)
  STUD_VIEW_FIELD(bool, odd_chip_low_ace_low)
  STUD_VIEW_FIELD(int64_t, odd_chip_unit)
  STUD_VIEW_FIELD(uint32_t, short_hand)
  STUD_VIEW_FIELD(uint32_t, exposed_holecard)
  STUD_VIEW_FIELD(uint32_t, dead_hand_low_opener)
  STUD_VIEW_FIELD(uint32_t, absent_kill)
  STUD_VIEW_FIELD(uint32_t, fold_when_check)
  STUD_VIEW_FIELD(bool, allow_fold_when_check)
  STUD_VIEW_FIELD(uint32_t, final_burn_error)
  STUD_VIEW_FIELD(uint32_t, premature_seventh)
  STUD_VIEW_FIELD(uint32_t, faceup_final_option)
  STUD_VIEW_FIELD(int32_t, disconnect_allins_per_period)
  STUD_VIEW_FIELD(uint32_t, exhausted_timeout_action)
  STUD_VIEW_FIELD(bool, announce_draws)
  STUD_VIEW_FIELD(bool, out_of_turn_binding)
  STUD_VIEW_FIELD(uint32_t, misdeal_antes)
};

struct HandConfig {
  STUD_VIEW_FIELD(uint32_t, variant)
  Stakes stakes_;
  const Stakes& stakes() const { return stakes_; }
  Options options_;
  const Options& options() const { return options_; }
  STUD_VIEW_FIELD(int32_t, num_seats)
  absl::InlinedVector<int64_t, 8> starting_stacks_;
  int starting_stacks_size() const { return static_cast<int>(starting_stacks_.size()); }
  int64_t starting_stacks(int i) const { return starting_stacks_[static_cast<size_t>(i)]; }
  STUD_VIEW_FIELD(uint32_t, deal_source)
  STUD_VIEW_FIELD(absl::string_view, deck)
  STUD_VIEW_FIELD(absl::string_view, recycle_order)
  absl::InlinedVector<int64_t, 8> carried_antes_;
  int carried_antes_size() const { return static_cast<int>(carried_antes_.size()); }
  int64_t carried_antes(int i) const { return carried_antes_[static_cast<size_t>(i)]; }
};

struct Seat {
  STUD_VIEW_FIELD(int64_t, stack)
  STUD_VIEW_FIELD(int64_t, committed)
  STUD_VIEW_FIELD(int64_t, street_bet)
  STUD_VIEW_FIELD(uint32_t, flags)
  STUD_VIEW_FIELD(int64_t, acted_to)
  STUD_VIEW_FIELD(absl::string_view, packed_cards)
  int cards_size() const { return 0; }  // schema-1 cards: never in a view
};

struct CardMove {
  STUD_VIEW_FIELD(int32_t, seat)
  STUD_VIEW_FIELD(uint32_t, card)
};

struct IrregularityReport {
  STUD_VIEW_FIELD(uint32_t, kind)
  STUD_VIEW_FIELD(int32_t, seat)
  STUD_VIEW_FIELD(uint32_t, street)
  STUD_VIEW_FIELD(bool, has_card)
  STUD_VIEW_FIELD(uint32_t, card)
  STUD_VIEW_FIELD(absl::string_view, cards)
  STUD_VIEW_FIELD(uint32_t, action)
  STUD_VIEW_FIELD(int64_t, amount_to)
  STUD_VIEW_FIELD(bool, next_acted)
  STUD_VIEW_FIELD(int32_t, burn_delta)
  std::vector<CardMove> moves_;
  const std::vector<CardMove>& moves() const { return moves_; }
  int moves_size() const { return static_cast<int>(moves_.size()); }
  std::vector<int32_t> seats_;
  const std::vector<int32_t>& seats() const { return seats_; }
  int seats_size() const { return static_cast<int>(seats_.size()); }
  STUD_VIEW_FIELD(int32_t, card_count)
  STUD_VIEW_FIELD(bool, declare_live)
  STUD_VIEW_FIELD(int32_t, allowance_remaining)
  STUD_VIEW_FIELD(bool, disconnect)
  STUD_VIEW_FIELD(bool, from_deal)
};

struct HandState {
  HandConfig config_;
  const HandConfig& config() const { return config_; }
  STUD_VIEW_FIELD(uint64_t, version)
  STUD_VIEW_FIELD(uint32_t, phase)
  STUD_VIEW_FIELD(uint32_t, street)
  absl::InlinedVector<Seat, 8> seats_;
  int seats_size() const { return static_cast<int>(seats_.size()); }
  const Seat& seats(int i) const { return seats_[static_cast<size_t>(i)]; }
  STUD_VIEW_FIELD(int32_t, actor)
  STUD_VIEW_FIELD(int64_t, bet_to)
  STUD_VIEW_FIELD(int64_t, full_level)
  STUD_VIEW_FIELD(int32_t, raises)
  STUD_VIEW_FIELD(bool, bring_in_due)
  STUD_VIEW_FIELD(int32_t, bring_in_seat)
  STUD_VIEW_FIELD(bool, open_pair)
  STUD_VIEW_FIELD(bool, big_bet_made)
  STUD_VIEW_FIELD(int32_t, last_aggressor)
  STUD_VIEW_FIELD(int64_t, paid_out)
  STUD_VIEW_FIELD(uint64_t, deck_pos)
  STUD_VIEW_FIELD(absl::string_view, recycled)
  STUD_VIEW_FIELD(absl::string_view, burns)
  STUD_VIEW_FIELD(absl::string_view, aside)
  STUD_VIEW_FIELD(int32_t, burn_count)
  STUD_VIEW_FIELD(bool, has_common)
  STUD_VIEW_FIELD(uint32_t, common_card)
  STUD_VIEW_FIELD(uint64_t, seen)
  STUD_VIEW_FIELD(uint32_t, pending_deal)
  STUD_VIEW_FIELD(bool, street_uses_common)
  int log_size() const { return 0; }  // schema-1 log: never in a view
  STUD_VIEW_FIELD(uint32_t, deal_pass)
  STUD_VIEW_FIELD(bool, cap_locked)
  std::vector<IrregularityReport> reports_;
  const std::vector<IrregularityReport>& reports() const { return reports_; }
  STUD_VIEW_FIELD(bool, misdeal)
  STUD_VIEW_FIELD(int32_t, dead_low_seat)
  STUD_VIEW_FIELD(int32_t, forced_opener)
  STUD_VIEW_FIELD(int32_t, allin_option_seat)
  STUD_VIEW_FIELD(int32_t, premature_seat)
  STUD_VIEW_FIELD(int32_t, premature_pending)
  STUD_VIEW_FIELD(absl::string_view, packed_log)
  absl::InlinedVector<absl::string_view, 16> rule_ids_;
  const absl::InlinedVector<absl::string_view, 16>& rule_ids() const { return rule_ids_; }
};

struct ServiceData {
  STUD_VIEW_FIELD(uint32_t, dealing_mode)
  STUD_VIEW_FIELD(uint32_t, locale)
  STUD_VIEW_FIELD(absl::string_view, commitment)
  STUD_VIEW_FIELD(absl::string_view, salt)
  STUD_VIEW_FIELD(absl::string_view, hand_id)
};

struct SealedHand {
  STUD_VIEW_FIELD(uint32_t, schema)
  HandState state_;
  const HandState& state() const { return state_; }
  ServiceData service_;
  const ServiceData& service() const { return service_; }
};

#undef STUD_VIEW_FIELD

// Fills *out from a schema-2 plaintext; false when the input is anything the
// narrow parser does not take (see above): then use the protobuf parser.
bool ParseSealedHandView(absl::string_view plaintext, SealedHand* out);

}  // namespace stud::service::view

#endif  // STUD_SERVICE_STATE_VIEW_H_
