#pragma once

// The two ways a turn notice leaves the server (docs/server.md, "Turn notices"): an e-mail
// through the operator's SMTP relay, and a POST to the player's own webhook in the
// Discord/Slack incoming-webhook JSON format. Both block the calling thread (the notice
// sender's), each step (resolving, connecting, the TLS handshake, writing, reading a reply)
// for at most Config::notice_timeout_seconds and the whole attempt for at most
// notice_attempt_bound, and throw DeliveryError when the message was not accepted in time.

#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "server/config.h"

namespace blockfog::server {

// The longest one delivery attempt lasts, all its steps together: three steps' worth. A
// sender's claim on a delivery outlasts it (notice_sender.cpp), so that no other node's sender
// tries the same delivery while this attempt may still be under way.
inline std::chrono::seconds notice_attempt_bound(const Config& config) {
  return 3 * std::chrono::seconds(config.notice_timeout_seconds);
}

class DeliveryError : public std::runtime_error {
 public:
  // `permanent`: trying again cannot help (a refused address, a 4xx answer other than 429).
  DeliveryError(const std::string& what, bool permanent)
      : std::runtime_error(what), permanent_(permanent) {}
  bool permanent() const { return permanent_; }

 private:
  bool permanent_;
};

struct Email {
  std::string to;
  std::string subject;
  std::string body;        // plain text, lines separated by "\n"
  std::string message_id;  // "<...@...>": the same on every attempt of one e-mail
  // List-Unsubscribe (RFC 2369) with One-Click (RFC 8058); none for a confirmation e-mail,
  // which subscribes nobody yet.
  std::string unsubscribe_url;
};

// Sends `email` through the relay of `config` (smtp_host, port, STARTTLS with the peer's
// certificate verified against smtp_ca_file or the system's CAs, AUTH PLAIN if a user is set).
void send_email(const Config& config, const Email& email);

// The header that carries a webhook notice's id: the same on every attempt of one notice, so
// that a receiver can drop a repeat (a delivery is at least once: docs/server.md, Turn notices).
inline constexpr const char* kNoticeIdHeader = "Blockfog-Notice-Id";

// POSTs `payload` (JSON text) to `url` with a short timeout, following no redirect, with
// `notice_id` in kNoticeIdHeader. Every address the host resolves to is checked
// (notice_addresses.h) unless private ones are allowed, and the connection goes to a checked
// address. Any 2xx answer is success.
void post_webhook(const Config& config, const std::string& url, const std::string& payload,
                  const std::string& notice_id);

}  // namespace blockfog::server
