// What the English and Spanish words of a refusal share (text/refusal_text.cc,
// text/refusal_text_es.cc). Not for use outside text/.
#ifndef STUD_TEXT_REFUSAL_TEXT_INTERNAL_H_
#define STUD_TEXT_REFUSAL_TEXT_INTERNAL_H_

#include <string>

#include "absl/strings/string_view.h"
#include "engine/refusal.h"

namespace stud::text::internal {

// The refusal's allowed amounts in order, joined by `sep` ("4 or 8").
std::string AmountList(const RefusalFacts& facts, absl::string_view sep);

}  // namespace stud::text::internal

#endif  // STUD_TEXT_REFUSAL_TEXT_INTERNAL_H_
