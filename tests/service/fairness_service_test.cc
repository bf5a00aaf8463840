// Verifiable hands in the service (docs/fairness.md): every SERVICE hand is
// dealt by stud-shuffle-v1 from its sealed server seed, every view carries
// the deck root and a proof for exactly the cards it shows, the reveal
// policy decides when the server seed is published, and a complete hand's
// receipt is signed with Ed25519 and verifies with libsodium; a receipt kept
// for the reads of a hand's last version is the one signing it would make.
#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <sodium.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "service/api/status_mapping.h"
#include "service/fairness/merkle.h"
#include "service/fairness/receipt.h"
#include "service/fairness/shuffle.h"
#include "service/rpc/dealing.h"
#include "service/rpc/hand_service.h"
#include "service/rpc/lru_cache.h"
#include "service/rpc/receipt_view.h"
#include "service/token/codec.h"
#include "service_fixture.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service::testing {
namespace {
using ::stud::testing::IsOk;
using ::stud::testing::StatusIs;
namespace v1 = stud::v1;

// A hand service in process, with the sealer to open its tokens.
class Table {
 public:
  explicit Table(ServiceOptions options = {.allow_preset = true})
      : sealer_(*Sealer::Create({TestKey(1, 5)})), service_(&sealer_, options) {}

  v1::HandUpdate Deal(v1::NewHandRequest req) {
    for (int s = 1; s <= req.seats_size(); ++s) req.add_private_view_seats(s);
    v1::NewHandResponse start;
    const absl::Status st = service_.NewHand(req, &start);
    EXPECT_THAT(st, IsOk());
    return start.update();
  }

  // One action on `u`, every seat's private view asked.
  absl::Status Apply(const v1::HandUpdate& u, const v1::Action& action, v1::HandUpdate* out) {
    v1::ApplyActionRequest req;
    req.set_token(u.token());
    *req.mutable_action() = action;
    for (int s = 1; s <= u.public_view().seats_size(); ++s) req.add_private_view_seats(s);
    v1::ApplyActionResponse resp;
    absl::Status st = service_.ApplyAction(req, &resp);
    if (st.ok()) *out = resp.update();
    return st;
  }

  // Plays `u` to the end with the passive policy; `each` sees every update.
  template <typename Each>
  v1::HandUpdate PlayOut(v1::HandUpdate u, Each each) {
    for (int step = 0; step < 300 && u.public_view().phase() != v1::PHASE_COMPLETE; ++step) {
      const absl::Status st = Apply(u, ChooseAction(u, false), &u);
      EXPECT_THAT(st, IsOk());
      if (!st.ok()) break;
      each(u);
    }
    EXPECT_EQ(u.public_view().phase(), v1::PHASE_COMPLETE);
    return u;
  }

  SealedHand Open(const std::string& token) const { return OpenSealedHand(sealer_, token); }
  HandService& service() { return service_; }

 private:
  Sealer sealer_;
  HandService service_;
};

fairness::CardProof FromProto(const v1::CardProof& p) {
  fairness::CardProof out{
      .position = static_cast<int>(p.position()), .card = p.card(), .salt = p.salt(), .path = {}};
  for (const std::string& h : p.path()) out.path.push_back(h);
  return out;
}

// Every proof of `u` verifies against its root and proves a card the view
// shows; every card shown has its proof; the hand's true deck holds each
// proven card at the proven position.
void ExpectProofsOfExactlyTheShownCards(const v1::HandUpdate& u, const SealedHand& hand) {
  const v1::FairnessView& f = u.public_view().fairness();
  ASSERT_EQ(f.deck_root().size(), 32u);
  auto check = [&](const google::protobuf::RepeatedPtrField<v1::CardProof>& proofs,
                   std::multiset<std::string> shown, const std::string& where) {
    for (const v1::CardProof& p : proofs) {
      EXPECT_TRUE(fairness::VerifyCardProof(FromProto(p), f.deck_root())) << where << p.card();
      ASSERT_LT(p.position(), 52u);
      EXPECT_EQ(hand.state.config.deck[p.position()].ToString(), p.card()) << where;
      auto it = shown.find(p.card());
      ASSERT_NE(it, shown.end()) << where << ": a proof of " << p.card() << ", not shown";
      shown.erase(it);
    }
    EXPECT_TRUE(shown.empty()) << where << ": a shown card without its proof";
  };
  std::multiset<std::string> pub;
  for (const v1::SeatView& s : u.public_view().seats()) {
    for (const v1::SeatCard& c : s.cards()) {
      if (!c.card().empty()) pub.insert(c.card());
    }
  }
  if (!u.public_view().common_card().empty()) pub.insert(u.public_view().common_card());
  check(f.card_proofs(), pub, "public view: ");
  for (const v1::PrivateView& pv : u.private_views()) {
    std::multiset<std::string> own;
    for (const v1::SeatCard& c : pv.cards()) own.insert(c.card());
    check(pv.card_proofs(), own, "private view: ");
  }
}

google::protobuf::Struct Json(const std::string& text) {
  google::protobuf::Struct out;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(text, &out).ok()) << text;
  return out;
}

