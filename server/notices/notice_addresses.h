#pragma once

// Checks of what a player gives for his turn notices (docs/protocol.md, "Turn notices"):
// an e-mail address and a webhook URL. A value that fails gets a message for the user, and
// nothing is stored.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace blockfog::server {

// "" when `email` is an address notices may go to: local@domain, at most 254 characters,
// printable ASCII without spaces, quotes or angle brackets (nothing that could reach a
// header line), a domain of letters, digits, dots and hyphens; else why not.
std::string email_problem(std::string_view email);

struct WebhookUrl {
  bool https = true;
  std::string host;  // as written (an IPv6 literal without its brackets)
  std::uint16_t port = 443;
  std::string target;  // path and query, "/" at least
};

// The URL's parts, or none with `problem` set: http(s)://host[:port][/path], no user
// information, no fragment, at most 2000 characters, https unless `allow_http`, and no IP
// literal of a loopback, private or link-local address unless `allow_private` (names are
// checked again when resolved, webhook_client.h).
std::optional<WebhookUrl> parse_webhook_url(std::string_view url, bool allow_http,
                                            bool allow_private, std::string& problem);

// The Host header of a request to `url` (RFC 9110 7.2): the host, in brackets if an IPv6
// literal, with ":port" unless the port is the scheme's default. A receiver behind a virtual
// host or checking a signature over the URL needs the port it was given.
std::string host_header(const WebhookUrl& url);

// True for addresses a webhook may not reach unless the operator allows it: loopback,
// private (RFC 1918, fc00::/7), link-local, site-local (fec0::/10), carrier-grade NAT,
// unspecified, multicast, and the local-use NAT64 prefix 64:ff9b:1::/48. An IPv6 address that
// carries an IPv4 one (IPv4-mapped, -compatible and -translated, NAT64 64:ff9b::/96, 6to4,
// Teredo) is judged by that IPv4 address. `address` is a numeric IPv4 or IPv6 address.
bool is_internal_address(std::string_view address);

}  // namespace blockfog::server
