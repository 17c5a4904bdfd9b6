#pragma once

// Turn notices in the store (migration 8, docs/storage.md "Turn notices"): each account's
// notice settings, and the outbox that the server's notice sender delivers from. Free functions
// over the Store's connection, run inside whatever transaction the caller holds: a notice is
// written in the transaction of the action that caused it. Times are milliseconds since the
// Unix epoch, passed in.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "storage/store.h"

namespace blockfog::storage {

struct NoticeSettings {
  std::int64_t account_id = 0;
  std::optional<std::string> email;          // confirmed
  std::optional<std::string> email_pending;  // given, not yet confirmed
  std::optional<std::string> webhook_url;
  bool email_on = false;
  bool webhook_on = false;
  std::int64_t digest_hours = 0;  // at most one e-mail per this many hours; 0: no limit
  std::optional<std::int64_t> last_email_at;
  std::optional<std::string> unsubscribe_token;  // set with a confirmed address
  std::optional<std::int64_t> confirm_sent_at;   // of the pending address
};

// One channel's delivery of one notice, as the sender works on it.
struct NoticeDelivery {
  std::int64_t notice_id = 0;
  std::string channel;  // "email" or "webhook"
  std::int64_t game_id = 0;
  std::string role;
  std::int64_t account_id = 0;
  std::string content_json;
  std::int64_t created_at = 0;
  std::int64_t attempts = 0;
};

// --- settings (private to their owner) ---
// The account's settings; defaults (nothing on) when it never set any.
NoticeSettings notice_settings(Store& store, std::int64_t account_id);
// Sets the webhook (none clears it), the channels and the digest; the e-mail is untouched.
void save_notice_preferences(Store& store, std::int64_t account_id,
                             const std::optional<std::string>& webhook_url, bool email_on,
                             bool webhook_on, std::int64_t digest_hours);
// Records an address to confirm with the single-use token whose hash is given, valid until
// `expires_at`; a new one replaces any earlier pending address and token.
void set_pending_email(Store& store, std::int64_t account_id, std::string_view email,
                       std::string_view token_hash, std::int64_t now, std::int64_t expires_at);
// Forgets the pending address and its token (its confirmation e-mail could not be sent).
void clear_pending_email(Store& store, std::int64_t account_id);
// Consumes a confirmation token: the pending address becomes the account's, e-mail notices
// are turned on, and the unsubscribe token is set. Returns the account, or none if
// the token is unknown, used or expired.
std::optional<std::int64_t> confirm_notice_email(Store& store, std::string_view token_hash,
                                                 std::string_view unsubscribe_token,
                                                 std::int64_t now);
// Removes the address (confirmed and pending) and drops its undelivered e-mails.
void remove_notice_email(Store& store, std::int64_t account_id);
// One-click unsubscribe: turns e-mail notices off and drops the undelivered ones. Returns the
// account, or none if the token is unknown.
std::optional<std::int64_t> unsubscribe_notice_emails(Store& store,
                                                      std::string_view unsubscribe_token);
// Whether `unsubscribe_token` is an account's current one (nothing is changed).
bool knows_unsubscribe_token(Store& store, std::string_view unsubscribe_token);

// --- the outbox ---
// Writes the notice for `role` of `game_id` awaited since action `seq` (0: the start) and a
// delivery for each channel the account has on and set up (a confirmed address, a webhook).
// False, writing nothing, when that notice exists already or no channel is on.
bool enqueue_notice(Store& store, std::int64_t game_id, std::string_view role, std::int64_t seq,
                    std::int64_t account_id, std::string_view content_json, std::int64_t now);
// The game starts: the notices written before its start (seq 0: its dice are to be rolled,
// server/play/dice.h) give way to the start's own, delivered or not.
void forget_start_notices(Store& store, std::int64_t game_id);
// The role acted (or the game ended): its undelivered notices of the game are not needed.
void drop_pending_notices(Store& store, std::int64_t game_id, std::string_view role,
                          std::int64_t now);
// Pending deliveries due at `now`, oldest first.
std::vector<NoticeDelivery> due_notice_deliveries(Store& store, std::int64_t now,
                                                  std::size_t limit);
// Pending e-mail deliveries of an account (any time), oldest first: one digest e-mail.
std::vector<NoticeDelivery> pending_notice_emails(Store& store, std::int64_t account_id);
// Before an attempt: counts it and moves the next try to `retry_at`, so that a sender
// killed during the attempt retries it then (and not before). The claim holds only if the
// delivery is still pending with the `attempts` it was read with: of several senders (one per
// node) that read it due, exactly one claims it and sends it. The others' conditional update
// finds the row changed (on PostgreSQL it waits for the first claim's COMMIT, then re-reads
// the row) and they get false: another sender has it.
bool claim_notice_delivery(Store& store, std::int64_t notice_id, std::string_view channel,
                           std::int64_t attempts_read, std::int64_t retry_at);
// Postpones a delivery without counting an attempt (a digest's window is still closed).
void postpone_notice_delivery(Store& store, std::int64_t notice_id, std::string_view channel,
                              std::int64_t until);
void mark_notice_sent(Store& store, std::int64_t notice_id, std::string_view channel,
                      std::int64_t now);
void mark_notice_error(Store& store, std::int64_t notice_id, std::string_view channel,
                       std::string_view error);
void mark_notice_failed(Store& store, std::int64_t notice_id, std::string_view channel,
                        std::string_view error, std::int64_t now);
void drop_notice_delivery(Store& store, std::int64_t notice_id, std::string_view channel,
                          std::int64_t now);
void set_last_notice_email(Store& store, std::int64_t account_id, std::int64_t now);
// The delivery's state ("pending", "sent", "failed", "dropped"), none if there is none.
std::optional<std::string> notice_delivery_state(Store& store, std::int64_t notice_id,
                                                 std::string_view channel);

}  // namespace blockfog::storage
