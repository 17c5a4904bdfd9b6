#pragma once

// The v1 WebSocket messages (docs/protocol.md, schemas in protocol/schema/v1/). Every message
// is one JSON object in one text frame with "v":1 and a "type". Decoding untrusted text never
// throws: it returns the message or a typed DecodeError.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <nlohmann/json.hpp>

#include "protocol/errors.h"

namespace blockfog::protocol {

inline constexpr int kVersion = 1;
// A client frame longer than this is refused before it is parsed (actions and chat are small).
inline constexpr std::size_t kMaxClientFrameBytes = 16 * 1024;
// Chat text, in UTF-8 bytes.
inline constexpr std::size_t kMaxChatBytes = 1000;
// A client's reference for an action, echoed in the answer to it.
inline constexpr std::size_t kMaxRefBytes = 64;

// --- client -> server ---

// An action for the client's seat. `seq` is the seq of the last view the client saw: the room
// applies the action only if it is still current, else it answers with the current view.
// `ref`, if given, comes back in the answer to this action (the sender's view once it is
// applied, the current view if it was stale, or an error), so a client can tell its answer
// from views caused by others.
struct ActionMessage {
  std::int64_t seq = 0;
  nlohmann::json action;  // the game's action JSON, checked by the engine
  std::optional<std::string> ref;
};
struct ChatMessage {
  std::string text;  // 1..kMaxChatBytes, not all white space
};
// Asks for the current view again (and chat after `chat_since`).
struct SyncMessage {
  std::int64_t chat_since = 0;
};
struct PingMessage {};

using ClientMessage = std::variant<ActionMessage, ChatMessage, SyncMessage, PingMessage>;

// --- server -> client ---

struct WelcomeMessage {
  std::int64_t game_id = 0;
  std::string role;    // "scotland", "england" or "observer"
  std::string status;  // "open", "active", "finished", "aborted"
  std::string seed_sha256;
  std::optional<std::string> scotland;  // user names of the seats, null while free
  std::optional<std::string> england;
  // {"scotland","england"}: per seat, null or {"level","stand_in"} while the computer plays it.
  nlohmann::json computer = {{"scotland", nullptr}, {"england", nullptr}};
  // The game's dice exchange (server/play/dice.h, dice_json): null in a game started before
  // shared dice. Sent again whenever a seat is taken or a dice step is made.
  nlohmann::json dice;
};
// The game as the receiving seat may see it. `seq` is the version of that seat's view: 0 right
// after setup, and one more each time what the seat may see changes, so it counts nothing the
// seat may not know (RULES 13.1.4). The view holds the seat's log lines from index `log_from`
// on: 0 in a full view; in a view pushed after an action, the lines the client lacks (it keeps
// its lines below `log_from` and drops the rest, which an undo took back).
struct ViewMessage {
  std::int64_t seq = 0;
  nlohmann::json view;
  std::int64_t log_from = 0;
  std::optional<std::string> ref;  // the action this view answers
  bool stale = false;              // that action was not applied: its seq was not current
};
// Sent instead of a pushed view to a connection that asked for patches (`?patches=1`): what
// turns the view of version `seq - 1`, which the connection holds, into version `seq`
// (docs/protocol.md). `patch` holds `elements`, `set` and `unset`; apply_view_patch applies it.
struct ViewPatchMessage {
  std::int64_t seq = 0;
  nlohmann::json patch;
  std::int64_t log_from = 0;
  std::optional<std::string> ref;  // the action this patch answers
};
struct ErrorMessage {
  ErrorCode code = ErrorCode::Internal;
  std::string message;
  std::optional<std::string> ref;  // the action refused
};
struct ChatLine {
  std::int64_t id = 0;
  std::string role;                 // "scotland", "england", "observer" or "system"
  std::optional<std::string> user;  // null for system lines
  std::string text;
  std::int64_t at = 0;  // milliseconds since the Unix epoch
};
// The server is stopping; the client should reconnect in a moment.
struct RestartingMessage {};
struct PongMessage {};
// The game ended outside the rules engine's play (resigned, timeout) or was cancelled.
struct GameEndedMessage {
  std::string status;     // "finished" or "aborted"
  nlohmann::json result;  // {"winner": role or null, "reason": ...}, or null when cancelled
};
// The game's clocks after a change (server/clocks/game_clocks.h, clocks_json).
struct ClocksMessage {
  nlohmann::json clocks;
};
// A rematch was offered, accepted (with the new game's id) or declined.
struct RematchMessage {
  std::string state;                    // "offered", "accepted", "declined"
  std::string offered_by;               // user name
  std::optional<std::int64_t> game_id;  // the new game, once accepted
};

// The game is played on another node (several nodes share one database: docs/multi-node.md,
// section 3): reconnect at `ws` (a path on this origin) at once, or, with `retry_ms`, to the
// usual path after that long. One of the two is set. The server closes the connection after it.
struct MovedMessage {
  std::optional<std::string> ws;
  std::optional<std::int64_t> retry_ms;
};

using ServerMessage = std::variant<WelcomeMessage, ViewMessage, ViewPatchMessage, ErrorMessage,
                                   ChatLine, RestartingMessage, PongMessage, GameEndedMessage,
                                   ClocksMessage, RematchMessage, MovedMessage>;

struct DecodeError {
  ErrorCode code = ErrorCode::MalformedJson;
  std::string message;
};

template <typename T>
using Decoded = std::variant<T, DecodeError>;

// Checks size, JSON, "v", "type" and each field of a client message.
Decoded<ClientMessage> decode_client(std::string_view text);
Decoded<ServerMessage> decode_server(std::string_view text);

nlohmann::json to_json(const ClientMessage& message);
nlohmann::json to_json(const ServerMessage& message);
std::string encode(const ClientMessage& message);
std::string encode(const ServerMessage& message);

// The whole log after a view or view_patch frame that holds the log lines from `log_from` on
// (docs/protocol.md): the lines of `held` (the client's whole log, or null) whose index `i` is
// below `log_from` (a plain text line's index is its place in `held`), then `lines` (the
// frame's).
nlohmann::json merge_log(const nlohmann::json& held, std::int64_t log_from,
                         const nlohmann::json& lines);

// Turns `view` (a whole view, its log merged) into the view `patch` describes; false, with
// `view` unchanged, if the patch does not fit it (a member it names is not there, an element
// index beyond its array, a log_from past its log).
bool apply_view_patch(nlohmann::json& view, const ViewPatchMessage& patch);

// The "type" of a message, e.g. "action", "view".
std::string_view type_name(const ClientMessage& message);
std::string_view type_name(const ServerMessage& message);

}  // namespace blockfog::protocol