std::string PublicKeyOf(HandService& service, const std::string& key_id) {
  v1::GetSigningKeysResponse keys;
  EXPECT_THAT(service.GetSigningKeys({}, &keys), IsOk());
  for (const v1::SigningKey& k : keys.keys()) {
    if (k.key_id() == key_id) return k.public_key();
  }
  ADD_FAILURE() << "no published key " << key_id;
  return "";
}

TEST(FairnessServiceTest, EveryVariantDealsByTheShuffleWithProofsAndASignedReceipt) {
  ASSERT_THAT(InitCrypto(), IsOk());
  for (v1::Variant variant : {v1::VARIANT_STUD, v1::VARIANT_STUD_HI_LO, v1::VARIANT_RAZZ}) {
    SCOPED_TRACE(v1::Variant_Name(variant));
    Table table;
    v1::HandUpdate u = table.Deal(BasicHand(8, v1::DEALING_MODE_SERVICE, variant));
    const SealedHand hand = table.Open(u.token());
    const v1::FairnessView f = u.public_view().fairness();  // a copy: u is reassigned
    EXPECT_EQ(f.shuffle(), "stud-shuffle-v1");
    EXPECT_EQ(f.reveal(), v1::REVEAL_POLICY_SEALED);
    EXPECT_FALSE(f.player_seeds());
    EXPECT_TRUE(f.server_seed().empty());
    ASSERT_EQ(hand.service.server_seed.size(), 32u);
    EXPECT_EQ(f.server_seed_commitment(), fairness::ServerSeedCommitment(hand.service.server_seed));
    // The deck is stud-shuffle-v1 of the sealed seed, the hand id and no seeds.
    const fairness::Derived d = fairness::Derive(hand.service.server_seed, hand.service.hand_id,
                                                 std::vector<std::string>(8));
    for (int p = 0; p < 52; ++p) EXPECT_EQ(hand.state.config.deck[p].index(), d.deck[p]);
    for (int p = 0; p < 52; ++p)
      EXPECT_EQ(hand.state.config.recycle_order[p].index(), d.recycle_order[p]);
    EXPECT_EQ(f.deck_root(), fairness::DeckTree(d).root());
    // The old commitment still holds for old clients.
    EXPECT_EQ(
        u.public_view().deck_commitment().commitment(),
        DeckCommitment(hand.state.config.deck, hand.state.config.recycle_order, hand.service.salt));
    ExpectProofsOfExactlyTheShownCards(u, hand);
    EXPECT_FALSE(u.has_receipt());
    u = table.PlayOut(u, [&](const v1::HandUpdate& next) {
      ExpectProofsOfExactlyTheShownCards(next, table.Open(next.token()));
      EXPECT_EQ(next.public_view().fairness().deck_root(), f.deck_root());
    });
    ASSERT_TRUE(u.has_receipt());
    const v1::HandReceipt& receipt = u.receipt();
    const std::string key = PublicKeyOf(table.service(), receipt.key_id());
    ASSERT_EQ(key.size(), 32u);
    EXPECT_EQ(receipt.key_id(), fairness::KeyId(key));
    EXPECT_EQ(crypto_sign_verify_detached(
                  reinterpret_cast<const unsigned char*>(receipt.signature().data()),
                  reinterpret_cast<const unsigned char*>(receipt.transcript().data()),
                  receipt.transcript().size(), reinterpret_cast<const unsigned char*>(key.data())),
              0);
    // One flipped byte anywhere in the transcript: the signature fails.
    for (size_t i = 0; i < receipt.transcript().size(); i += 7) {
      std::string flipped = receipt.transcript();
      flipped[i] = static_cast<char>(flipped[i] ^ 0x01);
      EXPECT_FALSE(fairness::VerifySignature(flipped, receipt.signature(), key)) << i;
    }
    const google::protobuf::Struct t = Json(receipt.transcript());
    const auto& fields = t.fields();
    EXPECT_EQ(fields.at("format").string_value(), "stud-receipt-v1");
    EXPECT_EQ(fields.at("hand_id").string_value(), u.public_view().hand_id());
    EXPECT_EQ(fields.at("variant").string_value(),
              v1::Variant_Name(variant).substr(std::string("VARIANT_").size()));
    EXPECT_EQ(fields.at("dealing").string_value(), "SERVICE");
    EXPECT_EQ(fields.at("deck_root").string_value(), absl::BytesToHexString(f.deck_root()));
    EXPECT_EQ(fields.at("server_seed_commitment").string_value(),
              absl::BytesToHexString(f.server_seed_commitment()));
    EXPECT_EQ(fields.at("player_seeds").list_value().values_size(), 8);
    EXPECT_EQ(fields.at("seats").list_value().values_size(), 8);
    EXPECT_EQ(fields.at("version").number_value(), static_cast<double>(u.version()));
    EXPECT_EQ(fields.at("log").list_value().values_size(),
              static_cast<int>(table.Open(u.token()).state.log.size()));
    EXPECT_GE(fields.at("pots").list_value().values_size(), 1);
    EXPECT_EQ(fields.count("server_seed"), 0u);  // sealed
    std::printf("receipt of an 8-seat %s hand: %zu bytes transcript, %zu signature\n",
                v1::Variant_Name(variant).c_str(), receipt.transcript().size(),
                receipt.signature().size());
    // GetView of the complete hand: the same receipt, byte for byte.
    v1::GetViewRequest view;
    view.set_token(u.token());
    v1::GetViewResponse again;
    ASSERT_THAT(table.service().GetView(view, &again), IsOk());
    EXPECT_EQ(again.update().receipt().SerializeAsString(), receipt.SerializeAsString());
  }
}

