// Error messages in the caller's language (service/api/localized.h): the
// LocalizedMessage detail is Spanish when the caller's Accept-Language
// prefers Spanish, or, without a preference, when the hand is Spanish; the
// status message stays English for logs and support.
#include <string>

#include "service/api/localized.h"
#include "service_fixture.h"

namespace stud::service::testing {
namespace {
namespace v1 = stud::v1;

google::rpc::LocalizedMessage LocalizedOf(const grpc::Status& status) {
  google::rpc::Status details;
  google::rpc::LocalizedMessage out;
  if (details.ParseFromString(status.error_details())) {
    for (const auto& any : details.details()) {
      if (any.Is<google::rpc::LocalizedMessage>()) any.UnpackTo(&out);
    }
  }
  return out;
}

TEST(LocalizedErrorsTest, AcceptLanguagePreference) {
  EXPECT_EQ(FromAcceptLanguage("es-ES,es;q=0.9,en;q=0.8"), MessageLanguage::kSpanish);
  EXPECT_EQ(FromAcceptLanguage("en-US,es;q=0.5"), MessageLanguage::kEnglish);
  EXPECT_EQ(FromAcceptLanguage("fr-FR, es;q=0.7, en;q=0.3"), MessageLanguage::kSpanish);
  EXPECT_EQ(FromAcceptLanguage("de"), std::nullopt);
  EXPECT_EQ(FromAcceptLanguage(""), std::nullopt);
  EXPECT_EQ(FromAcceptLanguage("es;q=0"), std::nullopt);
}

class LocalizedCallTest : public ::testing::Test {
 protected:
  Server server_;
  // An illegal action (a check facing the bring-in) on a hand in `locale`.
  grpc::Status IllegalCheck(v1::Locale locale, const std::string& accept_language) {
    v1::NewHandRequest req = BasicHand(3, v1::DEALING_MODE_PRESET);
    req.set_locale(locale);
    const v1::HandUpdate u = StartHand(server_, req);
    v1::ApplyActionRequest act;
    act.set_token(u.token());
    act.mutable_action()->set_kind(v1::ACTION_KIND_RAISE);
    act.mutable_action()->set_seat(u.to_act());
    act.mutable_action()->set_amount_to(1);
    v1::ApplyActionResponse resp;
    grpc::ClientContext ctx;
    SetDeadline(&ctx);
    if (!accept_language.empty()) ctx.AddMetadata("accept-language", accept_language);
    return server_.stub().ApplyAction(&ctx, act, &resp);
  }
};

TEST_F(LocalizedCallTest, TheCallersLanguageFirstThenTheHands) {
  const grpc::Status en = IllegalCheck(v1::LOCALE_EN, "");
  ASSERT_THAT(en, ::testing::Not(::stud::testing::IsOk()));
  EXPECT_EQ(LocalizedOf(en).locale(), "en-US");
  EXPECT_EQ(LocalizedOf(en).message(), en.error_message());

  const grpc::Status asked = IllegalCheck(v1::LOCALE_EN, "es-MX,es;q=0.9");
  EXPECT_EQ(LocalizedOf(asked).locale(), "es");
  const std::string rule = ErrorInfoOf(asked).reason();
  ASSERT_EQ(rule.rfind("STUD-", 0), 0u) << rule;
  EXPECT_NE(LocalizedOf(asked).message().find("La regla " + rule), std::string::npos)
      << LocalizedOf(asked).message();
  EXPECT_EQ(asked.error_message(), en.error_message()) << "the status message stays English";

  const grpc::Status spanish_hand = IllegalCheck(v1::LOCALE_ES, "");
  EXPECT_EQ(LocalizedOf(spanish_hand).locale(), "es");
  const grpc::Status english_caller = IllegalCheck(v1::LOCALE_ES, "en");
  EXPECT_EQ(LocalizedOf(english_caller).locale(), "en-US");
}

// An engine refusal in Spanish is its own sentence, made from the refusal's
// facts (text/refusal_text.h), not one generic sentence per rule.
TEST_F(LocalizedCallTest, AnEngineRefusalInSpanishSaysWhatIsWrong) {
  const grpc::Status en = IllegalCheck(v1::LOCALE_EN, "");
  const grpc::Status es = IllegalCheck(v1::LOCALE_EN, "es");
  ASSERT_EQ(es.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  const std::string rule = ErrorInfoOf(es).reason();
  const std::string said = LocalizedOf(es).message();
  EXPECT_EQ(said.rfind("La regla " + rule + " no lo permite: ", 0), 0u) << said;
  EXPECT_EQ(said.find("no lo permite ahora"), std::string::npos) << said;
  // The raise to 1 is refused on 3rd street: the English and the Spanish name it.
  EXPECT_NE(en.error_message().find("3rd street"), std::string::npos) << en.error_message();
  EXPECT_NE(said.find("3a calle"), std::string::npos) << said;
}

TEST_F(LocalizedCallTest, ReasonsAndFieldsInSpanish) {
  grpc::ClientContext ctx;
  SetDeadline(&ctx);
  ctx.AddMetadata("accept-language", "es");
  v1::GetViewRequest r;
  r.set_token("not a token");
  v1::GetViewResponse resp;
  const grpc::Status bad_token = server_.stub().GetView(&ctx, r, &resp);
  EXPECT_EQ(LocalizedOf(bad_token).locale(), "es");
  EXPECT_NE(LocalizedOf(bad_token).message().find("token"), std::string::npos);
  EXPECT_EQ(LocalizedOf(bad_token).message().find("Error "), std::string::npos)
      << "every reason has its sentence: " << LocalizedOf(bad_token).message();

  grpc::ClientContext ctx2;
  SetDeadline(&ctx2);
  ctx2.AddMetadata("accept-language", "es");
  v1::NewHandRequest bad = BasicHand(3, v1::DEALING_MODE_PRESET);
  bad.mutable_seats(1)->set_stack(-5);
  v1::NewHandResponse out;
  const grpc::Status field = server_.stub().NewHand(&ctx2, bad, &out);
  EXPECT_EQ(field.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(LocalizedOf(field).message(), "Solicitud no válida: revise el campo «seats[1].stack».");
}

}  // namespace
}  // namespace stud::service::testing
