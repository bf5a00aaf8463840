#include "tools/cli/render.h"

#include <sodium.h>

#include <cstdio>
#include <map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "tools/cli/vocabulary.h"

namespace stud_cli {
namespace {

std::string PotName(int index) {
  return index == 0 ? "main pot" : absl::StrCat("side pot ", index);
}

// One operation of the log, in words; "" for those the board already shows
// (deals, burns).
std::string DescribeOperation(const v1::Operation& op) {
  const std::string seat = absl::StrCat("seat ", op.seat());
  const std::string rule = op.rule_id().empty() ? "" : absl::StrCat(" [", op.rule_id(), "]");
  const std::string all_in = op.all_in() ? " (all-in)" : "";
  switch (op.type()) {
    case v1::OPERATION_TYPE_ANTE:
      return absl::StrCat(seat, " antes ", op.amount(), all_in);
    case v1::OPERATION_TYPE_RECYCLE:
      return absl::StrCat("the deck ran out: cards recycled", rule);
    case v1::OPERATION_TYPE_BURN:  // only a LIVE burn the dealer showed has a card
      return op.card().empty() ? "" : absl::StrCat("the burn, ", op.card(), ", was shown", rule);
    case v1::OPERATION_TYPE_COMMON_CARD:
      return absl::StrCat("common card ", op.card(), rule);
    case v1::OPERATION_TYPE_BRING_IN:
      return absl::StrCat(seat, " brings in ", op.amount_to(), all_in, rule);
    case v1::OPERATION_TYPE_COMPLETE:
      return absl::StrCat(seat, " completes to ", op.amount_to(), all_in, rule);
    case v1::OPERATION_TYPE_BET:
      return absl::StrCat(seat, " bets ", op.amount_to(), all_in, rule);
    case v1::OPERATION_TYPE_RAISE:
      return absl::StrCat(seat, " raises to ", op.amount_to(), all_in, rule);
    case v1::OPERATION_TYPE_CALL:
      return absl::StrCat(seat, " calls ", op.amount_to(), all_in, rule);
    case v1::OPERATION_TYPE_CHECK:
      return absl::StrCat(seat, " checks", rule);
    case v1::OPERATION_TYPE_FOLD:
      return absl::StrCat(seat, " folds", rule);
    case v1::OPERATION_TYPE_FIRST_TO_ACT:
      return absl::StrCat(seat, " opens ", StreetName(op.street()),
                          op.card().empty() ? "" : " (door ", op.card(),
                          op.card().empty() ? "" : ")", rule);
    case v1::OPERATION_TYPE_STREET_END:
      return absl::StrCat(StreetName(op.street()), " betting closed");
    case v1::OPERATION_TYPE_RETURN_UNCALLED:
      return absl::StrCat(seat, " takes back ", op.amount(), " uncalled", rule);
    case v1::OPERATION_TYPE_SHOW:
      return absl::StrCat(seat, " shows", rule);
    case v1::OPERATION_TYPE_MUCK:
      return absl::StrCat(seat, " mucks", rule);
    case v1::OPERATION_TYPE_AWARD:
      return absl::StrCat(seat, " is awarded ", op.amount(), " from the ", PotName(op.pot()), " (",
                          HalfName(op.half()), op.odd_chip() ? ", odd chip" : "", ")", rule);
    case v1::OPERATION_TYPE_HAND_END:
      return "the hand is over";
    case v1::OPERATION_TYPE_EXPOSE:
      return absl::StrCat(seat, "'s ", op.card().empty() ? "card" : op.card(),
                          " is exposed to everyone", rule);
    case v1::OPERATION_TYPE_KILL:
      return absl::StrCat(seat, "'s hand is dead", rule);
    case v1::OPERATION_TYPE_RETURN_ANTE:
      return absl::StrCat(seat, " gets back ", op.amount(), rule);
    case v1::OPERATION_TYPE_MISDEAL:
      return absl::StrCat("misdeal: the hand is void", rule);
    case v1::OPERATION_TYPE_ASIDE:
      return absl::StrCat(op.card().empty() ? "a card" : op.card(), " is taken out of play", rule);
    case v1::OPERATION_TYPE_REPLACE_CARD:
      return absl::StrCat(seat, "'s card of ", StreetName(op.street()), " is now ",
                          op.card().empty() ? "another card" : op.card(), rule);
    case v1::OPERATION_TYPE_DECLARE_ALL_IN:
      return absl::StrCat(seat, " declares all-in", rule);
    case v1::OPERATION_TYPE_DECLINE_OPTION:
      return absl::StrCat(seat, " declines the all-in option", rule);
    case v1::OPERATION_TYPE_TIMEOUT_ALL_IN:
      return absl::StrCat(seat, " timed out: all-in for what is in (", op.amount(),
                          " left this period)", rule);
    case v1::OPERATION_TYPE_OUT_OF_TURN:
      return absl::StrCat(seat, " acts out of turn: ", op.amount(), " into the pot", rule);
    default:
      return "";  // DEAL and BURN: the board shows the cards; RULING: the ruling is printed
  }
}

// A seat's cards: down cards in brackets; "xx" where this viewer may not look.
std::string SeatCards(const google::protobuf::RepeatedPtrField<v1::SeatCard>& cards) {
  std::vector<std::string> parts;
  for (const v1::SeatCard& c : cards) {
    const std::string card = c.card().empty() ? "xx" : c.card();
    parts.push_back(c.face_up() ? card : absl::StrCat("[", card, "]"));
  }
  return absl::StrJoin(parts, " ");
}

std::string RulingCards(const google::protobuf::RepeatedPtrField<v1::RulingCard>& cards) {
  std::vector<std::string> parts;
  for (const v1::RulingCard& c : cards) {
    parts.push_back(absl::StrCat(c.seat() == 0 ? "out of play" : absl::StrCat("seat ", c.seat()),
                                 " ", c.card().empty() ? "(hidden)" : c.card()));
  }
  return absl::StrJoin(parts, ", ");
}

// SHA-256(D || "/" || R || salt) against the commitment published at NewHand.
bool VerifyCommitment(const v1::DeckCommitment& dc, absl::string_view published) {
  if (published.empty() && dc.commitment().empty()) {
    std::printf("Deck commitment: none (the deck was not shuffled by the service)\n");
    return true;
  }
  std::string message = absl::StrJoin(dc.revealed_deck(), "");
  message += "/";
  message += absl::StrJoin(dc.revealed_recycle_order(), "");
  message += dc.revealed_salt();
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(message.data()),
                     message.size());
  const std::string computed(reinterpret_cast<const char*>(digest), sizeof digest);
  std::printf("Deck commitment: %s\n", Hex(std::string(published)).c_str());
  std::printf("  revealed deck: %s\n", absl::StrJoin(dc.revealed_deck(), " ").c_str());
  std::printf("  salt: %s\n", Hex(dc.revealed_salt()).c_str());
  if (dc.commitment() != published) {
    std::printf(
        "  NOT VERIFIED: the commitment now shown (%s) is not the one published at NewHand\n",
        Hex(dc.commitment()).c_str());
    return false;
  }
  if (dc.revealed_deck_size() == 0 || computed != published) {
    std::printf("  NOT VERIFIED: SHA-256(deck \"/\" recycle order salt) = %s\n",
                Hex(computed).c_str());
    return false;
  }
  std::printf(
      "  verified: SHA-256(deck \"/\" recycle order salt) matches the commitment published at the "
      "deal\n");
  return true;
}

void PrintSettlement(const v1::ResolveShowdownResponse& r, v1::Variant variant) {
  const bool razz = variant == v1::VARIANT_RAZZ;
  if (!r.hands().empty()) std::printf("Showdown:\n");
  for (const v1::ShownHand& h : r.hands()) {
    if (razz) {  // only the low counts
      std::printf("  seat %d: %s (%s)\n", h.seat(), h.low_name().c_str(),
                  absl::StrJoin(h.best_five_low(), " ").c_str());
      continue;
    }
    std::printf("  seat %d: %s (%s)", h.seat(), h.high_name().c_str(),
                absl::StrJoin(h.best_five_high(), " ").c_str());
    if (h.has_low())
      std::printf("; low %s (%s)", h.low_name().c_str(),
                  absl::StrJoin(h.best_five_low(), " ").c_str());
    if (variant == v1::VARIANT_STUD_HI_LO && !h.has_low()) std::printf("; no eight-or-better low");
    std::printf("\n");
  }
  std::printf("Pots:\n");
  for (const v1::PotResult& p : r.pots()) {
    std::printf("  %s %lld, seats %s: %s %s", PotName(p.index()).c_str(),
                static_cast<long long>(p.amount()), absl::StrJoin(p.eligible_seats(), " ").c_str(),
                razz ? "won by" : "high", absl::StrJoin(p.high_winners(), " ").c_str());
    if (!p.low_winners().empty())
      std::printf(", low %s", absl::StrJoin(p.low_winners(), " ").c_str());
    if (variant == v1::VARIANT_STUD_HI_LO && p.low_winners().empty() && p.high_winners_size() > 0 &&
        r.hands_size() > 0) {
      std::printf(", no qualifying low");
    }
    if (!p.rule_id().empty()) std::printf(" [%s]", p.rule_id().c_str());
    std::printf("\n");
    for (const v1::PotShare& s : p.shares()) {
      std::printf(
          "    seat %d gets %lld (%s)%s\n", s.seat(), static_cast<long long>(s.amount()),
          HalfName(s.half()),
          s.odd_chip() ? absl::StrCat(" incl. odd chip [", s.odd_chip_rule_id(), "]").c_str() : "");
    }
  }
  std::map<int32_t, int64_t> won(r.won().begin(), r.won().end());
  std::vector<std::string> winners;
  for (const auto& [seat, amount] : won)
    winners.push_back(absl::StrCat("seat ", seat, " +", amount));
  std::printf("Winners: %s\n", absl::StrJoin(winners, ", ").c_str());
}

}  // namespace

