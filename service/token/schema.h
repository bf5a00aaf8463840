// THE schema of the sealed hand: for every message of the token plaintext,
// its fields in field-number order, each naming the engine member it holds
// and the values it may take. The writer, the reader and the range checks
// all follow from these tables (token/fields.h); nothing else in the service
// spells a state field.
//
// proto/stud/internal/v1/state.proto describes the same messages for people
// and for tools (protoc can decode a plaintext with it); the test
// TokenSchema.MatchesTheProto checks that both agree on every field's number,
// name and wire type.
//
// Adding a state field or a rule option: the engine member, one line here,
// one field in state.proto. Field numbers are never reused; a removed field
// becomes Retired so that older plaintexts carrying it are refused rather
// than misread.
#ifndef STUD_SERVICE_TOKEN_SCHEMA_H_
#define STUD_SERVICE_TOKEN_SCHEMA_H_

#include <tuple>

#include "engine/hand_state.h"
#include "engine/options.h"
#include "service/token/codec.h"
#include "service/token/fields.h"
#include "service/token/message_fields.h"
#include "service/token/packed_log.h"

namespace stud::service::token {

template <>
struct Schema<Stakes> {
  static constexpr absl::string_view kName = "Stakes";
  static constexpr auto kFields = std::make_tuple(  //
      Int64<&Stakes::ante>(1, "ante"),              //
      Int64<&Stakes::bring_in>(2, "bring_in"),      //
      Int64<&Stakes::small_bet>(3, "small_bet"),    //
      Int64<&Stakes::big_bet>(4, "big_bet"));
  static absl::Status Validate(const Stakes& s, ReadContext&) {
    return ValidateStakes(s).ok() ? absl::OkStatus() : OutOfRange(kName, "(combination)");
  }
};

template <>
struct Schema<Options> {
  using O = Options;
  static constexpr absl::string_view kName = "Options";
  static constexpr auto kFields = std::make_tuple(
      Enum<&O::profile>(1, "profile", Profile::kCash, Profile::kOnline),
      Enum<&O::bring_in_source>(2, "bring_in_source", BringInSource::kStakesTable,
                                BringInSource::kHalfSmallBet),
      Bool<&O::burn_before_third>(3, "burn_before_third"),
      Enum<&O::third_street_opener>(4, "third_street_opener", ThirdStreetOpener::kLowCardBringIn,
                                    ThirdStreetOpener::kHighCardOpens),
      Bool<&O::bring_in_option>(5, "bring_in_option"),
      Int32<&O::max_raises_per_round>(6, "max_raises_per_round", INT32_MIN, INT32_MAX),
      Bool<&O::uncapped_heads_up>(7, "uncapped_heads_up"),
      Enum<&O::short_allin_rule>(8, "short_allin_rule", ShortAllInRule::kHalfBet,
                                 ShortAllInRule::kFullBet),
      Enum<&O::open_pair_scope>(9, "open_pair_scope", OpenPairScope::kAnyPlayer,
                                OpenPairScope::kFirstActorWithPair),
      Bool<&O::hilo_open_pair_double>(10, "hilo_open_pair_double"),
      Enum<&O::deck_exhaustion>(11, "deck_exhaustion", DeckExhaustion::kRecycleBurnThenCommon,
                                DeckExhaustion::kCommonImmediately),
      Enum<&O::odd_chip_cards>(12, "odd_chip_cards", OddChipCards::kAllCards,
                               OddChipCards::kBestFive),
      Bool<&O::odd_chip_low_ace_low>(13, "odd_chip_low_ace_low"),
      Int64<&O::odd_chip_unit>(14, "odd_chip_unit"),
      Enum<&O::short_hand>(15, "short_hand", ShortHand::kMissingSeventhLive,
                           ShortHand::kPlayerOptionAnyShort),
      Enum<&O::exposed_holecard>(16, "exposed_holecard", ExposedHolecard::kDealThirdDown,
                                 ExposedHolecard::kMisdeal),
      Enum<&O::dead_hand_low_opener>(17, "dead_hand_low_opener",
                                     DeadHandLowOpener::kLeftPlayerOptional,
                                     DeadHandLowOpener::kLeftPlayerForced),
      Enum<&O::absent_kill>(18, "absent_kill", AbsentKill::kWhenActionReaches,
                            AbsentKill::kAfterStartingHands),
      Enum<&O::fold_when_check>(19, "fold_when_check", FoldWhenCheck::kBindingKeepDealing,
                                FoldWhenCheck::kAtOnce),
      Bool<&O::allow_fold_when_check>(20, "allow_fold_when_check"),
      Enum<&O::final_burn_error>(21, "final_burn_error", FinalBurnError::kAffectedOnly,
                                 FinalBurnError::kAllStand),
      Enum<&O::premature_seventh>(22, "premature_seventh", PrematureSeventh::kThatPlayer,
                                  PrematureSeventh::kAllPlayers),
      Enum<&O::faceup_final_option>(23, "faceup_final_option", FaceupFinalOption::kDeclareAllIn,
                                    FaceupFinalOption::kActFirst),
      Int32<&O::disconnect_allins_per_period>(24, "disconnect_allins_per_period", INT32_MIN,
                                              INT32_MAX),
      Enum<&O::exhausted_timeout_action>(25, "exhausted_timeout_action", ExhaustedTimeout::kFold,
                                         ExhaustedTimeout::kCheckIfFree),
      Bool<&O::announce_draws>(26, "announce_draws"),
      Bool<&O::out_of_turn_binding>(27, "out_of_turn_binding"),
      Enum<&O::misdeal_antes>(28, "misdeal_antes", MisdealAntes::kReturned,
                              MisdealAntes::kStayInPot));
  static absl::Status Validate(const Options& o, ReadContext&) {
    return ValidateOptions(o).ok() ? absl::OkStatus() : OutOfRange(kName, "(combination)");
  }
};

template <>
struct Schema<HandConfig> {
  using C = HandConfig;
  static constexpr absl::string_view kName = "HandConfig";
  static constexpr auto kFields = std::make_tuple(
      Enum<&C::variant>(1, "variant", Variant::kStud, Variant::kRazz),
      Msg<&C::stakes>(2, "stakes"),  //
      SameBytesMsg<&C::options>(3, "options"), NumSeats<&C::num_seats>(4, "num_seats"),
      SeatChips<&C::starting_stacks>(5, "starting_stacks"),
      Enum<&C::deal_source>(6, "deal_source", DealSource::kDeck, DealSource::kReported),
      Cards<&C::deck>(7, "deck"),  //
      Cards<&C::recycle_order>(8, "recycle_order"),
      // Absent unless a redeal carried antes in [STUD-IRR-EXP-1].
      SeatChips<&C::carried_antes>(9, "carried_antes", /*optional=*/true));
};

template <>
struct Schema<Seat> {
  static constexpr absl::string_view kName = "Seat";
  static constexpr auto kFields = std::make_tuple(
      Chips<&Seat::stack>(1, "stack"),          //
      Chips<&Seat::committed>(2, "committed"),  //
      Chips<&Seat::street_bet>(3, "street_bet"),
      Flags<Seat, &Seat::folded, &Seat::all_in, &Seat::mucked, &Seat::shown, &Seat::acted,
            &Seat::checked_out, &Seat::door_down, &Seat::final_up, &Seat::has_seventh>(4, "flags"),
      Chips<&Seat::acted_to>(5, "acted_to"),  //
      Retired<Seat>{{6, "cards"}},            // schema 1
      PackedSeatCards(7, "packed_cards"));
};

template <>
struct Schema<CardMove> {
  static constexpr absl::string_view kName = "CardMove";
  static constexpr auto kFields = std::make_tuple(  //
      SeatNo<&CardMove::seat>(1, "seat"), CardNo<&CardMove::card>(2, "card", /*always=*/true));
};

template <>
struct Schema<IrregularityReport> {
  using R = IrregularityReport;
  static constexpr absl::string_view kName = "IrregularityReport";
  static constexpr auto kFields = std::make_tuple(
      Enum<&R::kind>(1, "kind", IrregularityKind::kHolecardExposed, kLastIrregularityKind),
      SeatNo<&R::seat>(2, "seat"), Enum<&R::street>(3, "street", Street::kThird, Street::kSeventh),
      Bool<&R::has_card>(4, "has_card"),             //
      CardNo<&R::card>(5, "card", /*always=*/true),  // same length for every card
      Cards<&R::cards>(6, "cards"),
      Enum<&R::action>(7, "action", ActionKind::kFold, ActionKind::kDeclineOption),
      Int64<&R::amount_to>(8, "amount_to"),                                             //
      Bool<&R::next_acted>(9, "next_acted"), Sint32<&R::burn_delta>(10, "burn_delta"),  //
      Msgs<&R::moves>(11, "moves", kMaxSeats), SeatList<&R::seats>(12, "seats"),
      Int32<&R::card_count>(13, "card_count", INT32_MIN, INT32_MAX),
      Bool<&R::declare_live>(14, "declare_live"),
      Int32<&R::allowance_remaining>(15, "allowance_remaining", INT32_MIN, INT32_MAX),
      Bool<&R::disconnect>(16, "disconnect"),  //
      Bool<&R::from_deal>(17, "from_deal"));
};

template <>
struct Schema<HandState> {
  using S = HandState;
  static constexpr absl::string_view kName = "HandState";
  static constexpr auto kFields = std::make_tuple(
      LongMsg<&S::config>(1, "config"),  // first: the seat count bounds what follows
      Uint64<&S::version>(2, "version"),
      Enum<&S::phase>(3, "phase", Phase::kBetting, Phase::kComplete),
      Enum<&S::street>(4, "street", Street::kThird, Street::kSeventh),
      PerSeatMsgs<&S::seats>(5, "seats"),                                              //
      SeatNo<&S::actor>(6, "actor"), Chips<&S::bet_to>(7, "bet_to"),                   //
      Chips<&S::full_level>(8, "full_level"), Int32<&S::raises>(9, "raises", 0, 100),  //
      Bool<&S::bring_in_due>(10, "bring_in_due"),
      SeatNo<&S::bring_in_seat>(11, "bring_in_seat"),                                            //
      Bool<&S::open_pair>(12, "open_pair"), Bool<&S::big_bet_made>(13, "big_bet_made"),          //
      SeatNo<&S::last_aggressor>(14, "last_aggressor"), Chips<&S::paid_out>(15, "paid_out"),     //
      Uint64<&S::deck_pos>(16, "deck_pos", 2 * kDeckSize), Cards<&S::recycled>(17, "recycled"),  //
      Cards<&S::burns>(18, "burns"), Cards<&S::aside>(19, "aside"),                              //
      Int32<&S::burn_count>(20, "burn_count", INT32_MIN, INT32_MAX),
      Bool<&S::has_common>(21, "has_common"),                                 //
      CardNo<&S::common_card>(22, "common_card"), Set<&S::seen>(23, "seen"),  //
      Mask<&S::pending_deal>(24, "pending_deal"),
      Bool<&S::street_uses_common>(25, "street_uses_common"), Retired<S>{{26, "log"}},  // schema 1
      Uint32<&S::deal_pass>(27, "deal_pass", 0, 2), Bool<&S::cap_locked>(28, "cap_locked"),
      Msgs<&S::reports>(29, "reports", 4096),  //
      Bool<&S::misdeal>(30, "misdeal"), SeatNo<&S::dead_low_seat>(31, "dead_low_seat"),
      SeatNo<&S::forced_opener>(32, "forced_opener"),
      SeatNo<&S::allin_option_seat>(33, "allin_option_seat"),
      SeatNo<&S::premature_seat>(34, "premature_seat"),
      Int32<&S::premature_pending>(35, "premature_pending", 0, 1),
      Log<&S::log>(40, "packed_log"));  // and 41, rule_ids (schema 2)
  static absl::Status Validate(const HandState& s, ReadContext&) {
    if (s.deck_pos > s.config.deck.size()) return OutOfRange(kName, "deck_pos");
    for (const Operation& op : s.log) {
      if (op.amount < -kMaxChips || op.amount > kMaxChips || op.amount_to < 0 ||
          op.amount_to > kMaxChips) {
        return OutOfRange(kName, "packed_log.amount");
      }
    }
    return absl::OkStatus();
  }
};

template <>
struct Schema<ServiceData> {
  using D = ServiceData;
  static constexpr absl::string_view kName = "ServiceData";
  static constexpr auto kFields = std::make_tuple(
      Uint32<&D::dealing_mode>(1, "dealing_mode", 0, UINT32_MAX),
      Uint32<&D::locale>(2, "locale", 0, UINT32_MAX),
      Bytes<&D::commitment>(3, "commitment", 64),  //
      Bytes<&D::salt>(4, "salt", 64),              //
      Bytes<&D::hand_id>(5, "hand_id", 64),
      Bool<&D::requires_seat_tickets>(6, "requires_seat_tickets"),
      Bool<&D::requires_ledger>(7, "requires_ledger"), Bytes<&D::server_seed>(8, "server_seed", 32),
      Uint32<&D::reveal_policy>(9, "reveal_policy", 0, 2),
      Bool<&D::player_seeds>(10, "player_seeds"), Bool<&D::seeding>(11, "seeding"),
      Bytes<&D::packed_seeds>(12, "packed_seeds", 8 * 65),
      Uint32<&D::seeds_closed>(13, "seeds_closed", 0, 0x1FE));
};

template <>
struct Schema<SealedHand> {
  static constexpr absl::string_view kName = "SealedHand";
  static constexpr auto kFields =
      std::make_tuple(SchemaVersion<SealedHand>{{1, "schema"}, 2, kSealedSchema},  // 1: legacy
                      LongMsg<&SealedHand::state>(2, "state"),                     //
                      Msg<&SealedHand::service>(3, "service"));
};

}  // namespace stud::service::token

#endif  // STUD_SERVICE_TOKEN_SCHEMA_H_
