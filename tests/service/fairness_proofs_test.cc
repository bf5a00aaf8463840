// The deck tree's hashes and proofs against an independent reference: RFC
// 6962 section 2.1's recursive MTH and PATH written out literally over
// libsodium's SHA-256 (not the OpenSSL code under test), checked itself
// against Certificate Transparency's published roots. The service's answers
// are compared with it byte for byte: every proof a real NewHand or
// ApplyAction writes into its views, every root and seed commitment.
#include <sodium.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "google/protobuf/arena.h"
#include "service/fairness/merkle.h"
#include "service/fairness/receipt.h"
#include "service/fairness/sha256.h"
#include "service/fairness/shuffle.h"
#include "service/rpc/hand_service.h"
#include "service/rpc/receipt_view.h"
#include "service_fixture.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service::testing {
namespace {
using ::stud::testing::IsOk;
using ::testing::HasSubstr;
namespace v1 = stud::v1;
using fairness::Hash;

std::string RefSha256(absl::string_view m) {
  std::string out(crypto_hash_sha256_BYTES, '\0');
  crypto_hash_sha256(reinterpret_cast<unsigned char*>(out.data()),
                     reinterpret_cast<const unsigned char*>(m.data()), m.size());
  return out;
}

std::string RefLeaf(int position, absl::string_view code, absl::string_view salt) {
  return RefSha256(
      absl::StrCat(std::string(1, '\0'), std::string(1, static_cast<char>(position)), code, salt));
}

// RFC 6962 2.1: MTH(D[n]) = SHA-256(0x01 || MTH(D[0:k]) || MTH(D[k:n])).
std::string RefMth(const std::vector<std::string>& d, size_t begin, size_t end) {
  if (end - begin == 1) return d[begin];
  size_t k = 1;
  while (k * 2 < end - begin) k *= 2;
  return RefSha256("\x01" + RefMth(d, begin, begin + k) + RefMth(d, begin + k, end));
}

// RFC 6962 2.1.1: PATH(m, D[n]) = PATH(m, D[0:k]) : MTH(D[k:n]) for m < k,
// PATH(m - k, D[k:n]) : MTH(D[0:k]) for m >= k.
void RefPath(size_t m, const std::vector<std::string>& d, size_t begin, size_t end,
             std::vector<std::string>* out) {
  if (end - begin <= 1) return;
  size_t k = 1;
  while (k * 2 < end - begin) k *= 2;
  if (m < begin + k) {
    RefPath(m, d, begin, begin + k, out);
    out->push_back(RefMth(d, begin + k, end));
  } else {
    RefPath(m, d, begin + k, end, out);
    out->push_back(RefMth(d, begin, begin + k));
  }
}

std::string Hex(absl::string_view bytes) { return absl::BytesToHexString(bytes); }

Hash ToHash(const std::string& bytes) {
  Hash h{};
  EXPECT_EQ(bytes.size(), h.size());
  std::copy(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(h.size()), h.begin());
  return h;
}

TEST(FairnessProofsTest, TheReferenceGivesCertificateTransparencysRoots) {
  ASSERT_EQ(sodium_init() < 0, false);
  // certificate-transparency's Merkle tree test vectors: leaf i is
  // SHA-256(0x00 || data[i]); roots of the first n leaves.
  const char* const data[] = {"",
                              "00",
                              "10",
                              "2021",
                              "3031",
                              "40414243",
                              "5051525354555657",
                              "606162636465666768696a6b6c6d6e6f"};
  const char* const roots[] = {"6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
                               "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
                               "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
                               "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
                               "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
                               "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
                               "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
                               "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328"};
  std::vector<std::string> leaves;
  std::vector<Hash> hashed;
  for (size_t n = 1; n <= 8; ++n) {
    leaves.push_back(RefSha256(std::string(1, '\0') + absl::HexStringToBytes(data[n - 1])));
    hashed.push_back(ToHash(leaves.back()));
    EXPECT_EQ(Hex(RefMth(leaves, 0, n)), roots[n - 1]) << n;
    EXPECT_EQ(Hex(fairness::View(fairness::MerkleRoot(hashed))), roots[n - 1]) << n;
  }
}

// MerkleRoot, AuditPath and VerifyAuditPath agree with the RFC's recursion
// for every tree size up to 70 and every leaf.
TEST(FairnessProofsTest, RootsAndPathsMatchTheRfcForEverySize) {
  ASSERT_EQ(sodium_init() < 0, false);
  std::vector<std::string> leaves;
  std::vector<Hash> hashed;
  for (size_t n = 1; n <= 70; ++n) {
    leaves.push_back(RefSha256("leaf " + std::to_string(n)));
    hashed.push_back(ToHash(leaves.back()));
    const std::string root = RefMth(leaves, 0, n);
    ASSERT_EQ(fairness::View(fairness::MerkleRoot(hashed)), root) << n;
    for (size_t m = 0; m < n; ++m) {
      std::vector<std::string> want;
      RefPath(m, leaves, 0, n, &want);
      std::vector<std::string> got;
      for (const Hash& h : fairness::AuditPath(m, hashed)) got.emplace_back(fairness::View(h));
      ASSERT_EQ(got, want) << "size " << n << " leaf " << m;
      EXPECT_TRUE(fairness::VerifyAuditPath(m, n, hashed[m], want, root)) << n << " " << m;
    }
  }
}

// SHA-256 and HMAC-SHA256 (incremental, keyed once, copied) against
// libsodium's for every length around the block boundaries and long keys.
TEST(FairnessProofsTest, Sha256AndHmacMatchLibsodium) {
  ASSERT_EQ(sodium_init() < 0, false);
  std::string message;
  for (size_t n = 0; n <= 200; ++n) {
    ASSERT_EQ(fairness::View(fairness::Sha256({message.substr(0, n / 3), message.substr(n / 3)})),
              RefSha256(message))
        << n;
    for (size_t key_size : {0, 15, 32, 64, 65, 100}) {
      const std::string key(key_size, static_cast<char>('k' + n));
      std::string want(crypto_auth_hmacsha256_BYTES, '\0');
      crypto_auth_hmacsha256_state st;
      crypto_auth_hmacsha256_init(&st, reinterpret_cast<const unsigned char*>(key.data()),
                                  key.size());
      crypto_auth_hmacsha256_update(&st, reinterpret_cast<const unsigned char*>(message.data()),
                                    message.size());
      crypto_auth_hmacsha256_final(&st, reinterpret_cast<unsigned char*>(want.data()));
      fairness::HmacSha256 keyed(key);
      keyed.Update(message.substr(0, n / 2));
      const fairness::HmacSha256 copy = keyed;
      ASSERT_EQ(fairness::View(keyed.Mac(message.substr(n / 2))), want) << n << " " << key_size;
      ASSERT_EQ(fairness::View(copy.Mac(message.substr(n / 2))), want) << n << " " << key_size;
      ASSERT_EQ(fairness::View(keyed.Mac(message.substr(n / 2))), want) << "kept state " << n;
    }
    message.push_back(static_cast<char>(n * 7 + 1));
  }
}

// Every card's proof from a derived tree is the RFC's: its salt, its leaf
// and PATH over the 52 reference leaves; the root is the RFC's MTH.
TEST(FairnessProofsTest, DeckTreeProofsAreTheRfcs) {
  ASSERT_EQ(sodium_init() < 0, false);
  const fairness::Derived d = fairness::Derive(std::string(32, 's'), std::string(16, 'h'),
                                               {"", "seed", "", "x", "", "", "", "z"});
  std::vector<std::string> leaves;
  for (int p = 0; p < fairness::kCards; ++p) {
    const auto& salt = d.salts[static_cast<size_t>(p)];
    leaves.push_back(RefLeaf(p, fairness::CardCode(d.deck[static_cast<size_t>(p)]),
                             absl::string_view(reinterpret_cast<const char*>(salt.data()), 16)));
  }
  const fairness::DeckTree tree(d);
  EXPECT_EQ(tree.root(), RefMth(leaves, 0, leaves.size()));
  for (int p = 0; p < fairness::kCards; ++p) {
    const int card = d.deck[static_cast<size_t>(p)];
    const fairness::CardProof proof = tree.ProofOfCard(card);
    EXPECT_EQ(proof.position, p);
    EXPECT_EQ(tree.PositionOf(card), p);
    EXPECT_EQ(proof.card, fairness::CardCode(card));
    EXPECT_EQ(RefLeaf(p, proof.card, proof.salt), leaves[static_cast<size_t>(p)]);
    std::vector<std::string> want;
    RefPath(static_cast<size_t>(p), leaves, 0, leaves.size(), &want);
    EXPECT_EQ(proof.path, want) << p;
    EXPECT_TRUE(fairness::VerifyCardProof(proof, tree.root())) << p;
  }
}

// The proofs in an answer, checked against the reference tree of `hand`.
void ExpectReferenceProofs(const google::protobuf::RepeatedPtrField<v1::CardProof>& proofs,
                           const std::vector<std::string>& leaves, const SealedHand& hand,
                           const fairness::Derived& d, int* checked) {
  for (const v1::CardProof& p : proofs) {
    ASSERT_LT(p.position(), 52u);
    const auto position = static_cast<size_t>(p.position());
    EXPECT_EQ(p.card(), fairness::CardCode(d.deck[position]));
    EXPECT_EQ(p.card(), hand.state.config.deck[position].ToString());
    EXPECT_EQ(p.salt(), std::string(reinterpret_cast<const char*>(d.salts[position].data()), 16));
    std::vector<std::string> want;
    RefPath(position, leaves, 0, leaves.size(), &want);
    EXPECT_EQ(std::vector<std::string>(p.path().begin(), p.path().end()), want) << p.card();
    ++*checked;
  }
}

// Every answer of many real hands (three variants, passive and raising
// play, every private view asked) carries exactly the reference's bytes.
TEST(FairnessProofsTest, EveryAnswersProofsAreTheReferencesBytes) {
  ASSERT_THAT(InitCrypto(), IsOk());
  Sealer sealer = *Sealer::Create({TestKey(1, 5)});
  HandService service(&sealer, ServiceOptions{});
  int checked = 0;
  for (v1::Variant variant : {v1::VARIANT_STUD, v1::VARIANT_STUD_HI_LO, v1::VARIANT_RAZZ}) {
    for (bool aggressive : {false, true}) {
      SCOPED_TRACE(v1::Variant_Name(variant) + (aggressive ? " raising" : " passive"));
      v1::NewHandRequest nh = BasicHand(8, v1::DEALING_MODE_SERVICE, variant);
      for (int s = 1; s <= 8; ++s) nh.add_private_view_seats(s);
      v1::NewHandResponse start;
      ASSERT_THAT(service.NewHand(nh, &start), IsOk());
      v1::HandUpdate u = start.update();
      const SealedHand hand = OpenSealedHand(sealer, u.token());
      const fairness::Derived d = fairness::Derive(hand.service.server_seed, hand.service.hand_id,
                                                   std::vector<std::string>(8));
      std::vector<std::string> leaves;
      for (int p = 0; p < 52; ++p) {
        const auto& salt = d.salts[static_cast<size_t>(p)];
        leaves.push_back(
            RefLeaf(p, fairness::CardCode(d.deck[static_cast<size_t>(p)]),
                    absl::string_view(reinterpret_cast<const char*>(salt.data()), 16)));
      }
      const std::string root = RefMth(leaves, 0, 52);
      for (int step = 0; step < 300; ++step) {
        const v1::FairnessView& f = u.public_view().fairness();
        ASSERT_EQ(f.deck_root(), root);
        ASSERT_EQ(f.server_seed_commitment(), RefSha256(hand.service.server_seed));
        ExpectReferenceProofs(f.card_proofs(), leaves, hand, d, &checked);
        for (const v1::PrivateView& pv : u.private_views()) {
          ExpectReferenceProofs(pv.card_proofs(), leaves, hand, d, &checked);
        }
        if (u.public_view().phase() == v1::PHASE_COMPLETE) break;
        v1::ApplyActionRequest req;
        req.set_token(u.token());
        *req.mutable_action() = ChooseAction(u, aggressive);
        for (int s = 1; s <= 8; ++s) req.add_private_view_seats(s);
        v1::ApplyActionResponse resp;
        ASSERT_THAT(service.ApplyAction(req, &resp), IsOk());
        // The server's answers live on an arena and point at the hand's
        // shared proofs (rpc/fairness_view.cc, ProofSource): the same bytes.
        google::protobuf::Arena arena;
        auto* on_arena = google::protobuf::Arena::CreateMessage<v1::ApplyActionResponse>(&arena);
        ASSERT_THAT(service.ApplyAction(req, on_arena), IsOk());
        ASSERT_EQ(on_arena->SerializeAsString(), resp.SerializeAsString());
        u = resp.update();
      }
      EXPECT_EQ(u.public_view().phase(), v1::PHASE_COMPLETE);
    }
  }
  EXPECT_GT(checked, 1000);  // the loop saw real proofs, public and private
}

// Answers on an arena share the hand's proofs rather than copying them, and
// an answer keeps them alive after the shared tree cache has moved on to
// other hands (it holds 256): serialized again then, it is the same bytes.
TEST(FairnessProofsTest, AnswersOnAnArenaShareTheHandsProofsAndKeepThem) {
  ASSERT_THAT(InitCrypto(), IsOk());
  Sealer sealer = *Sealer::Create({TestKey(1, 5)});
  HandService service(&sealer, ServiceOptions{});
  v1::NewHandResponse start;
  ASSERT_THAT(service.NewHand(BasicHand(8, v1::DEALING_MODE_SERVICE), &start), IsOk());
  v1::ApplyActionRequest req;
  req.set_token(start.update().token());
  *req.mutable_action() = ChooseAction(start.update(), false);
  req.add_private_view_seats(1);
  google::protobuf::Arena first_arena;
  google::protobuf::Arena second_arena;
  auto* first = google::protobuf::Arena::CreateMessage<v1::ApplyActionResponse>(&first_arena);
  auto* second = google::protobuf::Arena::CreateMessage<v1::ApplyActionResponse>(&second_arena);
  ASSERT_THAT(service.ApplyAction(req, first), IsOk());
  ASSERT_THAT(service.ApplyAction(req, second), IsOk());
  const auto& proofs = first->update().public_view().fairness().card_proofs();
  ASSERT_GT(proofs.size(), 0);
  EXPECT_EQ(&proofs.Get(0), &second->update().public_view().fairness().card_proofs(0));
  EXPECT_EQ(&first->update().private_views(0).card_proofs(0),
            &second->update().private_views(0).card_proofs(0));
  const std::string bytes = first->SerializeAsString();
  for (int i = 0; i < 300; ++i) {  // other hands take the cache's places
    v1::NewHandResponse other;
    ASSERT_THAT(service.NewHand(BasicHand(3, v1::DEALING_MODE_SERVICE), &other), IsOk());
  }
  EXPECT_EQ(first->SerializeAsString(), bytes);
  v1::ApplyActionResponse on_heap;  // a copy of each proof: the same bytes
  ASSERT_THAT(service.ApplyAction(req, &on_heap), IsOk());
  EXPECT_EQ(on_heap.SerializeAsString(), bytes);
}

// The transcript's strings are JSON (docs/fairness.md, "Receipt transcript"):
// quotes and backslashes escaped, control characters as \u00XX, every other
// byte (UTF-8 included) as it is, runs of them and single ones alike.
TEST(ReceiptTranscriptTest, StringsAreJsonEscapedAndTheRestIsAsItIs) {
  fairness::ReceiptData d;
  d.variant = "STUD";
  d.dealing = "LIVE";
  d.log = {"plain", "a\"b\\c", std::string("x\n\x01y\x1f", 5), "ñ€", "", "\"\"", "end\\", "\t"};
  const std::string t = fairness::Transcript(d);
  EXPECT_NE(t.find(R"("variant":"STUD","dealing":"LIVE")"), std::string::npos) << t;
  EXPECT_NE(
      t.find(R"("log":["plain","a\"b\\c","x\u000a\u0001y\u001f","ñ€","","\"\"","end\\","\u0009"])"),
      std::string::npos)
      << t;
}

