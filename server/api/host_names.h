#pragma once

// Which Host headers the server answers. A page on another site that makes its own name
// resolve to this server (DNS rebinding) sends its own name as Host, and its Origin matches
// that Host, so comparing Origin with Host alone lets it act as a logged-in player. The server
// therefore answers only names it knows: IP address literals (a browser that reached the
// server by address sends it), "localhost" and its subdomains, and the names configured with
// --allowed-host.

#include <string>
#include <string_view>
#include <vector>

namespace blockfog::server {

// The name of a Host header value without its port ("Example.org:8080" -> "example.org",
// "[::1]:80" -> "[::1]"), lower-cased.
std::string host_name(std::string_view host_header);

// True when a request with this Host header may be served. A request without Host (HTTP/1.0,
// or a peer on a Unix socket without one) is not a browser's and passes.
bool is_allowed_host(const std::string* host_header, const std::vector<std::string>& allowed);

}  // namespace blockfog::server
