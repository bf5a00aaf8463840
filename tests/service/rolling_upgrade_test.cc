// A rolling upgrade from a release that reads only plaintext schema 2: new
// replicas run with --sealed_schema=2 (ServiceOptions::sealed_schema) until
// no older replica is left. Their tokens carry schema-2 plaintexts, which an
// old replica reads (the schema-2 bytes are pinned by
// StateCodecGoldenTest.Schema2StatesAreByteForByteStable); a replica on the
// default schema 3 continues those hands, and its tokens go back to schema 3.
// The same for the token format (the AEAD): --token_format=1 during the roll
// from a release before format 4, --token_format=4 from one before format 5.
#include <string>

#include "absl/strings/escaping.h"
#include "service_fixture.h"
#include "tests/testing/grpc_status_matchers.h"

namespace stud::service::testing {
namespace {
using ::stud::testing::IsOk;
namespace v1 = stud::v1;

uint32_t PlaintextSchema(const Server& server, const std::string& token) {
  absl::StatusOr<std::string> plain = server.sealer().Open(token);
  EXPECT_THAT(plain, IsOk());
  // Field 1 (schema) is the first byte pair: tag 0x08, then the value.
  return plain.ok() && plain->size() >= 2 ? static_cast<uint8_t>((*plain)[1]) : 0;
}

TEST(RollingUpgrade, Schema2ReplicasAndSchema3ReplicasContinueEachOthersHands) {
  const std::vector<Key> ring = {TestKey(1, 7)};
  Server during_roll(ring, ServiceOptions{.allow_preset = true, .sealed_schema = 2});
  Server after_roll(ring, ServiceOptions{.allow_preset = true});
  v1::HandUpdate u = StartHand(during_roll, BasicHand(4, v1::DEALING_MODE_SERVICE));
  EXPECT_EQ(PlaintextSchema(during_roll, u.token()), 2u);
  {
    absl::StatusOr<std::string> plain = during_roll.sealer().Open(u.token());
    ASSERT_THAT(plain, IsOk());
    EXPECT_NE(plain->find("STUD-SETUP-2"), std::string::npos);  // rule IDs by name
  }
  // The hand moves between the replicas until it ends.
  for (int step = 0; step < 200 && u.public_view().phase() != v1::PHASE_COMPLETE; ++step) {
    Server& replica = step % 2 == 0 ? after_roll : during_roll;
    u = ApplyExpectingOk(replica, u, ChooseAction(u, false));
    EXPECT_EQ(PlaintextSchema(replica, u.token()), step % 2 == 0 ? 3u : 2u);
  }
  EXPECT_EQ(u.public_view().phase(), v1::PHASE_COMPLETE);
}

// Token format 4 (AES-256-GCM-SIV) during a rolling upgrade from a release
// that seals and opens only formats 1-3: the new replicas run with
// --token_format=1 until no older replica is left, and a replica on the
// default format 4 continues their hands (and they continue its hands, once
// every replica opens format 4). With tenants, format 1 is format 2.
TEST(RollingUpgrade, Format1ReplicasAndFormat4ReplicasContinueEachOthersHands) {
  const std::vector<Key> ring = {TestKey(1, 7)};
  Server during_roll(ring, true, nullptr, kTokenFormat);
  Server after_roll(ring, true, nullptr, kGcmSivTokenFormat);
  v1::HandUpdate u = StartHand(during_roll, BasicHand(4, v1::DEALING_MODE_SERVICE));
  EXPECT_EQ(u.token()[2], kTokenFormat);
  for (int step = 0; step < 200 && u.public_view().phase() != v1::PHASE_COMPLETE; ++step) {
    Server& replica = step % 2 == 0 ? after_roll : during_roll;
    u = ApplyExpectingOk(replica, u, ChooseAction(u, false));
    EXPECT_EQ(u.token()[2], step % 2 == 0 ? kGcmSivTokenFormat : kTokenFormat);
    // Format 4's nonce is the hand id (its first 12 bytes).
    if (step % 2 == 0) {
      EXPECT_EQ(absl::BytesToHexString(u.token().substr(8, 12)),
                u.public_view().hand_id().substr(0, 24))
          << "step " << step;
    }
  }
  EXPECT_EQ(u.public_view().phase(), v1::PHASE_COMPLETE);
}

// Token format 5 (AES-256-GCM-SIV under a subkey, the tenant as a keyed tag)
// during a rolling upgrade from a release that opens formats 1-4: the new
// replicas run with --token_format=4 until no older replica is left; a
// replica on the default format 5 continues their hands and they continue its
// hands. Format 5's header names the key and a tenant tag, then the hand id.
TEST(RollingUpgrade, Format4ReplicasAndFormat5ReplicasContinueEachOthersHands) {
  const std::vector<Key> ring = {TestKey(1, 7)};
  Server during_roll(ring, true, nullptr, kGcmSivTokenFormat);
  Server after_roll(ring, true, nullptr, kDerivedTokenFormat);
  v1::HandUpdate u = StartHand(during_roll, BasicHand(5, v1::DEALING_MODE_SERVICE));
  EXPECT_EQ(u.token()[2], kGcmSivTokenFormat);
  int steps = 0;
  for (; steps < 200 && u.public_view().phase() != v1::PHASE_COMPLETE; ++steps) {
    Server& replica = steps % 2 == 0 ? after_roll : during_roll;
    u = ApplyExpectingOk(replica, u, ChooseAction(u, false));
    EXPECT_EQ(u.token()[2], steps % 2 == 0 ? kDerivedTokenFormat : kGcmSivTokenFormat);
    if (steps % 2 == 0) {
      EXPECT_EQ(absl::BytesToHexString(u.token().substr(15, 12)),
                u.public_view().hand_id().substr(0, 24))
          << "step " << steps;
    }
  }
  EXPECT_GT(steps, 4);
  EXPECT_EQ(u.public_view().phase(), v1::PHASE_COMPLETE);
  // A hand started on a format 5 replica continues on a format 4 one.
  v1::HandUpdate v = StartHand(after_roll, BasicHand(3, v1::DEALING_MODE_SERVICE));
  EXPECT_EQ(v.token()[2], kDerivedTokenFormat);
  v = ApplyExpectingOk(during_roll, v, ChooseAction(v, false));
  EXPECT_EQ(v.token()[2], kGcmSivTokenFormat);
}

}  // namespace
}  // namespace stud::service::testing
