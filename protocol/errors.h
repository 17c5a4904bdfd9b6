#pragma once

#include <optional>
#include <string_view>

namespace blockfog::protocol {

// Every error a client can be sent, on the WebSocket (`{"type":"error","code":...}`) and in
// HTTP error bodies (`{"error":{"code":...}}`). The wire names are stable within a protocol
// version; add new codes at the end of the wire list (just before Internal here).
enum class ErrorCode {
  // Decoding a client message (protocol/messages.h).
  MalformedJson,  // not JSON, not an object, or invalid UTF-8
  UnknownType,    // "type" names no client message
  WrongVersion,   // "v" is not 1
  MissingField,   // a required field is absent
  BadField,       // a field has the wrong type or value, or is not part of the message
  FrameTooLarge,  // the frame or body is over the limit
  RateLimited,    // too many messages or requests in a short time
  // The game room.
  NotSeated,        // an observer (or nobody) tried to act for a seat
  NotYourTurn,      // the seat is not awaited now
  IllegalAction,    // well-formed, but not among the seat's legal actions now
  MalformedAction,  // not an action of this game
  GameOver,         // the game has ended
  GameNotStarted,   // both seats are not taken yet
  ChatNotAllowed,   // observers read chat but do not write it
  Restarting,       // the server is draining for a restart; reconnect later
  // HTTP.
  NotFound,
  MethodNotAllowed,
  Unauthorized,     // no valid session
  Forbidden,        // e.g. a cross-site request, or a record before the game ends
  BadCredentials,   // wrong user name or password
  TooManyAttempts,  // failed logins throttled
  NameTaken,        // registering a name in use
  SeatTaken,        // joining a game whose seats are full, or a second seat
  Conflict,         // the request does not fit the resource's state
  TooManyConnections,
  GameNotFinished,  // a record or replay asked for before the game ended
  // Turn notice settings (docs/protocol.md, "Turn notices").
  BadEmail,           // not an e-mail address notices can go to
  BadWebhookUrl,      // not a webhook URL notices may be posted to
  EmailNotConfirmed,  // e-mail notices turned on before an address was confirmed
  EmailUnavailable,   // the server has no SMTP relay configured
  // Tournaments (docs/tournaments.md).
  TournamentFull,      // registering for a tournament with its maximum of players
  RegistrationClosed,  // registering or withdrawing outside the registration window
  NotOrganiser,        // an organiser's action by somebody else, or creating one unlisted
  RoundNotFinished,    // the next round started by hand while a game of this one is unfinished
  TournamentOver,      // an action on a tournament whose last round has ended
  // Dice (docs/records.md, "Dice").
  DiceOutOfOrder,  // a contribution revealed before both seats committed, or committed twice
  // Games served (docs/architecture.md, "The game registry").
  UnknownGame,     // a game kind the server does not serve
  NoComputer,      // a computer seat (or stand-in) asked for in a game no computer plays
  NotAdjudicable,  // an adjudication asked for in a game whose rules have none
  // Several nodes (docs/multi-node.md, section 3).
  GameMoving,  // the node holding the game looks dead; its lease runs out in Retry-After
  // Both.
  StorageUnavailable,  // the server cannot store anything now (a full disk, a failed store)
  Internal,            // kept last: tests walk the codes up to it
};

std::string_view error_code_name(ErrorCode code);
std::optional<ErrorCode> error_code_from_name(std::string_view name);

}  // namespace blockfog::protocol
