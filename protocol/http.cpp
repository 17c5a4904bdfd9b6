#include "protocol/http.h"

#include <algorithm>

#include "protocol/fields.h"

namespace blockfog::protocol {
namespace {

using nlohmann::json;

}  // namespace

bool is_valid_username(std::string_view name) {
  if (name.size() < kMinUsername || name.size() > kMaxUsername) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  });
}

Decoded<Credentials> decode_credentials(std::string_view body) {
  auto parsed = parse_object(body, kMaxRequestBodyBytes);
  if (auto* error = std::get_if<DecodeError>(&parsed)) return *error;
  const json& j = std::get<json>(parsed);
  FieldReader fields(j);
  Credentials c;
  c.username = fields.string("username", Need::Required, kMaxUsername).value_or("");
  if (fields.ok() && !is_valid_username(c.username)) {
    fields.fail(ErrorCode::BadField, "a user name is 3 to 32 letters, digits, '_' or '-'");
  }
  c.password = fields.string("password", Need::Required, kMaxPassword).value_or("");
  if (fields.ok() && c.password.size() < kMinPassword) {
    fields.fail(ErrorCode::BadField, "a password has at least 8 characters");
  }
  return finish(fields, std::move(c));
}

Decoded<CreateGameRequest> decode_create_game(std::string_view body) {
  auto parsed = parse_object(body, kMaxRequestBodyBytes);
  if (auto* error = std::get_if<DecodeError>(&parsed)) return *error;
  const json& j = std::get<json>(parsed);
  FieldReader fields(j);
  CreateGameRequest r;
  r.kind = fields.string("kind", Need::Optional, 64);
  r.scenario = fields.string("scenario", Need::Required, 64).value_or("");
  if (const json* options = fields.value("options", Need::Optional)) {
    if (!options->is_object())
      fields.fail(ErrorCode::BadField, "field 'options' must be an object");
    r.options = *options;
  }
  const auto side = fields.string("side", Need::Optional, 16).value_or("random");
  if (side == "scotland") {
    r.side = SideChoice::Scotland;
  } else if (side == "england") {
    r.side = SideChoice::England;
  } else if (side == "random") {
    r.side = SideChoice::Random;
  } else {
    fields.fail(ErrorCode::BadField, "field 'side' must be scotland, england or random");
  }
  const auto visibility = fields.string("visibility", Need::Optional, 16).value_or("public");
  if (visibility == "public") {
    r.visibility = VisibilityChoice::Public;
  } else if (visibility == "invite") {
    r.visibility = VisibilityChoice::Invite;
  } else {
    fields.fail(ErrorCode::BadField, "field 'visibility' must be public or invite");
  }
  r.observer_chat = fields.boolean("observer_chat", Need::Optional).value_or(false);
  r.rated = fields.boolean("rated", Need::Optional).value_or(false);
  if (const json* time_control = fields.value("time_control", Need::Optional)) {
    r.time_control = *time_control;
  }
  if (const json* computer = fields.value("computer", Need::Optional);
      computer && !computer->is_null()) {
    r.computer = fields.string("computer", Need::Required, 16);
    if (r.computer && *r.computer != "easy" && *r.computer != "normal" && *r.computer != "hard") {
      fields.fail(ErrorCode::BadField, "field 'computer' must be easy, normal or hard");
    }
  }
  r.stand_in = fields.boolean("stand_in", Need::Optional).value_or(false);
  if (r.computer && r.stand_in) {
    fields.fail(ErrorCode::BadField, "a game against the computer has no stand-in");
  }
  // Ratings rank people against people (docs/ratings.md).
  if (r.computer && r.rated) {
    fields.fail(ErrorCode::BadField, "a game against the computer is never rated");
  }
  return finish(fields, std::move(r));
}

Decoded<JoinRequest> decode_join(std::string_view body) {
  if (body.empty()) return JoinRequest{};
  auto parsed = parse_object(body, kMaxRequestBodyBytes);
  if (auto* error = std::get_if<DecodeError>(&parsed)) return *error;
  const json& j = std::get<json>(parsed);
  FieldReader fields(j);
  JoinRequest r;
  r.invite = fields.string("invite", Need::Optional, 128);
  r.stand_in = fields.boolean("stand_in", Need::Optional).value_or(false);
  return finish(fields, std::move(r));
}

Decoded<DiceRequest> decode_dice(std::string_view body) {
  auto parsed = parse_object(body, kMaxRequestBodyBytes);
  if (auto* error = std::get_if<DecodeError>(&parsed)) return *error;
  const json& j = std::get<json>(parsed);
  FieldReader fields(j);
  DiceRequest r;
  r.commitment = fields.string("commitment", Need::Optional, 64);
  r.contribution = fields.string("contribution", Need::Optional, 64);
  return finish(fields, std::move(r));
}

Decoded<NoticePreferences> decode_notice_preferences(std::string_view body) {
  auto parsed = parse_object(body, kMaxRequestBodyBytes);
  if (auto* error = std::get_if<DecodeError>(&parsed)) return *error;
  const json& j = std::get<json>(parsed);
  FieldReader fields(j);
  NoticePreferences r;
  if (const auto* url = fields.value("webhook_url", Need::Optional)) {
    if (url->is_null()) {
      r.webhook_url.emplace();
    } else {
      r.webhook_url = fields.string("webhook_url", Need::Required, 2000);
    }
  }
  r.email = fields.boolean("email", Need::Optional);
  r.webhook = fields.boolean("webhook", Need::Optional);
  r.digest_hours = fields.integer("digest_hours", Need::Optional, 0, kMaxDigestHours);
  return finish(fields, std::move(r));
}

Decoded<NoticeEmailRequest> decode_notice_email(std::string_view body) {
  auto parsed = parse_object(body, kMaxRequestBodyBytes);
  if (auto* error = std::get_if<DecodeError>(&parsed)) return *error;
  const json& j = std::get<json>(parsed);
  FieldReader fields(j);
  NoticeEmailRequest r;
  const auto* email = fields.value("email", Need::Required);
  if (email && !email->is_null()) r.email = fields.string("email", Need::Required, 1024);
  return finish(fields, std::move(r));
}

Decoded<NotesRequest> decode_notes(std::string_view body) {
  auto parsed = parse_object(body, kMaxRequestBodyBytes);
  if (auto* error = std::get_if<DecodeError>(&parsed)) return *error;
  const json& j = std::get<json>(parsed);
  FieldReader fields(j);
  NotesRequest r;
  if (const auto* text = fields.value("text", Need::Required)) {
    if (!text->is_string()) {
      fields.fail(ErrorCode::BadField, "field 'text' must be a string");
    } else if (text->get_ref<const std::string&>().size() > kMaxNotesBytes) {
      fields.fail(ErrorCode::FrameTooLarge,
                  "notes are limited to " + std::to_string(kMaxNotesBytes) + " bytes");
    } else {
      r.text = text->get<std::string>();
    }
  }
  return finish(fields, std::move(r));
}

json error_body(ErrorCode code, std::string_view message) {
  return {{"error", {{"code", error_code_name(code)}, {"message", message}}}};
}

}  // namespace blockfog::protocol
