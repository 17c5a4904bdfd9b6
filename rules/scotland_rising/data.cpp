#include "rules/scotland_rising/data.h"

#include "rules/scotland_rising/board.h"

#include <algorithm>
#include <map>
#include <set>

namespace blockfog::scotland_rising {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& what) {
  throw DataError("scotland rising data: " + what);
}

constexpr std::array<std::string_view, kTerrainCount> kTerrainNames = {
    "clear", "woods", "potholes", "burn", "bridge", "swamp", "village"};
constexpr std::array<std::string_view, kUnitTypeCount> kTypeNames = {
    "pike", "ax", "longbow", "crossbow", "knight", "hobelar", "leader"};
// The letter printed on a setup hex for each type (rulebook 4); leaders go by name.
constexpr std::array<std::string_view, kUnitTypeCount> kTypeLetters = {"P", "A", "L", "C",
                                                                       "K", "H", ""};
constexpr std::array<std::string_view, 9> kEventNames = {
    "none",       "rally_two", "pike_advance", "longbow_range", "foot_move",
    "horse_move", "pike_die",  "charge_die",   "longbow_die"};

template <std::size_t N>
int find_name(const std::array<std::string_view, N>& names, std::string_view name,
              const char* what) {
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == name) return static_cast<int>(i);
  }
  fail(std::string("unknown ") + what + " '" + std::string(name) + "'");
}

Role parse_side(const std::string& side) {
  if (side == "scotland") return Role::Scotland;
  if (side == "england") return Role::England;
  fail("unknown side '" + side + "'");
}

Values parse_values(const json& v, const std::string& unit) {
  Values out{v.at("dice").get<int>(), v.at("hit").get<int>(), v.at("move").get<int>()};
  if (out.dice < 1 || out.dice > 6 || out.hit < 2 || out.hit > 6 || out.move < 1 || out.move > 9) {
    fail("unit " + unit + ": values out of range");
  }
  return out;
}

void parse_units(Data& d, const json& file) {
  std::set<std::string> ids;
  for (const auto& u : file.at("units")) {
    UnitData unit;
    unit.id = u.at("id").get<std::string>();
    if (!ids.insert(unit.id).second) fail("duplicate unit id " + unit.id);
    unit.name = u.value("name", std::string());
    unit.side = parse_side(u.at("side").get<std::string>());
    unit.type =
        static_cast<UnitType>(find_name(kTypeNames, u.at("type").get<std::string>(), "unit type"));
    unit.full = parse_values(u.at("full"), unit.id);
    if (!u.at("reduced").is_null()) unit.reduced = parse_values(u.at("reduced"), unit.id);
    unit.vp = u.at("vp").get<int>();
    unit.commander = u.value("commander", false);
    if (unit.vp < 0) fail("unit " + unit.id + ": negative vp");
    if (unit.commander && unit.type != UnitType::Leader) fail(unit.id + ": a commander leads");
    if (unit.type == UnitType::Leader && unit.name.empty()) fail(unit.id + ": a leader's name");
    d.units.push_back(std::move(unit));
  }
  if (d.units.empty() || d.units.size() > 120) fail("between 1 and 120 units");
}

// Rulebook 4: one unit of the letter's type on each lettered hex, leaders by their name. Units
// of a type take that type's hexes in the file's order.
void place_units(Data& d) {
  std::vector<bool> used(d.setup.size(), false);
  for (auto& unit : d.units) {
    const std::string_view want = unit.type == UnitType::Leader
                                      ? std::string_view(unit.name)
                                      : kTypeLetters[static_cast<int>(unit.type)];
    for (std::size_t i = 0; i < d.setup.size(); ++i) {
      if (!used[i] && d.setup[i].side == unit.side && d.setup[i].letter == want) {
        used[i] = true;
        unit.start_hex = d.setup[i].hex;
        break;
      }
    }
    if (unit.start_hex < 0) fail("unit " + unit.id + " has no setup hex");
  }
  for (std::size_t i = 0; i < d.setup.size(); ++i) {
    if (!used[i])
      fail("setup letter " + d.setup[i].letter + " on " + d.hex_id(d.setup[i].hex) +
           " has no unit");
  }
  // Rulebook 2, unit hex limits: one unit a hex, and a leader beside it.
  std::map<std::pair<int, bool>, std::string> taken;
  for (const auto& unit : d.units) {
    const auto key = std::make_pair(unit.start_hex, unit.type == UnitType::Leader);
    if (!taken.emplace(key, unit.id).second) {
      fail("units " + taken[key] + " and " + unit.id + " set up in one hex");
    }
  }
}

}  // namespace

std::string_view terrain_name(Terrain terrain) { return kTerrainNames[static_cast<int>(terrain)]; }
std::string_view unit_type_name(UnitType type) { return kTypeNames[static_cast<int>(type)]; }
std::string_view event_name(Event event) { return kEventNames[static_cast<int>(event)]; }

std::string Data::hex_id(int hex) const {
  // Two digits each: the loader keeps columns and rows below 100.
  const int column = hex % columns + 1, row = hex / columns + 1;
  const char text[4] = {static_cast<char>('0' + column / 10), static_cast<char>('0' + column % 10),
                        static_cast<char>('0' + row / 10), static_cast<char>('0' + row % 10)};
  return std::string(text, 4);
}

