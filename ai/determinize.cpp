#include "ai/determinize.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string>

#include "rules/hots/data.h"
#include "rules/hots/engine.h"
#include "rules/hots/module.h"
#include "rules/hots/serialize.h"

namespace blockfog::ai {

namespace {

using hots::game_data;
using nlohmann::json;

constexpr int kDraws = 8;  // draws tried before giving up on a view

}  // namespace

bool in_combat_turn(const json& view) {
  if (view.value("phase", "") != "combat") return false;
  const auto battle = view.find("battle");
  return battle != view.end() && battle->is_object() && !battle->contains("victor") &&
         battle->value("hits_to_allocate", 0) == 0;
}

bool can_determinize(const json& view) {
  const auto phase = view.value("phase", "");
  if (phase == "move") {
    // A block of the seat's own in the middle of its move (RULES 4.3.7): the view names it.
    return !view.contains("move") || !view["move"].contains("moving") ||
           view["move"]["moving"].contains("block");
  }
  if (phase == "combat") return in_combat_turn(view);
  return phase == "card_choice" || phase == "battle_choice" || phase == "hit_allocation" ||
         phase == "mandatory_retreat" || phase == "regroup" || phase == "border_raid" ||
         phase == "winter" || phase == "event";
}

namespace {

// The view minus what a sample cannot and need not reproduce: the log (the sample has none),
// the undo offer (the sample has no undo points).
json comparable(json view) {
  view.erase("log");
  view.erase("log_size");
  if (view.contains("legal_actions")) {
    auto& actions = view["legal_actions"];
    actions.erase(std::remove_if(actions.begin(), actions.end(),
                                 [](const json& a) { return a.value("kind", "") == "undo"; }),
                  actions.end());
  }
  return view;
}

// The seat's legal actions in `s`, the undo offer aside, equal `wanted`.
bool offers_exactly(const hots::State& s, core::Role role,
                    const std::vector<hots::Action>& wanted) {
  hots::ActionList list;
  hots::legal_actions(s, role, list);
  std::size_t n = list.size();
  if (n > 0 && list[n - 1].kind == hots::ActionKind::Undo) --n;
  if (n != wanted.size()) return false;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(list[i] == wanted[i])) return false;
  }
  return true;
}

// The areas where the blocks the wanted actions name stand in `s`, in area order.
std::vector<hots::AreaId> areas_named(const hots::State& s,
                                      const std::vector<hots::Action>& wanted) {
  std::set<hots::AreaId> out;
  for (const auto& a : wanted) {
    switch (a.kind) {
      case hots::ActionKind::SeaMove:
      case hots::ActionKind::Victual:
      case hots::ActionKind::Gain:
      case hots::ActionKind::TakeHit:
      case hots::ActionKind::AddStep:
        if (a.a < hots::kBlockCount && s.blocks.loc[a.a] < hots::kAreaCount) {
          out.insert(s.blocks.loc[a.a]);
        }
        break;
      case hots::ActionKind::Draw:
        out.insert(a.a);
        break;
      default:
        break;
    }
  }
  return {out.begin(), out.end()};
}

// The winter's bookkeeping (RULES 10, 13.1.4: the others see one "winter" step): which step,
// the Bruce or Comyn block whose home is chosen, which questions were answered (Edward's
// wintering, Moray's and the King's moves, Wallace's), the replacement points left. Candidates
// from the fewest answers up; the first that offers exactly the seat's actions is kept.
bool settle_winter(hots::State& s, core::Role role, const std::vector<hots::Action>& wanted,
                   bool homecoming) {
  using hots::WinterStep;
  const auto& data = game_data();
  const auto side = static_cast<hots::Side>(core::side_index(role));
  std::vector<WinterStep> steps;
  if (homecoming) {
    steps = {WinterStep::NobleHome};
  } else if (side == hots::Side::Scotland) {
    steps = {WinterStep::ScotlandHomes, WinterStep::ScotlandWallace, WinterStep::ScotlandDisband,
             WinterStep::ScotlandBuild};
  } else {
    steps = {WinterStep::EnglandDisband, WinterStep::EnglandBuild};
  }
  // Two-home nobles in the order of the homecoming (10.1.2): England's Bruce and Comyn, then
  // Scotland's.
  std::vector<std::pair<hots::BlockId, int>> two_home;
  for (const int s_index : {1, 0}) {
    for (std::size_t n = 0; n < data.nobles.size(); ++n) {
      const auto b = data.nobles[n].blocks[s_index];
      if (data.blocks[b].homes.size() == 2) two_home.push_back({b, static_cast<int>(n)});
    }
  }
  std::array<std::uint8_t, hots::kAreaCount> points{};
  for (const auto a : areas_named(s, wanted)) {
    points[a] =
        static_cast<std::uint8_t>(side == hots::Side::Scotland ? data.areas[a].scottish_castle_limit
                                                               : data.areas[a].castle_limit);
  }
  std::vector<int> answers(48);
  for (int i = 0; i < 48; ++i) answers[i] = i;
  // An answer set: Edward's question (bits % 3: not asked, answered "stays", "winters"), then a
  // bit each for Moray's, the King's and Wallace's moves and Edward's wintering last year.
  const auto answered = [](int bits) {
    return (bits % 3 > 0) + ((bits / 3) & 1) + ((bits / 6) & 1) + ((bits / 12) & 1) +
           ((bits / 24) & 1);
  };
  std::stable_sort(answers.begin(), answers.end(),
                   [&](int x, int y) { return answered(x) < answered(y); });
  for (const auto step : steps) {
    std::vector<std::pair<hots::BlockId, std::uint16_t>> homing = {{hots::kNone, 0}};
    if (step == WinterStep::NobleHome) {
      homing.clear();
      std::uint16_t placed = 0;
      for (const auto& [b, noble] : two_home) {
        placed = static_cast<std::uint16_t>(placed | (1U << noble));
        if (hots::owner_of(b) == side && hots::on_map(s, b)) homing.push_back({b, placed});
      }
    }
    for (const auto& [block, placed] : homing) {
      for (const int bits : answers) {
        hots::WinterState w{};
        w.step = step;
        w.homing = block;
        w.placed = placed;
        const int edward = bits % 3;
        w.edward_decided = edward > 0;
        w.edward_winters = edward == 2;
        w.moray_moved = (bits / 3) & 1;
        w.king_moved = (bits / 6) & 1;
        w.wallace_moved = (bits / 12) & 1;
        if (step == WinterStep::ScotlandBuild || step == WinterStep::EnglandBuild) w.rp = points;
        s.winter = w;
        s.edward_wintered_last = (bits / 24) & 1;
        if (offers_exactly(s, role, wanted)) return true;
      }
    }
  }
  return false;
}

