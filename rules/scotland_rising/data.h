#pragma once

// The board, the order of battle and the tables of one scenario, read from a data file of the
// schema in docs/scotland-rising.md ("The data file"). The variant board is embedded at build
// time; another file of the same schema loads with no code change.

#include <array>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "rules/core/role.h"

namespace blockfog::scotland_rising {

using core::Role;

class DataError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Rulebook 2, terrain chart; the village is R1.
enum class Terrain : std::uint8_t { Clear, Woods, Potholes, Burn, Bridge, Swamp, Village };
inline constexpr int kTerrainCount = 7;

// Rulebook 3.
enum class UnitType : std::uint8_t { Pike, Ax, Longbow, Crossbow, Knight, Hobelar, Leader };
inline constexpr int kUnitTypeCount = 7;

// Optional rule 2, the Battle Events Table (R13): what a result of two dice does this turn.
enum class Event : std::uint8_t {
  None,
  RallyTwo,      // rally two units without a roll or a leader
  PikeAdvance,   // up to 3 pike move 1 hex and attack for 1 AP each
  LongbowRange,  // longbows +1 hex of range
  FootMove,      // pike, ax, longbow, crossbow +1 movement
  HorseMove,     // knight, leader, hobelar +1 movement
  PikeDie,       // pike not in schiltron +1 attack die
  ChargeDie,     // charging units +1 attack die
  LongbowDie,    // longbows +1 attack die
};

std::string_view terrain_name(Terrain terrain);
std::string_view unit_type_name(UnitType type);
std::string_view event_name(Event event);

struct Values {
  int dice = 0;  // dice rolled when attacking
  int hit = 0;   // the lowest face that hits this unit
  int move = 0;  // movement allowance
};

struct UnitData {
  std::string id;
  std::string name;  // the leader named on the counter
  Role side = Role::Scotland;
  UnitType type = UnitType::Pike;
  Values full;
  std::optional<Values> reduced;  // none: one hit eliminates it (crossbows, leaders)
  int vp = 0;                     // rulebook 11: what its elimination scores
  bool commander = false;         // R. Bruce or Edward II: its loss costs command AP (9)
  int start_hex = -1;             // from the setup letters (rulebook 4)
};

struct SetupLetter {
  int hex = -1;
  Role side = Role::Scotland;
  std::string letter;  // P A L C K H, or a leader's name
};

struct Data {
  std::string scenario;
  std::string title;
  std::string variant_note;  // says that an invented board is not the published map
  int columns = 0;
  int rows = 0;
  std::vector<Terrain> terrain;  // by hex index: row * columns + column
  std::vector<std::pair<int, std::string>> hex_names;
  int blue_row = 0;  // 0-based: the Scots set up freely on or north of it (rulebook 4)
  int red_row = 0;   // 0-based: the English on or south of it
  int exit_hex = -1;
  int turns = 0;
  std::array<int, 2> start_vp{};
  std::array<std::vector<int>, 2> command_ap;  // by side, by turn (rulebook 6)
  int commander_loss_ap = 0;
  std::array<int, 6> random_ap{};  // by face of the random AP die
  std::array<Event, 13> events{};  // by the sum of two dice, 2-12 (R13)
  std::vector<UnitData> units;
  std::vector<SetupLetter> setup;
  std::vector<std::vector<int>> adjacent;  // by hex: its neighbours (board.h)
  nlohmann::json source;                   // the file as read, for the view

  int hex_count() const { return columns * rows; }
  std::string hex_id(int hex) const;
  std::optional<int> hex_index(std::string_view id) const;
  std::optional<int> unit_index(std::string_view id) const;

  // Reads and checks a data file; DataError says what is wrong.
  static std::shared_ptr<const Data> parse(const nlohmann::json& file);
};

// The variant board shipped with the module (data/variant-board.json).
std::shared_ptr<const Data> variant_board();
std::string_view embedded_variant_board_json();

}  // namespace blockfog::scotland_rising
