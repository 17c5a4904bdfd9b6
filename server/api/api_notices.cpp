// Turn notice settings (docs/protocol.md, "Turn notices"): GET and POST /api/notices, POST
// /api/notices/email, and the links of the e-mails: /api/notices/confirm/{token} and
// /api/notices/unsubscribe/{token}. An account's address and webhook are shown to it alone.

#include "protocol/http.h"
#include "server/api/api.h"
#include "server/clock.h"
#include "server/crypto.h"
#include "server/db_worker.h"
#include "server/log.h"
#include "server/notices/notice_addresses.h"
#include "storage/notice_store.h"

namespace blockfog::server {
namespace {

using nlohmann::json;
using protocol::ErrorCode;
using namespace api;

constexpr std::int64_t kConfirmValidMs = 48LL * 3600 * 1000;
constexpr std::int64_t kConfirmEveryMs = 60 * 1000;  // one confirmation e-mail a minute

json optional_text(const std::optional<std::string>& value) {
  return value ? json(*value) : json();
}

json describe(const storage::NoticeSettings& s, bool email_available) {
  return {{"notices",
           {{"email", optional_text(s.email)},
            {"email_pending", optional_text(s.email_pending)},
            {"webhook_url", optional_text(s.webhook_url)},
            {"channels", {{"email", s.email_on}, {"webhook", s.webhook_on}}},
            {"digest_hours", s.digest_hours},
            {"email_available", email_available}}}};
}

HttpResponse html_page(int status, const std::string& title, const std::string& text) {
  HttpResponse response;
  response.status = status;
  response.content_type = "text/html; charset=utf-8";
  response.body = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + title +
                  "</title><meta name=\"viewport\" content=\"width=device-width\"></head>"
                  "<body><h1>" +
                  title + "</h1><p>" + text +
                  "</p><p><a href=\"/#/settings\">Notice settings</a></p></body></html>";
  return response;
}

}  // namespace

HttpResponse Api::notice_settings(const RouteCall& call) {
  const auto settings = db_.call([&](storage::Store& store) {
    return storage::notice_settings(store, call.identity->account_id);
  });
  return json_response(200, describe(settings, static_cast<bool>(mailer_)));
}

HttpResponse Api::save_notice_settings(const RouteCall& call) {
  const auto decoded = protocol::decode_notice_preferences(call.request.body);
  if (auto* e = std::get_if<protocol::DecodeError>(&decoded)) return decode_error(*e);
  const auto& wanted = std::get<protocol::NoticePreferences>(decoded);
  if (wanted.webhook_url && *wanted.webhook_url) {
    std::string problem;
    if (!parse_webhook_url(**wanted.webhook_url, config_.webhook_allow_http,
                           config_.webhook_allow_private, problem)) {
      return error(400, ErrorCode::BadWebhookUrl, problem);
    }
  }
  const auto account = call.identity->account_id;
  // Checked and written in one storage task: nothing is stored when any part is refused.
  auto outcome =
      db_.call([&](storage::Store& store) -> std::variant<storage::NoticeSettings, HttpResponse> {
        auto s = storage::notice_settings(store, account);
        if (wanted.webhook_url) s.webhook_url = *wanted.webhook_url;
        if (wanted.email) s.email_on = *wanted.email;
        if (wanted.webhook) s.webhook_on = *wanted.webhook;
        if (wanted.digest_hours) s.digest_hours = *wanted.digest_hours;
        if (s.email_on && !s.email) {
          return error(
              409, ErrorCode::EmailNotConfirmed,
              "confirm an e-mail address (the link in the e-mail sent to it) before turning "
              "e-mail notices on");
        }
        if (s.webhook_on && !s.webhook_url) {
          return error(400, ErrorCode::BadWebhookUrl,
                       "give a webhook URL to turn webhook notices on");
        }
        storage::save_notice_preferences(store, account, s.webhook_url, s.email_on, s.webhook_on,
                                         s.digest_hours);
        return storage::notice_settings(store, account);
      });
  if (auto* refusal = std::get_if<HttpResponse>(&outcome)) return *refusal;
  return json_response(
      200, describe(std::get<storage::NoticeSettings>(outcome), static_cast<bool>(mailer_)));
}

HttpResponse Api::set_notice_email(const RouteCall& call) {
  const auto decoded = protocol::decode_notice_email(call.request.body);
  if (auto* e = std::get_if<protocol::DecodeError>(&decoded)) return decode_error(*e);
  const auto& wanted = std::get<protocol::NoticeEmailRequest>(decoded);
  const auto account = call.identity->account_id;
  if (!wanted.email) {
    const auto settings = db_.call([&](storage::Store& store) {
      storage::remove_notice_email(store, account);
      return storage::notice_settings(store, account);
    });
    return json_response(200, describe(settings, static_cast<bool>(mailer_)));
  }
  if (auto problem = email_problem(*wanted.email); !problem.empty()) {
    return error(400, ErrorCode::BadEmail, problem);
  }
  if (!mailer_) {
    return error(409, ErrorCode::EmailUnavailable, "this server sends no e-mail");
  }
  const auto token = random_hex(32);
  const auto now = now_ms();
  auto outcome = db_.call([&](storage::Store& store) -> std::optional<HttpResponse> {
    const auto s = storage::notice_settings(store, account);
    if (s.confirm_sent_at && now - *s.confirm_sent_at < kConfirmEveryMs) {
      return too_many(ErrorCode::RateLimited, "a confirmation e-mail was sent a moment ago",
                      (kConfirmEveryMs - (now - *s.confirm_sent_at)) / 1000 + 1);
    }
    // Checked here, after the account's own limit, so that only a request about to send takes
    // from the budgets, and with the store's write, so that a refusal stores nothing.
    if (const auto refused =
            confirmation_limits_.take(*wanted.email, call.request.remote_address)) {
      if (*refused == ConfirmationLimits::Refusal::Address) {
        return too_many(ErrorCode::RateLimited,
                        "too many confirmation e-mails from this address; try again later",
                        std::chrono::seconds(ConfirmationLimits::kPerAddressEvery).count());
      }
      return too_many(ErrorCode::RateLimited,
                      "that address was sent several confirmation e-mails lately; try again later",
                      std::chrono::seconds(ConfirmationLimits::kPerRecipientEvery).count());
    }
    storage::set_pending_email(store, account, *wanted.email, sha256_hex(token), now,
                               now + kConfirmValidMs);
    return std::nullopt;
  });
  if (outcome) return *outcome;
  Email email;
  email.to = *wanted.email;
  email.subject = "Confirm your address for Blockfog turn notices";
  const auto link = public_url_ + "/api/notices/confirm/" + token;
  // Nothing the requester chose but the address itself: no user name, no text of his, so the
  // e-mail cannot carry his message to a stranger.
  email.body =
      "Somebody asked for Blockfog turn notices to be sent to this address. If it was you, "
      "confirm it within 48 hours: " +
      link +
      "\n\nIf it was not you, ignore this e-mail: nothing is sent to an address without "
      "confirmation.\n";
  email.message_id = "<confirm-" + token.substr(0, 16) +
                     config_.smtp_from.substr(config_.smtp_from.rfind('@')) + ">";
  try {
    mailer_(email);
  } catch (const std::exception& e) {
    log_warn("turn notices: confirmation e-mail for account " + std::to_string(account) +
             " failed: " + e.what());
    // Nothing usable was stored: the pending address is dropped again.
    db_.call([&](storage::Store& store) { storage::clear_pending_email(store, account); });
    return error(503, ErrorCode::EmailUnavailable,
                 "the confirmation e-mail could not be sent; try again later");
  }
  const auto settings =
      db_.call([&](storage::Store& store) { return storage::notice_settings(store, account); });
  return json_response(202, describe(settings, true));
}

HttpResponse Api::confirm_notice_email(const RouteCall& call) {
  const auto unsubscribe = random_hex(32);
  const auto account = db_.call([&](storage::Store& store) {
    return storage::confirm_notice_email(store, sha256_hex(call.token), unsubscribe, now_ms());
  });
  if (!account) {
    return html_page(404, "Link not valid",
                     "This confirmation link was used already or has expired. Give the address "
                     "again on the settings page to get a new one.");
  }
  log_info("turn notices: account " + std::to_string(*account) + " confirmed an e-mail address");
  return html_page(200, "Address confirmed",
                   "Turn notices will be sent to this address when it is your turn and you are "
                   "not at the game.");
}

HttpResponse Api::unsubscribe_notices(const RouteCall& call) {
  // A GET changes nothing: mail scanners and link previews fetch every link of a mail. The page
  // asks for the click; the POST it sends, like a mail program's one-click POST (RFC 8058,
  // List-Unsubscribe-Post), is what unsubscribes.
  if (call.request.method == "GET") {
    const bool known = db_.call(
        [&](storage::Store& store) { return storage::knows_unsubscribe_token(store, call.token); });
    if (!known) {
      return html_page(404, "Link not valid", "This unsubscribe link is not known (any more).");
    }
    // A known token is the server's own random hex: nothing in it needs escaping.
    return html_page(200, "Stop turn notice e-mails?",
                     "Turn notice e-mails tell you when it is your turn in a game you are not "
                     "watching.</p><form method=\"post\" action=\"/api/notices/unsubscribe/" +
                         std::string(call.token) +
                         "\"><button type=\"submit\">Stop these e-mails</button></form><p>You "
                         "can turn them on again on the settings page.");
  }
  const auto account = db_.call(
      [&](storage::Store& store) { return storage::unsubscribe_notice_emails(store, call.token); });
  if (!account) {
    return html_page(404, "Link not valid", "This unsubscribe link is not known (any more).");
  }
  log_info("turn notices: account " + std::to_string(*account) + " unsubscribed from e-mail");
  return html_page(200, "Unsubscribed", "You will get no more turn notice e-mails.");
}

}  // namespace blockfog::server
