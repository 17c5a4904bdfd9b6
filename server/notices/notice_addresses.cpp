#include "server/notices/notice_addresses.h"

#include <arpa/inet.h>

#include <array>
#include <cctype>
#include <charconv>
#include <cstring>
#include <optional>

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

bool all_zero(const std::array<unsigned char, 16>& a, int from, int to) {
  for (int i = from; i < to; ++i) {
    if (a[i] != 0) return false;
  }
  return true;
}

// The IPv4 address an IPv6 address stands for, when its form has one at a known place:
// ::a.b.c.d (IPv4-compatible, so also :: and ::1, which are 0.0.0.0 and 0.0.0.1),
// ::ffff:a.b.c.d (IPv4-mapped), ::ffff:0:a.b.c.d (IPv4-translated, RFC 2765),
// 64:ff9b::a.b.c.d (the well-known NAT64 prefix, RFC 6052), 2002:AABB:CCDD::/48 (6to4,
// RFC 3056) and 2001:0::/32 (Teredo, RFC 4380: the client's address, bit-inverted in the last
// four bytes). The local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215) has none: its operator
// picks a prefix length from /48 to /96, and the IPv4 address sits at a different place for
// each, so is_internal_address refuses that whole block, as a local network's own.
std::optional<std::array<unsigned char, 4>> embedded_v4(const std::array<unsigned char, 16>& a) {
  const std::array<unsigned char, 4> last{a[12], a[13], a[14], a[15]};
  if (all_zero(a, 0, 12)) return last;
  if (all_zero(a, 0, 10) && a[10] == 0xff && a[11] == 0xff) return last;
  if (all_zero(a, 0, 8) && a[8] == 0xff && a[9] == 0xff && all_zero(a, 10, 12)) return last;
  if (a[0] == 0x00 && a[1] == 0x64 && a[2] == 0xff && a[3] == 0x9b && all_zero(a, 4, 12)) {
    return last;
  }
  if (a[0] == 0x20 && a[1] == 0x02) return std::array<unsigned char, 4>{a[2], a[3], a[4], a[5]};
  if (a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x00 && a[3] == 0x00) {
    return std::array<unsigned char, 4>{
        static_cast<unsigned char>(~a[12]), static_cast<unsigned char>(~a[13]),
        static_cast<unsigned char>(~a[14]), static_cast<unsigned char>(~a[15])};
  }
  return std::nullopt;
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
  // An IPv6 address that carries an IPv4 one reaches that IPv4 address (the host's own stack,
  // a translator or a relay does it), so the IPv4 address decides.
  if (const auto embedded = embedded_v4(v6)) return internal_v4(*embedded);
  if (v6[0] == 0x00 && v6[1] == 0x64 && v6[2] == 0xff && v6[3] == 0x9b && v6[4] == 0x00 &&
      v6[5] == 0x01) {
    return true;  // 64:ff9b:1::/48, local-use NAT64 (RFC 8215): see embedded_v4
  }
  if ((v6[0] & 0xfe) == 0xfc) return true;                   // fc00::/7, unique local
  if (v6[0] == 0xfe && (v6[1] & 0xc0) == 0x80) return true;  // fe80::/10, link-local
  if (v6[0] == 0xfe && (v6[1] & 0xc0) == 0xc0) return true;  // fec0::/10, site-local
  if (v6[0] == 0xff) return true;                            // ff00::/8, multicast
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

std::string host_header(const WebhookUrl& url) {
  std::string host = url.host.find(':') != std::string::npos ? "[" + url.host + "]" : url.host;
  const std::uint16_t default_port = url.https ? 443 : 80;
  if (url.port != default_port) host += ":" + std::to_string(url.port);
  return host;
}

}  // namespace blockfog::server
