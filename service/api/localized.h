// Error messages in the caller's language (English or Spanish).
//
// Every error carries a google.rpc.LocalizedMessage beside its ErrorInfo
// (status_mapping.h). Its language is, in order: the caller's
// Accept-Language when it prefers English or Spanish (q-values honoured), else
// the language of the hand the call opened (NewHandRequest.locale, kept with
// the hand), else English. The status message itself stays English: it is
// what logs, metrics and support read.
//
// The Spanish text is made from the error's reason (ErrorInfo.reason): one
// sentence per reason, the rule book section for a rule ID, and the field at
// fault for INVALID_ARGUMENT ("field: why" messages name it first).
#ifndef STUD_SERVICE_API_LOCALIZED_H_
#define STUD_SERVICE_API_LOCALIZED_H_

#include <optional>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "text/language.h"

namespace stud::service {

using MessageLanguage = text::MessageLanguage;

// The language an Accept-Language header prefers among English and Spanish;
// nullopt when it names neither (or is empty).
std::optional<MessageLanguage> FromAcceptLanguage(absl::string_view header);

// Marks `status` to be localized in `language` (ToGrpcStatus reads the mark).
void SetMessageLanguage(absl::Status* status, MessageLanguage language);
MessageLanguage MessageLanguageOf(const absl::Status& status);

// The LocalizedMessage of an error: {"en-US", the status message} or
// {"es", the Spanish sentence for `reason`}.
struct Localized {
  std::string locale;
  std::string message;
};
Localized LocalizeError(const absl::Status& status, absl::string_view reason);

// The language of the hand a call opened: one per call, made by the gRPC
// adapter (server/stud_service.cc), passed to the handler in its context
// (rpc/call_context.h), noted where a hand is opened (HandService::Unseal) and
// read when the call's error is localized.
class HandLanguage {
 public:
  // `locale`: a stud.v1.Locale value.
  void Note(uint32_t locale) {
    noted_ = locale == kSpanishLocale ? MessageLanguage::kSpanish : MessageLanguage::kEnglish;
  }
  std::optional<MessageLanguage> noted() const { return noted_; }

 private:
  static constexpr uint32_t kSpanishLocale = 2;  // stud.v1.LOCALE_ES (localized.cc checks it)
  std::optional<MessageLanguage> noted_;
};

}  // namespace stud::service

#endif  // STUD_SERVICE_API_LOCALIZED_H_
