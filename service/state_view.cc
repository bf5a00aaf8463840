#include "service/state_view.h"

namespace stud::service::view {
namespace {

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLen = 2 };

// A cursor over one message's bytes. Every read fails (false) on truncation
// or an encoding the schema-2 writer never produces.
class Reader {
 public:
  explicit Reader(absl::string_view bytes)
      : p_(reinterpret_cast<const uint8_t*>(bytes.data())), end_(p_ + bytes.size()) {}
  bool done() const { return p_ == end_; }

  bool Varint(uint64_t* out) {
    uint64_t v = 0;
    for (int i = 0; i < 10; ++i) {
      if (p_ == end_) return false;
      const uint8_t b = *p_++;
      if (i == 9 && b > 1) return false;  // more than 64 bits
      v |= static_cast<uint64_t>(b & 0x7F) << (7 * i);
      if ((b & 0x80) == 0) {
        *out = v;
        return true;
      }
    }
    return false;
  }
  // The next field's number and wire type; field 0 is invalid.
  bool Tag(uint32_t* field, uint32_t* type) {
    uint64_t tag = 0;
    if (!Varint(&tag) || tag > 0xFFFFFFFFu || (tag >> 3) == 0) return false;
    *field = static_cast<uint32_t>(tag >> 3);
    *type = static_cast<uint32_t>(tag & 7);
    return true;
  }
  bool Len(absl::string_view* out) {
    uint64_t n = 0;
    if (!Varint(&n) || n > static_cast<uint64_t>(end_ - p_)) return false;
    *out = absl::string_view(reinterpret_cast<const char*>(p_), static_cast<size_t>(n));
    p_ += n;
    return true;
  }
  bool Fixed64(uint64_t* out) {
    if (end_ - p_ < 8) return false;
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(p_[i]) << (8 * i);
    p_ += 8;
    *out = v;
    return true;
  }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

// Reads one field of a message: `type` must be its declared wire type, and a
// singular field may appear once (`seen` holds a bit per field number).
class Fields {
 public:
  explicit Fields(absl::string_view bytes) : in_(bytes) {}
  bool Next() {
    if (in_.done()) return false;
    ok_ = in_.Tag(&field_, &type_);
    return ok_;
  }
  uint32_t field() const { return field_; }
  bool ok() const { return ok_; }
  void Fail() { ok_ = false; }

  bool Once() {
    if (field_ >= 64 || (seen_ >> field_) & 1) return ok_ = false;
    seen_ |= uint64_t{1} << field_;
    return true;
  }
  template <typename T>
  void Int(T* out) {  // int32/int64/uint32/uint64: protobuf's truncation
    uint64_t v = 0;
    if (!Once() || type_ != kVarint || !in_.Varint(&v)) {
      ok_ = false;
      return;
    }
    *out = static_cast<T>(v);
  }
  void Bool(bool* out) {
    uint64_t v = 0;
    if (!Once() || type_ != kVarint || !in_.Varint(&v) || v > 1) {
      ok_ = false;
      return;
    }
    *out = v != 0;
  }
  void SInt32(int32_t* out) {
    uint64_t v = 0;
    if (!Once() || type_ != kVarint || !in_.Varint(&v)) {
      ok_ = false;
      return;
    }
    const auto u = static_cast<uint32_t>(v);
    *out = static_cast<int32_t>((u >> 1) ^ (~(u & 1) + 1));
  }
  void Fixed64(uint64_t* out) {
    if (!Once() || type_ != kFixed64 || !in_.Fixed64(out)) ok_ = false;
  }
  // A bytes or string field, or a message to parse (`repeated` skips the
  // once-only check).
  bool Bytes(absl::string_view* out, bool repeated = false) {
    if ((!repeated && !Once()) || type_ != kLen || !in_.Len(out)) return ok_ = false;
    return true;
  }
  // A packed repeated varint field.
  template <typename T, typename Vec>
  void Packed(Vec* out) {
    absl::string_view bytes;
    if (!Bytes(&bytes)) return;
    Reader r(bytes);
    while (!r.done()) {
      uint64_t v = 0;
      if (!r.Varint(&v)) {
        ok_ = false;
        return;
      }
      out->push_back(static_cast<T>(v));
    }
  }

