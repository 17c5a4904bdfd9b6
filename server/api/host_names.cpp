#include "server/api/host_names.h"

#include <algorithm>
#include <cctype>

namespace blockfog::server {
namespace {

bool is_ipv4_literal(std::string_view name) {
  int parts = 0;
  std::size_t digits = 0;
  for (char c : name) {
    if (c == '.') {
      if (digits == 0) return false;
      ++parts;
      digits = 0;
    } else if (std::isdigit(static_cast<unsigned char>(c)) && digits < 3) {
      ++digits;
    } else {
      return false;
    }
  }
  return parts == 3 && digits > 0;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

}  // namespace

std::string host_name(std::string_view host_header) {
  std::string name(host_header);
  if (!name.empty() && name.front() == '[') {
    const auto close = name.find(']');
    name = close == std::string::npos ? name : name.substr(0, close + 1);
  } else if (const auto colon = name.find(':'); colon != std::string::npos) {
    name = name.substr(0, colon);
  }
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return name;
}

bool is_allowed_host(const std::string* host_header, const std::vector<std::string>& allowed) {
  if (!host_header) return true;
  const auto name = host_name(*host_header);
  if (name.empty()) return false;
  if (name.front() == '[' && name.back() == ']') return true;  // an IPv6 literal
  if (is_ipv4_literal(name)) return true;
  if (name == "localhost" || ends_with(name, ".localhost")) return true;
  return std::any_of(allowed.begin(), allowed.end(),
                     [&](const std::string& a) { return host_name(a) == name; });
}

}  // namespace blockfog::server
