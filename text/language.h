// The languages the service words things in: English and Spanish (rulings,
// announcements, hand names and refusals, text/). Which one a call gets is the
// service's choice (service/api/localized.h).
#ifndef STUD_TEXT_LANGUAGE_H_
#define STUD_TEXT_LANGUAGE_H_

namespace stud::text {

enum class MessageLanguage { kEnglish, kSpanish };

}  // namespace stud::text

#endif  // STUD_TEXT_LANGUAGE_H_
