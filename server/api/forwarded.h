#pragma once

// Behind a reverse proxy (deploy/nginx/) every connection comes from the proxy, and the
// client's address and scheme arrive in headers the proxy sets. Anyone can write those
// headers, so they are believed only from a peer named by --trusted-proxy.

#include <string>
#include <vector>

#include "server/api/http_types.h"

namespace blockfog::server {

// True when `peer`, a connection's remote address, is one of `trusted` (an IPv4 peer seen on
// a dual-stack socket as ::ffff:a.b.c.d matches a.b.c.d).
bool is_trusted_proxy(const std::string& peer, const std::vector<std::string>& trusted);

// For a request whose remote_address is a trusted proxy: remote_address becomes the client's
// address (the right-most X-Forwarded-For entry that is not a trusted proxy itself, else
// X-Real-IP) and tls follows X-Forwarded-Proto. Any other request is left as it is.
void apply_forwarded_headers(HttpRequest& request, const std::vector<std::string>& trusted);

}  // namespace blockfog::server