// The strings are scanned eight bytes at a time: an escape at every place in
// and across those words, in strings of every length up to 40, is written as
// a byte-at-a-time escaper writes it.
TEST(ReceiptTranscriptTest, EveryStringIsEscapedAsByteByByte) {
  const auto by_bytes = [](absl::string_view s) {
    std::string out = "\"";
    for (const char c : s) {
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x20) {
        absl::StrAppend(&out, "\\u00", absl::Hex(u, absl::kZeroPad2));
      } else if (c == '"' || c == '\\') {
        out += '\\';
        out += c;
      } else {
        out += c;
      }
    }
    return out + "\"";
  };
  // Around each escaped byte: its neighbours in value (0x1f/0x20, 0x21/0x23,
  // 0x5b/0x5d), and bytes with the high bit set (UTF-8), which the word test
  // must not take for escapes.
  const std::string alphabet = std::string(
      "\x00\x01\x1f\x20\x21\x22\x23\x5b\x5c\x5d"
      "Az\x7f\x80\xa0\xc3\xff",
      17);
  std::mt19937 random(7);
  int escaped_strings = 0;
  for (int n = 0; n < 4000; ++n) {
    std::string s(static_cast<size_t>(n % 41), 'a');
    // Most bytes plain, a few from the alphabet, so that words with and
    // without an escape both occur.
    for (char& c : s) {
      if (random() % 5 == 0) c = alphabet[random() % alphabet.size()];
    }
    fairness::ReceiptData d;
    d.variant = s;
    const std::string t = fairness::Transcript(d);
    const std::string expected = absl::StrCat("\"variant\":", by_bytes(s), ",\"dealing\":");
    ASSERT_NE(t.find(expected), std::string::npos) << absl::CHexEscape(s) << "\n" << t;
    escaped_strings += by_bytes(s).size() != s.size() + 2;
  }
  EXPECT_GT(escaped_strings, 2000);  // the case that matters is not rare
}

