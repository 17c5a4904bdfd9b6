#include "server/api/http_types.h"

namespace blockfog::server {

std::string target_path(const std::string& target) { return target.substr(0, target.find('?')); }

std::string query_param(const std::string& target, const std::string& name) {
  const auto q = target.find('?');
  if (q == std::string::npos) return "";
  std::size_t start = q + 1;
  while (start <= target.size()) {
    auto end = target.find('&', start);
    if (end == std::string::npos) end = target.size();
    const std::string pair = target.substr(start, end - start);
    const auto eq = pair.find('=');
    if (pair.substr(0, eq) == name) {
      std::string value;
      if (eq != std::string::npos && percent_decode(pair.substr(eq + 1), value)) return value;
      return "";
    }
    start = end + 1;
  }
  return "";
}

bool percent_decode(const std::string& in, std::string& out) {
  out.clear();
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '%') {
      out.push_back(in[i]);
      continue;
    }
    if (i + 2 >= in.size()) return false;
    auto hex = [](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      return -1;
    };
    const int hi = hex(in[i + 1]);
    const int lo = hex(in[i + 2]);
    if (hi < 0 || lo < 0) return false;
    out.push_back(static_cast<char>(hi * 16 + lo));
    i += 2;
  }
  return true;
}

}  // namespace blockfog::server