const v1::PrivateView* PrivateOf(const v1::HandUpdate& u, int seat) {
  for (const v1::PrivateView& pv : u.private_views()) {
    if (pv.seat() == seat) return &pv;
  }
  return nullptr;
}

int64_t LegalAmountOf(const v1::HandUpdate& u, v1::ActionKind kind) {
  for (const v1::LegalAction& a : u.legal_actions()) {
    if (a.kind() == kind) return a.amount_to();
  }
  return 0;
}

std::string DescribeLegal(const v1::LegalAction& a) {
  std::string out;
  switch (a.kind()) {
    case v1::ACTION_KIND_RAISE:
      out = absl::StrCat("raise to ", a.amount_to());
      break;
    case v1::ACTION_KIND_COMPLETE:
      out = absl::StrCat("complete to ", a.amount_to());
      break;
    default:
      out = KindNameOf(a.kind());
      if (KindHasAmount(a.kind())) absl::StrAppend(&out, " ", a.amount_to());
  }
  if (a.all_in()) out += " (all-in)";
  return out;
}

std::string LegalList(const v1::HandUpdate& u) {
  std::vector<std::string> parts;
  for (const v1::LegalAction& a : u.legal_actions()) {
    parts.push_back(KindHasAmount(a.kind()) ? absl::StrCat(KindNameOf(a.kind()), " ", a.amount_to())
                                            : std::string(KindNameOf(a.kind())));
  }
  return absl::StrJoin(parts, " ");
}

