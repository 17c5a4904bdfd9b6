#include "rules/scotland_rising/turn.h"

#include <algorithm>
#include <string>

#include "rules/scotland_rising/log.h"

namespace blockfog::scotland_rising {
namespace {

std::string side_name(Role side) { return side == Role::Scotland ? "Scotland" : "England"; }

// The start of a side's turn: the Scots may first announce a Scots Charge (R9, before the
// random AP die); otherwise the AP are determined at once.
void begin_side_turn(State& s, Role side) {
  s.pos.side = side;
  s.pos.ap = 0;
  if (side == Role::Scotland && !s.pos.scots_charge_used) {
    s.pos.phase = Phase::ScotsAp;
    return;
  }
  roll_ap(s);
}

void game_over(State& s) {
  s.pos.phase = Phase::GameOver;
  s.pos.ap = 0;
  const int scots = s.pos.vp[0], english = s.pos.vp[1];
  add_log(s, "The game ends after turn " + std::to_string(s.pos.turn) + ": Scotland " +
                 std::to_string(scots) + " VP, England " + std::to_string(english) + " VP, " +
                 (scots == english
                      ? std::string("a draw")
                      : side_name(scots > english ? Role::Scotland : Role::England) + " wins"));
}

}  // namespace

State setup(const core::Seed& seed, std::shared_ptr<const Data> data, const Options& options) {
  State s;
  s.data = std::move(data);
  s.options = options;
  s.rng = core::Rng(seed);
  s.pos.units.resize(s.data->units.size());
  for (std::size_t u = 0; u < s.pos.units.size(); ++u) {
    const int hex = options.freeform_setup ? -1 : s.data->units[u].start_hex;
    s.pos.units[u].hex = s.pos.units[u].start_hex = hex;
  }
  rebuild_occupancy(s);
  s.pos.vp = s.data->start_vp;
  s.pos.phase = Phase::Setup;
  s.pos.side = Role::Scotland;
  s.pos.turn = 1;
  add_log(s, s.data->title + (s.data->variant_note.empty() ? "" : " - " + s.data->variant_note));
  add_log(s, options.freeform_setup ? "Free-form setup: Scotland sets up first"
                                    : "Scotland chooses which pike start in schiltron");
  return s;
}

void finish_setup(State& s) {
  if (s.pos.side == Role::Scotland && s.options.freeform_setup) {
    s.pos.side = Role::England;
    add_log(s, "England sets up");
    return;
  }
  add_log(s, "Turn 1");
  begin_side_turn(s, Role::Scotland);
}

void roll_ap(State& s) {
  const Data& d = *s.data;
  const Role side = s.pos.side;
  const int i = side_index(side);
  const int command =
      std::max(0, d.command_ap[i][s.pos.turn - 1] - s.pos.commanders_lost[i] * d.commander_loss_ap);
  const int die = s.rng.roll_die();
  const int random = d.random_ap[die - 1];
  s.pos.ap = command + random;
  add_log(s, side_name(side) + " rolls " + std::to_string(die) +
                 " for AP: " + std::to_string(command) + " + " + std::to_string(random) + " = " +
                 std::to_string(s.pos.ap) + " AP" +
                 (s.pos.scots_charge_now ? " (Scots Charge turn)" : ""));
  s.pos.event = Event::None;
  s.pos.event_uses = 0;
  // R13: the Battle Events Table on an AP die of 1 (1 or 2 with the solitaire frequency).
  if (s.options.battle_events && (die == 1 || (s.options.solitaire_events && die == 2))) {
    const int a = s.rng.roll_die(), b = s.rng.roll_die();
    s.pos.event = d.events[a + b];
    add_log(s, side_name(side) + " rolls " + std::to_string(a) + "+" + std::to_string(b) +
                   " on the Battle Events Table: " + std::string(event_name(s.pos.event)));
  }
  for (std::size_t u = 0; u < s.pos.units.size(); ++u) {
    auto& unit = s.pos.units[u];
    if (d.units[u].side == side) {
      unit.disordered = false;  // rulebook 5, steps 2 and 5
      unit.acted = false;
    }
    unit.start_hex = unit.hex;  // R7, and the charge and rally conditions of rulebook 8
  }
  s.pos.phase = Phase::Actions;
}

void end_turn(State& s) {
  s.pos.scots_charge_now = false;
  s.pos.event = Event::None;
  s.pos.event_uses = 0;
  for (auto& unit : s.pos.units) unit.acted = false;
  if (s.pos.side == Role::Scotland) {
    begin_side_turn(s, Role::England);
    return;
  }
  if (s.pos.turn >= s.data->turns) {  // R12
    game_over(s);
    return;
  }
  ++s.pos.turn;
  add_log(s, "Turn " + std::to_string(s.pos.turn));
  begin_side_turn(s, Role::Scotland);
}

}  // namespace blockfog::scotland_rising
