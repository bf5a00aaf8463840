#include "service/api/localized.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "engine/rule_id.h"
#include "stud/v1/stud.pb.h"
#include "text/refusal_text.h"

namespace stud::service {
namespace {

constexpr absl::string_view kLanguagePayload = "type.stud/message_language";

struct ReasonText {
  absl::string_view reason;
  absl::string_view es;
};

// One Spanish sentence per reason a caller can see (docs/api.md lists them).
constexpr ReasonText kSpanish[] = {
    {"TOKEN_MALFORMED", "El token no es válido: envíe el último token tal como se recibió."},
    {"TOKEN_VERSION_UNSUPPORTED", "Este servidor no conoce el formato de este token."},
    {"TOKEN_UNKNOWN_KEY",
     "El token fue sellado con una clave que este servidor ya no tiene; empiece una mano nueva."},
    {"TOKEN_AUTHENTICATION_FAILED",
     "El token fue alterado o no es auténtico: envíe el token tal como se recibió."},
    {"TOKEN_TENANT_MISMATCH", "El token pertenece a otro operador."},
    {"CALLER_UNAUTHENTICATED",
     "Llamada no autenticada: envíe la clave de la plataforma o el ticket de su asiento."},
    {"SEAT_TICKET_REQUIRED",
     "Esta mano exige el ticket de su asiento en cada llamada; envíelo tal como lo recibió."},
    {"SEAT_TICKET_INVALID",
     "El ticket de asiento no es válido (alterado, falsificado o de otro operador)."},
    {"SEAT_TICKET_WRONG_HAND", "El ticket de asiento pertenece a otra mano."},
    {"SEAT_TICKET_WRONG_SEAT", "Su ticket solo permite ver y actuar por su propio asiento."},
    {"SEAT_TICKET_NOT_PERMITTED", "Su ticket no permite esta acción."},
    {"SEAT_RATE_LIMITED",
     "Demasiadas llamadas desde este asiento; espere un momento y vuelva a intentarlo."},
    {"VERSION_MISMATCH",
     "La mano ya no está en la versión esperada: obtenga el estado más reciente."},
    {"HAND_ID_MISMATCH", "El token pertenece a otra mano."},
    {"TOKEN_SUPERSEDED",
     "La mano ha avanzado: obtenga el último estado (GetView) y vuelva a intentarlo."},
    {"HAND_NOT_IN_LEDGER", "La mano no está en el registro de manos (caducó o nunca estuvo)."},
    {"HAND_ID_REQUIRED",
     "Este token es anterior a los identificadores de mano; empiece una mano nueva."},
    {"LEDGER_UNAVAILABLE",
     "El registro de manos no responde; no se aplicó nada: vuelva a intentarlo en unos segundos."},
    {"LEDGER_REQUIRED",
     "Esta mano se juega con el registro de manos y este servidor no lo tiene; se atenderá en "
     "otro."},
    {"LEDGER_NOT_CONFIGURED", "Este servidor no tiene registro de manos."},
    {"LEDGER_BEHIND",
     "El registro de manos perdió las últimas jugadas de esta mano; la mano queda en espera de "
     "una decisión del operador."},
    {"TENANT_HANDS_EXHAUSTED",
     "Este operador tiene demasiadas manos en juego; termine alguna y vuelva a intentarlo."},
    {"TENANT_OVERLOADED", "Demasiadas llamadas en curso para este operador; vuelva a intentarlo."},
    {"SERVER_DRAINING", "El servidor se está deteniendo; vuelva a intentarlo (otro responderá)."},
    {"DECK_REVEAL_NOT_PERMITTED", "El mazo solo se revela a una llamada de confianza autorizada."},
    {"DECK_NOT_REVEALABLE_YET", "El mazo no se revela hasta que la mano haya terminado."},
    {"WATCHERS_EXHAUSTED",
     "Demasiadas suscripciones abiertas en este servidor; vuelva a intentarlo."},
    {"TENANT_WATCHERS_EXHAUSTED", "Demasiadas suscripciones abiertas para este operador."},
    {"WATCHER_TOO_SLOW",
     "La suscripción se quedó atrás; reanúdela desde la última versión recibida."},
    {"WATCH_HISTORY_GONE",
     "Las versiones pedidas ya no están disponibles; obtenga el estado actual (GetView)."},
    {"WATCH_IDLE", "La suscripción estuvo inactiva demasiado tiempo; reanúdela."},
    {"RESOURCE_EXHAUSTED", "El servidor está sobrecargado; vuelva a intentarlo en unos segundos."},
    {"OUT_OF_RANGE", "La versión pedida es posterior a la última de la mano."},
    {"INTERNAL", "Error interno del servidor."},
    {"UNAVAILABLE", "Servicio no disponible; vuelva a intentarlo."},
    {"DEADLINE_EXCEEDED", "Se agotó el tiempo de la llamada."},
    {"NOT_FOUND", "No encontrado."},
    {"PERMISSION_DENIED", "Permiso denegado."},
    {"UNAUTHENTICATED", "Llamada no autenticada."},
    {"FAILED_PRECONDITION", "La acción no es posible en el estado actual de la mano."},
};

// Rule book sections (engine/rule_id.h) in Spanish.
constexpr std::pair<absl::string_view, absl::string_view> kSections[] = {
    {"The game, the table and the stakes", "el juego, la mesa y las apuestas"},
    {"Dealing", "el reparto"},
    {"The bring-in (3rd street)", "la apuesta forzada (3a calle)"},
    {"Who acts first from 4th street", "quién habla primero desde la 4a calle"},
    {"The open pair on 4th street", "la pareja a la vista en 4a calle"},
    {"Betting and the raise cap", "las apuestas y el límite de subidas"},
    {"All-in and side pots", "all-in y botes secundarios"},
    {"Showdown, ties and odd chips", "el showdown, los empates y las fichas sobrantes"},
    {"Hi-Lo eight-or-better", "Hi-Lo ocho o mejor"},
    {"Running out of cards", "cuando se acaban las cartas"},
    {"Irregularities", "irregularidades"},
};

std::string SpanishFor(const absl::Status& status, absl::string_view reason) {
  // An engine refusal: its own sentence, with its facts.
  if (std::optional<RefusalFacts> facts = RefusalOf(status); facts) return text::RefusalEs(*facts);
  if (std::optional<RuleId> rule = RuleIdFromName(reason); rule.has_value()) {
    absl::string_view section;
    for (const RuleInfo& info : AllRules()) {
      if (info.rule == *rule) section = info.section;
    }
    for (const auto& [en, es] : kSections) {
      if (en == section)
        return absl::StrCat("La regla ", reason, " (", es, ") no lo permite ahora.");
    }
    return absl::StrCat("La regla ", reason, " no lo permite ahora.");
  }
  if (reason == "INVALID_ARGUMENT") {
    // "field: why": the field at fault is the message's first word.
    const absl::string_view message = status.message();
    const size_t colon = message.find(": ");
    if (colon != absl::string_view::npos &&
        message.substr(0, colon).find(' ') == absl::string_view::npos) {
      return absl::StrCat("Solicitud no válida: revise el campo «", message.substr(0, colon), "».");
    }
    return "Solicitud no válida.";
  }
  for (const ReasonText& t : kSpanish) {
    if (t.reason == reason) return std::string(t.es);
  }
  return absl::StrCat("Error ", reason, ".");
}

}  // namespace

std::optional<MessageLanguage> FromAcceptLanguage(absl::string_view header) {
  std::optional<MessageLanguage> best;
  double best_q = 0;
  for (absl::string_view part : absl::StrSplit(header, ',')) {
    std::vector<absl::string_view> fields = absl::StrSplit(part, ';');
    const std::string tag = absl::AsciiStrToLower(absl::StripAsciiWhitespace(fields[0]));
    double q = 1;
    for (size_t i = 1; i < fields.size(); ++i) {
      absl::string_view f = absl::StripAsciiWhitespace(fields[i]);
      if (absl::ConsumePrefix(&f, "q=") && !absl::SimpleAtod(f, &q)) q = 0;
    }
    std::optional<MessageLanguage> lang;
    if (tag == "es" || absl::StartsWith(tag, "es-")) lang = MessageLanguage::kSpanish;
    if (tag == "en" || absl::StartsWith(tag, "en-")) lang = MessageLanguage::kEnglish;
    if (lang.has_value() && q > best_q) {  // the first listed wins a tie
      best = lang;
      best_q = q;
    }
  }
  return best;
}

void SetMessageLanguage(absl::Status* status, MessageLanguage language) {
  if (status->ok()) return;
  status->SetPayload(kLanguagePayload,
                     absl::Cord(language == MessageLanguage::kSpanish ? "es" : "en"));
}

MessageLanguage MessageLanguageOf(const absl::Status& status) {
  auto p = status.GetPayload(kLanguagePayload);
  return p.has_value() && *p == "es" ? MessageLanguage::kSpanish : MessageLanguage::kEnglish;
}

Localized LocalizeError(const absl::Status& status, absl::string_view reason) {
  if (MessageLanguageOf(status) == MessageLanguage::kSpanish) {
    return {"es", SpanishFor(status, reason)};
  }
  return {"en-US", std::string(status.message())};
}

static_assert(stud::v1::LOCALE_ES == 2, "HandLanguage::kSpanishLocale (localized.h)");

}  // namespace stud::service
