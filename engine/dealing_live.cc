// LIVE (kReported) dealing: the burns and the reshuffle of the discards when
// the deck runs out, reported by the table and checked against the same
// procedure the engine follows when it deals from a deck (dealing.cc).
//
// The engine keeps the physical stub count: every card not held by a seat,
// not the common card, not burned and not set aside is in the stub, so
//   stub = 52 - |seen| - burn_count
// where `seen` holds every known card (dealt, and burned or aside when the
// card was reported) and burn_count the burned or aside cards nobody saw.
// After a reshuffle the known burns and aside cards leave `seen` (they are in
// the pile again) and burn_count is 0, so the same formula counts the pile.
//
// A burn card is normally unseen [STUD-DEAL-3]: a burn may be reported with
// its card (face_up when the dealer showed it), face down without a card, or
// not at all: a deal report when a burn is due means the dealer burned face
// down first (logged as kBurn with amount 2). A burn that was really missed is
// the STUD-IRR-BURN-1/-2 report (BURN_ERROR, burn_delta -1), as before. The
// reshuffle is always reported: it puts burned cards back in play.
#include <algorithm>

#include "engine/internal.h"
#include "engine/refusal.h"

namespace stud::internal {
namespace {

// What happened in the current street's deal so far, from the log.
struct StreetDeal {
  bool recycled = false;  // a reshuffle on this street
  bool burned = false;    // a burn since the street began (or since the reshuffle)
  bool dealt = false;     // a card dealt since the street began (or since the reshuffle)
};

StreetDeal Progress(const HandState& st) {
  StreetDeal p;
  bool after_recycle = true;  // scanning backwards: still after the last reshuffle
  for (auto it = st.log.rbegin(); it != st.log.rend(); ++it) {
    if (it->type == OpType::kStreetEnd) break;
    if (it->street != st.street) continue;
    switch (it->type) {
      case OpType::kRecycle:
        p.recycled = true;
        after_recycle = false;
        break;
      case OpType::kBurn:
        if (after_recycle) p.burned = true;
        break;
      case OpType::kDeal:
      case OpType::kCommonCard:
        if (after_recycle) p.dealt = true;
        break;
      default:
        break;
    }
  }
  return p;
}

int PendingCount(const HandState& st) {
  return static_cast<int>(std::count(st.pending_deal.begin(), st.pending_deal.end(), true));
}

RuleId BurnErrorRule(const HandState& st) {
  return st.street == Street::kSeventh ? RuleId::kIrrBurn2 : RuleId::kIrrBurn1;
}

}  // namespace

bool ReshuffledThisStreet(const HandState& st) { return Progress(st).recycled; }

RuleId DeckProcedureRule(const HandState& st) {
  switch (st.config.options.deck_exhaustion) {
    case DeckExhaustion::kRecycleSkipBurnIfShort:
      return RuleId::kDeck2;
    case DeckExhaustion::kCommonImmediately:
      return RuleId::kDeck3;
    default:
      return RuleId::kDeck1;
  }
}

int LiveStub(const HandState& st) {
  return std::max(0, kDeckSize - st.seen.size() - st.burn_count);
}

DealStep LiveStep(const HandState& st) {
  const DealStep card = st.street_uses_common ? DealStep::kCommonCard : DealStep::kCard;
  if (st.phase != Phase::kAwaitingDeal || st.config.deal_source != DealSource::kReported) {
    return card;
  }
  const StreetDeal p = Progress(st);
  const int stub = LiveStub(st);
  const DeckExhaustion mode = st.config.options.deck_exhaustion;
  if (st.street_uses_common) {
    // [STUD-DECK-1, STUD-DECK-3] a stub under two cards is first mixed with
    // the burns and aside cards; then one burn and the common card.
    if (!p.recycled && !p.burned && !p.dealt && stub < 2) return DealStep::kReshuffle;
    return p.burned || p.dealt ? card : DealStep::kBurn;
  }
  bool burn_due;
  if (p.recycled) {
    // [STUD-DECK-1] the default burns again after the reshuffle.
    burn_due = mode == DeckExhaustion::kRecycleBurnThenCommon && !p.burned && !p.dealt;
  } else {
    const bool street_burn = st.street != Street::kThird || st.config.options.burn_before_third;
    // [STUD-DECK-2] when short, the burn is skipped so every player gets a card.
    const bool skip =
        mode == DeckExhaustion::kRecycleSkipBurnIfShort && stub < PendingCount(st) + 1;
    burn_due = street_burn && !skip && !p.burned && !p.dealt;
  }
  if (burn_due) return stub == 0 && !p.recycled ? DealStep::kReshuffle : DealStep::kBurn;
  // [STUD-DECK-1] all but the stub's last card are dealt, then the reshuffle.
  const int needed = PendingCount(st);
  if (!p.recycled && stub <= 1 && needed > stub) return DealStep::kReshuffle;
  return card;
}

absl::Status CheckImpliedBurn(const HandState& st) {
  if (st.street_uses_common || Progress(st).recycled) return absl::OkStatus();
  const int after = LiveStub(st) - 1;
  const int needed = PendingCount(st);
  if (after > 1 || needed <= after) return absl::OkStatus();
  return Refuse(DeckProcedureRule(st),
                {.what = Refusal::kStubShortAfterBurn, .count = after, .limit = needed});
}

void BurnReported(HandState& st, const Action& a, bool implied) {
  if (implied || a.unseen) {
    ++st.burn_count;
    Log(st, {.type = OpType::kBurn,
             .street = st.street,
             .amount = implied ? 2 : 1,
             .rule_id = RuleId::kDeal3});
    return;
  }
  st.burns.push_back(a.card);
  st.seen.Add(a.card);
  Log(st, {.type = OpType::kBurn,
           .street = st.street,
           .card = a.card,
           .face_up = a.face_up,
           .rule_id = RuleId::kDeal3});
}

absl::Status ApplyDealerStep(HandState& st, const Action& a) {
  if (a.seat != kBoardSeat) {
    return Malformed(
        {.what = Refusal::kDealerStepSeat, .field = "seat", .seat = a.seat, .action = a.kind});
  }
  const DealStep step = LiveStep(st);
  const int stub = LiveStub(st);
  if (a.kind == ActionKind::kReshuffle) {
    if (step != DealStep::kReshuffle) {
      return Refuse(DeckProcedureRule(st),
                    {.what = Refusal::kReshuffleNotDue, .count = stub, .street = st.street});
    }
    // [STUD-DECK-1] the stub, burns and aside cards are mixed, shuffled, cut.
    for (Card c : st.burns) st.seen.Remove(c);
    for (Card c : st.aside) st.seen.Remove(c);
    st.burns.clear();
    st.aside.clear();
    st.burn_count = 0;
    Log(st, {.type = OpType::kRecycle,
             .street = st.street,
             .amount = LiveStub(st),
             .rule_id = RuleId::kDeck1});
    return absl::OkStatus();
  }
  if (!a.unseen) {
    if (a.card.index() >= kDeckSize) {
      return Malformed({.what = Refusal::kNotACard, .field = "card"});
    }
    if (st.seen.Contains(a.card)) {
      return Refuse(RuleId::kDeal4, {.what = Refusal::kCardBurnedTwice, .card = a.card});
    }
  } else if (a.face_up) {
    return Malformed({.what = Refusal::kUnseenBurnFaceUp, .field = "face_up"});
  }
  if (step == DealStep::kReshuffle) {
    return Refuse(DeckProcedureRule(st), {.what = Refusal::kReshuffleBeforeBurn, .count = stub});
  }
  if (step != DealStep::kBurn) {
    const bool street_burn = st.street != Street::kThird || st.config.options.burn_before_third;
    if (!street_burn) {
      return Refuse(RuleId::kDeal3, {.what = Refusal::kNoBurnBeforeThird});
    }
    if (!Progress(st).burned && !Progress(st).recycled) {
      return Refuse(RuleId::kDeck2, {.what = Refusal::kBurnSkipped});
    }
    return Refuse(BurnErrorRule(st), {.what = Refusal::kSecondBurn, .street = st.street});
  }
  BurnReported(st, a, /*implied=*/false);
  return absl::OkStatus();
}

}  // namespace stud::internal