TEST(FairnessServiceTest, RevealAtEndPublishesTheServerSeedOnlyOnceTheHandIsComplete) {
  ASSERT_THAT(InitCrypto(), IsOk());
  Table table;
  v1::NewHandRequest req = BasicHand(4, v1::DEALING_MODE_SERVICE);
  req.mutable_fairness()->set_reveal(v1::REVEAL_POLICY_AT_END);
  v1::HandUpdate u = table.Deal(req);
  EXPECT_EQ(u.public_view().fairness().reveal(), v1::REVEAL_POLICY_AT_END);
  u = table.PlayOut(u, [](const v1::HandUpdate& next) {
    if (next.public_view().phase() != v1::PHASE_COMPLETE) {
      EXPECT_TRUE(next.public_view().fairness().server_seed().empty());
    }
  });
  const std::string seed = u.public_view().fairness().server_seed();
  ASSERT_EQ(seed.size(), 32u);
  EXPECT_EQ(fairness::ServerSeedCommitment(seed),
            u.public_view().fairness().server_seed_commitment());
  // Anyone recomputes the whole deck and its root.
  std::string hand_id = absl::HexStringToBytes(u.public_view().hand_id());
  const fairness::Derived d = fairness::Derive(seed, hand_id, std::vector<std::string>(4));
  EXPECT_EQ(fairness::DeckTree(d).root(), u.public_view().fairness().deck_root());
  const google::protobuf::Struct t = Json(u.receipt().transcript());
  EXPECT_EQ(t.fields().at("server_seed").string_value(), absl::BytesToHexString(seed));
}

TEST(FairnessServiceTest, ATrustedRevealDeckGetsTheServerSeedOfASealedHand) {
  ASSERT_THAT(InitCrypto(), IsOk());
  Table table({.allow_preset = true, .allow_deck_reveal = true});
  v1::HandUpdate u = table.PlayOut(table.Deal(BasicHand(3, v1::DEALING_MODE_SERVICE)),
                                   [](const v1::HandUpdate&) {});
  EXPECT_TRUE(u.public_view().fairness().server_seed().empty());
  v1::GetViewRequest req;
  req.set_token(u.token());
  req.set_reveal_deck(true);
  v1::GetViewResponse resp;
  ASSERT_THAT(table.service().GetView(req, &resp), IsOk());
  EXPECT_EQ(resp.update().public_view().fairness().server_seed(),
            table.Open(u.token()).service.server_seed);
}

