#pragma once

// The published facts of the game (RULES 1), loaded from the embedded game-data.json into
// typed tables with small integer ids. Everything here is immutable after loading.

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "rules/core/role.h"

namespace blockfog::hots {

using Side = core::Role;  // Scotland or England

using AreaId = std::uint8_t;
using BorderId = std::uint8_t;
using BlockId = std::uint8_t;
using CardId = std::uint8_t;

inline constexpr int kAreaCount = 23;      // RULES 1.1.1
inline constexpr int kBorderCount = 49;    // RULES 1.2.1
inline constexpr int kBlockCount = 56;     // RULES 1.3.1
inline constexpr int kBlocksPerSide = 28;  // Scotland's blocks first, then England's
inline constexpr int kCardCount = 25;      // RULES 1.7
inline constexpr int kNobleCount = 13;     // two-block nobles, RULES 1.4.1
inline constexpr int kMaxNeighbors = 8;

inline constexpr std::uint8_t kNone = 0xff;

enum class BorderType : std::uint8_t { Black, Red };

enum class BlockType : std::uint8_t {
  Wallace,
  King,
  Infantry,
  Cavalry,
  Archers,
  Norse,
  FrenchKnights,
  Moray,
  Noble,
  Edward,
  Knights,
  Hobelars,
};

enum class Faction : std::uint8_t { None, Bruce, Comyn };

enum class CardKind : std::uint8_t { Move, Event };
enum class EventKind : std::uint8_t { None, Herald, Pillage, SeaMove, Truce, Victuals };

struct Neighbor {
  AreaId area;
  BorderId border;
};

struct AreaInfo {
  std::string id;
  std::string name;
  bool is_england = false;
  int castle_limit = 0;
  int scottish_castle_limit = 0;  // printed limit + 1 for a cathedral (RULES 1.1.3)
  bool cathedral = false;
  bool coastal = false;
  std::vector<Neighbor> neighbors;
  std::array<int, 2> map_xy{};
};

struct BorderInfo {
  std::string id;
  std::array<AreaId, 2> areas{};
  BorderType type = BorderType::Black;
  int limit = 6;
  bool must_stop = false;       // red borders stop a moving block (RULES 1.2.2)
  bool anglo_scottish = false;  // touches England (RULES 1.2.3)
};

struct BlockInfo {
  std::string id;
  std::string name;
  Side owner = Side::Scotland;
  BlockType type = BlockType::Infantry;
  int movement = 0;  // 0 for the Norse, which never move by land (RULES 4.10)
  char initiative = 'C';
  int fire = 0;
  int max_strength = 0;
  bool black_cross = false;
  bool celtic = false;
  int noble = -1;             // index into GameData::nobles for two-block nobles, else -1
  BlockId twin = kNone;       // the other side's block of the same noble
  std::vector<AreaId> homes;  // nobles and Moray (RULES 1.1.5)
  Faction faction = Faction::None;
};

struct NobleInfo {
  std::string key;  // "bruce", "mar", ...
  std::string name;
  std::array<BlockId, 2> blocks{};  // indexed by side
  Faction faction = Faction::None;
};

struct CardInfo {
  std::string id;
  CardKind kind = CardKind::Move;
  int value = 0;  // move cards: 1-3
  EventKind event = EventKind::None;
  std::string name;
};

struct Placement {
  BlockId block;
  AreaId area;
};

struct SideSetup {
  std::vector<Placement> on_map;
  std::vector<BlockId> draw_pool;
  std::vector<BlockId> not_in_play;  // off-map blocks and unused twins
  std::vector<BlockId> dead;
};

struct ScenarioInfo {
  std::string id;
  std::string name;
  int start_year = 0;
  int end_year = 0;
  int backstop_end_year = 0;  // Campaign only (RULES 12.3.4); equals end_year otherwise
  bool king_crowned = false;
  bool tie_break_by_wallace = false;  // Braveheart only (RULES 12.1.3)
  int initial_levy = 0;
  std::array<SideSetup, 2> sides;  // indexed by side
};

class GameDataError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct GameData {
  std::vector<AreaInfo> areas;
  std::vector<BorderInfo> borders;
  std::vector<BlockInfo> blocks;
  std::vector<NobleInfo> nobles;
  std::vector<CardInfo> cards;
  std::vector<ScenarioInfo> scenarios;
  AreaId england = kNone;
  BlockId moray = kNone;
  BlockId norse = kNone;
  BlockId wallace = kNone;
  BlockId king = kNone;
  BlockId edward = kNone;
  BlockId french_knights = kNone;
  // border_between[a][b] is the border joining a and b, or kNone.
  std::array<std::array<BorderId, kAreaCount>, kAreaCount> border_between{};

  std::optional<AreaId> area_by_id(std::string_view id) const;
  std::optional<BorderId> border_by_id(std::string_view id) const;
  std::optional<BlockId> block_by_id(std::string_view id) const;
  std::optional<CardId> card_by_id(std::string_view id) const;
  std::optional<int> scenario_by_id(std::string_view id) const;

  // Throws GameDataError naming the problem when the JSON is malformed or its counts are off.
  static GameData parse(std::string_view json_text);
};

const GameData& load_embedded_game_data();

// The game data embedded at build time, parsed and checked once.
inline const GameData& game_data() {
  static const GameData& data = load_embedded_game_data();
  return data;
}

std::string_view embedded_game_data_json();

}  // namespace blockfog::hots
