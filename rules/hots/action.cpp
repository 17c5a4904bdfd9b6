#include "rules/hots/action.h"

#include <array>
#include <stdexcept>
#include <utility>

namespace blockfog::hots {
namespace {

// A noble is named by its key ("mentieth"), not by either block: which side holds it is public,
// its block id is not needed (RULES 13.2).
enum class Param : std::uint8_t { None, Card, Block, Area, Noble };

struct KindSpec {
  ActionKind kind;
  std::string_view name;
  Param a;
  std::string_view a_field;
  Param b;
  std::string_view b_field;
};

constexpr std::array kSpecs = {
    KindSpec{ActionKind::PlayCard, "play_card", Param::Card, "card", Param::None, ""},
    KindSpec{ActionKind::TakeBack, "take_back", Param::None, "", Param::None, ""},
    KindSpec{ActionKind::Decline, "decline", Param::None, "", Param::None, ""},
    KindSpec{ActionKind::Truce, "truce", Param::None, "", Param::None, ""},
    KindSpec{ActionKind::Move, "move", Param::Block, "block", Param::Area, "to"},
    KindSpec{ActionKind::Step, "step", Param::Area, "to", Param::None, ""},
    KindSpec{ActionKind::Stop, "stop", Param::None, "", Param::None, ""},
    KindSpec{ActionKind::NorseMove, "norse_move", Param::Area, "to", Param::None, ""},
    KindSpec{ActionKind::EndMovePhase, "end_move_phase", Param::None, "", Param::None, ""},
    KindSpec{ActionKind::ChooseBattle, "choose_battle", Param::Area, "area", Param::None, ""},
    KindSpec{ActionKind::Fire, "fire", Param::Block, "block", Param::None, ""},
    KindSpec{ActionKind::Pass, "pass", Param::Block, "block", Param::None, ""},
    KindSpec{ActionKind::Retreat, "retreat", Param::Block, "block", Param::Area, "to"},
    KindSpec{ActionKind::TakeHit, "take_hit", Param::Block, "block", Param::None, ""},
    KindSpec{ActionKind::FinishRetreat, "finish_retreat", Param::None, "", Param::None, ""},
    KindSpec{ActionKind::Regroup, "regroup", Param::Block, "block", Param::Area, "to"},
    KindSpec{ActionKind::EndRegroup, "end_regroup", Param::None, "", Param::None, ""},
    KindSpec{ActionKind::RaidVictim, "raid_victim", Param::Block, "block", Param::None, ""},
    KindSpec{ActionKind::Home, "home", Param::Area, "area", Param::None, ""},
    KindSpec{ActionKind::GoHome, "go_home", Param::None, "", Param::None, ""},
    KindSpec{ActionKind::MoveKing, "move_king", Param::Area, "to", Param::None, ""},
    KindSpec{ActionKind::Winter, "winter", Param::None, "", Param::None, ""},
    KindSpec{ActionKind::Disband, "disband", Param::Block, "block", Param::None, ""},
    KindSpec{ActionKind::ToSelkirk, "to_selkirk", Param::None, "", Param::None, ""},
    KindSpec{ActionKind::AddStep, "add_step", Param::Block, "block", Param::None, ""},
    KindSpec{ActionKind::Draw, "draw", Param::Area, "area", Param::None, ""},
    KindSpec{ActionKind::Done, "done", Param::None, "", Param::None, ""},
    KindSpec{ActionKind::Roll, "roll", Param::None, "", Param::None, ""},
    KindSpec{ActionKind::Herald, "herald", Param::Noble, "noble", Param::None, ""},
    KindSpec{ActionKind::Pillage, "pillage", Param::Area, "area", Param::None, ""},
    KindSpec{ActionKind::Gain, "gain", Param::Block, "block", Param::None, ""},
    KindSpec{ActionKind::SeaMove, "sea_move", Param::Block, "block", Param::Area, "to"},
    KindSpec{ActionKind::Victual, "victual", Param::Block, "block", Param::None, ""},
    KindSpec{ActionKind::CrownBruce, "crown_bruce", Param::None, "", Param::None, ""},
    KindSpec{ActionKind::CrownComyn, "crown_comyn", Param::None, "", Param::None, ""},
    KindSpec{ActionKind::ReturnOfTheKing, "return_of_the_king", Param::None, "", Param::None, ""},
    KindSpec{ActionKind::Stay, "stay", Param::None, "", Param::None, ""},
    KindSpec{ActionKind::Undo, "undo", Param::None, "", Param::None, ""},
};

const KindSpec& spec_of(ActionKind kind) {
  for (const auto& spec : kSpecs) {
    if (spec.kind == kind) return spec;
  }
  return kSpecs.back();
}

std::string_view param_ref(Param param, std::uint8_t value) {
  const auto& data = game_data();
  switch (param) {
    case Param::Card:
      return value < data.cards.size() ? std::string_view(data.cards[value].id) : "?";
    case Param::Block:
      return value < data.blocks.size() ? std::string_view(data.blocks[value].id) : "?";
    case Param::Area:
      return value < data.areas.size() ? std::string_view(data.areas[value].id) : "?";
    case Param::Noble:
      return value < data.nobles.size() ? std::string_view(data.nobles[value].key) : "?";
    case Param::None:
      break;
  }
  return "";
}

std::string param_id(Param param, std::uint8_t value) {
  return std::string(param_ref(param, value));
}

std::optional<std::uint8_t> param_from(Param param, const nlohmann::json& json,
                                       std::string_view field, std::string& error) {
  if (param == Param::None) return kNone;
  const auto it = json.find(field);
  if (it == json.end() || !it->is_string()) {
    error = "field '" + std::string(field) + "' must be a string id";
    return std::nullopt;
  }
  const auto& id = it->get_ref<const std::string&>();
  const auto& data = game_data();
  std::optional<std::uint8_t> value;
  if (param == Param::Card) value = data.card_by_id(id);
  if (param == Param::Block) value = data.block_by_id(id);
  if (param == Param::Area) value = data.area_by_id(id);
  if (param == Param::Noble) {
    for (std::size_t i = 0; i < data.nobles.size(); ++i) {
      if (data.nobles[i].key == id) value = static_cast<std::uint8_t>(i);
    }
  }
  if (!value) error = "unknown id '" + id + "' in field '" + std::string(field) + "'";
  return value;
}

}  // namespace

bool ActionList::contains(const Action& action) const {
  for (std::size_t i = 0; i < size_; ++i) {
    if (slots_[i].action == action) return true;
  }
  return false;
}

void ActionList::overflow() {
  throw std::length_error("more legal actions than ActionList::kCapacity: raise it");
}

std::string_view action_kind_name(ActionKind kind) { return spec_of(kind).name; }

nlohmann::json action_to_json(const Action& action) {
  const auto& spec = spec_of(action.kind);
  nlohmann::json json = {{"kind", spec.name}};
  if (spec.a != Param::None) json[std::string(spec.a_field)] = param_id(spec.a, action.a);
  if (spec.b != Param::None) json[std::string(spec.b_field)] = param_id(spec.b, action.b);
  return json;
}

void write_action(core::JsonWriter& out, const Action& action) {
  const auto& spec = spec_of(action.kind);
  // Keys in nlohmann's (sorted) order: "kind" and the parameter fields, whichever they are.
  struct Field {
    std::string_view key;
    Param param = Param::None;
    std::uint8_t value = kNone;
  };
  std::array<Field, 3> fields = {Field{"kind"}, Field{spec.a_field, spec.a, action.a},
                                 Field{spec.b_field, spec.b, action.b}};
  std::size_t count = 1;
  if (spec.a != Param::None) ++count;
  if (spec.b != Param::None) fields[count++] = Field{spec.b_field, spec.b, action.b};
  for (std::size_t i = 1; i < count; ++i) {
    for (std::size_t j = i; j > 0 && fields[j].key < fields[j - 1].key; --j) {
      std::swap(fields[j], fields[j - 1]);
    }
  }
  // Field names, kinds and the game data's ids are plain words (the ids are checked in
  // data_test.cpp, all of them in debug builds): no escapes to look for. Views list the acting
  // side's legal actions, often dozens, after every action.
  out.begin_object();
  for (std::size_t i = 0; i < count; ++i) {
    out.plain_key(fields[i].key);
    if (fields[i].param == Param::None) {
      out.plain_string(spec.name);
    } else {
      out.plain_string(param_ref(fields[i].param, fields[i].value));
    }
  }
  out.end_object();
}

std::optional<Action> action_from_json(const nlohmann::json& json, std::string& error) {
  if (!json.is_object()) {
    error = "an action must be a JSON object";
    return std::nullopt;
  }
  const auto kind = json.find("kind");
  if (kind == json.end() || !kind->is_string()) {
    error = "field 'kind' must be a string";
    return std::nullopt;
  }
  for (const auto& spec : kSpecs) {
    if (spec.name != kind->get_ref<const std::string&>()) continue;
    // Only the kind's own fields: the stored log keeps the action as received, so a field the
    // engine ignores would be stored and published in the game's record for nothing.
    for (const auto& [key, value] : json.items()) {
      if (key == "kind" || (spec.a != Param::None && key == spec.a_field) ||
          (spec.b != Param::None && key == spec.b_field)) {
        continue;
      }
      constexpr std::size_t kShown = 32;
      error = "unknown field '" + key.substr(0, kShown) + (key.size() > kShown ? "…" : "") +
              "' in action '" + std::string(spec.name) + "'";
      return std::nullopt;
    }
    const auto a = param_from(spec.a, json, spec.a_field, error);
    if (!a) return std::nullopt;
    const auto b = param_from(spec.b, json, spec.b_field, error);
    if (!b) return std::nullopt;
    return Action{spec.kind, *a, *b};
  }
  error = "unknown action kind '" + kind->get<std::string>() + "'";
  return std::nullopt;
}

}  // namespace blockfog::hots
