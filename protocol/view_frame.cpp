#include "protocol/view_frame.h"

#include <nlohmann/json.hpp>

#include "protocol/messages.h"

namespace blockfog::protocol {

namespace {

// nlohmann writes object keys sorted: log_from, ref, seq, stale, type, v, then the body's key
// (view, view_patch).
std::string head(std::string_view type, std::int64_t seq, std::int64_t log_from,
                 const std::optional<std::string>& ref, bool stale) {
  std::string out;
  out.reserve(96);
  out += R"({"log_from":)";
  out += std::to_string(log_from);
  if (ref) {
    out += R"(,"ref":)";
    // A ref is short, so the DOM for its escaping costs nothing worth avoiding.
    out += nlohmann::json(*ref).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  out += R"(,"seq":)";
  out += std::to_string(seq);
  if (stale) out += R"(,"stale":true)";
  out += R"(,"type":")";
  out += type;
  out += R"(","v":)";
  out += std::to_string(kVersion);
  out += R"(,")";
  out += type;  // the body's key is the type's name
  out += R"(":)";
  return out;
}

}  // namespace

std::string encode_view_head(std::int64_t seq, std::int64_t log_from,
                             const std::optional<std::string>& ref, bool stale) {
  return head("view", seq, log_from, ref, stale);
}

std::string encode_view_patch_head(std::int64_t seq, std::int64_t log_from,
                                   const std::optional<std::string>& ref) {
  return head("view_patch", seq, log_from, ref, false);
}

std::string encode_view(std::int64_t seq, std::string_view view_json, std::int64_t log_from,
                        const std::optional<std::string>& ref, bool stale) {
  std::string out = encode_view_head(seq, log_from, ref, stale);
  out.reserve(out.size() + view_json.size() + kViewFrameTail.size());
  out += view_json;
  out += kViewFrameTail;
  return out;
}

}  // namespace blockfog::protocol
