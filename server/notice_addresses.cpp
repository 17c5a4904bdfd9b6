#include "server/notice_addresses.h"

#include <arpa/inet.h>

#include <array>
#include <cctype>
#include <charconv>
#include <cstring>

namespace blockfog::server {
namespace {

bool is_domain_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '-';
}

bool internal_v4(const std::array<unsigned char, 4>& a) {
  return a[0] == 0 || a[0] == 10 || a[0] == 127 || (a[0] == 169 && a[1] == 254) ||
         (a[0] == 172 && (a[1] & 0xf0) == 16) || (a[0] == 192 && a[1] == 168) ||
         (a[0] == 100 && (a[1] & 0xc0) == 64) || a[0] >= 224;
}

}  // namespace

std::string email_problem(std::string_view email) {
  if (email.size() < 3 || email.size() > 254) return "an e-mail address has 3 to 254 characters";
  const auto at = email.rfind('@');
  if (at == std::string_view::npos || at == 0 || at + 1 == email.size()) {
    return "an e-mail address looks like name@example.org";
  }
  const auto local = email.substr(0, at);
  const auto domain = email.substr(at + 1);
  if (local.size() > 64) return "the part before @ has at most 64 characters";
  for (char c : local) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7f || std::strchr("\"(),:;<>@[\\]", c) != nullptr) {
      return "the part before @ has a character an address cannot have";
    }
  }
  if (domain.front() == '.' || domain.back() == '.' || domain.front() == '-' ||
      domain.find("..") != std::string_view::npos) {
    return "the domain after @ is not a domain name";
  }
  for (char c : domain) {
    if (!is_domain_char(c)) return "the domain after @ is not a domain name";
  }
  return "";
}

bool is_internal_address(std::string_view address) {
  const std::string text(address);
  std::array<unsigned char, 4> v4{};
  if (inet_pton(AF_INET, text.c_str(), v4.data()) == 1) return internal_v4(v4);
  std::array<unsigned char, 16> v6{};
  if (inet_pton(AF_INET6, text.c_str(), v6.data()) != 1) return true;  // not an address: refuse
  bool zero_prefix = true;
  for (int i = 0; i < 10; ++i) zero_prefix = zero_prefix && v6[i] == 0;
  if (zero_prefix && v6[10] == 0xff && v6[11] == 0xff) {  // ::ffff:a.b.c.d
    return internal_v4({v6[12], v6[13], v6[14], v6[15]});
  }
  bool all_zero_but_last =
      zero_prefix && v6[10] == 0 && v6[11] == 0 && v6[12] == 0 && v6[13] == 0 && v6[14] == 0;
  if (all_zero_but_last && (v6[15] == 0 || v6[15] == 1)) return true;  // :: and ::1
  if ((v6[0] & 0xfe) == 0xfc) return true;                             // fc00::/7
  if (v6[0] == 0xfe && (v6[1] & 0xc0) == 0x80) return true;            // fe80::/10
  if (v6[0] == 0xff) return true;                                      // multicast
  return false;
}

std::optional<WebhookUrl> parse_webhook_url(std::string_view url, bool allow_http,
                                            bool allow_private, std::string& problem) {
  WebhookUrl out;
  if (url.size() > 2000) {
    problem = "a webhook URL has at most 2000 characters";
    return std::nullopt;
  }
  for (char c : url) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7f) {
      problem = "a webhook URL has no spaces or control characters";
      return std::nullopt;
    }
  }
  std::string_view rest;
  if (url.rfind("https://", 0) == 0) {
    rest = url.substr(8);
  } else if (url.rfind("http://", 0) == 0) {
    if (!allow_http) {
      problem = "a webhook URL must start with https://";
      return std::nullopt;
    }
    out.https = false;
    out.port = 80;
    rest = url.substr(7);
  } else {
    problem = "a webhook URL must start with https://";
    return std::nullopt;
  }
  if (url.find('#') != std::string_view::npos) {
    problem = "a webhook URL has no #fragment";
    return std::nullopt;
  }
  const auto slash = rest.find_first_of("/?");
  const auto authority = rest.substr(0, slash);
  out.target = slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
  if (out.target.front() == '?') out.target.insert(0, "/");
  if (authority.find('@') != std::string_view::npos) {
    problem = "a webhook URL has no user name or password before the host";
    return std::nullopt;
  }
  std::string_view host = authority;
  std::string_view port;
  if (!host.empty() && host.front() == '[') {
    const auto close = host.find(']');
    if (close == std::string_view::npos) {
      problem = "the webhook URL's host is not valid";
      return std::nullopt;
    }
    if (close + 1 < host.size()) {
      if (host[close + 1] != ':') {
        problem = "the webhook URL's host is not valid";
        return std::nullopt;
      }
      port = host.substr(close + 2);
    }
    host = host.substr(1, close - 1);
  } else if (const auto colon = host.find(':'); colon != std::string_view::npos) {
    port = host.substr(colon + 1);
    host = host.substr(0, colon);
  }
  if (host.empty()) {
    problem = "the webhook URL has no host";
    return std::nullopt;
  }
  for (char c : host) {
    if (!is_domain_char(c) && c != ':') {
      problem = "the webhook URL's host is not valid";
      return std::nullopt;
    }
  }
  if (!port.empty() || authority.ends_with(":")) {
    unsigned value = 0;
    const auto [ptr, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec != std::errc() || ptr != port.data() + port.size() || value == 0 || value > 65535) {
      problem = "the webhook URL's port is not a number from 1 to 65535";
      return std::nullopt;
    }
    out.port = static_cast<std::uint16_t>(value);
  }
  out.host = std::string(host);
  std::array<unsigned char, 16> buffer{};
  const bool literal = inet_pton(AF_INET, out.host.c_str(), buffer.data()) == 1 ||
                       inet_pton(AF_INET6, out.host.c_str(), buffer.data()) == 1;
  if (!allow_private && (out.host == "localhost" || (literal && is_internal_address(out.host)))) {
    problem = "a webhook URL cannot point at a loopback or private address";
    return std::nullopt;
  }
  return out;
}

}  // namespace blockfog::server
