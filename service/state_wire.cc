#include "service/state_wire.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "service/packed_log.h"

namespace stud::service {
namespace {

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLen = 2 };

// Appends protobuf wire format to a string through a raw pointer; every
// write first makes room for its largest possible size.
class Writer {
 public:
  // `estimate`: the expected size; Room() grows past it when needed.
  Writer(std::string* out, size_t estimate) : out_(out) {
    out_->resize(estimate);
    p_ = Begin();
  }
  void Finish() { out_->resize(Pos()); }

  void Room(size_t n) {
    if (static_cast<size_t>(End() - p_) >= n) return;
    const size_t pos = Pos();
    out_->resize(std::max(out_->size() * 2, pos + n));
    p_ = Begin() + pos;
  }
  void Varint(uint64_t v) {
    while (v >= 0x80) {
      *p_++ = static_cast<uint8_t>(v | 0x80);
      v >>= 7;
    }
    *p_++ = static_cast<uint8_t>(v);
  }
  void Tag(uint32_t field, WireType type) { Varint((field << 3) | type); }

  // proto3 scalars: omitted when zero. int32 and int64 negative values are
  // sign-extended to 64 bits (10 bytes), as protobuf writes them.
  void U64(uint32_t field, uint64_t v) {
    if (v == 0) return;
    Room(16);
    Tag(field, kVarint);
    Varint(v);
  }
  void I64(uint32_t field, int64_t v) { U64(field, static_cast<uint64_t>(v)); }
  void I32(uint32_t field, int32_t v) {
    U64(field, static_cast<uint64_t>(static_cast<int64_t>(v)));
  }
  void Bool(uint32_t field, bool v) { U64(field, v ? 1 : 0); }
  void SInt32(uint32_t field, int32_t v) {
    U64(field,
        static_cast<uint32_t>((static_cast<uint32_t>(v) << 1) ^ static_cast<uint32_t>(v >> 31)));
  }
  void Fixed64(uint32_t field, uint64_t v) {
    if (v == 0) return;
    Room(16);
    Tag(field, kFixed64);
    for (int i = 0; i < 8; ++i) *p_++ = static_cast<uint8_t>(v >> (8 * i));
  }
  void Bytes(uint32_t field, const void* data, size_t n) {
    if (n == 0) return;
    Room(n + 16);
    Tag(field, kLen);
    Varint(n);
    std::memcpy(p_, data, n);
    p_ += n;
  }
  // Card indexes as a bytes field (PackCards).
  void Cards(uint32_t field, const std::vector<Card>& cards) {
    if (cards.empty()) return;
    Room(cards.size() + 16);
    Tag(field, kLen);
    Varint(cards.size());
    for (Card c : cards) *p_++ = static_cast<uint8_t>(c.index());
  }

  // A length-delimited field (message, or bytes written in place): the
  // length is known at the end, so 5 bytes are kept for it and the body is
  // moved back over the unused ones.
  size_t Open(uint32_t field) {
    Room(16);
    Tag(field, kLen);
    const size_t at = Pos();
    p_ += 5;
    return at;
  }
  void Close(size_t at) {
    const size_t len = Pos() - at - 5;
    uint8_t prefix[5];
    uint8_t* q = prefix;
    uint64_t v = len;
    while (v >= 0x80) {
      *q++ = static_cast<uint8_t>(v | 0x80);
      v >>= 7;
    }
    *q++ = static_cast<uint8_t>(v);
    const size_t k = static_cast<size_t>(q - prefix);
    uint8_t* base = Begin() + at;
    std::memmove(base + k, base + 5, len);
    std::memcpy(base, prefix, k);
    p_ = base + k + len;
  }

  uint8_t* p() { return p_; }
  void set_p(uint8_t* p) { p_ = p; }

