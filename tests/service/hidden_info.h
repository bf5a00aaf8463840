// What a viewer may know, and a check that an answer shows nothing else:
// shared by the hidden-information sweeps (hidden_info_test.cc,
// hidden_info_tickets_test.cc).
//
// The rule (docs/api.md, "Threat model"; engine/view.h states the same for
// the service) is computed here independently of the service's redaction
// code, from the hand's true state (the token opened with the key). Seat v
// may know its own cards (every card ever dealt to it), every card dealt or
// turned face up (up cards, the common card, exposed cards, a burn or a card
// set aside that the dealer showed) and the cards of a seat that showed at
// showdown. The table (kPublicViewer) knows the public cards alone. That holds
// after the hand is complete too: never a folded or mucked hand, an unshown
// winner's cards, a burn or an undealt card, so never the deck.
//
// Every string field of an answer (walked by reflection, repeated and map
// fields and nested messages included) and of an error (message, and the
// google.rpc.Status details with their ErrorInfo and LocalizedMessage
// unpacked) is searched for two-character card codes standing alone (no
// letter or digit before, no letter after): a card field ("As"), each entry
// of a repeated card field (best_five_high, revealed_deck), and cards inside
// text ("Low card: seat 3 (2c) must bring in"), the receipt transcript and
// every card proof's card. The only other bytes fields are the token
// (ciphertext), the commitment digest, the revealed salt, tickets and the
// fairness digests, salts, paths, seeds and signature: random bytes, not
// text; the walk fails on any other bytes field, and on the server seed. A hand
// history writes cards back to back ("d dh p1 ????7c"), so its PHH text is
// also read with the PHH parser and every card it names is checked.
#ifndef STUD_TESTS_SERVICE_HIDDEN_INFO_H_
#define STUD_TESTS_SERVICE_HIDDEN_INFO_H_

#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "engine/card.h"
#include "engine/view.h"
#include "google/rpc/error_details.pb.h"
#include "google/rpc/status.pb.h"
#include "gtest/gtest.h"
#include "history/phh.h"
#include "service/api/status_mapping.h"
#include "service/token/codec.h"
#include "service/token/sealer.h"
#include "stud/v1/stud.pb.h"
#include "tests/testing/status_matchers.h"