std::optional<int> Data::hex_index(std::string_view id) const {
  if (id.size() != 4) return std::nullopt;
  for (char c : id) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  const int column = (id[0] - '0') * 10 + (id[1] - '0') - 1;
  const int row = (id[2] - '0') * 10 + (id[3] - '0') - 1;
  if (column < 0 || column >= columns || row < 0 || row >= rows) return std::nullopt;
  return row * columns + column;
}

std::optional<int> Data::unit_index(std::string_view id) const {
  for (std::size_t i = 0; i < units.size(); ++i) {
    if (units[i].id == id) return static_cast<int>(i);
  }
  return std::nullopt;
}

std::shared_ptr<const Data> Data::parse(const json& file) {
  auto d = std::make_shared<Data>();
  try {
    d->source = file;
    d->scenario = file.at("scenario").get<std::string>();
    d->title = file.value("title", d->scenario);
    d->variant_note = file.value("variant_note", std::string());
    if (file.value("variant", false) && d->variant_note.empty()) {
      fail("a variant board says so in variant_note");
    }
    d->columns = file.at("grid").at("columns").get<int>();
    d->rows = file.at("grid").at("rows").get<int>();
    if (file.at("grid").value("layout", "odd-r") != "odd-r") fail("only the odd-r layout");
    if (d->columns < 2 || d->columns > 99 || d->rows < 2 || d->rows > 99) fail("grid size");
    std::map<char, Terrain> key;
    for (const auto& [symbol, name] : file.at("terrain_key").items()) {
      if (symbol.size() != 1) fail("terrain key '" + symbol + "' is not one character");
      key[symbol[0]] =
          static_cast<Terrain>(find_name(kTerrainNames, name.get<std::string>(), "terrain"));
    }
    const auto& rows = file.at("terrain_rows");
    if (static_cast<int>(rows.size()) != d->rows) fail("terrain_rows: one string per row");
    for (const auto& row : rows) {
      const auto text = row.get<std::string>();
      if (static_cast<int>(text.size()) != d->columns) fail("terrain row '" + text + "' length");
      for (char c : text) {
        const auto it = key.find(c);
        if (it == key.end()) fail(std::string("terrain symbol '") + c + "' not in terrain_key");
        d->terrain.push_back(it->second);
      }
    }
    auto hex = [&](const std::string& id) {
      const auto index = d->hex_index(id);
      if (!index) fail("no hex " + id);
      return *index;
    };
    const json names = file.value("hex_names", json::object());
    for (const auto& [id, name] : names.items()) {
      d->hex_names.emplace_back(hex(id), name.get<std::string>());
    }
    d->blue_row = file.at("blue_row").get<int>() - 1;
    d->red_row = file.at("red_row").get<int>() - 1;
    if (d->blue_row < 0 || d->red_row >= d->rows || d->blue_row >= d->red_row) {
      fail("the blue row lies north of the red row, both on the board");
    }
    d->exit_hex = hex(file.at("exit_hex").get<std::string>());
    d->turns = file.at("turns").get<int>();
    if (d->turns < 1 || d->turns > 99) fail("turns");
    for (Role side : {Role::Scotland, Role::England}) {
      const std::string name(core::role_name(side));
      d->start_vp[side_index(side)] = file.at("start_vp").at(name).get<int>();
      d->command_ap[side_index(side)] = file.at("command_ap").at(name).get<std::vector<int>>();
      if (static_cast<int>(d->command_ap[side_index(side)].size()) < d->turns) {
        fail("command_ap for " + name + ": one entry per turn");
      }
      for (int ap : d->command_ap[side_index(side)]) {
        if (ap < 0 || ap > 50) fail("command_ap out of range");
      }
    }
    d->commander_loss_ap = file.at("commander_loss_ap").get<int>();
    const auto random = file.at("random_ap").get<std::vector<int>>();
    if (random.size() != 6) fail("random_ap: one entry per die face");
    for (std::size_t i = 0; i < 6; ++i) {
      if (random[i] < 0 || random[i] > 20) fail("random_ap out of range");
      d->random_ap[i] = random[i];
    }
    const auto& events = file.at("battle_events");
    for (int sum = 2; sum <= 12; ++sum) {
      d->events[sum] = static_cast<Event>(
          find_name(kEventNames, events.at(std::to_string(sum)).get<std::string>(), "event"));
    }
    for (int h = 0; h < d->hex_count(); ++h) d->adjacent.push_back(compute_neighbours(*d, h));
    parse_units(*d, file);
    for (const auto& side : {Role::Scotland, Role::England}) {
      for (const auto& s : file.at("setup").at(std::string(core::role_name(side)))) {
        d->setup.push_back(
            {hex(s.at("hex").get<std::string>()), side, s.at("letter").get<std::string>()});
      }
    }
    place_units(*d);
  } catch (const json::exception& e) {
    fail(std::string("malformed: ") + e.what());
  }
  return d;
}

std::shared_ptr<const Data> variant_board() {
  static const std::shared_ptr<const Data> data =
      Data::parse(json::parse(embedded_variant_board_json()));
  return data;
}

}  // namespace blockfog::scotland_rising