std::string SeatOrBoard(int seat) { return seat == 0 ? "the board" : absl::StrCat("seat ", seat); }

std::string DescribeExpectedDeal(const v1::ExpectedDeal& d) {
  // [STUD-DEAL-3, STUD-DECK-1] what the dealer owes before that card.
  const char* first = d.step() == v1::DEAL_STEP_BURN ? ", after the burn (`burn`, or implied)"
                      : d.step() == v1::DEAL_STEP_RESHUFFLE
                          ? ", after the reshuffle of the burns and stub (`reshuffle`)"
                          : "";
  return absl::StrCat(SeatOrBoard(d.seat()), d.seat() == 0 ? " (common card)" : "",
                      d.face_up() ? " face up" : " face down", " (", StreetName(d.street()), ")",
                      first);
}

std::string StacksList(const v1::HandUpdate& u) {
  std::vector<std::string> stacks;
  for (const v1::SeatView& s : u.public_view().seats()) {
    stacks.push_back(absl::StrCat("seat ", s.seat(), " ", s.stack()));
  }
  return absl::StrJoin(stacks, ", ");
}

std::string Hex(const std::string& bytes) {
  std::string out;
  for (unsigned char c : bytes) absl::StrAppendFormat(&out, "%02x", c);
  return out;
}

void PrintBoard(const v1::HandUpdate& u, bool omniscient) {
  const v1::PublicView& pv = u.public_view();
  std::printf("-- %s | %s | pot %lld | to call %lld | raises %d | version %llu\n",
              StreetName(pv.street()), PhaseName(pv.phase()),
              static_cast<long long>(pv.pot_total()), static_cast<long long>(pv.bet_to()),
              pv.raises(), static_cast<unsigned long long>(pv.version()));
  for (const v1::SeatView& s : pv.seats()) {
    std::string cards = SeatCards(s.cards());
    if (omniscient) {
      if (const v1::PrivateView* own = PrivateOf(u, s.seat())) cards = SeatCards(own->cards());
    }
    std::string status;
    if (s.folded()) status += " folded";
    if (s.all_in()) status += " all-in";
    if (s.mucked()) status += " mucked";
    if (s.shown()) status += " shown";
    std::printf("   seat %d%s stack %6lld  in pot %6lld  this street %5lld  %-28s%s\n", s.seat(),
                s.seat() == pv.to_act() ? "*" : " ", static_cast<long long>(s.stack()),
                static_cast<long long>(s.committed()), static_cast<long long>(s.street_bet()),
                cards.c_str(), status.c_str());
  }
  if (!pv.common_card().empty()) std::printf("   common card %s\n", pv.common_card().c_str());
}

