// The table of irregularity kinds (engine/irregularity_report.h) against the
// public API: every stud.v1.IrregularityKind but UNSPECIFIED is one row, by
// its api_number, and the rows the proto orders differently from the engine
// map to the kind of the same name.
#include <set>

#include "engine/irregularity_report.h"
#include "gtest/gtest.h"
#include "stud/v1/stud.pb.h"

namespace stud {
namespace {

TEST(IrregularityKinds, EveryApiKindIsOneRow) {
  const google::protobuf::EnumDescriptor* d = v1::IrregularityKind_descriptor();
  std::set<const IrregularityTraits*> rows;
  for (int i = 0; i < d->value_count(); ++i) {
    const int number = d->value(i)->number();
    const IrregularityTraits* t = TraitsOfApiNumber(number);
    if (number == v1::IRREGULARITY_KIND_UNSPECIFIED) {
      EXPECT_EQ(t, nullptr);
      continue;
    }
    ASSERT_NE(t, nullptr) << d->value(i)->name();
    EXPECT_TRUE(rows.insert(t).second) << d->value(i)->name() << " shares a row";
  }
  EXPECT_EQ(rows.size(), kIrregularityKinds.size());
}

TEST(IrregularityKinds, ApiNumbersNameTheSameKind) {
  EXPECT_EQ(TraitsOfApiNumber(v1::IRREGULARITY_KIND_UPCARDS_PICKED_UP)->kind,
            IrregularityKind::kUpcardsPickedUp);
  EXPECT_EQ(TraitsOfApiNumber(v1::IRREGULARITY_KIND_BURN_ERROR)->kind,
            IrregularityKind::kBurnError);
  EXPECT_EQ(TraitsOfApiNumber(v1::IRREGULARITY_KIND_PREMATURE_DEAL)->kind,
            IrregularityKind::kPrematureDeal);
  EXPECT_EQ(TraitsOfApiNumber(v1::IRREGULARITY_KIND_WRONG_CARD_COUNT)->kind,
            IrregularityKind::kWrongCardCount);
  EXPECT_EQ(TraitsOfApiNumber(v1::IRREGULARITY_KIND_UPCARDS_REORDERED)->kind,
            IrregularityKind::kUpcardsReordered);
  EXPECT_EQ(TraitsOfApiNumber(v1::IRREGULARITY_KIND_CHECKED_OUT)->kind,
            IrregularityKind::kCheckedOut);
  EXPECT_EQ(TraitsOfApiNumber(v1::IRREGULARITY_KIND_CALLED_WHEN_BEATEN)->kind,
            IrregularityKind::kCalledWhenBeaten);
  EXPECT_EQ(TraitsOfApiNumber(v1::IRREGULARITY_KIND_SKIPPED_SEAT)->kind,
            IrregularityKind::kSkippedSeat);
  EXPECT_EQ(TraitsOfApiNumber(v1::IRREGULARITY_KIND_SKIPPED_SEAT + 1), nullptr);
}

}  // namespace
}  // namespace stud