// An operation's text names its type, street and pot half as their enums'
// generated _Name() does, prefix dropped, for every value each enum has.
TEST(ReceiptTranscriptTest, OperationTextsNameEveryEnumValueAsTheEnumDoes) {
  const auto name = [](const std::string& full, absl::string_view prefix) {
    return std::string(absl::StripPrefix(full, prefix));
  };
  v1::Operation op;
  const google::protobuf::EnumDescriptor* types = v1::OperationType_descriptor();
  for (int i = 0; i < types->value_count(); ++i) {
    op.set_type(static_cast<v1::OperationType>(types->value(i)->number()));
    EXPECT_THAT(
        OperationText(op),
        HasSubstr(absl::StrCat(" ", name(types->value(i)->name(), "OPERATION_TYPE_"), " seat=")));
  }
  const google::protobuf::EnumDescriptor* streets = v1::Street_descriptor();
  for (int i = 0; i < streets->value_count(); ++i) {
    op.set_street(static_cast<v1::Street>(streets->value(i)->number()));
    const std::string street = name(streets->value(i)->name(), "STREET_");
    EXPECT_THAT(OperationText(op), HasSubstr(absl::StrCat(" street=", street)));
  }
  op.set_type(v1::OPERATION_TYPE_AWARD);
  const google::protobuf::EnumDescriptor* halves = v1::PotHalf_descriptor();
  for (int i = 0; i < halves->value_count(); ++i) {
    op.set_half(static_cast<v1::PotHalf>(halves->value(i)->number()));
    const std::string half = name(halves->value(i)->name(), "POT_HALF_");
    EXPECT_THAT(OperationText(op), HasSubstr(absl::StrCat(" half=", half)));
  }
  EXPECT_GE(types->value_count(), 30);
  EXPECT_GE(halves->value_count(), 3);
}

}  // namespace
}  // namespace stud::service::testing
