#include "storage/notice_store.h"

namespace blockfog::storage {
namespace {

std::vector<NoticeDelivery> read_deliveries(Statement& statement) {
  std::vector<NoticeDelivery> out;
  while (statement.step()) {
    NoticeDelivery d;
    d.notice_id = statement.column_int64(0);
    d.channel = statement.column_text(1);
    d.game_id = statement.column_int64(2);
    d.role = statement.column_text(3);
    d.account_id = statement.column_int64(4);
    d.content_json = statement.column_text(5);
    d.created_at = statement.column_int64(6);
    d.attempts = statement.column_int64(7);
    out.push_back(std::move(d));
  }
  return out;
}

constexpr const char* kDeliveryColumns =
    "SELECT d.notice_id, d.channel, n.game_id, n.role, n.account_id, n.content, n.created_at,"
    " d.attempts FROM notice_deliveries AS d JOIN notices AS n ON n.id = d.notice_id ";

}  // namespace

void NoticeStore::ensure_row(std::int64_t account_id) {
  db_.prepare("INSERT OR IGNORE INTO notice_settings (account_id) VALUES (?1)")
      .bind(1, account_id)
      .run();
}

NoticeSettings NoticeStore::settings(std::int64_t account_id) {
  NoticeSettings s;
  s.account_id = account_id;
  auto q = db_.prepare(
      "SELECT email, email_pending, webhook_url, email_on, webhook_on, digest_hours,"
      " last_email_at, unsubscribe_token, confirm_sent_at FROM notice_settings"
      " WHERE account_id = ?1");
  q.bind(1, account_id);
  if (!q.step()) return s;
  s.email = q.column_optional_text(0);
  s.email_pending = q.column_optional_text(1);
  s.webhook_url = q.column_optional_text(2);
  s.email_on = q.column_int64(3) != 0;
  s.webhook_on = q.column_int64(4) != 0;
  s.digest_hours = q.column_int64(5);
  s.last_email_at = q.column_optional_int64(6);
  s.unsubscribe_token = q.column_optional_text(7);
  s.confirm_sent_at = q.column_optional_int64(8);
  return s;
}

void NoticeStore::save_preferences(std::int64_t account_id,
                                   const std::optional<std::string>& webhook_url, bool email_on,
                                   bool webhook_on, std::int64_t digest_hours) {
  Transaction transaction(db_);
  ensure_row(account_id);
  auto update = db_.prepare(
      "UPDATE notice_settings SET webhook_url = ?2, email_on = ?3, webhook_on = ?4,"
      " digest_hours = ?5 WHERE account_id = ?1");
  update.bind(1, account_id);
  if (webhook_url) {
    update.bind(2, *webhook_url);
  } else {
    update.bind(2, nullptr);
  }
  update.bind(3, std::int64_t{email_on}).bind(4, std::int64_t{webhook_on}).bind(5, digest_hours);
  update.run();
  // A channel turned off (or a webhook removed) takes its undelivered notices with it.
  db_.prepare(
         "UPDATE notice_deliveries SET state = 'dropped' WHERE state = 'pending'"
         " AND notice_id IN (SELECT id FROM notices WHERE account_id = ?1)"
         " AND ((channel = 'email' AND ?2 = 0) OR (channel = 'webhook' AND ?3 = 0))")
      .bind(1, account_id)
      .bind(2, std::int64_t{email_on})
      .bind(3, std::int64_t{webhook_on && webhook_url.has_value()})
      .run();
  transaction.commit();
}

void NoticeStore::set_pending_email(std::int64_t account_id, std::string_view email,
                                    std::string_view token_hash, std::int64_t now,
                                    std::int64_t expires_at) {
  Transaction transaction(db_);
  ensure_row(account_id);
  db_.prepare(
         "UPDATE notice_settings SET email_pending = ?2, confirm_token_hash = ?3,"
         " confirm_expires_at = ?4, confirm_sent_at = ?5 WHERE account_id = ?1")
      .bind(1, account_id)
      .bind(2, email)
      .bind(3, token_hash)
      .bind(4, expires_at)
      .bind(5, now)
      .run();
  transaction.commit();
}

void NoticeStore::clear_pending_email(std::int64_t account_id) {
  db_.prepare(
         "UPDATE notice_settings SET email_pending = NULL, confirm_token_hash = NULL,"
         " confirm_expires_at = NULL, confirm_sent_at = NULL WHERE account_id = ?1")
      .bind(1, account_id)
      .run();
}

std::optional<std::int64_t> NoticeStore::confirm_email(std::string_view token_hash,
                                                       std::string_view unsubscribe_token,
                                                       std::int64_t now) {
  Transaction transaction(db_);
  auto q = db_.prepare(
      "SELECT account_id FROM notice_settings WHERE confirm_token_hash = ?1"
      " AND confirm_expires_at > ?2");
  q.bind(1, token_hash).bind(2, now);
  if (!q.step()) return std::nullopt;
  const auto account_id = q.column_int64(0);
  db_.prepare(
         "UPDATE notice_settings SET email = email_pending, email_pending = NULL,"
         " confirm_token_hash = NULL, confirm_expires_at = NULL, confirm_sent_at = NULL,"
         " email_on = 1,"
         " unsubscribe_token = ?2 WHERE account_id = ?1")
      .bind(1, account_id)
      .bind(2, unsubscribe_token)
      .run();
  transaction.commit();
  return account_id;
}

void NoticeStore::drop_pending_email(std::int64_t account_id) {
  db_.prepare(
         "UPDATE notice_deliveries SET state = 'dropped' WHERE state = 'pending'"
         " AND channel = 'email' AND notice_id IN (SELECT id FROM notices WHERE account_id = ?1)")
      .bind(1, account_id)
      .run();
}

void NoticeStore::remove_email(std::int64_t account_id) {
  Transaction transaction(db_);
  db_.prepare(
         "UPDATE notice_settings SET email = NULL, email_pending = NULL,"
         " confirm_token_hash = NULL, confirm_expires_at = NULL, confirm_sent_at = NULL,"
         " email_on = 0,"
         " unsubscribe_token = NULL WHERE account_id = ?1")
      .bind(1, account_id)
      .run();
  drop_pending_email(account_id);
  transaction.commit();
}

std::optional<std::int64_t> NoticeStore::unsubscribe(std::string_view unsubscribe_token) {
  Transaction transaction(db_);
  auto q = db_.prepare("SELECT account_id FROM notice_settings WHERE unsubscribe_token = ?1");
  q.bind(1, unsubscribe_token);
  if (!q.step()) return std::nullopt;
  const auto account_id = q.column_int64(0);
  db_.prepare("UPDATE notice_settings SET email_on = 0 WHERE account_id = ?1")
      .bind(1, account_id)
      .run();
  drop_pending_email(account_id);
  transaction.commit();
  return account_id;
}

bool NoticeStore::knows_unsubscribe_token(std::string_view unsubscribe_token) {
  auto q = db_.prepare("SELECT 1 FROM notice_settings WHERE unsubscribe_token = ?1");
  q.bind(1, unsubscribe_token);
  return q.step();
}

bool NoticeStore::enqueue(std::int64_t game_id, std::string_view role, std::int64_t seq,
                          std::int64_t account_id, std::string_view content_json,
                          std::int64_t now) {
  const auto s = settings(account_id);
  const bool email = s.email_on && s.email;
  const bool webhook = s.webhook_on && s.webhook_url;
  if (!email && !webhook) return false;
  Transaction transaction(db_);
  db_.prepare(
         "INSERT OR IGNORE INTO notices (game_id, role, seq, account_id, content, created_at)"
         " VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
      .bind(1, game_id)
      .bind(2, role)
      .bind(3, seq)
      .bind(4, account_id)
      .bind(5, content_json)
      .bind(6, now)
      .run();
  if (db_.changes() == 0) return false;
  const auto id = db_.last_insert_rowid();
  for (const auto& [on, channel] : {std::pair{email, "email"}, std::pair{webhook, "webhook"}}) {
    if (!on) continue;
    db_.prepare(
           "INSERT INTO notice_deliveries (notice_id, channel, next_attempt_at)"
           " VALUES (?1, ?2, ?3)")
        .bind(1, id)
        .bind(2, std::string_view(channel))
        .bind(3, now)
        .run();
  }
  transaction.commit();
  return true;
}

void NoticeStore::forget_start_notices(std::int64_t game_id) {
  // The deliveries go with their notice (ON DELETE CASCADE).
  db_.prepare("DELETE FROM notices WHERE game_id = ?1 AND seq = 0").bind(1, game_id).run();
}

void NoticeStore::drop_pending(std::int64_t game_id, std::string_view role, std::int64_t now) {
  // Run with every action: cached, and a lookup by notices_by_game.
  db_.cached(
         "UPDATE notice_deliveries SET state = 'dropped', done_at = ?3 WHERE state = 'pending'"
         " AND notice_id IN (SELECT id FROM notices WHERE game_id = ?1 AND role = ?2)")
      ->bind(1, game_id)
      .bind(2, role)
      .bind(3, now)
      .run();
}

std::vector<NoticeDelivery> NoticeStore::due(std::int64_t now, std::size_t limit) {
  auto q = db_.prepare(std::string(kDeliveryColumns) +
                       "WHERE d.state = 'pending' AND d.next_attempt_at <= ?1"
                       " ORDER BY d.next_attempt_at, d.notice_id LIMIT ?2");
  q.bind(1, now).bind(2, static_cast<std::int64_t>(limit));
  return read_deliveries(q);
}

std::vector<NoticeDelivery> NoticeStore::pending_emails(std::int64_t account_id) {
  auto q = db_.prepare(std::string(kDeliveryColumns) +
                       "WHERE d.state = 'pending' AND d.channel = 'email' AND n.account_id = ?1"
                       " ORDER BY d.notice_id");
  q.bind(1, account_id);
  return read_deliveries(q);
}

void NoticeStore::claim(std::int64_t notice_id, std::string_view channel, std::int64_t retry_at) {
  db_.prepare(
         "UPDATE notice_deliveries SET attempts = attempts + 1, next_attempt_at = ?3"
         " WHERE notice_id = ?1 AND channel = ?2")
      .bind(1, notice_id)
      .bind(2, channel)
      .bind(3, retry_at)
      .run();
}

void NoticeStore::postpone(std::int64_t notice_id, std::string_view channel, std::int64_t until) {
  db_.prepare(
         "UPDATE notice_deliveries SET next_attempt_at = ?3 WHERE notice_id = ?1 AND channel = ?2")
      .bind(1, notice_id)
      .bind(2, channel)
      .bind(3, until)
      .run();
}

void NoticeStore::mark_sent(std::int64_t notice_id, std::string_view channel, std::int64_t now) {
  db_.prepare(
         "UPDATE notice_deliveries SET state = 'sent', done_at = ?3, last_error = NULL"
         " WHERE notice_id = ?1 AND channel = ?2")
      .bind(1, notice_id)
      .bind(2, channel)
      .bind(3, now)
      .run();
}

void NoticeStore::mark_error(std::int64_t notice_id, std::string_view channel,
                             std::string_view error) {
  db_.prepare("UPDATE notice_deliveries SET last_error = ?3 WHERE notice_id = ?1 AND channel = ?2")
      .bind(1, notice_id)
      .bind(2, channel)
      .bind(3, error)
      .run();
}

void NoticeStore::mark_failed(std::int64_t notice_id, std::string_view channel,
                              std::string_view error, std::int64_t now) {
  db_.prepare(
         "UPDATE notice_deliveries SET state = 'failed', last_error = ?3, done_at = ?4"
         " WHERE notice_id = ?1 AND channel = ?2")
      .bind(1, notice_id)
      .bind(2, channel)
      .bind(3, error)
      .bind(4, now)
      .run();
}

void NoticeStore::drop(std::int64_t notice_id, std::string_view channel, std::int64_t now) {
  db_.prepare(
         "UPDATE notice_deliveries SET state = 'dropped', done_at = ?3"
         " WHERE notice_id = ?1 AND channel = ?2 AND state = 'pending'")
      .bind(1, notice_id)
      .bind(2, channel)
      .bind(3, now)
      .run();
}

void NoticeStore::set_last_email(std::int64_t account_id, std::int64_t now) {
  db_.prepare("UPDATE notice_settings SET last_email_at = ?2 WHERE account_id = ?1")
      .bind(1, account_id)
      .bind(2, now)
      .run();
}

std::optional<std::string> NoticeStore::delivery_state(std::int64_t notice_id,
                                                       std::string_view channel) {
  auto q = db_.prepare("SELECT state FROM notice_deliveries WHERE notice_id = ?1 AND channel = ?2");
  q.bind(1, notice_id).bind(2, channel);
  if (!q.step()) return std::nullopt;
  return q.column_text(0);
}

}  // namespace blockfog::storage
