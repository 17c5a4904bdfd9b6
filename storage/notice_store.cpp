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

void ensure_row(Database& db, std::int64_t account_id) {
  db.prepare("INSERT INTO notice_settings (account_id) VALUES (?1) ON CONFLICT DO NOTHING")
      .bind(1, account_id)
      .run();
}

// The account's e-mail deliveries not sent yet will not be: its address is gone or off.
void drop_pending_email(Database& db, std::int64_t account_id) {
  db.prepare(
        "UPDATE notice_deliveries SET state = 'dropped' WHERE state = 'pending'"
        " AND channel = 'email' AND notice_id IN (SELECT id FROM notices WHERE account_id = ?1)")
      .bind(1, account_id)
      .run();
}

}  // namespace

NoticeSettings notice_settings(Store& store, std::int64_t account_id) {
  auto& db = store.database();
  NoticeSettings s;
  s.account_id = account_id;
  auto q = db.prepare(
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

void save_notice_preferences(Store& store, std::int64_t account_id,
                             const std::optional<std::string>& webhook_url, bool email_on,
                             bool webhook_on, std::int64_t digest_hours) {
  auto& db = store.database();
  Transaction transaction(db);
  ensure_row(db, account_id);
  auto update = db.prepare(
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
  db.prepare(
        "UPDATE notice_deliveries SET state = 'dropped' WHERE state = 'pending'"
        " AND notice_id IN (SELECT id FROM notices WHERE account_id = ?1)"
        " AND ((channel = 'email' AND ?2 = 0) OR (channel = 'webhook' AND ?3 = 0))")
      .bind(1, account_id)
      .bind(2, std::int64_t{email_on})
      .bind(3, std::int64_t{webhook_on && webhook_url.has_value()})
      .run();
  transaction.commit();
}

void set_pending_email(Store& store, std::int64_t account_id, std::string_view email,
                       std::string_view token_hash, std::int64_t now, std::int64_t expires_at) {
  auto& db = store.database();
  Transaction transaction(db);
  ensure_row(db, account_id);
  db.prepare(
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

void clear_pending_email(Store& store, std::int64_t account_id) {
  auto& db = store.database();
  db.prepare(
        "UPDATE notice_settings SET email_pending = NULL, confirm_token_hash = NULL,"
        " confirm_expires_at = NULL, confirm_sent_at = NULL WHERE account_id = ?1")
      .bind(1, account_id)
      .run();
}

std::optional<std::int64_t> confirm_notice_email(Store& store, std::string_view token_hash,
                                                 std::string_view unsubscribe_token,
                                                 std::int64_t now) {
  auto& db = store.database();
  Transaction transaction(db);
  auto q = db.prepare(
      "SELECT account_id FROM notice_settings WHERE confirm_token_hash = ?1"
      " AND confirm_expires_at > ?2");
  q.bind(1, token_hash).bind(2, now);
  if (!q.step()) return std::nullopt;
  const auto account_id = q.column_int64(0);
  db.prepare(
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

void remove_notice_email(Store& store, std::int64_t account_id) {
  auto& db = store.database();
  Transaction transaction(db);
  db.prepare(
        "UPDATE notice_settings SET email = NULL, email_pending = NULL,"
        " confirm_token_hash = NULL, confirm_expires_at = NULL, confirm_sent_at = NULL,"
        " email_on = 0,"
        " unsubscribe_token = NULL WHERE account_id = ?1")
      .bind(1, account_id)
      .run();
  drop_pending_email(db, account_id);
  transaction.commit();
}

std::optional<std::int64_t> unsubscribe_notice_emails(Store& store,
                                                      std::string_view unsubscribe_token) {
  auto& db = store.database();
  Transaction transaction(db);
  auto q = db.prepare("SELECT account_id FROM notice_settings WHERE unsubscribe_token = ?1");
  q.bind(1, unsubscribe_token);
  if (!q.step()) return std::nullopt;
  const auto account_id = q.column_int64(0);
  db.prepare("UPDATE notice_settings SET email_on = 0 WHERE account_id = ?1")
      .bind(1, account_id)
      .run();
  drop_pending_email(db, account_id);
  transaction.commit();
  return account_id;
}

bool knows_unsubscribe_token(Store& store, std::string_view unsubscribe_token) {
  auto& db = store.database();
  auto q = db.prepare("SELECT 1 FROM notice_settings WHERE unsubscribe_token = ?1");
  q.bind(1, unsubscribe_token);
  return q.step();
}

bool enqueue_notice(Store& store, std::int64_t game_id, std::string_view role, std::int64_t seq,
                    std::int64_t account_id, std::string_view content_json, std::int64_t now) {
  auto& db = store.database();
  const auto s = notice_settings(store, account_id);
  const bool email = s.email_on && s.email;
  const bool webhook = s.webhook_on && s.webhook_url;
  if (!email && !webhook) return false;
  Transaction transaction(db);
  const auto inserted =
      db.prepare(
            "INSERT INTO notices (game_id, role, seq, account_id, content, created_at)"
            " VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT DO NOTHING RETURNING id")
          .bind(1, game_id)
          .bind(2, role)
          .bind(3, seq)
          .bind(4, account_id)
          .bind(5, content_json)
          .bind(6, now)
          .run_returning_id();
  if (!inserted) return false;
  const auto id = *inserted;
  for (const auto& [on, channel] : {std::pair{email, "email"}, std::pair{webhook, "webhook"}}) {
    if (!on) continue;
    db.prepare(
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

void forget_start_notices(Store& store, std::int64_t game_id) {
  auto& db = store.database();
  // The deliveries go with their notice (ON DELETE CASCADE).
  db.prepare("DELETE FROM notices WHERE game_id = ?1 AND seq = 0").bind(1, game_id).run();
}

void drop_pending_notices(Store& store, std::int64_t game_id, std::string_view role,
                          std::int64_t now) {
  auto& db = store.database();
  // Run with every action: cached, and a lookup by notices_by_game.
  db.cached(
        "UPDATE notice_deliveries SET state = 'dropped', done_at = ?3 WHERE state = 'pending'"
        " AND notice_id IN (SELECT id FROM notices WHERE game_id = ?1 AND role = ?2)")
      ->bind(1, game_id)
      .bind(2, role)
      .bind(3, now)
      .run();
}

std::vector<NoticeDelivery> due_notice_deliveries(Store& store, std::int64_t now,
                                                  std::size_t limit) {
  auto& db = store.database();
  auto q = db.prepare(std::string(kDeliveryColumns) +
                      "WHERE d.state = 'pending' AND d.next_attempt_at <= ?1"
                      " ORDER BY d.next_attempt_at, d.notice_id LIMIT ?2");
  q.bind(1, now).bind(2, static_cast<std::int64_t>(limit));
  return read_deliveries(q);
}

std::vector<NoticeDelivery> pending_notice_emails(Store& store, std::int64_t account_id) {
  auto& db = store.database();
  auto q = db.prepare(std::string(kDeliveryColumns) +
                      "WHERE d.state = 'pending' AND d.channel = 'email' AND n.account_id = ?1"
                      " ORDER BY d.notice_id");
  q.bind(1, account_id);
  return read_deliveries(q);
}

bool claim_notice_delivery(Store& store, std::int64_t notice_id, std::string_view channel,
                           std::int64_t attempts_read, std::int64_t retry_at) {
  auto& db = store.database();
  db.prepare(
        "UPDATE notice_deliveries SET attempts = attempts + 1, next_attempt_at = ?3"
        " WHERE notice_id = ?1 AND channel = ?2 AND state = 'pending' AND attempts = ?4")
      .bind(1, notice_id)
      .bind(2, channel)
      .bind(3, retry_at)
      .bind(4, attempts_read)
      .run();
  return db.changes() == 1;
}

void postpone_notice_delivery(Store& store, std::int64_t notice_id, std::string_view channel,
                              std::int64_t until) {
  auto& db = store.database();
  db.prepare(
        "UPDATE notice_deliveries SET next_attempt_at = ?3 WHERE notice_id = ?1 AND channel = ?2")
      .bind(1, notice_id)
      .bind(2, channel)
      .bind(3, until)
      .run();
}

void mark_notice_sent(Store& store, std::int64_t notice_id, std::string_view channel,
                      std::int64_t now) {
  auto& db = store.database();
  db.prepare(
        "UPDATE notice_deliveries SET state = 'sent', done_at = ?3, last_error = NULL"
        " WHERE notice_id = ?1 AND channel = ?2")
      .bind(1, notice_id)
      .bind(2, channel)
      .bind(3, now)
      .run();
}

void mark_notice_error(Store& store, std::int64_t notice_id, std::string_view channel,
                       std::string_view error) {
  auto& db = store.database();
  db.prepare("UPDATE notice_deliveries SET last_error = ?3 WHERE notice_id = ?1 AND channel = ?2")
      .bind(1, notice_id)
      .bind(2, channel)
      .bind(3, error)
      .run();
}

void mark_notice_failed(Store& store, std::int64_t notice_id, std::string_view channel,
                        std::string_view error, std::int64_t now) {
  auto& db = store.database();
  db.prepare(
        "UPDATE notice_deliveries SET state = 'failed', last_error = ?3, done_at = ?4"
        " WHERE notice_id = ?1 AND channel = ?2")
      .bind(1, notice_id)
      .bind(2, channel)
      .bind(3, error)
      .bind(4, now)
      .run();
}

void drop_notice_delivery(Store& store, std::int64_t notice_id, std::string_view channel,
                          std::int64_t now) {
  auto& db = store.database();
  db.prepare(
        "UPDATE notice_deliveries SET state = 'dropped', done_at = ?3"
        " WHERE notice_id = ?1 AND channel = ?2 AND state = 'pending'")
      .bind(1, notice_id)
      .bind(2, channel)
      .bind(3, now)
      .run();
}

void set_last_notice_email(Store& store, std::int64_t account_id, std::int64_t now) {
  auto& db = store.database();
  db.prepare("UPDATE notice_settings SET last_email_at = ?2 WHERE account_id = ?1")
      .bind(1, account_id)
      .bind(2, now)
      .run();
}

std::optional<std::string> notice_delivery_state(Store& store, std::int64_t notice_id,
                                                 std::string_view channel) {
  auto& db = store.database();
  auto q = db.prepare("SELECT state FROM notice_deliveries WHERE notice_id = ?1 AND channel = ?2");
  q.bind(1, notice_id).bind(2, channel);
  if (!q.step()) return std::nullopt;
  return q.column_text(0);
}

}  // namespace blockfog::storage
