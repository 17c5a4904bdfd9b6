#include "tests/protocol/mini_schema.h"

#include <regex>
#include <set>

namespace blockfog::protocol::testing {
namespace {

using nlohmann::json;

bool has_type(const json& v, const std::string& type) {
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "string") return v.is_string();
  if (type == "integer") return v.is_number_integer();
  if (type == "number") return v.is_number();
  if (type == "boolean") return v.is_boolean();
  if (type == "null") return v.is_null();
  return false;
}

// Characters, not bytes, as JSON Schema counts them.
std::size_t code_points(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

void check(const json& schema, const json& v, const std::string& at,
           std::vector<std::string>& errors) {
  static const std::set<std::string> kKnown = {
      "$schema", "$id",     "title",    "description", "type",
      "const",   "enum",    "required", "properties",  "additionalProperties",
      "items",   "minimum", "maximum",  "minLength",   "maxLength",
      "pattern"};
  for (const auto& [key, unused] : schema.items()) {
    if (!kKnown.contains(key)) errors.push_back(at + ": unsupported keyword " + key);
  }
  auto fail = [&](const std::string& what) { errors.push_back(at + ": " + what); };
  if (schema.contains("type")) {
    const json& t = schema["type"];
    bool ok = false;
    if (t.is_string()) ok = has_type(v, t);
    for (const auto& one : t.is_array() ? t : json::array()) ok = ok || has_type(v, one);
    if (!ok) return fail("wrong type, expected " + t.dump());
  }
  if (schema.contains("const") && v != schema["const"]) fail("not " + schema["const"].dump());
  if (schema.contains("enum")) {
    bool found = false;
    for (const auto& e : schema["enum"]) found = found || e == v;
    if (!found) fail(v.dump() + " not in enum");
  }
  if (v.is_number()) {
    if (schema.contains("minimum") && v.get<double>() < schema["minimum"].get<double>()) {
      fail("below minimum");
    }
    if (schema.contains("maximum") && v.get<double>() > schema["maximum"].get<double>()) {
      fail("above maximum");
    }
  }
  if (v.is_string()) {
    const auto s = v.get<std::string>();
    if (schema.contains("minLength") && code_points(s) < schema["minLength"].get<std::size_t>()) {
      fail("too short");
    }
    if (schema.contains("maxLength") && code_points(s) > schema["maxLength"].get<std::size_t>()) {
      fail("too long");
    }
    if (schema.contains("pattern") &&
        !std::regex_search(s, std::regex(schema["pattern"].get<std::string>()))) {
      fail("does not match " + schema["pattern"].get<std::string>());
    }
  }
  if (v.is_object()) {
    for (const auto& name : schema.value("required", json::array())) {
      if (!v.contains(name.get<std::string>())) fail("missing " + name.get<std::string>());
    }
    const json properties = schema.value("properties", json::object());
    for (const auto& [key, value] : v.items()) {
      if (properties.contains(key)) {
        check(properties[key], value, at + "." + key, errors);
      } else if (const auto extra = schema.find("additionalProperties"); extra != schema.end()) {
        if (extra->is_object()) {
          check(*extra, value, at + "." + key, errors);
        } else if (*extra == false) {
          fail("unexpected property " + key);
        }
      }
    }
  }
  if (v.is_array() && schema.contains("items")) {
    for (std::size_t i = 0; i < v.size(); ++i) {
      check(schema["items"], v[i], at + "[" + std::to_string(i) + "]", errors);
    }
  }
}

}  // namespace

std::vector<std::string> validate(const json& schema, const json& value) {
  std::vector<std::string> errors;
  check(schema, value, "$", errors);
  return errors;
}

}  // namespace blockfog::protocol::testing
