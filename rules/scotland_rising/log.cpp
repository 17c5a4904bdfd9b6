#include "rules/scotland_rising/log.h"

namespace blockfog::scotland_rising {

void add_log(State& s, std::string line) { s.log.push_back(std::move(line)); }

std::string unit_label(const State& s, int u) {
  const auto& data = s.unit(u);
  std::string label = data.side == Role::Scotland ? "Scots " : "English ";
  label += unit_type_name(data.type);
  label += " " + data.id;
  if (!data.name.empty()) label += " (" + data.name + ")";
  return label;
}

}  // namespace blockfog::scotland_rising
