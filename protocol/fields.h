#pragma once

// Reads the fields of an untrusted JSON object with typed errors, shared by the WebSocket
// messages and the HTTP request bodies. The first problem found is kept; later reads then
// return nothing, so a decoder can read every field and check error() once.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "protocol/messages.h"

namespace blockfog::protocol {

enum class Need { Required, Optional };

class FieldReader {
 public:
  // `object` must outlive the reader.
  explicit FieldReader(const nlohmann::json& object);

  std::optional<std::int64_t> integer(std::string_view name, Need need,
                                      std::int64_t min = std::numeric_limits<std::int64_t>::min(),
                                      std::int64_t max = std::numeric_limits<std::int64_t>::max());
  std::optional<std::string> string(std::string_view name, Need need, std::size_t max_bytes);
  std::optional<bool> boolean(std::string_view name, Need need);
  // Any JSON value (nullptr when absent or after an error).
  const nlohmann::json* value(std::string_view name, Need need);
  // Fails with BadField on any field not read so far.
  void reject_unread();

  void fail(ErrorCode code, std::string message);
  bool ok() const { return !error_; }
  const std::optional<DecodeError>& error() const { return error_; }

 private:
  const nlohmann::json* find(std::string_view name, Need need);

  const nlohmann::json& object_;
  std::set<std::string, std::less<>> read_;
  std::optional<DecodeError> error_;
};

// What a decoder returns once every field it knows was read into `decoded`: the first error
// of the reader, or any field left unread (BadField), or `decoded` itself.
template <typename T>
Decoded<T> finish(FieldReader& fields, T decoded) {
  fields.reject_unread();
  if (fields.error()) return *fields.error();
  return decoded;
}

// Parses untrusted text into a JSON object: MalformedJson if it is not one (invalid UTF-8,
// syntax, nesting deeper than `max_depth`), FrameTooLarge if longer than `max_bytes`.
std::variant<nlohmann::json, DecodeError> parse_object(std::string_view text, std::size_t max_bytes,
                                                       int max_depth = 32);

}  // namespace blockfog::protocol
