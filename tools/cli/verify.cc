// `verify RECEIPT.json [--newhand FILE] [--cards FILE]`: checks a hand receipt
// offline (docs/fairness.md), as tools/fairness/verify.py does, with the
// service's own stud-shuffle-v1 and deck tree (service/fairness/). The file
// formats are verify.py's: the receipt {"transcript", "signature",
// "public_key"} in base64 plus "key_id"; the NewHand answer and the card
// proofs as proto JSON.
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "service/fairness/merkle.h"
#include "service/fairness/receipt.h"
#include "service/fairness/shuffle.h"
#include "tools/cli/commands.h"

namespace stud_cli {
namespace {

using google::protobuf::Struct;
using google::protobuf::Value;
namespace fairness = stud::fairness;

struct Checks {
  int passed = 0;
  int failed = 0;
  bool Check(bool ok, const std::string& what) {
    std::printf("%s %s\n", ok ? "ok:" : "FAILED:", what.c_str());
    (ok ? passed : failed)++;
    return ok;
  }
};

bool Load(const std::string& path, Struct* out) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  if (!in || !google::protobuf::util::JsonStringToMessage(text.str(), out).ok()) {
    std::fprintf(stderr, "stud_cli verify: cannot read %s as JSON\n", path.c_str());
    return false;
  }
  return true;
}

const Value* Get(const Struct& s, const std::string& snake, const std::string& camel) {
  auto it = s.fields().find(snake);
  if (it == s.fields().end()) it = s.fields().find(camel);
  return it == s.fields().end() ? nullptr : &it->second;
}
std::string Text(const Struct& s, const std::string& snake, const std::string& camel = "") {
  const Value* v = Get(s, snake, camel.empty() ? snake : camel);
  return v != nullptr ? v->string_value() : "";
}
std::string Base64(const std::string& text) {
  std::string out;
  if (!absl::Base64Unescape(text, &out)) absl::WebSafeBase64Unescape(text, &out);
  return out;
}
std::string Unhex(const std::string& hex) { return absl::HexStringToBytes(hex); }
std::string Hex(const std::string& bytes) { return absl::BytesToHexString(bytes); }

// The first struct named `snake`/`camel` anywhere below `v` (depth first).
const Struct* Find(const Value& v, const std::string& snake, const std::string& camel) {
  if (v.has_struct_value()) {
    if (const Value* got = Get(v.struct_value(), snake, camel); got && got->has_struct_value()) {
      return &got->struct_value();
    }
    for (const auto& [key, child] : v.struct_value().fields()) {
      if (const Struct* s = Find(child, snake, camel)) return s;
    }
  } else if (v.has_list_value()) {
    for (const Value& child : v.list_value().values()) {
      if (const Struct* s = Find(child, snake, camel)) return s;
    }
  }
  return nullptr;
}

// Every card proof ({card, salt, path[, position]}) below `v`.
void Proofs(const Value& v, std::vector<fairness::CardProof>* out) {
  if (v.has_struct_value()) {
    const Struct& s = v.struct_value();
    if (Get(s, "card", "card") && Get(s, "salt", "salt")) {
      fairness::CardProof p;
      const Value* pos = Get(s, "position", "position");
      p.position = pos != nullptr ? static_cast<int>(pos->number_value()) : 0;
      p.card = Text(s, "card");
      p.salt = Base64(Text(s, "salt"));
      if (const Value* path = Get(s, "path", "path")) {
        for (const Value& h : path->list_value().values())
          p.path.push_back(Base64(h.string_value()));
      }
      out->push_back(std::move(p));
      return;
    }
    for (const auto& [key, child] : s.fields()) Proofs(child, out);
  } else if (v.has_list_value()) {
    for (const Value& child : v.list_value().values()) Proofs(child, out);
  }
}

// One card taken from the deck, in log order; position -1 when unknown (after
// a reshuffle without the recycle order).
struct Draw {
  std::string kind;
  int seat = 0;
  std::string card;  // "" when hidden
  int position = -1;
};

// The log's draws and their positions (docs/dealing.md): 0, 1, 2, ... until a
// RECYCLE, then the pile in recycle order when the seed is revealed.
std::vector<Draw> FollowDeal(const Value* log, const fairness::Derived* d) {
  std::vector<Draw> draws;
  if (log == nullptr) return draws;
  int pos = 0;
  std::vector<int> pile, burns;
  for (const Value& line : log->list_value().values()) {
    // "<index> <TYPE> seat=N street=S [card=XX] ..."
    const std::vector<std::string> words = absl::StrSplit(line.string_value(), ' ');
    if (words.size() < 2) continue;
    Draw draw{.kind = words[1]};
    for (const std::string& w : words) {
      if (absl::StartsWith(w, "card=")) draw.card = w.substr(5);
      if (absl::StartsWith(w, "seat=") && !absl::SimpleAtoi(w.substr(5), &draw.seat))
        draw.seat = -1;
    }
    if (draw.kind == "RECYCLE") {
      std::vector<int> gathered;
      for (int p = pos; p < fairness::kCards; ++p) gathered.push_back(p);
      gathered.insert(gathered.end(), pile.begin(), pile.end());
      gathered.insert(gathered.end(), burns.begin(), burns.end());
      pile.clear();
      if (d != nullptr) {
        std::array<int, fairness::kCards> rank{};
        for (int i = 0; i < fairness::kCards; ++i)
          rank[d->recycle_order[static_cast<size_t>(i)]] = i;
        std::sort(gathered.begin(), gathered.end(), [&](int a, int b) {
          return rank[d->deck[static_cast<size_t>(a)]] < rank[d->deck[static_cast<size_t>(b)]];
        });
        pile = std::move(gathered);
      }
      pos = fairness::kCards;
      burns.clear();
      continue;
    }
    if (draw.kind != "DEAL" && draw.kind != "BURN" && draw.kind != "COMMON_CARD") continue;
    if (pos < fairness::kCards) {
      draw.position = pos++;
    } else if (!pile.empty()) {
      draw.position = pile.front();
      pile.erase(pile.begin());
    } else if (d != nullptr && !draw.card.empty()) {
      for (int p = 0; p < fairness::kCards; ++p) {
        if (d->deck[static_cast<size_t>(p)] == fairness::CardIndex(draw.card)) draw.position = p;
      }
    }
    if (draw.kind == "BURN" && draw.position >= 0) burns.push_back(draw.position);
    draws.push_back(std::move(draw));
  }
  return draws;
}

Value AsValue(const Struct& s) {
  Value v;
  *v.mutable_struct_value() = s;
  return v;
}

}  // namespace

