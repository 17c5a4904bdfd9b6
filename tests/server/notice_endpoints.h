#pragma once

// Real receiving endpoints on loopback for the turn notice tests: an HTTP(S) server that
// takes webhook POSTs, and the aiosmtpd SMTP server (Debian python3-aiosmtpd) run as a
// child process, with or without STARTTLS. Nothing of the sending code is replaced.

#include "tests/server/server_process.h"

#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace blockfog::server::testing {

// A self-signed certificate for "localhost" and 127.0.0.1, and its key, written into `dir`:
// the receivers serve it and the server trusts it (--notice-ca-file).
struct TestCertificate {
  std::filesystem::path cert;
  std::filesystem::path key;
};
TestCertificate make_certificate(const std::filesystem::path& dir);

struct WebhookRequest {
  std::string target;
  std::string content_type;
  std::string notice_id;  // the Blockfog-Notice-Id header, "" when absent
  std::string body;
  std::string host;   // the Host header
  int peer_port = 0;  // the sender's end of the connection: its port on 127.0.0.1
};

class WebhookReceiver {
 public:
  // Listens on 127.0.0.1 (`port` 0: any free one), over TLS when `cert` is given.
  explicit WebhookReceiver(int port = 0, const TestCertificate* cert = nullptr);
  ~WebhookReceiver();
  WebhookReceiver(const WebhookReceiver&) = delete;
  WebhookReceiver& operator=(const WebhookReceiver&) = delete;

  int port() const { return port_; }
  // What it answers from now on: a status, and a Location for a redirect.
  void answer(int status, std::string location = "");
  // While held, a request is recorded as received (wait_for sees it) and its answer waits until
  // release(): a receiver slow to answer. The receiver takes one request at a time.
  void hold();
  void release();
  std::vector<WebhookRequest> received() const;
  // Waits until at least `count` requests came (false if not within `timeout`).
  bool wait_for(std::size_t count, std::chrono::seconds timeout) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
};

class SmtpServer {
 public:
  // Starts aiosmtpd on a free loopback port, keeping what it receives in a Maildir in `dir`;
  // with `cert`, it offers STARTTLS and refuses mail without it.
  explicit SmtpServer(const std::filesystem::path& dir, const TestCertificate* cert = nullptr);
  ~SmtpServer();
  SmtpServer(const SmtpServer&) = delete;
  SmtpServer& operator=(const SmtpServer&) = delete;

  int port() const { return port_; }
  // The messages received so far, each as its raw text (headers, blank line, body).
  std::vector<std::string> messages() const;
  bool wait_for(std::size_t count, std::chrono::seconds timeout) const;

 private:
  std::filesystem::path mbox_;
  pid_t pid_ = -1;
  int port_ = 0;
};

// A webhook host that takes connections and never answers: it listens on 127.0.0.1 and never
// accepts, so the kernel completes each connection and keeps what the client writes.
class SilentListener {
 public:
  SilentListener();
  ~SilentListener();
  SilentListener(const SilentListener&) = delete;
  SilentListener& operator=(const SilentListener&) = delete;
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

// The value of header `name` (case-insensitive) in a raw message, "" when absent.
std::string mail_header(const std::string& message, const std::string& name);

}  // namespace blockfog::server::testing
