#include "server/notices/notice_sender.h"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "server/clock.h"
#include "server/db_worker.h"
#include "server/log.h"
#include "server/metrics.h"
#include "server/notices/notice_channels.h"
#include "server/notices/turn_notices.h"
#include "storage/notice_store.h"

namespace blockfog::server {
namespace {

using nlohmann::json;
using storage::NoticeDelivery;
using storage::NoticeSettings;

constexpr std::size_t kBatch = 50;
constexpr std::int64_t kHourMs = 3600 * 1000;
// How much longer a claim holds than its attempt can last: room for the nodes' clocks to differ.
constexpr std::int64_t kClaimMarginMs = 2000;

std::string describe(const NoticeDelivery& d) {
  return "notice " + std::to_string(d.notice_id) + " (" + d.channel + ", game " +
         std::to_string(d.game_id) + ")";
}

}  // namespace

NoticeSender::NoticeSender(const Config& config, std::string public_url, DbWorker& db,
                           Metrics& metrics)
    : config_(config),
      public_url_(std::move(public_url)),
      db_(db),
      metrics_(metrics),
      thread_([this] { run(); }) {}

NoticeSender::~NoticeSender() { stop(); }

void NoticeSender::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void NoticeSender::run() {
  while (true) {
    {
      std::unique_lock lock(mutex_);
      if (wake_.wait_for(lock, kPollEvery, [this] { return stopping_; })) return;
    }
    try {
      pass();
    } catch (const std::exception& e) {
      // The store is unavailable or stopping: the outbox keeps everything for the next pass.
      log_error_throttled("notices", std::string("turn notices: ") + e.what());
    }
  }
}

std::size_t NoticeSender::pass() {
  const auto due = db_.call([now = now_ms()](storage::Store& store) {
    return storage::due_notice_deliveries(store, now, kBatch);
  });
  const auto retry_delay = [this](std::int64_t attempts) {
    std::int64_t delay = std::int64_t{config_.notice_retry_seconds} * 1000;
    for (std::int64_t i = 1; i < attempts && delay < kMaxRetryMs; ++i) delay *= 2;
    return std::min(delay, kMaxRetryMs);
  };
  // A claim holds until the attempt is surely over, however slow the receiver (the whole
  // attempt's bound, and a margin for the nodes' clocks), and no sooner than the retry: each
  // attempt is made by one sender, and a sender killed during it is stood in for after that.
  const auto claimed_until = [this, &retry_delay](std::int64_t now, std::int64_t attempts) {
    const std::int64_t attempt_ms =
        std::chrono::milliseconds(notice_attempt_bound(config_)).count() + kClaimMarginMs;
    return now + std::max(retry_delay(attempts), attempt_ms);
  };
  // An attempt failed: retried later, or given up on once the notice is too old.
  const auto failed = [&](const NoticeDelivery& d, const DeliveryError& error) {
    const auto now = now_ms();
    const auto next = now + retry_delay(d.attempts + 1);
    const bool give_up = error.permanent() ||
                         next - d.created_at > std::int64_t{config_.notice_give_up_seconds} * 1000;
    db_.call([&](storage::Store& store) {
      if (give_up) {
        storage::mark_notice_failed(store, d.notice_id, d.channel, error.what(), now);
      } else {
        storage::mark_notice_error(store, d.notice_id, d.channel, error.what());
        storage::postpone_notice_delivery(store, d.notice_id, d.channel, next);
      }
    });
    if (give_up) {
      ++metrics_.notices_failed;
      log_warn("turn notices: gave up on " + describe(d) + ": " + error.what());
    } else {
      ++metrics_.notices_retried;
      log_info("turn notices: " + describe(d) + " failed, retrying: " + error.what());
    }
  };

  std::size_t tried = 0;
  std::map<std::int64_t, bool> emailed;  // accounts whose e-mail this pass handled
  for (const auto& d : due) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) break;
    }
    const auto settings = db_.call(
        [&](storage::Store& store) { return storage::notice_settings(store, d.account_id); });
    const auto now = now_ms();
    if (d.channel == "webhook") {
      if (!settings.webhook_on || !settings.webhook_url) {
        db_.call([&](storage::Store& store) {
          storage::drop_notice_delivery(store, d.notice_id, d.channel, now);
        });
        continue;
      }
      const bool mine = db_.call([&](storage::Store& store) {
        return storage::claim_notice_delivery(store, d.notice_id, d.channel, d.attempts,
                                              claimed_until(now, d.attempts + 1));
      });
      if (!mine) continue;  // another node's sender claimed it first, and sends it
      ++tried;
      const auto content = json::parse(d.content_json);
      const auto link = game_link(public_url_, d.game_id);
      const auto text = notice_message(content, link);
      json blockfog = content;
      blockfog["url"] = link;
      // The same on every attempt: a receiver drops a repeat by it.
      blockfog["notice_id"] = d.notice_id;
      const json payload = {
          {"username", "Blockfog"}, {"content", text}, {"text", text}, {"blockfog", blockfog}};
      try {
        post_webhook(config_, *settings.webhook_url, payload.dump(), std::to_string(d.notice_id));
      } catch (const DeliveryError& e) {
        failed(d, e);
        continue;
      } catch (const std::exception& e) {
        failed(d, DeliveryError(e.what(), false));
        continue;
      }
      db_.call([&](storage::Store& store) {
        storage::mark_notice_sent(store, d.notice_id, d.channel, now_ms());
      });
      ++metrics_.notices_sent;
      continue;
    }

    // E-mail: one for all of the account's pending notices.
    if (emailed.contains(d.account_id)) continue;
    emailed[d.account_id] = true;
    if (!settings.email_on || !settings.email || !settings.unsubscribe_token) {
      db_.call([&](storage::Store& store) {
        storage::drop_notice_delivery(store, d.notice_id, d.channel, now);
      });
      continue;
    }
    if (!config_.smtp()) {
      failed(d, DeliveryError("e-mail is not configured on this server (--smtp-host)", true));
      continue;
    }
    if (settings.digest_hours > 0 && settings.last_email_at &&
        now < *settings.last_email_at + settings.digest_hours * kHourMs) {
      const auto until = *settings.last_email_at + settings.digest_hours * kHourMs;
      db_.call([&](storage::Store& store) {
        for (const auto& p : storage::pending_notice_emails(store, d.account_id)) {
          storage::postpone_notice_delivery(store, p.notice_id, p.channel, until);
        }
      });
      continue;
    }
    const auto batch = db_.call([&](storage::Store& store) {
      const auto pending = storage::pending_notice_emails(store, d.account_id);
      const auto retry_at = claimed_until(now, d.attempts + 1);
      std::vector<NoticeDelivery> claimed;
      // The due delivery's claim decides which sender (of several nodes) writes this
      // account's e-mail; the winner takes the rest of its pending notices in the same task.
      if (!storage::claim_notice_delivery(store, d.notice_id, d.channel, d.attempts, retry_at)) {
        return claimed;
      }
      for (const auto& p : pending) {
        if ((p.notice_id == d.notice_id && p.channel == d.channel) ||
            storage::claim_notice_delivery(store, p.notice_id, p.channel, p.attempts, retry_at)) {
          claimed.push_back(p);
        }
      }
      return claimed;
    });
    if (batch.empty()) continue;
    ++tried;
    const auto base = public_url_;
    Email email;
    email.to = *settings.email;
    email.subject = batch.size() == 1
                        ? "Your turn in Blockfog game " + std::to_string(batch.front().game_id)
                        : "Your turn in " + std::to_string(batch.size()) + " Blockfog games";
    for (const auto& p : batch) {
      email.body +=
          notice_message(json::parse(p.content_json), game_link(base, p.game_id)) + "\n\n";
    }
    email.unsubscribe_url = base + "/api/notices/unsubscribe/" + *settings.unsubscribe_token;
    email.body += "You get this e-mail because you asked for turn notices at " + base +
                  "/#/settings.\nStop these e-mails with one click: " + email.unsubscribe_url +
                  "\n";
    const auto at = config_.smtp_from.rfind('@');
    std::string id = "notice";
    for (const auto& p : batch) id += "-" + std::to_string(p.notice_id);
    email.message_id = "<" + id + config_.smtp_from.substr(at) + ">";
    try {
      send_email(config_, email);
    } catch (const DeliveryError& e) {
      for (const auto& p : batch) failed(p, e);
      continue;
    } catch (const std::exception& e) {
      for (const auto& p : batch) failed(p, DeliveryError(e.what(), false));
      continue;
    }
    db_.call([&](storage::Store& store) {
      const auto sent_at = now_ms();
      for (const auto& p : batch) storage::mark_notice_sent(store, p.notice_id, p.channel, sent_at);
      storage::set_last_notice_email(store, d.account_id, sent_at);
    });
    metrics_.notices_sent += static_cast<std::int64_t>(batch.size());
  }
  return tried;
}

}  // namespace blockfog::server