namespace stud::service::testing {
namespace v1 = stud::v1;

// Letters include every byte of a multi-byte UTF-8 character ("Ahí" is a word).
inline bool IsLetter(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || static_cast<unsigned char>(c) >= 0x80;
}
inline bool IsAlnum(char c) { return IsLetter(c) || (c >= '0' && c <= '9'); }

// Card codes standing alone in `bytes`.
inline std::set<int> CardsIn(const std::string& bytes) {
  std::set<int> out;
  for (size_t i = 0; i + 1 < bytes.size(); ++i) {
    if (i > 0 && IsAlnum(bytes[i - 1])) continue;
    if (i + 2 < bytes.size() && IsLetter(bytes[i + 2])) continue;
    // The service writes cards in one form only: rank 2..9 T J Q K A, suit c d h s.
    const char* rank = std::strchr("23456789TJQKA", bytes[i]);
    const char* suit = std::strchr("cdhs", bytes[i + 1]);
    if (bytes[i] == '\0' || bytes[i + 1] == '\0' || rank == nullptr || suit == nullptr) continue;
    out.insert(ParseCard(bytes.substr(i, 2))->index());
  }
  return out;
}

// Every card a PHH record names (dealt, shown, board); "??" names none.
inline std::set<int> CardsInPhh(const std::string& phh) {
  std::set<int> out;
  absl::StatusOr<history::PhhHand> hand = history::ParsePhh(phh);
  EXPECT_THAT(hand, ::stud::testing::IsOk()) << phh;
  if (!hand.ok()) return out;
  for (const history::PhhAction& a : hand->actions) {
    for (const std::optional<Card>& c : a.cards) {
      if (c.has_value()) out.insert(c->index());
    }
  }
  return out;
}

// Where `code` occurs in `text`, with a few characters around it.
inline std::string Context(const std::string& text, const std::string& code) {
  std::string out;
  for (size_t at = text.find(code); at != std::string::npos; at = text.find(code, at + 1)) {
    absl::StrAppend(&out, "[", text.substr(at < 30 ? 0 : at - 30, 62), "] ");
  }
  return out;
}

// Lowercase hex digits only.
inline bool IsLowerHex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

// The receipt's JSON transcript without its random values: every
// "hand_id", "server_seed_commitment", "deck_root" and "server_seed" field
// whose value is lowercase hex, and the "player_seeds" array, each removed
// whole (key and value), the rest kept byte for byte: what std::regex_replace
// with the pattern in hidden_info_test.cc does (libstdc++'s regex was about a
// tenth of the ticket sweep's time).
inline std::string WithoutRandomHex(absl::string_view json) {
  static constexpr absl::string_view kHexKeys[] = {
      "\"hand_id\":\"", "\"server_seed_commitment\":\"", "\"deck_root\":\"", "\"server_seed\":\""};
  constexpr absl::string_view kSeeds = "\"player_seeds\":[";
  // The end of a random field starting at `at`, or npos.
  const auto random_field_end = [&](size_t at) {
    const absl::string_view rest = json.substr(at);
    for (absl::string_view key : kHexKeys) {
      if (!absl::StartsWith(rest, key)) continue;
      size_t end = at + key.size();
      while (end < json.size() && IsLowerHex(json[end])) ++end;
      if (end < json.size() && json[end] == '"') return end + 1;
    }
    if (absl::StartsWith(rest, kSeeds)) {
      const size_t close = json.find(']', at + kSeeds.size());
      if (close != absl::string_view::npos) return close + 1;
    }
    return absl::string_view::npos;
  };
  std::string out;
  out.reserve(json.size());
  for (size_t at = 0; at < json.size();) {
    const size_t end = json[at] == '"' ? random_field_end(at) : absl::string_view::npos;
    if (end != absl::string_view::npos) {
      at = end;
    } else {
      out.push_back(json[at++]);
    }
  }
  return out;
}

// All string fields of `m`, one per line.
inline void Strings(const google::protobuf::Message& m, std::string* out) {
  const google::protobuf::Reflection* r = m.GetReflection();
  std::vector<const google::protobuf::FieldDescriptor*> fields;
  r->ListFields(m, &fields);
  for (const google::protobuf::FieldDescriptor* f : fields) {
    const int n = f->is_repeated() ? r->FieldSize(m, f) : 1;
    for (int i = 0; i < n; ++i) {
      if (f->type() == google::protobuf::FieldDescriptor::TYPE_MESSAGE) {
        Strings(f->is_repeated() ? r->GetRepeatedMessage(m, f, i) : r->GetMessage(m, f), out);
      } else if (f->full_name() == "stud.v1.HandReceipt.key_id") {
        // Hex of a digest of the public signing key (random, like the
        // digests below): "8c08..." is not the 8c. Not text, so not read.
        const std::string& key_id = r->GetString(m, f);
        EXPECT_TRUE(key_id.size() == 16 && absl::c_all_of(key_id, IsLowerHex)) << key_id;
      } else if (f->type() == google::protobuf::FieldDescriptor::TYPE_STRING) {
        absl::StrAppend(out, f->is_repeated() ? r->GetRepeatedString(m, f, i) : r->GetString(m, f),
                        "\n");
      } else if (f->full_name() == "stud.v1.HandReceipt.transcript") {
        // The receipt's JSON: read as text (the public log, shown hands),
        // its hex digests and seeds left out (random bytes, not text).
        absl::StrAppend(out, WithoutRandomHex(r->GetString(m, f)), "\n");
      } else if (f->full_name() == "stud.v1.FairnessView.server_seed") {
        // The server seed gives the whole deck: never to a caller of these sweeps.
        ADD_FAILURE() << "the server seed (the whole deck) in an answer";
      } else if (f->type() == google::protobuf::FieldDescriptor::TYPE_BYTES) {
        // Tickets (NewHand) are the hand id, a seat and a tag: no cards. The
        // fairness digests, salts, audit paths and signature are random
        // bytes; a player's seed is what that player sent.
        const std::string& name = f->full_name();
        EXPECT_TRUE(f->name() == "token" || f->name() == "commitment" ||
                    f->name() == "revealed_salt" || f->name() == "ticket" ||
                    f->name() == "table_ticket" ||
                    name == "stud.v1.FairnessView.server_seed_commitment" ||
                    name == "stud.v1.FairnessView.deck_root" || name == "stud.v1.CardProof.salt" ||
                    name == "stud.v1.CardProof.path" || name == "stud.v1.SeatSeed.seed" ||
                    name == "stud.v1.HandReceipt.signature" ||
                    f->full_name() == "google.protobuf.Any.value")  // unpacked by ErrorText
            << "unexpected bytes field " << f->full_name();
      }
    }
  }
}

// The error as the caller gets it: message, then details with their payloads.
inline std::string ErrorText(const absl::Status& st) {
  const grpc::Status g = ToGrpcStatus(st);
  std::string out = g.error_message() + "\n";
  google::rpc::Status details;
  EXPECT_TRUE(details.ParseFromString(g.error_details()));
  Strings(details, &out);
  for (const auto& any : details.details()) {
    google::rpc::ErrorInfo info;
    google::rpc::LocalizedMessage localized;
    if (any.UnpackTo(&info)) Strings(info, &out);
    if (any.UnpackTo(&localized)) Strings(localized, &out);
  }
  return out;
}

// Cards seat `viewer` (kPublicViewer: the table, nobody's own) may know in
// `state`, complete or not (the rule in the file comment).
inline std::set<int> KnownTo(const HandState& state, int viewer) {
  std::set<int> out;
  const bool seat = viewer != kPublicViewer;
  if (state.has_common) out.insert(state.common_card.index());
  for (int s = 1; s <= state.config.num_seats; ++s) {
    const Seat& held = state.seats[static_cast<size_t>(s)];
    for (int k = 0; k < held.num_cards; ++k) {
      const SeatCard& c = held.cards[static_cast<size_t>(k)];
      if (s == viewer || c.face_up || held.shown) out.insert(c.card.index());
    }
  }
  for (const Operation& op : state.log) {
    bool known = false;
    switch (op.type) {
      case OpType::kDeal:
      case OpType::kReplaceCard:  // a card now in `seat`'s hand
        known = op.face_up || (seat && op.seat == viewer);
        break;
      case OpType::kCommonCard:
      case OpType::kExpose:
        known = true;
        break;
      case OpType::kAside:  // taken out of play: its card only when seen [STUD-IRR-PREM-1]
        known = op.amount == 0 && (op.face_up || (seat && op.seat == viewer));
        break;
      case OpType::kBurn:  // a LIVE burn the dealer showed [STUD-DEAL-3]
        known = op.amount == 0 && op.face_up;
        break;
      default:
        break;
    }
    if (known) out.insert(op.card.index());
  }
  return out;
}

// Opens tokens with the key and checks answers against KnownTo.
class AnswerChecker {
 public:
  explicit AnswerChecker(const Sealer* sealer) : sealer_(sealer) {}