 private:
  uint8_t* Begin() { return reinterpret_cast<uint8_t*>(out_->data()); }
  uint8_t* End() { return Begin() + out_->size(); }
  size_t Pos() { return static_cast<size_t>(p_ - Begin()); }
  std::string* out_;
  uint8_t* p_;
};

template <typename E>
uint32_t U(E e) {
  return static_cast<uint32_t>(e);
}

// stud.internal.v1.Options, field for field as EncodeOptions sets it.
void WriteOptions(const Options& o, Writer& w) {
  w.U64(1, U(o.profile));
  w.U64(2, U(o.bring_in_source));
  w.Bool(3, o.burn_before_third);
  w.U64(4, U(o.third_street_opener));
  w.Bool(5, o.bring_in_option);
  w.I32(6, o.max_raises_per_round);
  w.Bool(7, o.uncapped_heads_up);
  w.U64(8, U(o.short_allin_rule));
  w.U64(9, U(o.open_pair_scope));
  w.Bool(10, o.hilo_open_pair_double);
  w.U64(11, U(o.deck_exhaustion));
  w.U64(12, U(o.odd_chip_cards));
  w.Bool(13, o.odd_chip_low_ace_low);
  w.I64(14, o.odd_chip_unit);
  w.U64(15, U(o.short_hand));
  w.U64(16, U(o.exposed_holecard));
  w.U64(17, U(o.dead_hand_low_opener));
  w.U64(18, U(o.absent_kill));
  w.U64(19, U(o.fold_when_check));
  w.Bool(20, o.allow_fold_when_check);
  w.U64(21, U(o.final_burn_error));
  w.U64(22, U(o.premature_seventh));
  w.U64(23, U(o.faceup_final_option));
  w.I32(24, o.disconnect_allins_per_period);
  w.U64(25, U(o.exhausted_timeout_action));
  w.Bool(26, o.announce_draws);
  w.Bool(27, o.out_of_turn_binding);
  w.U64(28, U(o.misdeal_antes));
}

void WriteConfig(const HandConfig& c, Writer& w) {
  w.U64(1, U(c.variant));
  size_t at = w.Open(2);  // stakes: always present
  w.I64(1, c.stakes.ante);
  w.I64(2, c.stakes.bring_in);
  w.I64(3, c.stakes.small_bet);
  w.I64(4, c.stakes.big_bet);
  w.Close(at);
  at = w.Open(3);  // options: always present
  WriteOptions(c.options, w);
  w.Close(at);
  w.I32(4, c.num_seats);
  if (c.num_seats >= 1) {  // packed repeated int64, zeros included
    at = w.Open(5);
    w.Room(static_cast<size_t>(c.num_seats) * 10);
    for (int i = 1; i <= c.num_seats; ++i) w.Varint(static_cast<uint64_t>(c.starting_stacks[i]));
    w.Close(at);
  }
  w.U64(6, U(c.deal_source));
  w.Cards(7, c.deck);
  w.Cards(8, c.recycle_order);
  if (HasCarriedAntes(c)) {  // as EncodeState: absent unless a redeal carried antes in
    at = w.Open(9);
    w.Room(static_cast<size_t>(c.num_seats) * 10);
    for (int i = 1; i <= c.num_seats; ++i) w.Varint(static_cast<uint64_t>(c.carried_antes[i]));
    w.Close(at);
  }
}

void WriteSeat(const Seat& seat, Writer& w) {
  w.I64(1, seat.stack);
  w.I64(2, seat.committed);
  w.I64(3, seat.street_bet);
  w.U64(4, (seat.folded ? 1u : 0u) | (seat.all_in ? 2u : 0u) | (seat.mucked ? 4u : 0u) |
               (seat.shown ? 8u : 0u) | (seat.acted ? 16u : 0u) | (seat.checked_out ? 32u : 0u) |
               (seat.door_down ? 64u : 0u) | (seat.final_up ? 128u : 0u) |
               (seat.has_seventh ? 256u : 0u));
  w.I64(5, seat.acted_to);
  if (seat.num_cards > 0) {  // packed_cards (PackSeatCards)
    w.Room(16 + 2u * seat.num_cards);
    w.Tag(7, kLen);
    w.Varint(2u * seat.num_cards);
    uint8_t* p = w.p();
    for (int k = 0; k < seat.num_cards; ++k) {
      const SeatCard& c = seat.cards[static_cast<size_t>(k)];
      *p++ = static_cast<uint8_t>(c.card.index());
      *p++ = static_cast<uint8_t>((U(c.street) - 3) | (c.face_up ? 8u : 0u));
    }
    w.set_p(p);
  }
}

void WriteReport(const IrregularityReport& r, Writer& w) {
  w.U64(1, U(r.kind));
  w.I32(2, r.seat);
  w.U64(3, U(r.street));
  w.Bool(4, r.has_card);
  w.U64(5, static_cast<uint32_t>(r.card.index()));
  w.Cards(6, r.cards);
  w.U64(7, U(r.action));
  w.I64(8, r.amount_to);
  w.Bool(9, r.next_acted);
  w.SInt32(10, r.burn_delta);
  for (const CardMove& m : r.moves) {
    const size_t at = w.Open(11);
    w.I32(1, m.seat);
    w.U64(2, static_cast<uint32_t>(m.card.index()));
    w.Close(at);
  }
  if (!r.seats.empty()) {  // packed repeated int32
    const size_t at = w.Open(12);
    w.Room(r.seats.size() * 10);
    for (int seat : r.seats) w.Varint(static_cast<uint64_t>(static_cast<int64_t>(seat)));
    w.Close(at);
  }
  w.I32(13, r.card_count);
  w.Bool(14, r.declare_live);
  w.I32(15, r.allowance_remaining);
  w.Bool(16, r.disconnect);
  w.Bool(17, r.from_deal);
}

// stud.internal.v1.HandState as EncodeState fills it (schema 2).
void WriteState(const HandState& s, Writer& w) {
  const HandConfig& c = s.config;
  size_t at = w.Open(1);  // config: always present
  WriteConfig(c, w);
  w.Close(at);
  w.U64(2, s.version);
  w.U64(3, U(s.phase));
  w.U64(4, U(s.street));
  for (int i = 1; i <= c.num_seats; ++i) {
    at = w.Open(5);
    WriteSeat(s.seats[i], w);
    w.Close(at);
  }
  w.I32(6, s.actor);
  w.I64(7, s.bet_to);
  w.I64(8, s.full_level);
  w.I32(9, s.raises);
  w.Bool(10, s.bring_in_due);
  w.I32(11, s.bring_in_seat);
  w.Bool(12, s.open_pair);
  w.Bool(13, s.big_bet_made);
  w.I32(14, s.last_aggressor);
  w.I64(15, s.paid_out);
  w.U64(16, s.deck_pos);
  w.Cards(17, s.recycled);
  w.Cards(18, s.burns);
  w.Cards(19, s.aside);
  w.I32(20, s.burn_count);
  w.Bool(21, s.has_common);
  w.U64(22, static_cast<uint32_t>(s.common_card.index()));
  w.Fixed64(23, s.seen.mask());
  uint32_t pending = 0;
  for (int i = 0; i <= kMaxSeats; ++i) pending |= s.pending_deal[i] ? (1u << i) : 0u;
  w.U64(24, pending);
  w.Bool(25, s.street_uses_common);
  w.U64(27, s.deal_pass);
  w.Bool(28, s.cap_locked);
  for (const IrregularityReport& r : s.reports) {
    at = w.Open(29);
    WriteReport(r, w);
    w.Close(at);
  }
  w.Bool(30, s.misdeal);
  w.I32(31, s.dead_low_seat);
  w.I32(32, s.forced_opener);
  w.I32(33, s.allin_option_seat);
  w.I32(34, s.premature_seat);
  w.I32(35, s.premature_pending);
  std::vector<absl::string_view> rules;
  if (!s.log.empty()) {  // packed_log, written in place
    at = w.Open(40);
    w.Room(s.log.size() * kMaxPackedLogEntryBytes);
    w.set_p(PackLogTo(s.log, w.p(), &rules));
    w.Close(at);
  }
  for (absl::string_view id : rules) {  // rule_ids: repeated string, empty ones included
    w.Room(id.size() + 16);
    w.Tag(41, kLen);
    w.Varint(id.size());
    std::memcpy(w.p(), id.data(), id.size());
    w.set_p(w.p() + id.size());
  }
}

}  // namespace

void WriteSealedHand(const SealedHand& hand, std::string* out) {
  // Typical sizes with room to spare, so that the buffer rarely grows and the
  // zero-filling of an oversized one is not paid on every call.
  const HandState& s = hand.state;
  Writer w(out, 384 + 48 * static_cast<size_t>(s.config.num_seats) + 6 * s.log.size() +
                    160 * s.reports.size() + s.config.deck.size() + s.config.recycle_order.size() +
                    s.recycled.size());
  w.U64(1, kSealedSchema);
  size_t at = w.Open(2);  // state: always present
  WriteState(hand.state, w);
  w.Close(at);
  at = w.Open(3);  // service: always present
  w.U64(1, hand.service.dealing_mode);
  w.U64(2, hand.service.locale);
  w.Bytes(3, hand.service.commitment.data(), hand.service.commitment.size());
  w.Bytes(4, hand.service.salt.data(), hand.service.salt.size());
  w.Bytes(5, hand.service.hand_id.data(), hand.service.hand_id.size());
  w.Close(at);
  w.Finish();
}

}  // namespace stud::service
