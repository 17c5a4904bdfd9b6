#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace blockfog::protocol::testing {

// The subset of JSON Schema (2020-12) that protocol/schema/v1 uses: type, const, enum,
// required, properties, additionalProperties (boolean), items, minimum, maximum, minLength,
// maxLength, pattern. Any other keyword is reported, so a schema cannot silently rely on one.
std::vector<std::string> validate(const nlohmann::json& schema, const nlohmann::json& value);

}  // namespace blockfog::protocol::testing