 private:
  Reader in_;
  uint32_t field_ = 0;
  uint32_t type_ = 0;
  uint64_t seen_ = 0;
  bool ok_ = true;
};

bool PrintableAscii(absl::string_view text) {
  for (char ch : text) {
    if (ch < 0x20 || ch > 0x7E) return false;
  }
  return true;
}

bool ParseStakes(absl::string_view bytes, Stakes* s) {
  Fields f(bytes);
  while (f.Next()) {
    switch (f.field()) {
      case 1:
        f.Int(&s->ante_);
        break;
      case 2:
        f.Int(&s->bring_in_);
        break;
      case 3:
        f.Int(&s->small_bet_);
        break;
      case 4:
        f.Int(&s->big_bet_);
        break;
      default:
        return false;
    }
    if (!f.ok()) return false;
  }
  return f.ok();
}

bool ParseOptions(absl::string_view bytes, Options* o) {
  Fields f(bytes);
  while (f.Next()) {
    switch (f.field()) {
      case 1:
        f.Int(&o->profile_);
        break;
      case 2:
        f.Int(&o->bring_in_source_);
        break;
      case 3:
        f.Bool(&o->burn_before_third_);
        break;
      case 4:
        f.Int(&o->third_street_opener_);
        break;
      case 5:
        f.Bool(&o->bring_in_option_);
        break;
      case 6:
        f.Int(&o->max_raises_per_round_);
        break;
      case 7:
        f.Bool(&o->uncapped_heads_up_);
        break;
      case 8:
        f.Int(&o->short_allin_rule_);
        break;
      case 9:
        f.Int(&o->open_pair_scope_);
        break;
      case 10:
        f.Bool(&o->hilo_open_pair_double_);
        break;
      case 11:
        f.Int(&o->deck_exhaustion_);
        break;
      case 12:
        f.Int(&o->odd_chip_cards_);
        break;
      case 13:
        f.Bool(&o->odd_chip_low_ace_low_);
        break;
      case 14:
        f.Int(&o->odd_chip_unit_);
        break;
      case 15:
        f.Int(&o->short_hand_);
        break;
      case 16:
        f.Int(&o->exposed_holecard_);
        break;
      case 17:
        f.Int(&o->dead_hand_low_opener_);
        break;
      case 18:
        f.Int(&o->absent_kill_);
        break;
      case 19:
        f.Int(&o->fold_when_check_);
        break;
      case 20:
        f.Bool(&o->allow_fold_when_check_);
        break;
      case 21:
        f.Int(&o->final_burn_error_);
        break;
      case 22:
        f.Int(&o->premature_seventh_);
        break;
      case 23:
        f.Int(&o->faceup_final_option_);
        break;
      case 24:
        f.Int(&o->disconnect_allins_per_period_);
        break;
      case 25:
        f.Int(&o->exhausted_timeout_action_);
        break;
      case 26:
        f.Bool(&o->announce_draws_);
        break;
      case 27:
        f.Bool(&o->out_of_turn_binding_);
        break;
      case 28:
        f.Int(&o->misdeal_antes_);
        break;
      default:
        return false;
    }
    if (!f.ok()) return false;
  }
  return f.ok();
}

bool ParseConfig(absl::string_view bytes, HandConfig* c) {
  Fields f(bytes);
  absl::string_view sub;
  while (f.Next()) {
    switch (f.field()) {
      case 1:
        f.Int(&c->variant_);
        break;
      case 2:
        if (!f.Bytes(&sub) || !ParseStakes(sub, &c->stakes_)) return false;
        break;
      case 3:
        if (!f.Bytes(&sub) || !ParseOptions(sub, &c->options_)) return false;
        break;
      case 4:
        f.Int(&c->num_seats_);
        break;
      case 5:
        f.Packed<int64_t>(&c->starting_stacks_);
        break;
      case 6:
        f.Int(&c->deal_source_);
        break;
      case 7:
        f.Bytes(&c->deck_);
        break;
      case 8:
        f.Bytes(&c->recycle_order_);
        break;
      case 9:
        f.Packed<int64_t>(&c->carried_antes_);
        break;
      default:
        return false;
    }
    if (!f.ok()) return false;
  }
  return f.ok();
}

bool ParseSeat(absl::string_view bytes, Seat* s) {
  Fields f(bytes);
  while (f.Next()) {
    switch (f.field()) {
      case 1:
        f.Int(&s->stack_);
        break;
      case 2:
        f.Int(&s->committed_);
        break;
      case 3:
        f.Int(&s->street_bet_);
        break;
      case 4:
        f.Int(&s->flags_);
        break;
      case 5:
        f.Int(&s->acted_to_);
        break;
      case 7:
        f.Bytes(&s->packed_cards_);
        break;
      default:
        return false;  // 6: schema-1 cards
    }
    if (!f.ok()) return false;
  }
  return f.ok();
}

bool ParseMove(absl::string_view bytes, CardMove* m) {
  Fields f(bytes);
  while (f.Next()) {
    switch (f.field()) {
      case 1:
        f.Int(&m->seat_);
        break;
      case 2:
        f.Int(&m->card_);
        break;
      default:
        return false;
    }
    if (!f.ok()) return false;
  }
  return f.ok();
}

bool ParseReport(absl::string_view bytes, IrregularityReport* r) {
  Fields f(bytes);
  absl::string_view sub;
  while (f.Next()) {
    switch (f.field()) {
      case 1:
        f.Int(&r->kind_);
        break;
      case 2:
        f.Int(&r->seat_);
        break;
      case 3:
        f.Int(&r->street_);
        break;
      case 4:
        f.Bool(&r->has_card_);
        break;
      case 5:
        f.Int(&r->card_);
        break;
      case 6:
        f.Bytes(&r->cards_);
        break;
      case 7:
        f.Int(&r->action_);
        break;
      case 8:
        f.Int(&r->amount_to_);
        break;
      case 9:
        f.Bool(&r->next_acted_);
        break;
      case 10:
        f.SInt32(&r->burn_delta_);
        break;
      case 11:
        if (!f.Bytes(&sub, /*repeated=*/true) || !ParseMove(sub, &r->moves_.emplace_back()))
          return false;
        break;
      case 12:
        f.Packed<int32_t>(&r->seats_);
        break;
      case 13:
        f.Int(&r->card_count_);
        break;
      case 14:
        f.Bool(&r->declare_live_);
        break;
      case 15:
        f.Int(&r->allowance_remaining_);
        break;
      case 16:
        f.Bool(&r->disconnect_);
        break;
      case 17:
        f.Bool(&r->from_deal_);
        break;
      default:
        return false;
    }
    if (!f.ok()) return false;
  }
  return f.ok();
}

bool ParseState(absl::string_view bytes, HandState* s) {
  Fields f(bytes);
  absl::string_view sub;
  while (f.Next()) {
    switch (f.field()) {
      case 1:
        if (!f.Bytes(&sub) || !ParseConfig(sub, &s->config_)) return false;
        break;
      case 2:
        f.Int(&s->version_);
        break;
      case 3:
        f.Int(&s->phase_);
        break;
      case 4:
        f.Int(&s->street_);
        break;
      case 5:
        if (!f.Bytes(&sub, /*repeated=*/true) || !ParseSeat(sub, &s->seats_.emplace_back()))
          return false;
        break;
      case 6:
        f.Int(&s->actor_);
        break;
      case 7:
        f.Int(&s->bet_to_);
        break;
      case 8:
        f.Int(&s->full_level_);
        break;
      case 9:
        f.Int(&s->raises_);
        break;
      case 10:
        f.Bool(&s->bring_in_due_);
        break;
      case 11:
        f.Int(&s->bring_in_seat_);
        break;
      case 12:
        f.Bool(&s->open_pair_);
        break;
      case 13:
        f.Bool(&s->big_bet_made_);
        break;
      case 14:
        f.Int(&s->last_aggressor_);
        break;
      case 15:
        f.Int(&s->paid_out_);
        break;
      case 16:
        f.Int(&s->deck_pos_);
        break;
      case 17:
        f.Bytes(&s->recycled_);
        break;
      case 18:
        f.Bytes(&s->burns_);
        break;
      case 19:
        f.Bytes(&s->aside_);
        break;
      case 20:
        f.Int(&s->burn_count_);
        break;
      case 21:
        f.Bool(&s->has_common_);
        break;
      case 22:
        f.Int(&s->common_card_);
        break;
      case 23:
        f.Fixed64(&s->seen_);
        break;
      case 24:
        f.Int(&s->pending_deal_);
        break;
      case 25:
        f.Bool(&s->street_uses_common_);
        break;
      case 27:
        f.Int(&s->deal_pass_);
        break;
      case 28:
        f.Bool(&s->cap_locked_);
        break;
      case 29:
        if (!f.Bytes(&sub, /*repeated=*/true) || !ParseReport(sub, &s->reports_.emplace_back()))
          return false;
        break;
      case 30:
        f.Bool(&s->misdeal_);
        break;
      case 31:
        f.Int(&s->dead_low_seat_);
        break;
      case 32:
        f.Int(&s->forced_opener_);
        break;
      case 33:
        f.Int(&s->allin_option_seat_);
        break;
      case 34:
        f.Int(&s->premature_seat_);
        break;
      case 35:
        f.Int(&s->premature_pending_);
        break;
      case 40:
        f.Bytes(&s->packed_log_);
        break;
      case 41:  // a proto3 string: protobuf refuses invalid UTF-8; rule IDs are ASCII
        if (!f.Bytes(&sub, /*repeated=*/true) || !PrintableAscii(sub)) return false;
        s->rule_ids_.push_back(sub);
        break;
      default:
        return false;  // 26: schema-1 log; anything unknown
    }
    if (!f.ok()) return false;
  }
  return f.ok();
}

bool ParseService(absl::string_view bytes, ServiceData* d) {
  Fields f(bytes);
  while (f.Next()) {
    switch (f.field()) {
      case 1:
        f.Int(&d->dealing_mode_);
        break;
      case 2:
        f.Int(&d->locale_);
        break;
      case 3:
        f.Bytes(&d->commitment_);
        break;
      case 4:
        f.Bytes(&d->salt_);
        break;
      case 5:
        f.Bytes(&d->hand_id_);
        break;
      default:
        return false;
    }
    if (!f.ok()) return false;
  }
  return f.ok();
}

}  // namespace

bool ParseSealedHandView(absl::string_view plaintext, SealedHand* out) {
  Fields f(plaintext);
  absl::string_view sub;
  while (f.Next()) {
    switch (f.field()) {
      case 1:
        f.Int(&out->schema_);
        break;
      case 2:
        if (!f.Bytes(&sub) || !ParseState(sub, &out->state_)) return false;
        break;
      case 3:
        if (!f.Bytes(&sub) || !ParseService(sub, &out->service_)) return false;
        break;
      default:
        return false;
    }
    if (!f.ok()) return false;
  }
  return f.ok() && out->schema_ == 2;
}

}  // namespace stud::service::view
