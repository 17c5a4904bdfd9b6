#include "protocol/errors.h"

#include <array>
#include <utility>

namespace blockfog::protocol {
namespace {

constexpr std::array kNames = {
    std::pair{ErrorCode::MalformedJson, "malformed_json"},
    std::pair{ErrorCode::UnknownType, "unknown_type"},
    std::pair{ErrorCode::WrongVersion, "wrong_version"},
    std::pair{ErrorCode::MissingField, "missing_field"},
    std::pair{ErrorCode::BadField, "bad_field"},
    std::pair{ErrorCode::FrameTooLarge, "frame_too_large"},
    std::pair{ErrorCode::RateLimited, "rate_limited"},
    std::pair{ErrorCode::NotSeated, "not_seated"},
    std::pair{ErrorCode::NotYourTurn, "not_your_turn"},
    std::pair{ErrorCode::IllegalAction, "illegal_action"},
    std::pair{ErrorCode::MalformedAction, "malformed_action"},
    std::pair{ErrorCode::GameOver, "game_over"},
    std::pair{ErrorCode::GameNotStarted, "game_not_started"},
    std::pair{ErrorCode::ChatNotAllowed, "chat_not_allowed"},
    std::pair{ErrorCode::Restarting, "restarting"},
    std::pair{ErrorCode::NotFound, "not_found"},
    std::pair{ErrorCode::MethodNotAllowed, "method_not_allowed"},
    std::pair{ErrorCode::Unauthorized, "unauthorized"},
    std::pair{ErrorCode::Forbidden, "forbidden"},
    std::pair{ErrorCode::BadCredentials, "bad_credentials"},
    std::pair{ErrorCode::TooManyAttempts, "too_many_attempts"},
    std::pair{ErrorCode::NameTaken, "name_taken"},
    std::pair{ErrorCode::SeatTaken, "seat_taken"},
    std::pair{ErrorCode::Conflict, "conflict"},
    std::pair{ErrorCode::TooManyConnections, "too_many_connections"},
    std::pair{ErrorCode::GameNotFinished, "game_not_finished"},
    std::pair{ErrorCode::BadEmail, "bad_email"},
    std::pair{ErrorCode::BadWebhookUrl, "bad_webhook_url"},
    std::pair{ErrorCode::EmailNotConfirmed, "email_not_confirmed"},
    std::pair{ErrorCode::EmailUnavailable, "email_unavailable"},
    std::pair{ErrorCode::TournamentFull, "tournament_full"},
    std::pair{ErrorCode::RegistrationClosed, "registration_closed"},
    std::pair{ErrorCode::RoundNotFinished, "round_not_finished"},
    std::pair{ErrorCode::TournamentOver, "tournament_over"},
    std::pair{ErrorCode::NotOrganiser, "not_organiser"},
    std::pair{ErrorCode::DiceOutOfOrder, "dice_out_of_order"},
    std::pair{ErrorCode::UnknownGame, "unknown_game"},
    std::pair{ErrorCode::NoComputer, "no_computer"},
    std::pair{ErrorCode::NotAdjudicable, "not_adjudicable"},
    std::pair{ErrorCode::GameMoving, "game_moving"},
    std::pair{ErrorCode::StorageUnavailable, "storage_unavailable"},
    std::pair{ErrorCode::Internal, "internal"},
};

}  // namespace

std::string_view error_code_name(ErrorCode code) {
  for (const auto& [c, name] : kNames) {
    if (c == code) return name;
  }
  return "internal";
}

std::optional<ErrorCode> error_code_from_name(std::string_view name) {
  for (const auto& [c, n] : kNames) {
    if (n == name) return c;
  }
  return std::nullopt;
}

}  // namespace blockfog::protocol
