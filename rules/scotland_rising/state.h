#pragma once

// The state of a game of Scotland Rising: every game fact in `Position` (what undo restores),
// with the seeded generator, the log and the undo points in `State`.

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rules/core/rng.h"
#include "rules/scotland_rising/data.h"

namespace blockfog::scotland_rising {

// The scenario options (docs/scotland-rising.md, "Options").
struct Options {
  bool longbows_vs_schiltron = false;  // optional rule 1
  bool battle_events = false;          // optional rule 2, R13
  bool solitaire_events = false;       // R13: events on an AP die of 1 or 2
  bool freeform_setup = false;         // rulebook 4, optional free-form setup
  bool operator==(const Options&) const = default;
};

struct UnitState {
  int hex = -1;        // -1: not on the board (eliminated, exited, or not yet placed)
  int start_hex = -1;  // where it stood when its side's turn began (R7, charge, rally)
  bool reduced = false;
  bool eliminated = false;
  bool exited = false;  // R11
  bool schiltron = false;
  bool disordered = false;
  bool acted = false;  // it has had its action this turn (rulebook 6)
  bool operator==(const UnitState&) const = default;
};

enum class Phase : std::uint8_t {
  Setup,     // setup: free-form placement, the Scots' schiltron choice (rulebook 4)
  ScotsAp,   // the Scots may announce a Scots Charge before the AP die (R9)
  Actions,   // the side spends its AP (rulebook 5, 6)
  GameOver,  // R12
};

struct Position {
  std::vector<UnitState> units;  // by the data file's unit order
  Phase phase = Phase::Setup;
  Role side = Role::Scotland;  // whose turn (or setup) it is
  int turn = 1;
  int ap = 0;
  std::array<int, 2> vp{};
  std::array<int, 2> commanders_lost{};  // rulebook 9
  bool scots_charge_used = false;        // R9: once a game
  bool scots_charge_now = false;         // R9: this is the Scots Charge turn
  Event event = Event::None;             // R13: this turn's battle event
  int event_uses = 0;                    // pike advances or free rallies taken this turn
  bool operator==(const Position&) const = default;
};

struct UndoPoint {
  Position position;
  std::size_t log_size = 0;
};

struct State {
  std::shared_ptr<const Data> data;
  Options options;
  Position pos;
  core::Rng rng;
  std::vector<std::string> log;
  // Who stands where, kept with every change of a unit's hex (set_hex): by hex, the non-leader
  // unit and the leader there (-1 where none). Derived from `pos`; rebuilt after an undo.
  std::vector<int> unit_at;
  std::vector<int> leader_at;
  // The player's own choices since the last die, the last announced event or the last change
  // of side, newest last: what `undo` takes back.
  std::vector<UndoPoint> undo;

  const UnitData& unit(int u) const { return data->units[u]; }
  Terrain terrain(int hex) const { return data->terrain[hex]; }
};

bool is_leader(const State& s, int u);
// Moves `u` to `hex` (-1: off the board), keeping the occupancy.
void set_hex(State& s, int u, int hex);
// Recomputes the occupancy from the units' hexes.
void rebuild_occupancy(State& s);
bool on_board(const State& s, int u);
// The non-leader unit and the leader in `hex` (-1 where none), of either side.
int unit_in(const State& s, int hex);
int leader_in(const State& s, int hex);
// The side whose units stand in `hex`, if any.
std::optional<Role> side_in(const State& s, int hex);
// Rulebook 3, R4: its values, full or reduced.
const Values& values(const State& s, int u);

}  // namespace blockfog::scotland_rising
