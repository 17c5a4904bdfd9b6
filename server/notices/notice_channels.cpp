#include "server/notices/notice_channels.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read_until.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/streambuf.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <algorithm>
#include <istream>
#include <optional>

#include "rules/core/hex.h"
#include "server/notices/notice_addresses.h"

namespace blockfog::server {
namespace {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = net::ip::tcp;

// How long one step of an attempt may take: the operator's --notice-timeout, and never past
// the end of the whole attempt (notice_attempt_bound).
struct StepBounds {
  std::chrono::seconds step;
  std::chrono::steady_clock::time_point attempt_ends;

  explicit StepBounds(const Config& config)
      : step(config.notice_timeout_seconds),
        attempt_ends(std::chrono::steady_clock::now() + notice_attempt_bound(config)) {}
};

// Runs the asynchronous operation `start` begins on `ioc` within `bounds`; throws a retryable
// DeliveryError when it does not finish in time or fails.
template <typename Start>
void run_step(net::io_context& ioc, const StepBounds& bounds, const char* what, Start start) {
  const auto left = std::min<std::chrono::steady_clock::duration>(
      bounds.step, bounds.attempt_ends - std::chrono::steady_clock::now());
  if (left <= std::chrono::steady_clock::duration::zero()) {
    throw DeliveryError(std::string(what) + ": the attempt's time ran out", false);
  }
  std::optional<boost::system::error_code> result;
  start([&result](boost::system::error_code ec, auto&&...) { result = ec; });
  ioc.restart();
  ioc.run_for(left);
  if (!result) {
    ioc.stop();
    throw DeliveryError(std::string(what) + ": timed out", false);
  }
  if (*result) throw DeliveryError(std::string(what) + ": " + result->message(), false);
}

std::string base64(std::string_view in) {
  static constexpr char kTable[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned v = (static_cast<unsigned char>(in[i]) << 16) |
                       (static_cast<unsigned char>(in[i + 1]) << 8) |
                       static_cast<unsigned char>(in[i + 2]);
    for (int shift : {18, 12, 6, 0}) out += kTable[(v >> shift) & 63];
  }
  if (i < in.size()) {
    unsigned v = static_cast<unsigned char>(in[i]) << 16;
    if (i + 1 < in.size()) v |= static_cast<unsigned char>(in[i + 1]) << 8;
    out += kTable[(v >> 18) & 63];
    out += kTable[(v >> 12) & 63];
    out += i + 1 < in.size() ? kTable[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

// One SMTP conversation over a plain socket that may be upgraded with STARTTLS.
class SmtpSession {
 public:
  SmtpSession(net::io_context& ioc, ssl::context& tls, const StepBounds& bounds)
      : ioc_(ioc), stream_(ioc, tls), bounds_(bounds) {}

  void connect(const std::string& host, std::uint16_t port) {
    tcp::resolver resolver(ioc_);
    tcp::resolver::results_type endpoints;
    run_step(ioc_, bounds_, "smtp resolve", [&](auto handler) {
      resolver.async_resolve(host, std::to_string(port),
                             [&endpoints, handler](boost::system::error_code ec, auto results) {
                               endpoints = results;
                               handler(ec);
                             });
    });
    run_step(ioc_, bounds_, "smtp connect",
             [&](auto handler) { net::async_connect(stream_.next_layer(), endpoints, handler); });
    host_ = host;
  }

  void starttls() {
    if (!SSL_set_tlsext_host_name(stream_.native_handle(), host_.c_str())) {
      throw DeliveryError("smtp: cannot set the TLS server name", false);
    }
    stream_.set_verify_callback(ssl::host_name_verification(host_));
    run_step(ioc_, bounds_, "smtp STARTTLS handshake",
             [&](auto handler) { stream_.async_handshake(ssl::stream_base::client, handler); });
    tls_ = true;
  }

  // Reads one reply (all its lines); returns its code.
  int reply(std::string& text) {
    text.clear();
    while (true) {
      read_line_into(text);
      const auto line_start = text.rfind('\n', text.size() - 2);
      const std::string line = text.substr(line_start == std::string::npos ? 0 : line_start + 1);
      if (line.size() < 4) throw DeliveryError("smtp: malformed reply '" + line + "'", false);
      if (line[3] != '-') return std::stoi(line.substr(0, 3));
    }
  }

  void expect(int wanted_class, const char* step) {
    std::string text;
    const int code = reply(text);
    if (code / 100 != wanted_class) {
      while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
      // 5xx: the relay refuses for good; 4xx: try again later.
      throw DeliveryError(std::string("smtp ") + step + ": " + text, code >= 500);
    }
    last_reply_ = text;
  }

  void command(const std::string& line) { write(line + "\r\n"); }

  void write(const std::string& data) {
    if (tls_) {
      run_step(ioc_, bounds_, "smtp write",
               [&](auto handler) { net::async_write(stream_, net::buffer(data), handler); });
    } else {
      run_step(ioc_, bounds_, "smtp write", [&](auto handler) {
        net::async_write(stream_.next_layer(), net::buffer(data), handler);
      });
    }
  }

  const std::string& last_reply() const { return last_reply_; }

 private:
  void read_line_into(std::string& text) {
    if (tls_) {
      run_step(ioc_, bounds_, "smtp read",
               [&](auto handler) { net::async_read_until(stream_, buffer_, "\r\n", handler); });
    } else {
      run_step(ioc_, bounds_, "smtp read", [&](auto handler) {
        net::async_read_until(stream_.next_layer(), buffer_, "\r\n", handler);
      });
    }
    std::istream in(&buffer_);
    std::string line;
    std::getline(in, line);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    text += line + "\n";
  }

  net::io_context& ioc_;
  ssl::stream<tcp::socket> stream_;
  StepBounds bounds_;
  net::streambuf buffer_;
  std::string host_;
  std::string last_reply_;
  bool tls_ = false;
};

// Dot-stuffed body with CRLF line ends (RFC 5321 4.5.2).
std::string smtp_data(const std::string& text) {
  std::string out;
  std::size_t start = 0;
  while (start <= text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty() && line.front() == '.') line.insert(0, ".");
    out += line + "\r\n";
    start = end + 1;
  }
  return out;
}

std::string rfc5322_date() {
  char buffer[64];
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::strftime(buffer, sizeof buffer, "%a, %d %b %Y %H:%M:%S +0000", &tm);
  return buffer;
}

// A TLS client context that checks the peer's certificate against the system's authorities,
// or against --notice-ca-file when given (tests).
ssl::context client_tls(const Config& config) {
  ssl::context tls(ssl::context::tls_client);
  tls.set_verify_mode(ssl::verify_peer);
  if (config.notice_ca_file.empty()) {
    tls.set_default_verify_paths();
  } else {
    tls.load_verify_file(config.notice_ca_file);
  }
  return tls;
}

}  // namespace

void send_email(const Config& config, const Email& email) {
  net::io_context ioc;
  ssl::context tls = client_tls(config);
  SmtpSession smtp(ioc, tls, StepBounds(config));
  smtp.connect(config.smtp_host, config.smtp_port);
  smtp.expect(2, "greeting");
  smtp.command("EHLO blockfog");
  smtp.expect(2, "EHLO");
  if (config.smtp_starttls) {
    smtp.command("STARTTLS");
    smtp.expect(2, "STARTTLS");
    smtp.starttls();
    smtp.command("EHLO blockfog");
    smtp.expect(2, "EHLO");
  }
  if (!config.smtp_user.empty()) {
    smtp.command("AUTH PLAIN " +
                 base64(std::string(1, '\0') + config.smtp_user + '\0' + config.smtp_password));
    smtp.expect(2, "AUTH");
  }
  smtp.command("MAIL FROM:<" + config.smtp_from + ">");
  smtp.expect(2, "MAIL FROM");
  smtp.command("RCPT TO:<" + email.to + ">");
  smtp.expect(2, "RCPT TO");
  smtp.command("DATA");
  smtp.expect(3, "DATA");
  std::string message;
  message += "From: Blockfog <" + config.smtp_from + ">\r\n";
  message += "To: <" + email.to + ">\r\n";
  message += "Subject: " + email.subject + "\r\n";
  message += "Date: " + rfc5322_date() + "\r\n";
  message += "Message-ID: " + email.message_id + "\r\n";
  if (!email.unsubscribe_url.empty()) {
    message += "List-Unsubscribe: <" + email.unsubscribe_url + ">\r\n";
    message += "List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n";
  }
  message += "Auto-Submitted: auto-generated\r\n";
  message += "MIME-Version: 1.0\r\n";
  message += "Content-Type: text/plain; charset=utf-8\r\n";
  message += "Content-Transfer-Encoding: 8bit\r\n\r\n";
  message += smtp_data(email.body);
  message += ".\r\n";
  smtp.write(message);
  smtp.expect(2, "message");
  smtp.command("QUIT");
  try {
    smtp.expect(2, "QUIT");
  } catch (const DeliveryError&) {
    // The message was accepted already; a relay that hangs up on QUIT changes nothing.
  }
}

void post_webhook(const Config& config, const std::string& url, const std::string& payload,
                  const std::string& notice_id) {
  std::string problem;
  const auto parsed =
      parse_webhook_url(url, config.webhook_allow_http, config.webhook_allow_private, problem);
  if (!parsed) throw DeliveryError("webhook URL refused: " + problem, true);
  const StepBounds bounds(config);
  net::io_context ioc;
  tcp::resolver resolver(ioc);
  tcp::resolver::results_type results;
  run_step(ioc, bounds, "webhook resolve", [&](auto handler) {
    resolver.async_resolve(parsed->host, std::to_string(parsed->port),
                           [&results, handler](boost::system::error_code ec, auto r) {
                             results = r;
                             handler(ec);
                           });
  });
  // Every address is checked, and the connection goes to a checked one: a name cannot lead
  // the server into its own network (unless the operator allows it, for testing).
  std::vector<tcp::endpoint> endpoints;
  for (const auto& entry : results) {
    if (!config.webhook_allow_private &&
        is_internal_address(entry.endpoint().address().to_string())) {
      throw DeliveryError("webhook host " + parsed->host + " resolves to an internal address",
                          true);
    }
    endpoints.push_back(entry.endpoint());
  }
  if (endpoints.empty()) throw DeliveryError("webhook host has no address", false);

  http::request<http::string_body> request{http::verb::post, parsed->target, 11};
  request.set(http::field::host, host_header(*parsed));
  request.set(http::field::user_agent, "Blockfog turn notices");
  request.set(http::field::content_type, "application/json");
  request.set(kNoticeIdHeader, notice_id);
  request.body() = payload;
  request.prepare_payload();
  http::response<http::string_body> response;
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(64 * 1024);

  const auto check = [&](unsigned status) {
    if (status >= 200 && status < 300) return;
    // Redirects are not followed: a webhook answers where it was told to.
    const bool retry = status == 429 || status >= 500;
    throw DeliveryError("webhook answered HTTP " + std::to_string(status), !retry);
  };
  if (parsed->https) {
    ssl::context tls = client_tls(config);
    beast::ssl_stream<beast::tcp_stream> stream(ioc, tls);
    if (!SSL_set_tlsext_host_name(stream.native_handle(), parsed->host.c_str())) {
      throw DeliveryError("webhook: cannot set the TLS server name", false);
    }
    stream.set_verify_callback(ssl::host_name_verification(parsed->host));
    run_step(ioc, bounds, "webhook connect", [&](auto handler) {
      beast::get_lowest_layer(stream).async_connect(endpoints, handler);
    });
    run_step(ioc, bounds, "webhook TLS handshake",
             [&](auto handler) { stream.async_handshake(ssl::stream_base::client, handler); });
    run_step(ioc, bounds, "webhook write",
             [&](auto handler) { http::async_write(stream, request, handler); });
    run_step(ioc, bounds, "webhook read",
             [&](auto handler) { http::async_read(stream, buffer, parser, handler); });
    check(parser.get().result_int());
    boost::system::error_code ignored;
    beast::get_lowest_layer(stream).socket().close(ignored);
  } else {
    beast::tcp_stream stream(ioc);
    run_step(ioc, bounds, "webhook connect",
             [&](auto handler) { stream.async_connect(endpoints, handler); });
    run_step(ioc, bounds, "webhook write",
             [&](auto handler) { http::async_write(stream, request, handler); });
    run_step(ioc, bounds, "webhook read",
             [&](auto handler) { http::async_read(stream, buffer, parser, handler); });
    check(parser.get().result_int());
  }
}

}  // namespace blockfog::server
