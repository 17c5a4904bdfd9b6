// Accounts and login sessions: POST /api/register, /api/login, /api/logout, GET /api/me.

#include "protocol/http.h"
#include "server/api/api.h"
#include "server/auth/password_policy.h"
#include "server/clock.h"
#include "server/crypto.h"
#include "server/db_worker.h"
#include "server/log.h"
#include "server/periodic/housekeeping.h"
#include "server/play/room_registry.h"
#include "storage/node_presence.h"

namespace blockfog::server {
namespace {

using nlohmann::json;
using protocol::ErrorCode;
using namespace api;

constexpr std::int64_t kRegistrationWindowMs = 3600 * 1000;
constexpr std::int64_t kRegistrationsPerAddress = 200;
static_assert(kRegistrationWindowMs <= kFailedLoginRetentionMs,
              "housekeeping would delete registration windows that are still open");

}  // namespace

HttpResponse Api::start_session(int status, const Identity& identity, const HttpRequest& request) {
  const auto token = random_hex(32);
  const auto token_hash = sha256_hex(token);
  const auto ended = db_.call([&](storage::Store& store) {
    const auto now = now_ms();
    storage::Transaction transaction(store.database());
    // Two logins at two nodes each keep the newest sessions of all, not of their own snapshot.
    storage::lock_row(store.database(), storage::LockedRow::Account, identity.account_id);
    store.create_session(token_hash, identity.account_id, now, now + kSessionMs);
    // A login loop must not fill the store: the account's oldest sessions end.
    auto evicted =
        store.keep_newest_sessions(identity.account_id, kMaxSessionsPerAccount, token_hash);
    // Other nodes close their sockets of the evicted sessions too (presence_sharing.h).
    if (rooms_.leases() && !evicted.empty()) storage::record_ended_sessions(store, evicted);
    transaction.commit();
    return evicted;
  });
  // An ended session's WebSockets must not go on acting for it, as after a logout.
  for (const auto& session : ended) session_sockets_.close_all(session);
  auto response = json_response(
      status, {{"account", {{"id", identity.account_id}, {"username", identity.username}}}});
  response.headers.emplace_back("Set-Cookie",
                                session_cookie(token, kSessionMs / 1000, request.tls));
  return response;
}

HttpResponse Api::register_account(const RouteCall& call) {
  const auto& request = call.request;
  const auto decoded = protocol::decode_credentials(request.body);
  if (auto* e = std::get_if<protocol::DecodeError>(&decoded)) return decode_error(*e);
  const auto& credentials = std::get<protocol::Credentials>(decoded);
  if (auto weak = weak_password_reason(credentials.username, credentials.password)) {
    return error(400, ErrorCode::BadField, *weak);
  }
  const std::string address_key = "register:" + request.remote_address;
  const auto recent = db_.call([&](storage::Store& store) {
    return store.failed_login_count(address_key, now_ms(), kRegistrationWindowMs);
  });
  if (recent >= kRegistrationsPerAddress) {
    return too_many(ErrorCode::TooManyAttempts, "too many accounts from this address",
                    kRegistrationWindowMs / 1000);
  }
  const auto hash = hash_password(credentials.password, password_params_);
  const auto account = db_.call([&](storage::Store& store) {
    auto created = store.create_account(credentials.username, hash, now_ms());
    if (created) store.record_failed_login(address_key, now_ms(), kRegistrationWindowMs);
    return created;
  });
  if (!account) return error(409, ErrorCode::NameTaken, "that user name is taken");
  log_info("account " + account->username + " registered");
  return start_session(201, {account->id, account->username}, request);
}

HttpResponse Api::login(const RouteCall& call) {
  const auto& request = call.request;
  const auto decoded = protocol::decode_credentials(request.body);
  if (auto* e = std::get_if<protocol::DecodeError>(&decoded)) return decode_error(*e);
  const auto& credentials = std::get<protocol::Credentials>(decoded);
  // Guessing is slowed per (account, address) pair, so that nobody can lock the owner out
  // (login_throttle.h).
  if (const auto wait = login_throttle_.wait(credentials.username, request.remote_address)) {
    return too_many(ErrorCode::TooManyAttempts, "too many failed logins; try again later",
                    wait->count());
  }
  const auto account = db_.call(
      [&](storage::Store& store) { return store.find_account_by_name(credentials.username); });
  const bool ok =
      verify_password(credentials.password, account ? account->password_hash : dummy_hash_) &&
      account.has_value();
  if (!ok) {
    login_throttle_.failed(credentials.username, request.remote_address);
    return error(401, ErrorCode::BadCredentials, "wrong user name or password");
  }
  login_throttle_.succeeded(credentials.username, request.remote_address);
  return start_session(200, {account->id, account->username}, request);
}

HttpResponse Api::logout(const RouteCall& call) {
  const auto& request = call.request;
  const auto token = cookie_value(request, kSessionCookie);
  if (!token.empty()) {
    const auto token_hash = sha256_hex(token);
    db_.call([&](storage::Store& store) {
      storage::Transaction transaction(store.database());
      store.delete_session(token_hash);
      // Other nodes close their sockets of the session too (presence_sharing.h).
      if (rooms_.leases()) storage::record_ended_sessions(store, {token_hash});
      transaction.commit();
    });
    // The session's WebSockets must not go on acting for it.
    session_sockets_.close_all(token_hash);
  }
  auto response = json_response(200, {{"ok", true}});
  response.headers.emplace_back("Set-Cookie", session_cookie("", 0, request.tls));
  return response;
}

HttpResponse Api::me(const RouteCall& call) {
  const auto& identity = *call.identity;
  return json_response(
      200, {{"account", {{"id", identity.account_id}, {"username", identity.username}}}});
}

}  // namespace blockfog::server
