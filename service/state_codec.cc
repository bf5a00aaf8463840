#include "service/state_codec.h"

#include <algorithm>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>

#include "absl/base/thread_annotations.h"
#include "absl/container/inlined_vector.h"
#include "absl/container/node_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "google/protobuf/arena.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "service/packed_log.h"
#include "service/state_view.h"
#include "service/state_wire.h"

namespace stud::service {
namespace pb = stud::internal::v1;
namespace {

// More distinct rule IDs than the catalogue has (about 100) means a bug.
constexpr size_t kMaxInternedRuleIds = 1024;

absl::Status Bad(absl::string_view field) {
  return absl::InternalError(absl::StrCat("sealed state: field ", field, " is out of range"));
}

template <typename E>
bool ToEnum(uint32_t v, E lo, E hi, E* out) {
  if (v < static_cast<uint32_t>(lo) || v > static_cast<uint32_t>(hi)) return false;
  *out = static_cast<E>(v);
  return true;
}

bool UnpackCards(absl::string_view bytes, std::vector<Card>* out) {
  out->clear();
  out->reserve(bytes.size());
  for (char ch : bytes) {
    const int i = static_cast<uint8_t>(ch);
    if (i >= kDeckSize) return false;
    out->push_back(Card::FromIndex(i));
  }
  return true;
}
bool ToCard(uint32_t v, Card* out) {
  if (v >= static_cast<uint32_t>(kDeckSize)) return false;
  *out = Card::FromIndex(static_cast<int>(v));
  return true;
}

// ---- Packed seat cards (schema 2; the packed log is in packed_log.h) ----
//
// Seat cards: two bytes per card, the card index then (street - 3) | face_up << 3.

bool UnpackSeatCards(absl::string_view bytes, Seat* seat) {
  if (bytes.size() % 2 != 0 || bytes.size() / 2 > seat->cards.size()) return false;
  seat->num_cards = static_cast<uint8_t>(bytes.size() / 2);
  for (size_t k = 0; k < bytes.size() / 2; ++k) {
    SeatCard& sc = seat->cards[k];
    const uint8_t meta = static_cast<uint8_t>(bytes[2 * k + 1]);
    if (!ToCard(static_cast<uint8_t>(bytes[2 * k]), &sc.card) || (meta >> 4) != 0) return false;
    if (!ToEnum((meta & 7u) + 3, Street::kThird, Street::kSeventh, &sc.street)) return false;
    sc.face_up = (meta & 8u) != 0;
  }
  return true;
}

// P: pb::Options or view::Options (state_view.h), as for DecodeStateT.
template <typename P>
absl::Status DecodeOptions(const P& p, Options* o) {
#define STUD_ENUM(field, lo, hi) \
  if (!ToEnum(p.field(), lo, hi, &o->field)) return Bad("options." #field)
  STUD_ENUM(profile, Profile::kCash, Profile::kOnline);
  STUD_ENUM(bring_in_source, BringInSource::kStakesTable, BringInSource::kHalfSmallBet);
  STUD_ENUM(third_street_opener, ThirdStreetOpener::kLowCardBringIn,
            ThirdStreetOpener::kHighCardOpens);
  STUD_ENUM(short_allin_rule, ShortAllInRule::kHalfBet, ShortAllInRule::kFullBet);
  STUD_ENUM(open_pair_scope, OpenPairScope::kAnyPlayer, OpenPairScope::kFirstActorWithPair);
  STUD_ENUM(deck_exhaustion, DeckExhaustion::kRecycleBurnThenCommon,
            DeckExhaustion::kCommonImmediately);
  STUD_ENUM(odd_chip_cards, OddChipCards::kAllCards, OddChipCards::kBestFive);
  STUD_ENUM(short_hand, ShortHand::kMissingSeventhLive, ShortHand::kPlayerOptionAnyShort);
  STUD_ENUM(exposed_holecard, ExposedHolecard::kDealThirdDown, ExposedHolecard::kMisdeal);
  STUD_ENUM(dead_hand_low_opener, DeadHandLowOpener::kLeftPlayerOptional,
            DeadHandLowOpener::kLeftPlayerForced);
  STUD_ENUM(absent_kill, AbsentKill::kWhenActionReaches, AbsentKill::kAfterStartingHands);
  STUD_ENUM(fold_when_check, FoldWhenCheck::kBindingKeepDealing, FoldWhenCheck::kAtOnce);
  STUD_ENUM(final_burn_error, FinalBurnError::kAffectedOnly, FinalBurnError::kAllStand);
  STUD_ENUM(premature_seventh, PrematureSeventh::kThatPlayer, PrematureSeventh::kAllPlayers);
  STUD_ENUM(faceup_final_option, FaceupFinalOption::kDeclareAllIn, FaceupFinalOption::kActFirst);
  STUD_ENUM(exhausted_timeout_action, ExhaustedTimeout::kFold, ExhaustedTimeout::kCheckIfFree);
  STUD_ENUM(misdeal_antes, MisdealAntes::kReturned, MisdealAntes::kStayInPot);
#undef STUD_ENUM
  o->burn_before_third = p.burn_before_third();
  o->bring_in_option = p.bring_in_option();
  o->max_raises_per_round = p.max_raises_per_round();
  o->uncapped_heads_up = p.uncapped_heads_up();
  o->hilo_open_pair_double = p.hilo_open_pair_double();
  o->odd_chip_low_ace_low = p.odd_chip_low_ace_low();
  o->odd_chip_unit = p.odd_chip_unit();
  o->allow_fold_when_check = p.allow_fold_when_check();
  o->disconnect_allins_per_period = p.disconnect_allins_per_period();
  o->announce_draws = p.announce_draws();
  o->out_of_turn_binding = p.out_of_turn_binding();
  return absl::OkStatus();
}

template <typename P>
absl::Status DecodeReport(const P& p, int num_seats, IrregularityReport* r) {
  if (!ToEnum(p.kind(), IrregularityKind::kHolecardExposed, IrregularityKind::kSkippedSeat,
              &r->kind)) {
    return Bad("reports.kind");
  }
  if (p.seat() < 0 || p.seat() > num_seats) return Bad("reports.seat");
  r->seat = p.seat();
  if (!ToEnum(p.street(), Street::kThird, Street::kSeventh, &r->street))
    return Bad("reports.street");
  r->has_card = p.has_card();
  if (!ToCard(p.card(), &r->card)) return Bad("reports.card");
  if (!UnpackCards(p.cards(), &r->cards) || r->cards.size() > kDeckSize)
    return Bad("reports.cards");
  if (!ToEnum(p.action(), ActionKind::kFold, ActionKind::kDeclineOption, &r->action)) {
    return Bad("reports.action");
  }
  r->amount_to = p.amount_to();
  r->next_acted = p.next_acted();
  r->burn_delta = p.burn_delta();
  if (p.moves_size() > kMaxSeats || p.seats_size() > kMaxSeats) return Bad("reports.moves");
  for (const auto& pm : p.moves()) {
    CardMove m;
    m.seat = pm.seat();
    if (!ToCard(pm.card(), &m.card)) return Bad("reports.moves.card");
    r->moves.push_back(m);
  }
  for (int seat : p.seats()) r->seats.push_back(seat);
  r->card_count = p.card_count();
  r->declare_live = p.declare_live();
  r->allowance_remaining = p.allowance_remaining();
  r->disconnect = p.disconnect();
  r->from_deal = p.from_deal();
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<absl::string_view> InternRuleId(absl::string_view id) {
  if (id.empty()) return absl::string_view();
  // std::mutex: pthread-based, so ThreadSanitizer sees it (Debian's Abseil,
  // absl::Mutex included, is not instrumented).
  static std::mutex mu;
  static auto* ids = new absl::node_hash_set<std::string>();  // guarded by mu
  std::lock_guard<std::mutex> lock(mu);
  auto it = ids->find(id);
  if (it != ids->end()) return absl::string_view(*it);
  if (ids->size() >= kMaxInternedRuleIds || id.size() > 64) return Bad("log.rule_id");
  return absl::string_view(*ids->emplace(id).first);
}

// Defence in depth behind the AEAD: a decoded state never carries amounts the
// engine could not have produced, so no sum over it can overflow.
static absl::Status CheckAmounts(const HandState& s) {
  constexpr Chips kMaxChips = Chips{1} << 44;  // 8 seats x the 2^40 stack limit, with room
  auto ok = [](Chips v) { return v >= 0 && v <= kMaxChips; };
  const HandConfig& c = s.config;
  if (!ValidateStakes(c.stakes).ok()) return Bad("stakes");
  if (!ValidateOptions(c.options).ok()) return Bad("options");
  if (!ok(s.bet_to) || !ok(s.full_level) || !ok(s.paid_out)) return Bad("amounts");
  if (s.raises < 0 || s.raises > 100) return Bad("raises");
  for (int i = 1; i <= c.num_seats; ++i) {
    const Seat& seat = s.seats[i];
    if (!ok(c.starting_stacks[i]) || !ok(c.carried_antes[i]) || !ok(seat.stack) ||
        !ok(seat.committed) || !ok(seat.street_bet) || !ok(seat.acted_to)) {
      return Bad("seats.amounts");
    }
  }
  for (const Operation& op : s.log) {
    if (op.amount < -kMaxChips || op.amount > kMaxChips || !ok(op.amount_to)) {
      return Bad("log.amount");
    }
  }
  return absl::OkStatus();
}

// One decoder for both parsers: P is pb::HandState (the protobuf parser; any
// schema) or view::HandState (the narrow wire parser; schema 2 only, so the
// schema-1 branches are compiled for pb::HandState alone).
template <typename P>
absl::StatusOr<HandState> DecodeStateT(const P& p) {
  constexpr bool kProto = std::is_same_v<P, pb::HandState>;
  HandState s;
  HandConfig& c = s.config;
  const auto& pc = p.config();
  if (!ToEnum(pc.variant(), Variant::kStud, Variant::kRazz, &c.variant)) return Bad("variant");
  c.stakes = {pc.stakes().ante(), pc.stakes().bring_in(), pc.stakes().small_bet(),
              pc.stakes().big_bet()};
  if (absl::Status st = DecodeOptions(pc.options(), &c.options); !st.ok()) return st;
  if (pc.num_seats() < kMinSeats || pc.num_seats() > kMaxSeats) return Bad("num_seats");
  c.num_seats = pc.num_seats();
  if (pc.starting_stacks_size() != c.num_seats) return Bad("starting_stacks");
  for (int i = 1; i <= c.num_seats; ++i) c.starting_stacks[i] = pc.starting_stacks(i - 1);
  if (pc.carried_antes_size() != 0) {  // a redeal [STUD-IRR-EXP-1]
    if (pc.carried_antes_size() != c.num_seats) return Bad("carried_antes");
    for (int i = 1; i <= c.num_seats; ++i) c.carried_antes[i] = pc.carried_antes(i - 1);
  }
  if (!ToEnum(pc.deal_source(), DealSource::kDeck, DealSource::kReported, &c.deal_source)) {
    return Bad("deal_source");
  }
  if (!UnpackCards(pc.deck(), &c.deck)) return Bad("deck");
  if (!UnpackCards(pc.recycle_order(), &c.recycle_order)) return Bad("recycle_order");

  s.version = p.version();
  if (!ToEnum(p.phase(), Phase::kBetting, Phase::kComplete, &s.phase)) return Bad("phase");
  if (!ToEnum(p.street(), Street::kThird, Street::kSeventh, &s.street)) return Bad("street");
  if (p.seats_size() != c.num_seats) return Bad("seats");
  for (int i = 1; i <= c.num_seats; ++i) {
    const auto& ps = p.seats(i - 1);
    Seat& seat = s.seats[i];
    seat.stack = ps.stack();
    seat.committed = ps.committed();
    seat.street_bet = ps.street_bet();
    seat.folded = (ps.flags() & 1u) != 0;
    seat.all_in = (ps.flags() & 2u) != 0;
    seat.mucked = (ps.flags() & 4u) != 0;
    seat.shown = (ps.flags() & 8u) != 0;
    seat.acted = (ps.flags() & 16u) != 0;
    seat.checked_out = (ps.flags() & 32u) != 0;
    seat.door_down = (ps.flags() & 64u) != 0;
    seat.final_up = (ps.flags() & 128u) != 0;
    seat.has_seventh = (ps.flags() & 256u) != 0;
    seat.acted_to = ps.acted_to();
    if (!ps.packed_cards().empty()) {  // schema 2
      if (ps.cards_size() != 0 || !UnpackSeatCards(ps.packed_cards(), &seat))
        return Bad("seats.packed_cards");
      continue;
    }
    // Schema 1.
    if constexpr (kProto) {
      if (ps.cards_size() > static_cast<int>(seat.cards.size())) return Bad("seats.cards");
      seat.num_cards = static_cast<uint8_t>(ps.cards_size());
      for (int k = 0; k < ps.cards_size(); ++k) {
        const pb::SeatCard& pcard = ps.cards(k);
        SeatCard& sc = seat.cards[static_cast<size_t>(k)];
        if (!ToCard(pcard.card(), &sc.card)) return Bad("seats.cards.card");
        sc.face_up = pcard.face_up();
        if (!ToEnum(pcard.street(), Street::kThird, Street::kSeventh, &sc.street)) {
          return Bad("seats.cards.street");
        }
      }
    }
  }
  auto seat_ok = [&](int v) { return v >= 0 && v <= c.num_seats; };
  if (!seat_ok(p.actor())) return Bad("actor");
  if (!seat_ok(p.bring_in_seat())) return Bad("bring_in_seat");
  if (!seat_ok(p.last_aggressor())) return Bad("last_aggressor");
  s.actor = p.actor();
  s.bet_to = p.bet_to();
  s.full_level = p.full_level();
  s.raises = p.raises();
  s.bring_in_due = p.bring_in_due();
  s.bring_in_seat = p.bring_in_seat();
  s.open_pair = p.open_pair();
  s.big_bet_made = p.big_bet_made();
  s.cap_locked = p.cap_locked();
  s.last_aggressor = p.last_aggressor();
  s.paid_out = p.paid_out();
  if (p.deck_pos() > c.deck.size()) return Bad("deck_pos");
  s.deck_pos = static_cast<size_t>(p.deck_pos());
  if (!UnpackCards(p.recycled(), &s.recycled)) return Bad("recycled");
  if (!UnpackCards(p.burns(), &s.burns)) return Bad("burns");
  if (!UnpackCards(p.aside(), &s.aside)) return Bad("aside");
  s.burn_count = p.burn_count();
  s.has_common = p.has_common();
  if (!ToCard(p.common_card(), &s.common_card)) return Bad("common_card");
  s.seen = CardSet(p.seen());
  if (p.pending_deal() >> (kMaxSeats + 1) != 0) return Bad("pending_deal");
  for (int i = 0; i <= kMaxSeats; ++i) s.pending_deal[i] = ((p.pending_deal() >> i) & 1u) != 0;
  if (p.deal_pass() > 2) return Bad("deal_pass");
  s.deal_pass = static_cast<uint8_t>(p.deal_pass());
  s.street_uses_common = p.street_uses_common();
  // Irregularities [engine/irregularities.h].
  for (const auto& pr : p.reports()) {
    IrregularityReport r;
    if (absl::Status st = DecodeReport(pr, c.num_seats, &r); !st.ok()) return st;
    s.reports.push_back(std::move(r));
  }
  s.misdeal = p.misdeal();
  if (!seat_ok(p.dead_low_seat())) return Bad("dead_low_seat");
  if (!seat_ok(p.forced_opener())) return Bad("forced_opener");
  if (!seat_ok(p.allin_option_seat())) return Bad("allin_option_seat");
  if (!seat_ok(p.premature_seat())) return Bad("premature_seat");
  if (p.premature_pending() < 0 || p.premature_pending() > 1) return Bad("premature_pending");
  s.dead_low_seat = p.dead_low_seat();
  s.forced_opener = p.forced_opener();
  s.allin_option_seat = p.allin_option_seat();
  s.premature_seat = p.premature_seat();
  s.premature_pending = p.premature_pending();
  // Room for the operations of the next action, so that Apply does not grow the log.
  constexpr size_t kLogHeadroom = 24;
  if (!p.packed_log().empty()) {  // schema 2
    if (p.log_size() != 0) return Bad("log");
    s.log.reserve(p.packed_log().size() / 2 + kLogHeadroom);
    absl::InlinedVector<absl::string_view, 16> rule_ids(p.rule_ids().begin(), p.rule_ids().end());
    if (absl::Status st = UnpackLog(p.packed_log(), rule_ids, c.num_seats, &s.log); !st.ok())
      return st;
    if (absl::Status st = CheckAmounts(s); !st.ok()) return st;
    return s;
  }
  // Schema 1.
  s.log.reserve(static_cast<size_t>(p.log_size()) + kLogHeadroom);
  if constexpr (kProto) {
    for (const pb::Operation& po : p.log()) {
      Operation op;
      if (!ToEnum(po.type(), OpType::kAnte, OpType::kOutOfTurn, &op.type)) return Bad("log.type");
      if (po.seat() > static_cast<uint32_t>(c.num_seats)) return Bad("log.seat");
      op.seat = static_cast<uint8_t>(po.seat());
      if (!ToEnum(po.street(), Street::kThird, Street::kSeventh, &op.street))
        return Bad("log.street");
      if (!ToCard(po.card(), &op.card)) return Bad("log.card");
      op.face_up = (po.flags() & 1u) != 0;
      op.all_in = (po.flags() & 2u) != 0;
      op.odd_chip = (po.flags() & 4u) != 0;
      if (po.pot() > 255 || po.half() > 2) return Bad("log.pot");
      op.pot = static_cast<uint8_t>(po.pot());
      op.half = static_cast<uint8_t>(po.half());
      op.amount = po.amount();
      op.amount_to = po.amount_to();
      absl::StatusOr<absl::string_view> rule = InternRuleId(po.rule_id());
      if (!rule.ok()) return rule.status();
      op.rule_id = *rule;
      s.log.push_back(op);
    }
  }
  if (absl::Status st = CheckAmounts(s); !st.ok()) return st;
  return s;
}

absl::StatusOr<HandState> DecodeState(const pb::HandState& p) { return DecodeStateT(p); }

// The internal message of one encode or parse lives on a per-thread arena
// that is reset before each use: its first block is thread-local storage, so
// a typical state is built or parsed without a malloc or a destructor per
// submessage (a heap message's Clear() still deletes its submessages).
namespace {
constexpr size_t kScratchBytes = 32 * 1024;
struct Scratch {
  alignas(std::max_align_t) char block[kScratchBytes];
  google::protobuf::Arena arena{[this] {
    google::protobuf::ArenaOptions o;
    o.initial_block = block;
    o.initial_block_size = sizeof(block);
    return o;
  }()};
};
}  // namespace

static pb::SealedHand* ScratchMessage() {
  thread_local Scratch scratch;
  scratch.arena.Reset();  // frees what a previous use added beyond the first block
  return google::protobuf::Arena::CreateMessage<pb::SealedHand>(&scratch.arena);
}

std::string SerializeSealedHand(const SealedHand& hand) {
  // Written straight from the state (state_wire.h): the same bytes as
  // EncodeState + deterministic serialization of the message, without the
  // message.
  std::string out;
  WriteSealedHand(hand, &out);
  return out;
}

absl::StatusOr<SealedHand> ParseSealedHand(absl::string_view plaintext) {
  // The narrow wire parser first (state_view.h); anything it does not take,
  // and any state it would refuse, goes through the protobuf parser, which
  // decides (and words the error) exactly as before.
  {
    view::SealedHand v;
    if (view::ParseSealedHandView(plaintext, &v)) {
      absl::StatusOr<HandState> state = DecodeStateT(v.state());
      if (state.ok()) {
        SealedHand hand;
        hand.state = *std::move(state);
        hand.service.dealing_mode = v.service().dealing_mode();
        hand.service.locale = v.service().locale();
        hand.service.commitment = std::string(v.service().commitment());
        hand.service.salt = std::string(v.service().salt());
        hand.service.hand_id = std::string(v.service().hand_id());
        return hand;
      }
    }
  }
  return ParseSealedHandViaProtobuf(plaintext);
}

absl::StatusOr<SealedHand> ParseSealedHandViaProtobuf(absl::string_view plaintext) {
  pb::SealedHand& msg = *ScratchMessage();
  if (!msg.ParseFromArray(plaintext.data(), static_cast<int>(plaintext.size()))) {
    return absl::InternalError("sealed state: cannot parse");
  }
  if (msg.schema() < kOldestSealedSchema || msg.schema() > kSealedSchema) {
    return absl::InternalError(absl::StrCat("sealed state: schema ", msg.schema(), " unsupported"));
  }
  SealedHand hand;
  absl::StatusOr<HandState> state = DecodeState(msg.state());
  if (!state.ok()) return state.status();
  hand.state = *std::move(state);
  hand.service.dealing_mode = msg.service().dealing_mode();
  hand.service.locale = msg.service().locale();
  hand.service.commitment = msg.service().commitment();
  hand.service.salt = msg.service().salt();
  hand.service.hand_id = msg.service().hand_id();
  return hand;
}

}  // namespace stud::service