TEST(FairnessServiceTest, FairnessOptionsOnlyWithServiceDealing) {
  ASSERT_THAT(InitCrypto(), IsOk());
  Table table;
  for (v1::DealingMode mode : {v1::DEALING_MODE_PRESET, v1::DEALING_MODE_LIVE}) {
    v1::NewHandRequest req = BasicHand(3, mode);
    req.mutable_fairness()->set_player_seeds(true);
    v1::NewHandResponse resp;
    const absl::Status st = table.service().NewHand(req, &resp);
    EXPECT_THAT(st, StatusIs(absl::StatusCode::kInvalidArgument)) << st;
    EXPECT_NE(st.message().find("fairness"), absl::string_view::npos) << st;
  }
  v1::NewHandRequest bad = BasicHand(3, v1::DEALING_MODE_SERVICE);
  bad.mutable_fairness()->set_reveal(static_cast<v1::RevealPolicy>(9));
  v1::NewHandResponse resp;
  EXPECT_EQ(table.service().NewHand(bad, &resp).code(), absl::StatusCode::kInvalidArgument);
}

TEST(FairnessServiceTest, APresetHandHasASignedReceiptWithoutDeckProofs) {
  ASSERT_THAT(InitCrypto(), IsOk());
  Table table;
  v1::HandUpdate u = table.Deal(BasicHand(3, v1::DEALING_MODE_PRESET));
  EXPECT_FALSE(u.public_view().has_fairness());
  for (const v1::PrivateView& pv : u.private_views()) EXPECT_EQ(pv.card_proofs_size(), 0);
  u = table.PlayOut(u, [](const v1::HandUpdate&) {});
  ASSERT_TRUE(u.has_receipt());
  EXPECT_EQ(u.receipt().transcript().find("deck_root"), std::string::npos);
  EXPECT_NE(u.receipt().transcript().find("\"dealing\":\"PRESET\""), std::string::npos);
  EXPECT_TRUE(fairness::VerifySignature(u.receipt().transcript(), u.receipt().signature(),
                                        PublicKeyOf(table.service(), u.receipt().key_id())));
}

TEST(FairnessServiceTest, ReplicasWithTheSameKeysFileSignAlike) {
  ASSERT_THAT(InitCrypto(), IsOk());
  const std::string text = "# receipts\nk2026:" + absl::Base64Escape(std::string(32, '\x11')) +
                           "\n\nold:" + absl::Base64Escape(std::string(32, '\x22')) + "\n";
  const fairness::SigningKeys keys = *fairness::SigningKeys::FromText(text);
  ASSERT_EQ(keys.keys().size(), 2u);
  Table a({.allow_preset = true, .signing_keys = &keys});
  Table b({.allow_preset = true, .signing_keys = &keys});
  const v1::HandUpdate u =
      a.PlayOut(a.Deal(BasicHand(2, v1::DEALING_MODE_SERVICE)), [](const v1::HandUpdate&) {});
  v1::GetViewRequest req;
  req.set_token(u.token());
  v1::GetViewResponse on_b;
  // Replica b opens a's token only with a's sealing key: both use TestKey(1, 5).
  ASSERT_THAT(b.service().GetView(req, &on_b), IsOk());
  EXPECT_EQ(on_b.update().receipt().SerializeAsString(), u.receipt().SerializeAsString());
  EXPECT_EQ(u.receipt().key_id(), keys.keys()[0].key_id);
  v1::GetSigningKeysResponse listed;
  ASSERT_THAT(b.service().GetSigningKeys({}, &listed), IsOk());
  ASSERT_EQ(listed.keys_size(), 2);
  EXPECT_EQ(listed.keys(1).key_id(), keys.keys()[1].key_id);
  // Verified with the other key: refused.
  EXPECT_FALSE(fairness::VerifySignature(u.receipt().transcript(), u.receipt().signature(),
                                         listed.keys(1).public_key()));
}

