#pragma once

// Bodies of the HTTP API's requests (docs/protocol.md, schemas in protocol/schema/v1/http/).
// Decoding untrusted bodies never throws: it returns the request or a typed DecodeError.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "protocol/messages.h"

namespace blockfog::protocol {

inline constexpr std::size_t kMaxRequestBodyBytes = 16 * 1024;
inline constexpr std::size_t kMinUsername = 3;
inline constexpr std::size_t kMaxUsername = 32;
inline constexpr std::size_t kMinPassword = 8;
inline constexpr std::size_t kMaxPassword = 256;

// Register and log in take the same body.
struct Credentials {
  std::string username;  // 3..32 of [A-Za-z0-9_-]: ASCII, so lookups may ignore case
  std::string password;  // 8..256 bytes
};

enum class SideChoice { Scotland, England, Random };
enum class VisibilityChoice { Public, Invite };

struct CreateGameRequest {
  // The game's kind (games::GameKind::kind), checked by the server; none: the default kind.
  std::optional<std::string> kind;
  std::string scenario;                               // checked against the game module
  nlohmann::json options = nlohmann::json::object();  // checked by the game module
  SideChoice side = SideChoice::Random;
  VisibilityChoice visibility = VisibilityChoice::Public;
  bool observer_chat = false;  // observers (logged in, not seated) may write in the chat
  bool rated = false;          // its end changes both players' ratings (docs/ratings.md)
  // The time control as sent, checked by the server (server/clocks/time_control.h); null: none.
  nlohmann::json time_control;
  // A game against the computer at this level ("easy", "normal", "hard"): the computer takes
  // the other seat and the game starts at once. None: a game for two players.
  std::optional<std::string> computer;
  // The creator allows the computer to stand in for him if his time runs out (the joiner is
  // asked too: JoinRequest).
  bool stand_in = false;
};

struct JoinRequest {
  std::optional<std::string> invite;  // the invite token, for invite-only games
  bool stand_in = false;              // see CreateGameRequest::stand_in
};

// POST /api/games/{id}/dice: one step of the seat's dice exchange (docs/records.md, "Dice"),
// exactly one of the two, each 64 hex digits; their order and values are the server's to check.
struct DiceRequest {
  std::optional<std::string> commitment;
  std::optional<std::string> contribution;
};

// POST /api/notices: what is absent stays as it was (docs/protocol.md, "Turn notices").
struct NoticePreferences {
  // Outer: present; inner: a URL, or none to remove the webhook (JSON null).
  std::optional<std::optional<std::string>> webhook_url;
  std::optional<bool> email;                 // e-mail notices on
  std::optional<bool> webhook;               // webhook notices on
  std::optional<std::int64_t> digest_hours;  // 0..168
};
inline constexpr std::int64_t kMaxDigestHours = 168;

// POST /api/notices/email: an address to confirm, or none (JSON null) to remove it.
struct NoticeEmailRequest {
  std::optional<std::string> email;
};

// PUT /api/games/{id}/notes: a seat's private notes, replacing the ones before. The limit keeps
// the body, escaped, under kMaxRequestBodyBytes for text of ordinary characters.
struct NotesRequest {
  std::string text;
};
inline constexpr std::size_t kMaxNotesBytes = 10000;

bool is_valid_username(std::string_view name);

Decoded<Credentials> decode_credentials(std::string_view body);
Decoded<CreateGameRequest> decode_create_game(std::string_view body);
Decoded<JoinRequest> decode_join(std::string_view body);  // an empty body is {}
Decoded<DiceRequest> decode_dice(std::string_view body);
// The URL and address are only checked for type and length here; the server checks them
// as a webhook and an e-mail address (bad_webhook_url, bad_email).
Decoded<NoticePreferences> decode_notice_preferences(std::string_view body);
Decoded<NoticeEmailRequest> decode_notice_email(std::string_view body);
// Text over kMaxNotesBytes (UTF-8) is FrameTooLarge, as a body over its limit is.
Decoded<NotesRequest> decode_notes(std::string_view body);

// {"error":{"code":...,"message":...}}
nlohmann::json error_body(ErrorCode code, std::string_view message);

}  // namespace blockfog::protocol