void PrintEvents(const v1::HandUpdate& u) {
  for (const v1::Operation& op : u.operations()) {
    const std::string text = DescribeOperation(op);
    if (!text.empty()) std::printf("   . %s\n", text.c_str());
  }
  for (const v1::Announcement& a : u.announcements()) {
    std::printf("   Dealer: %s%s\n", a.text().c_str(),
                a.rule_id().empty() ? "" : absl::StrCat(" [", a.rule_id(), "]").c_str());
  }
}

void PrintRuling(const v1::Ruling& r, v1::Locale locale) {
  const bool es = locale == v1::LOCALE_ES;
  std::printf("   RULING %s %s%s\n", r.rule_id().c_str(), r.decision().c_str(),
              r.alternative().empty() ? "" : absl::StrCat(" (", r.alternative(), ")").c_str());
  std::printf("     floor: %s\n", (es ? r.explanation_es() : r.explanation_en()).c_str());
  const std::string& redeal = es ? r.redeal_es() : r.redeal_en();
  if (!redeal.empty()) std::printf("     redeal: %s\n", redeal.c_str());
  if (!r.exposed_cards().empty())
    std::printf("     exposed: %s\n", RulingCards(r.exposed_cards()).c_str());
  if (!r.removed_cards().empty())
    std::printf("     removed: %s\n", RulingCards(r.removed_cards()).c_str());
  if (!r.given_cards().empty())
    std::printf("     given: %s\n", RulingCards(r.given_cards()).c_str());
  if (!r.killed_seats().empty()) {
    std::printf("     dead hands: seat %s\n", absl::StrJoin(r.killed_seats(), ", seat ").c_str());
  }
  if (!r.chip_changes().empty()) {
    std::vector<std::string> parts;
    for (const v1::ChipChange& c : r.chip_changes()) {
      parts.push_back(absl::StrFormat("seat %d stack %+lld, in pot %+lld", c.seat(),
                                      static_cast<long long>(c.stack_delta()),
                                      static_cast<long long>(c.committed_delta())));
    }
    std::printf("     chips: %s\n", absl::StrJoin(parts, "; ").c_str());
  }
  if (r.to_act() != 0) {
    std::vector<std::string> options;
    for (const v1::LegalAction& a : r.options()) options.push_back(DescribeLegal(a));
    std::printf("     to act: seat %d%s%s\n", r.to_act(), options.empty() ? "" : ": ",
                absl::StrJoin(options, ", ").c_str());
  }
  if (r.has_allowance_remaining())
    std::printf("     time-out all-ins left: %d\n", r.allowance_remaining());
}

bool FinishHand(Client& client, const v1::HandUpdate& u, absl::string_view published,
                v1::Locale locale, v1::ResolveShowdownResponse* out) {
  if (auto err = client.Resolve(u, locale, out)) {
    std::printf("ResolveShowdown failed: %s\n", DescribeError(*err).c_str());
    return false;
  }
  PrintSettlement(*out, u.public_view().variant());
  std::printf("Final stacks: %s\n", StacksList(u).c_str());
  const v1::DeckCommitment& committed = u.public_view().deck_commitment();
  if (published.empty() && committed.commitment().empty()) {
    return VerifyCommitment(committed, published);
  }
  // The public view carries the commitment alone; the deck comes on request.
  v1::HandUpdate revealed;
  if (auto err = client.RevealDeck(u.token(), &revealed)) {
    std::printf("Deck commitment: %s\n", Hex(std::string(published)).c_str());
    if (err->reason == "DECK_REVEAL_NOT_PERMITTED") {
      std::printf(
          "  not revealed by this server (start it with --allow_deck_reveal to check it)\n");
      return true;
    }
    std::printf("  reveal failed: %s\n", DescribeError(*err).c_str());
    return false;
  }
  return VerifyCommitment(revealed.public_view().deck_commitment(), published);
}

}  // namespace stud_cli