// The event's stage (RULES 7, 13.1.4: the others see one "event" step, or "pillage losses"):
// the first decision of the card, the noble to name after the Herald's roll, a pillage's losses
// or gains, the second block of a Sea Move, more Victuals. Its areas come from the blocks the
// seat's actions name; candidates in that order, the first that offers exactly the seat's
// actions is kept.
bool settle_event(hots::State& s, core::Role role, const std::vector<hots::Action>& wanted) {
  using hots::EventStage;
  using hots::EventState;
  const auto& data = game_data();
  const std::uint8_t me = static_cast<std::uint8_t>(core::side_index(role));
  auto named = areas_named(s, wanted);
  if (named.empty()) {
    for (hots::AreaId a = 0; a < hots::kAreaCount; ++a) {
      if (hots::any_in_area(s, a, static_cast<hots::Side>(me))) named.push_back(a);
    }
  }
  std::set<hots::AreaId> around;  // a pillage's target next to the receiving areas
  for (const auto a : named) {
    for (const auto& n : data.areas[a].neighbors) around.insert(n.area);
  }
  hots::AreaId to = hots::kNone;
  for (const auto& a : wanted) {
    if (a.kind == hots::ActionKind::SeaMove) to = a.b;
  }
  std::vector<EventState> candidates = {EventState{}, EventState{EventStage::HeraldName}};
  for (const auto a : named) {
    candidates.push_back({EventStage::SeaMove, a, to, 1, 0, 0});
    for (std::uint8_t count = 1; count <= 3; ++count) {
      candidates.push_back({EventStage::Victuals, a, hots::kNone, count, 0, 0});
    }
    for (std::uint8_t hits = 0; hits <= 2; ++hits) {  // 7.3.2: two hits
      for (std::uint8_t inflicted = 0; inflicted + hits <= 2; ++inflicted) {
        candidates.push_back({EventStage::PillageLosses, a, hots::kNone, 0, hits, inflicted});
      }
    }
  }
  for (const auto target : around) {
    for (std::uint8_t inflicted = 1; inflicted <= 2; ++inflicted) {
      for (std::uint8_t count = 0; count < inflicted; ++count) {
        candidates.push_back({EventStage::PillageGains, target, hots::kNone, count, 0, inflicted});
        for (const auto a : named) {
          if (count > 0) {
            candidates.push_back({EventStage::PillageGains, target, a, count, 0, inflicted});
          }
        }
      }
    }
  }
  for (const auto& candidate : candidates) {
    s.event = candidate;
    // A pillage's losses wait for the victim; the player turn is the pillager's (7.3.2).
    const std::uint8_t player = candidate.stage == EventStage::PillageLosses ? 1 - me : me;
    s.player_turn = s.p1 != hots::kNone && player != s.p1 ? 1 : 0;
    if (offers_exactly(s, role, wanted)) return true;
  }
  return false;
}

// The phase's own bookkeeping that the view does not spell out, settled so that the sample
// offers exactly the seat's actions; false when no candidate does.
bool settle(hots::State& s, const json& view, core::Role role,
            const std::vector<hots::Action>& wanted) {
  if (s.phase == hots::Phase::Winter) {
    return settle_winter(s, role, wanted,
                         view.value("phase_text", "").find("homecoming") != std::string::npos);
  }
  if (s.phase == hots::Phase::Event) return settle_event(s, role, wanted);
  return offers_exactly(s, role, wanted);
}

}  // namespace

std::optional<hots::State> determinize(const json& view, const std::vector<json>& history,
                                       Random& random) {
  if (!can_determinize(view)) return std::nullopt;
  const auto wanted = comparable(view);
  const auto role = *core::role_from_name(view.at("role").get<std::string>());
  std::vector<hots::Action> wanted_actions;
  for (const auto& a : wanted.at("legal_actions")) {
    std::string error;
    const auto action = hots::action_from_json(a, error);
    if (!action) return std::nullopt;
    wanted_actions.push_back(*action);
  }
  for (int draw = 0; draw < kDraws; ++draw) {
    try {
      auto state = hots::state_from_json(sample_state_json(view, history, random));
      if (!settle(state, view, role, wanted_actions)) continue;
      auto game = hots::module().from_json(hots::to_json(state));
      if (!game.game) continue;
      if (comparable(game.game->view(role)) != wanted) continue;
      return state;
    } catch (const std::exception&) {
      continue;
    }
  }
  return std::nullopt;
}

}  // namespace blockfog::ai
