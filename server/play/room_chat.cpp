#include "server/play/room_chat.h"

#include <map>
#include <memory>

#include "server/clock.h"
#include "server/db_worker.h"
#include "server/log.h"

namespace blockfog::server {

using protocol::ErrorCode;

std::optional<protocol::ErrorMessage> RoomChat::refusal(
    const std::optional<Player>& writer, core::Role role, bool observer_chat,
    const std::function<bool(std::int64_t)>& account_allows) {
  if (!writer) return protocol::ErrorMessage{ErrorCode::ChatNotAllowed, "log in to chat", {}};
  if (role == core::Role::Observer && !observer_chat) {
    return protocol::ErrorMessage{ErrorCode::ChatNotAllowed, "observers read the chat only", {}};
  }
  if (!account_allows(writer->account_id)) {
    return protocol::ErrorMessage{
        ErrorCode::RateLimited, "you are sending chat lines too fast", {}};
  }
  if (!rate_.allow()) {
    return protocol::ErrorMessage{
        ErrorCode::RateLimited, "this game's chat is too busy; wait a moment", {}};
  }
  return std::nullopt;
}

void RoomChat::write(const Player& writer, core::Role role, std::string text,
                     std::optional<storage::GameLease> lease, std::function<void(Written)> done) {
  auto line = std::make_shared<std::optional<protocol::ChatLine>>();
  auto full = std::make_shared<bool>(false);
  auto moved = std::make_shared<std::optional<Moved>>();
  db_.post(
      [id = game_id_, line, full, moved, lease = std::move(lease), account = writer.account_id,
       role = std::string(core::role_name(role)), username = writer.username,
       text = std::move(text)](storage::Store& store) {
        try {
          if (lease) storage::check_game_lease(store, id, *lease);
          if (store.count_chat(id) >= kMaxLines) {
            *full = true;
            return;
          }
          const auto row = store.append_chat(id, account, role, text, now_ms());
          *line = protocol::ChatLine{row.id, row.role, username, row.text, row.created_at};
        } catch (const storage::LeaseLost&) {
          *moved = Moved{};
          try {
            (*moved)->where = locate_game(store, id);
          } catch (const std::exception&) {
            // Unknown: the clients come back through any node, which finds the holder.
          }
        } catch (const std::exception& e) {
          log_error_throttled("chat", "game " + std::to_string(id) + " chat: " + e.what());
        }
      },
      [line, full, moved, done = std::move(done)](bool stored) {
        if (!stored) line->reset();
        if (*moved) {
          done(std::move(**moved));
        } else if (*full) {
          done(protocol::ErrorMessage{ErrorCode::ChatNotAllowed, "this game's chat is full", {}});
        } else if (*line) {
          done(std::move(**line));
        } else {
          done(protocol::ErrorMessage{ErrorCode::StorageUnavailable,
                                      "the server cannot store chat right now; try again later",
                                      {}});
        }
      });
}

void RoomChat::history(std::int64_t since,
                       std::function<void(std::vector<protocol::ChatLine>)> done) {
  auto rows = std::make_shared<std::vector<protocol::ChatLine>>();
  // Sent once committed: a line read inside the group may be one of the group's own writes.
  db_.post(
      [id = game_id_, since, rows](storage::Store& store) {
        try {
          std::map<std::int64_t, std::string> names;
          for (const auto& row : store.list_chat(id, since, 500)) {
            std::optional<std::string> user;
            if (row.account_id) {
              auto& name = names[*row.account_id];
              if (name.empty()) {
                const auto account = store.find_account_by_id(*row.account_id);
                name = account ? account->username : "?";
              }
              user = name;
            }
            rows->push_back({row.id, row.role, user, row.text, row.created_at});
          }
        } catch (const std::exception& e) {
          log_error("game " + std::to_string(id) + " chat history: " + e.what());
        }
      },
      [rows, done = std::move(done)](bool stored) {
        if (!stored || rows->empty()) return;
        done(std::move(*rows));
      });
}

}  // namespace blockfog::server