// Every update of a complete hand carries its receipt, and the hand's last
// version is read again by its watchers and GetView: FillReceiptOf keeps the
// receipts by signing key, tenant and token. A kept receipt must be exactly
// what signing the hand makes, for every hand and under every key.
TEST(FairnessServiceTest, AReceiptFoundAgainIsTheOneSigningTheHandMakes) {
  ASSERT_THAT(InitCrypto(), IsOk());
  const fairness::SigningKeys other = fairness::SigningKeys::FromSeed(std::string(32, '\x33'));
  Table table;
  const v1::Variant variants[] = {v1::VARIANT_STUD, v1::VARIANT_STUD_HI_LO, v1::VARIANT_RAZZ};
  std::vector<std::string> transcripts;
  for (int h = 0; h < 12; ++h) {
    SCOPED_TRACE(h);
    const v1::HandUpdate u = table.PlayOut(
        table.Deal(BasicHand(2 + h % 7,
                             h % 4 == 3 ? v1::DEALING_MODE_PRESET : v1::DEALING_MODE_SERVICE,
                             variants[h % 3])),
        [](const v1::HandUpdate&) {});
    const SealedHand hand = table.Open(u.token());
    v1::HandReceipt signed_now;
    FillReceipt(hand, EphemeralSigningKeys(), &signed_now);
    EXPECT_EQ(u.receipt().SerializeAsString(), signed_now.SerializeAsString());
    for (int read = 0; read < 3; ++read) {  // found again, byte for byte
      v1::GetViewRequest req;
      req.set_token(u.token());
      v1::GetViewResponse again;
      ASSERT_THAT(table.service().GetView(req, &again), IsOk());
      EXPECT_EQ(again.update().receipt().SerializeAsString(), signed_now.SerializeAsString());
    }
    // Another key (another replica's file, a rotation): its own signature,
    // not the receipt kept for the first key.
    v1::HandReceipt by_other;
    FillReceiptOf(hand, other, "", u.token(), &by_other);
    EXPECT_EQ(by_other.key_id(), other.signer().key_id);
    EXPECT_EQ(by_other.transcript(), signed_now.transcript());
    EXPECT_TRUE(fairness::VerifySignature(by_other.transcript(), by_other.signature(),
                                          other.signer().public_key));
    // Another tenant's call on the same bytes is its own entry (a token opens
    // for one tenant only; the key says so rather than trusting it).
    v1::HandReceipt for_tenant;
    FillReceiptOf(hand, EphemeralSigningKeys(), "tenant-b", u.token(), &for_tenant);
    EXPECT_EQ(for_tenant.SerializeAsString(), signed_now.SerializeAsString());
    transcripts.push_back(signed_now.transcript());
  }
  // Each hand got its own receipt, none another's.
  std::sort(transcripts.begin(), transcripts.end());
  EXPECT_EQ(std::unique(transcripts.begin(), transcripts.end()), transcripts.end());
}

TEST(LruCacheTest, FindsExactlyItsKeysAndDropsTheLeastRecentlyUsedFirst) {
  LruCache<std::shared_ptr<const int>> cache(2);
  cache.Put("a", std::make_shared<const int>(1));
  cache.Put("b", std::make_shared<const int>(2));
  ASSERT_NE(cache.Find("a"), nullptr);  // "a" is now the most recent
  EXPECT_EQ(cache.Find("ab"), nullptr);
  EXPECT_EQ(cache.Find(""), nullptr);
  cache.Put("c", std::make_shared<const int>(3));  // over capacity: "b" goes
  EXPECT_EQ(cache.Find("b"), nullptr);
  EXPECT_EQ(*cache.Find("a"), 1);
  EXPECT_EQ(*cache.Find("c"), 3);
  cache.Put("c", std::make_shared<const int>(4));  // kept already: the first stays
  EXPECT_EQ(*cache.Find("c"), 3);
}

TEST(FairnessServiceTest, ASigningKeysFileWithABadLineIsRefusedNamingIt) {
  EXPECT_THAT(fairness::SigningKeys::FromText(""), ::testing::Not(IsOk()));
  EXPECT_THAT(fairness::SigningKeys::FromText("a:" + absl::Base64Escape("short") + "\n"),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::HasSubstr("line 1")));
  const std::string one = "a:" + absl::Base64Escape(std::string(32, 'x'));
  EXPECT_THAT(fairness::SigningKeys::FromText(one + "\n" + one + "\n"),
              StatusIs(absl::StatusCode::kInvalidArgument, ::testing::HasSubstr("line 2")));
}

}  // namespace
}  // namespace stud::service::testing
