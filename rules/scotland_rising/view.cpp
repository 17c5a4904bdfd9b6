#include "rules/scotland_rising/view.h"

#include <algorithm>

#include "rules/scotland_rising/engine.h"
#include "rules/scotland_rising/legal.h"
#include "rules/scotland_rising/serialize.h"

namespace blockfog::scotland_rising {

std::size_t write_view(const State& s, Role role, std::size_t log_from, std::string& out,
                       core::ViewLayout* layout) {
  using nlohmann::json;
  const auto outcome = scotland_rising::outcome(s);
  json view = position_to_json(*s.data, s.pos);
  view["game"] = "scotland_rising";
  view["scenario"] = s.data->scenario;
  view["role"] = core::role_name(role);
  view["variant_note"] = s.data->variant_note;
  view["board"] = s.data->source;
  view["options"] = options_to_json(s.options);
  view["can_undo"] = !s.undo.empty() && role == s.pos.side;
  // What the seat may do now, in the form apply takes (empty when it is not awaited): the
  // client offers only these, and the computer chooses among them.
  json legal = json::array();
  for (const auto& a : legal_actions(s, role)) legal.push_back(action_to_json(*s.data, a));
  view["legal_actions"] = std::move(legal);
  json awaiting = json::array();
  for (Role r : active_roles(s)) awaiting.push_back(core::role_name(r));
  view["awaiting"] = std::move(awaiting);
  view["outcome"] = {{"finished", outcome.finished},
                     {"winner", outcome.winner ? json(core::role_name(*outcome.winner)) : json()},
                     {"reason", outcome.reason}};
  const std::size_t from = std::min(log_from, s.log.size());
  view["log"] =
      std::vector<std::string>(s.log.begin() + static_cast<std::ptrdiff_t>(from), s.log.end());
  view["log_size"] = s.log.size();
  out = view.dump();
  if (layout) core::scan_view_layout(out, *layout);
  return s.log.size();
}

}  // namespace blockfog::scotland_rising