int VerifyCommand(const VerifyOptions& options) {
  Struct receipt;
  if (!Load(options.receipt, &receipt)) return 2;
  const std::string transcript = Base64(Text(receipt, "transcript"));
  const std::string signature = Base64(Text(receipt, "signature"));
  const std::string public_key = Base64(Text(receipt, "public_key", "publicKey"));
  const std::string key_id = Text(receipt, "key_id", "keyId");
  Checks c;
  if (c.Check(public_key.size() == 32, "public key is 32 bytes")) {
    c.Check(key_id == fairness::KeyId(public_key), "key_id is SHA-256(public key)[:8]");
    c.Check(fairness::VerifySignature(transcript, signature, public_key),
            "Ed25519 signature over the transcript");
  }
  if (!options.keys.empty()) {
    Struct keys;
    if (!Load(options.keys, &keys)) return 2;
    bool listed = false;
    if (const Value* list = Get(keys, "keys", "keys")) {
      for (const Value& k : list->list_value().values()) {
        listed = listed || (k.has_struct_value() && Base64(Text(k.struct_value(), "public_key",
                                                                "publicKey")) == public_key);
      }
    }
    c.Check(listed, "the public key is one GetSigningKeys lists");
  }
  Struct t;
  if (!google::protobuf::util::JsonStringToMessage(transcript, &t).ok() ||
      Text(t, "format") != fairness::kReceiptFormat) {
    c.Check(false, "transcript is stud-receipt-v1 JSON");
    std::printf("verify: REFUSED\n");
    return 1;
  }
  const std::string hand_id = Unhex(Text(t, "hand_id"));
  c.Check(hand_id.size() == 16, "hand_id is 16 bytes");
  const bool service = Text(t, "dealing") == "SERVICE";
  const std::string commitment = Unhex(Text(t, "server_seed_commitment"));
  const std::string root = Unhex(Text(t, "deck_root"));
  std::vector<std::string> seeds;
  if (const Value* list = Get(t, "player_seeds", "player_seeds")) {
    for (const Value& s : list->list_value().values()) seeds.push_back(Unhex(s.string_value()));
  }
  if (service) c.Check(commitment.size() == 32 && root.size() == 32, "commitment and root");
  std::vector<std::string> deck;  // codes by position, with the seed revealed
  std::vector<Draw> draws;
  if (const std::string seed = Unhex(Text(t, "server_seed")); !seed.empty()) {
    c.Check(fairness::ServerSeedCommitment(seed) == commitment,
            "SHA-256(server_seed) is the server seed commitment");
    const fairness::Derived derived = fairness::Derive(seed, hand_id, seeds);
    c.Check(fairness::DeckTree(derived).root() == root,
            "the deck recomputed from the seeds has the receipt's deck root");
    for (uint8_t card : derived.deck) deck.push_back(fairness::CardCode(card));
    draws = FollowDeal(Get(t, "log", "log"), &derived);
    bool ok = true;
    for (const Draw& d : draws) {
      ok = ok &&
           (d.card.empty() || (d.position >= 0 && deck[static_cast<size_t>(d.position)] == d.card));
    }
    c.Check(ok, "every card in the log is the deck's card at its position");
    if (const Value* shown = Get(t, "shown", "shown")) {
      for (const Value& v : shown->list_value().values()) {
        const int seat = static_cast<int>(Get(v.struct_value(), "seat", "seat")->number_value());
        std::vector<std::string> dealt, cards;
        for (const Draw& d : draws) {
          if (d.kind == "DEAL" && d.seat == seat && d.position >= 0) {
            dealt.push_back(deck[static_cast<size_t>(d.position)]);
          }
        }
        if (const Value* list = Get(v.struct_value(), "cards", "cards")) {
          for (const Value& card : list->list_value().values())
            cards.push_back(card.string_value());
        }
        std::sort(dealt.begin(), dealt.end());
        std::sort(cards.begin(), cards.end());
        c.Check(cards == dealt,
                "seat " + std::to_string(seat) + " showed the cards the deck dealt it");
      }
    }
  } else {
    draws = FollowDeal(Get(t, "log", "log"), nullptr);
  }
  std::map<int, std::string> logged;  // position -> the card the public log shows there
  for (const Draw& d : draws) {
    if (!d.card.empty() && d.position >= 0) logged[d.position] = d.card;
  }
  const std::vector<std::string> specs = absl::StrSplit(options.my_seeds, ',', absl::SkipEmpty());
  for (const std::string& spec : specs) {
    const std::pair<std::string, std::string> parts = absl::StrSplit(spec, absl::MaxSplits(':', 1));
    int seat = 0;
    const bool ok = absl::SimpleAtoi(parts.first, &seat) && seat >= 1 &&
                    seat <= static_cast<int>(seeds.size()) &&
                    seeds[static_cast<size_t>(seat - 1)] == Unhex(parts.second);
    c.Check(ok, "seat " + parts.first + "'s seed is in the receipt");
  }
  auto check_proofs = [&](const Value& v, const std::string& name) {
    std::vector<fairness::CardProof> proofs;
    Proofs(v, &proofs);
    for (const fairness::CardProof& p : proofs) {
      const std::string what = name + ": " + p.card + " at position " + std::to_string(p.position);
      c.Check(fairness::VerifyCardProof(p, root), what + " is proven against the deck root");
      if (auto it = logged.find(p.position); it != logged.end()) {
        c.Check(it->second == p.card, what + " is the card the log shows there");
      }
      if (!deck.empty() && p.position >= 0 && p.position < static_cast<int>(deck.size())) {
        c.Check(deck[static_cast<size_t>(p.position)] == p.card,
                what + " is the recomputed deck's");
      }
    }
    return proofs.size();
  };
  if (!options.newhand.empty()) {
    Struct newhand;
    if (!Load(options.newhand, &newhand)) return 2;
    const Value whole = AsValue(newhand);
    if (const Struct* view = Find(whole, "public_view", "publicView")) {
      c.Check(Text(*view, "hand_id", "handId") == Hex(hand_id),
              "the NewHand answer is for the receipt's hand");
    }
    const Struct* f = Find(whole, "fairness", "fairness");
    if (service && c.Check(f != nullptr, "the NewHand answer carries the fairness data")) {
      c.Check(Base64(Text(*f, "server_seed_commitment", "serverSeedCommitment")) == commitment,
              "the NewHand answer published the receipt's server seed commitment");
      const std::string published = Base64(Text(*f, "deck_root", "deckRoot"));
      if (!published.empty()) {
        c.Check(published == root, "the NewHand answer published the receipt's deck root");
      }
      check_proofs(whole, "the NewHand answer");
    }
  }
  for (const std::string& path : options.updates) {
    Struct update;
    if (!Load(path, &update)) return 2;
    const Value whole = AsValue(update);  // outlives f, which points into it
    const Struct* f = Find(whole, "fairness", "fairness");
    if (service && c.Check(f != nullptr, path + " carries the fairness data")) {
      c.Check(Base64(Text(*f, "deck_root", "deckRoot")) == root,
              path + " published the receipt's deck root");
      check_proofs(whole, path);
    }
  }
  for (const std::string& path : options.cards) {
    Struct cards;
    if (!Load(path, &cards)) return 2;
    c.Check(check_proofs(AsValue(cards), path) > 0, path + " holds card proofs");
  }
  std::printf("verify: %s (%d checks, %d failed)\n", c.failed == 0 ? "receipt verified" : "REFUSED",
              c.passed + c.failed, c.failed);
  return c.failed == 0 ? 0 : 1;
}

}  // namespace stud_cli
