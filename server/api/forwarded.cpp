#include "server/api/forwarded.h"

#include <algorithm>
#include <string_view>

namespace blockfog::server {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::string_view without_v4_mapping(std::string_view address) {
  constexpr std::string_view kMapped = "::ffff:";
  if (address.starts_with(kMapped) && address.find('.') != std::string_view::npos) {
    address.remove_prefix(kMapped.size());
  }
  return address;
}

}  // namespace

bool is_trusted_proxy(const std::string& peer, const std::vector<std::string>& trusted) {
  const auto address = without_v4_mapping(peer);
  return std::any_of(trusted.begin(), trusted.end(),
                     [&](const std::string& t) { return without_v4_mapping(t) == address; });
}

void apply_forwarded_headers(HttpRequest& request, const std::vector<std::string>& trusted) {
  if (!is_trusted_proxy(request.remote_address, trusted)) return;
  std::string client;
  if (const auto* forwarded_for = request.header("x-forwarded-for")) {
    // The proxy appends the address it saw; entries left of it were written by the client (or
    // by proxies in front of ours) and prove nothing, so the search goes from the right.
    std::string_view rest = *forwarded_for;
    while (!rest.empty()) {
      const auto comma = rest.rfind(',');
      const auto entry =
          std::string(trim(comma == std::string_view::npos ? rest : rest.substr(comma + 1)));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(0, comma);
      if (entry.empty()) continue;
      client = entry;
      if (!is_trusted_proxy(entry, trusted)) break;
    }
  }
  if (client.empty()) {
    if (const auto* real_ip = request.header("x-real-ip")) client = std::string(trim(*real_ip));
  }
  if (!client.empty()) request.remote_address = client;
  if (const auto* proto = request.header("x-forwarded-proto")) {
    if (*proto == "https") request.tls = true;
    if (*proto == "http") request.tls = false;
  }
}

}  // namespace blockfog::server
