#include "protocol/fields.h"

namespace blockfog::protocol {
namespace {

using nlohmann::json;

// Nesting depth, bounded so that a hostile document of many '[' cannot exhaust the stack of
// anything that walks it later.
bool within_depth(std::string_view text, int max_depth) {
  int depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return false;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return true;
}

}  // namespace

FieldReader::FieldReader(const json& object) : object_(object) {}

void FieldReader::fail(ErrorCode code, std::string message) {
  if (!error_) error_ = DecodeError{code, std::move(message)};
}

const json* FieldReader::find(std::string_view name, Need need) {
  if (error_) return nullptr;
  read_.emplace(name);
  const auto it = object_.find(std::string(name));
  if (it == object_.end() || (it->is_null() && need == Need::Optional)) {
    if (need == Need::Required)
      fail(ErrorCode::MissingField, "missing field '" + std::string(name) + "'");
    return nullptr;
  }
  return &*it;
}

std::optional<std::int64_t> FieldReader::integer(std::string_view name, Need need, std::int64_t min,
                                                 std::int64_t max) {
  const json* v = find(name, need);
  if (!v) return std::nullopt;
  if (!v->is_number_integer() ||
      (v->is_number_unsigned() &&
       v->get<std::uint64_t>() >
           static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))) {
    fail(ErrorCode::BadField, "field '" + std::string(name) + "' must be an integer");
    return std::nullopt;
  }
  const auto n = v->get<std::int64_t>();
  if (n < min || n > max) {
    fail(ErrorCode::BadField, "field '" + std::string(name) + "' is out of range [" +
                                  std::to_string(min) + ", " + std::to_string(max) + "]");
    return std::nullopt;
  }
  return n;
}

std::optional<std::string> FieldReader::string(std::string_view name, Need need,
                                               std::size_t max_bytes) {
  const json* v = find(name, need);
  if (!v) return std::nullopt;
  if (!v->is_string()) {
    fail(ErrorCode::BadField, "field '" + std::string(name) + "' must be a string");
    return std::nullopt;
  }
  auto s = v->get<std::string>();
  if (s.size() > max_bytes) {
    fail(ErrorCode::BadField, "field '" + std::string(name) + "' is longer than " +
                                  std::to_string(max_bytes) + " bytes");
    return std::nullopt;
  }
  return s;
}

std::optional<bool> FieldReader::boolean(std::string_view name, Need need) {
  const json* v = find(name, need);
  if (!v) return std::nullopt;
  if (!v->is_boolean()) {
    fail(ErrorCode::BadField, "field '" + std::string(name) + "' must be true or false");
    return std::nullopt;
  }
  return v->get<bool>();
}

const json* FieldReader::value(std::string_view name, Need need) { return find(name, need); }

void FieldReader::reject_unread() {
  if (error_) return;
  for (const auto& [key, unused] : object_.items()) {
    if (!read_.contains(key)) {
      fail(ErrorCode::BadField, "unexpected field '" + key + "'");
      return;
    }
  }
}

std::variant<json, DecodeError> parse_object(std::string_view text, std::size_t max_bytes,
                                             int max_depth) {
  if (text.size() > max_bytes) {
    return DecodeError{ErrorCode::FrameTooLarge,
                       "message longer than " + std::to_string(max_bytes) + " bytes"};
  }
  if (!within_depth(text, max_depth)) {
    return DecodeError{ErrorCode::MalformedJson, "JSON nested too deeply"};
  }
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return DecodeError{ErrorCode::MalformedJson, "not valid JSON"};
  if (!j.is_object()) return DecodeError{ErrorCode::MalformedJson, "not a JSON object"};
  return j;
}

}  // namespace blockfog::protocol
