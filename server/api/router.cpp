#include "server/api/router.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "protocol/errors.h"
#include "protocol/http.h"

namespace blockfog::server {
namespace {

using protocol::ErrorCode;

HttpResponse refusal(int status, ErrorCode code, const std::string& message) {
  return {status, "application/json", protocol::error_body(code, message).dump(), {}};
}

std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> parts;
  while (!path.empty()) {
    if (path.front() == '/') path.remove_prefix(1);
    const auto end = path.find('/');
    parts.push_back(path.substr(0, end));
    path = end == std::string_view::npos ? std::string_view() : path.substr(end);
  }
  return parts;
}

std::optional<std::int64_t> parse_id(std::string_view text) {
  std::int64_t id = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), id);
  if (ec != std::errc() || ptr != text.data() + text.size() || id < 1) return std::nullopt;
  return id;
}

// How a path matched a route's pattern.
enum class Match { No, Yes, BadId };

Match match(const Route& route, std::string_view path, RouteCall& call) {
  const auto want = split_path(route.pattern);
  const auto have = split_path(path);
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (want[i] == "{rest}") {
      call.rest.clear();
      for (std::size_t j = i; j < have.size(); ++j) {
        if (j > i) call.rest += '/';
        call.rest += have[j];
      }
      return Match::Yes;
    }
    if (i >= have.size()) return Match::No;
    if (want[i] == "{id}") {
      const auto id = parse_id(have[i]);
      if (!id) return Match::BadId;
      call.id = *id;
    } else if (want[i] == "{token}") {
      if (have[i].empty()) return Match::No;
      call.token = std::string(have[i]);
    } else if (want[i] != have[i]) {
      return Match::No;
    }
  }
  return want.size() == have.size() ? Match::Yes : Match::No;
}

std::string ascii_lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

bool is_safe_method(std::string_view method) { return method == "GET" || method == "HEAD"; }

Router::Router(std::vector<Route> routes, RouteChecks checks)
    : routes_(std::move(routes)), checks_(std::move(checks)) {}

HttpResponse Router::dispatch(const HttpRequest& request) const {
  const std::string path = target_path(request.target);
  // HEAD is answered as GET without its body (the network layer drops the body).
  const std::string method = request.method == "HEAD" ? "GET" : request.method;

  const Route* found = nullptr;
  const Route* bad_id = nullptr;  // a route the path fits but for a non-numeric {id}
  std::string allowed;
  std::optional<RouteCall> call;
  for (const auto& route : routes_) {
    RouteCall candidate{request, 0, "", "", std::nullopt};
    const auto matched = match(route, path, candidate);
    if (matched == Match::BadId && !bad_id) bad_id = &route;
    if (matched != Match::Yes) continue;
    if (allowed.find(route.method) == std::string::npos) {
      allowed += (allowed.empty() ? "" : ", ") + route.method;
    }
    if (!found && route.method == method) {
      found = &route;
      call.emplace(std::move(candidate));
    }
  }
  if (allowed.empty()) {
    return refusal(404, ErrorCode::NotFound, bad_id ? bad_id->not_found : "no such API endpoint");
  }
  if (!found) {
    auto r = refusal(405, ErrorCode::MethodNotAllowed, "use " + allowed);
    r.headers.emplace_back("Allow", allowed);
    return r;
  }

  if (!is_safe_method(method) && !found->token_authorised) {
    if (!checks_.is_same_origin(request)) {
      return refusal(403, ErrorCode::Forbidden, "cross-site request refused");
    }
    // A cross-site form cannot send application/json without a CORS preflight, which this
    // server never grants.
    const auto* type = request.header("content-type");
    if (!request.body.empty() && (!type || ascii_lower(*type).rfind("application/json", 0) != 0)) {
      return refusal(415, ErrorCode::BadField, "the body must be application/json");
    }
  }
  call->identity = checks_.authenticate(request);
  if (found->access == Access::Account && !call->identity) {
    return refusal(401, ErrorCode::Unauthorized, "log in first");
  }
  return found->handler(*call);
}

}  // namespace blockfog::server