  HandState StateOf(const std::string& token) const {
    absl::StatusOr<std::string> plain = sealer_->Open(token);
    EXPECT_THAT(plain, ::stud::testing::IsOk());
    absl::StatusOr<SealedHand> hand = ParseSealedHand(*plain);
    EXPECT_THAT(hand, ::stud::testing::IsOk());
    return hand->state;
  }

  // Checks one answer given to `viewer`: `before` is the state the request
  // was made on (null for NewHand), the token the answer returns gives the
  // state after it (a card the call made public may appear), `named` the
  // cards the request itself named. Returns false on a leak.
  template <typename Resp>
  bool Check(const char* rpc, int viewer, const HandState* before, const absl::Status& st,
             Resp resp, const std::set<int>& named) {
    ++checks_;
    std::set<int> visible;
    if (before != nullptr) visible = KnownTo(*before, viewer);
    std::string text;
    if (st.ok()) {
      std::string token;
      if constexpr (requires { resp.mutable_update(); }) {
        token = resp.update().token();
        resp.mutable_update()->clear_token();
        v1::PublicView* pub = resp.mutable_update()->mutable_public_view();
        pub->mutable_deck_commitment()->clear_commitment();
        pub->mutable_deck_commitment()->clear_revealed_salt();
        pub->clear_hand_id();  // hex, not text
      }
      if constexpr (requires { resp.clear_hand_id(); }) resp.clear_hand_id();
      if (!token.empty()) {
        const std::set<int> after = KnownTo(StateOf(token), viewer);
        visible.insert(after.begin(), after.end());
      }
      if constexpr (requires { resp.mutable_phh(); }) {
        // The deck commitment is a digest in hex ("4d07..."), like the
        // commitment bytes above: not text.
        std::string& phh = *resp.mutable_phh();
        const size_t at = phh.find("_deck_commitment = '");
        if (at != std::string::npos) phh.erase(at, phh.find('\'', at + 20) + 1 - at);
      }
      Strings(resp, &text);
      if constexpr (requires { resp.phh(); }) {
        for (int card : CardsInPhh(resp.phh()))
          absl::StrAppend(&text, " ", Card::FromIndex(card).ToString());
      }
    } else {
      ++errors_;
      text = ErrorText(st);
    }
    for (int card : CardsIn(text)) {
      if (visible.count(card) == 0 && named.count(card) == 0) {
        ADD_FAILURE() << rpc << " to " << (viewer == kPublicViewer ? "the table" : "seat ")
                      << (viewer == kPublicViewer ? std::string() : std::to_string(viewer))
                      << " leaks " << Card::FromIndex(card).ToString()
                      << (st.ok() ? "" : " in an error: ") << (st.ok() ? "" : st.ToString())
                      << "\nin: " << Context(text, Card::FromIndex(card).ToString());
        ++leaks_;
        return false;
      }
    }
    return true;
  }

