#pragma once

// The HTTP API's routes as one table, and the one place that checks a request before any
// handler sees it: the path, then the method, then (for a method that changes state) the
// request's origin and body type, then the login a route needs. A handler is reached only
// when all of these passed, so a refused request cannot have changed anything
// (docs/security.md).

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/api/http_types.h"

namespace blockfog::server {

struct Identity {
  std::int64_t account_id = 0;
  std::string username;
};

// Who may reach a route.
enum class Access {
  Anyone,   // the handler gets the caller's identity if the caller is logged in
  Account,  // refused with 401 before the handler unless the caller is logged in
};

// What a handler is given: the request, the path's parameters, and who asks.
struct RouteCall {
  const HttpRequest& request;
  std::int64_t id = 0;               // the {id} of the path, if it has one
  std::string token;                 // the {token} of the path, if it has one
  std::string rest;                  // what {rest} matched: the path after a prefix
  std::optional<Identity> identity;  // always set for Access::Account
};

using RouteHandler = std::function<HttpResponse(const RouteCall&)>;

struct Route {
  std::string method;  // "GET" (which also answers HEAD) or "POST"
  // Segments separated by '/': literal text, "{id}" (a positive integer), "{token}" (any one
  // non-empty segment) or, last, "{rest}" (the rest of the path, possibly empty).
  std::string pattern;
  Access access = Access::Anyone;
  RouteHandler handler;
  // What a path whose {id} is not a number is answered (the same as an id that does not exist).
  std::string not_found = "no such game";
  // A state change authorised by the secret {token} of its path alone, which mail programs
  // send from anywhere with a form body (one-click unsubscribe, RFC 8058): neither the origin
  // nor the body type is checked.
  bool token_authorised = false;
};

// The checks every request to a route passes before its handler, supplied by the API.
struct RouteChecks {
  // True when a request that may change state comes from this server's own pages.
  std::function<bool(const HttpRequest&)> is_same_origin;
  // The caller's identity from the session cookie, or nothing.
  std::function<std::optional<Identity>(const HttpRequest&)> authenticate;
};

class Router {
 public:
  Router(std::vector<Route> routes, RouteChecks checks);

  // The answer to `request` (its path starts with /api/): 404 for an unknown path, 405 (with
  // Allow) for a method the path does not take, 403 for a state change from another site,
  // 415 for a body that is not JSON, 401 for a route that needs a login; else the handler's.
  HttpResponse dispatch(const HttpRequest& request) const;

  const std::vector<Route>& routes() const { return routes_; }

 private:
  std::vector<Route> routes_;
  RouteChecks checks_;
};

// True for the methods that never change state (GET and HEAD).
bool is_safe_method(std::string_view method);

}  // namespace blockfog::server
