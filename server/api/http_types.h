#pragma once

// HTTP requests and responses as plain values, so that the API and the static files are
// written and tested without the network layer.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace blockfog::server {

struct HttpRequest {
  std::string method;                          // "GET", "POST", ...
  std::string target;                          // path and query, as received
  std::map<std::string, std::string> headers;  // names in lower case
  std::string body;
  std::string remote_address;
  bool tls = false;

  const std::string* header(const std::string& lower_name) const {
    const auto it = headers.find(lower_name);
    return it == headers.end() ? nullptr : &it->second;
  }
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // extra ones, e.g. Set-Cookie
};

// The path of a target without its query, and one query parameter ("" when absent).
std::string target_path(const std::string& target);
std::string query_param(const std::string& target, const std::string& name);
// Decodes %XX escapes; nullopt-like empty result with ok=false on a bad escape.
bool percent_decode(const std::string& in, std::string& out);

}  // namespace blockfog::server