  int checks_ = 0, errors_ = 0, leaks_ = 0;

 private:
  const Sealer* sealer_;
};

// The table's report of the card the dealer owes next in LIVE dealing (the
// first card of `deck` not yet in play), its burn or the reshuffle.
inline v1::Action LiveDeal(const v1::HandUpdate& u, const HandState& state,
                           const std::vector<Card>& deck) {
  v1::Action a;
  const v1::ExpectedDeal& next = u.expected_deal();
  bool may_deal = false;
  for (const auto& la : u.legal_actions()) may_deal |= la.kind() == v1::ACTION_KIND_DEAL;
  if (next.step() == v1::DEAL_STEP_RESHUFFLE || !may_deal) {
    a.set_kind(next.step() == v1::DEAL_STEP_RESHUFFLE ? v1::ACTION_KIND_RESHUFFLE
                                                      : v1::ACTION_KIND_BURN);
    return a;  // seat 0, the dealer; a burn not seen
  }
  a.set_kind(v1::ACTION_KIND_DEAL);
  a.set_seat(next.seat());
  a.set_face_up(next.face_up());
  for (Card c : deck) {
    if (!state.seen.Contains(c)) {
      a.set_card(c.ToString());
      break;
    }
  }
  return a;
}

}  // namespace stud::service::testing

#endif  // STUD_TESTS_SERVICE_HIDDEN_INFO_H_
