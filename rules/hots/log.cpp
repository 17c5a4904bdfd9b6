#include "rules/hots/log.h"

#include <charconv>

#include "rules/hots/data.h"
#include "rules/hots/state.h"

namespace blockfog::hots {
namespace {

using core::Role;

std::string_view side_name(int side) { return side == 0 ? "Scotland" : "England"; }
std::string_view side_adjective(int side) { return side == 0 ? "Scottish" : "English"; }
// "A Scottish", "An English": a sentence's start.
std::string_view a_side(int side) { return side == 0 ? "A Scottish" : "An English"; }
std::string_view area_name(int area) {
  return area < kAreaCount ? std::string_view(game_data().areas[area].name) : "?";
}
std::string_view block_name(int block) {
  return block < kBlockCount ? std::string_view(game_data().blocks[block].name) : "?";
}
struct CardName {
  int card;
};
struct BorderName {
  int entry;
};

// The pieces of a line, appended in place: a view writes its log without a string per line.
void put(std::string& out, std::string_view text) { out += text; }
void put(std::string& out, const char* text) { out += text; }
void put(std::string& out, int n) {
  char digits[12];
  out.append(digits, std::to_chars(digits, digits + sizeof digits, n).ptr);
}
void put(std::string& out, CardName c) {
  if (c.card >= kCardCount) return put(out, "?");
  const auto& info = game_data().cards[c.card];
  if (info.kind == CardKind::Move) out += "move ";
  out += info.name;
}
void put(std::string& out, BorderName b) {
  if (b.entry == kEntryBySea) return put(out, "by sea");
  if (b.entry == kEntryCaptured) return put(out, "captured");
  if (b.entry >= kBorderCount) return put(out, "?");
  out += "across ";
  out += game_data().borders[b.entry].id;
}
template <typename... Parts>
void cat(std::string& out, const Parts&... parts) {
  (put(out, parts), ...);
}

}  // namespace

std::string_view audience_name(Audience audience) {
  switch (audience) {
    case Audience::Public:
      return "public";
    case Audience::ScotlandOnly:
      return "scotland_only";
    case Audience::EnglandOnly:
      return "england_only";
    case Audience::NotScotland:
      return "not_scotland";
    case Audience::NotEngland:
      return "not_england";
  }
  return "public";
}

Audience only(Role side) {
  return side == Role::Scotland ? Audience::ScotlandOnly : Audience::EnglandOnly;
}

Audience all_but(Role side) {
  return side == Role::Scotland ? Audience::NotScotland : Audience::NotEngland;
}

void append_log_text(std::string& out, const LogEntry& e) {
  switch (e.kind) {
    case LogKind::YearStart:
      return cat(out, "Year ", static_cast<int>(e.n), " begins.");
    case LogKind::TurnStart:
      return cat(out, "Game turn ", static_cast<int>(e.n), ".");
    case LogKind::CardsDealt:
      return cat(out, "Cards shuffled; ", static_cast<int>(e.n), " dealt to each player.");
    case LogKind::CardChosen:
      return cat(out, side_name(e.a), " has chosen a card.");
    case LogKind::CardTakenBack:
      return cat(out, side_name(e.a), " took its card back.");
    case LogKind::CardsRevealed:
      return cat(out, "Cards revealed: Scotland ", CardName{e.a}, ", England ", CardName{e.b}, ". ",
                 side_name(e.c), " is Player 1.");
    case LogKind::DoubleEvent:
      return cat(out, "Both players played events: the year ends after this game turn.");
    case LogKind::LevyBlock:
      return cat(out, "Levied ", block_name(e.a), " into ", area_name(e.b), ".");
    case LogKind::LevyCount:
      return cat(out, "England levied ", static_cast<int>(e.n),
                 e.n == 1 ? " block into " : " blocks into ", area_name(e.b), ".");
    case LogKind::EventDeclined:
      return cat(out, side_name(e.a), " declined the event ", CardName{e.b}, ".");
    case LogKind::TruceInForce:
      return cat(out, "Truce: ", side_name(e.a), " may not attack this game turn.");
    case LogKind::MovePhaseStart:
      return cat(out, side_name(e.a), " moves with ", static_cast<int>(e.n),
                 e.n == 1 ? " move point." : " move points.");
    case LogKind::MoveStep:
      return cat(out, block_name(e.a), " moved from ", area_name(e.b), " to ", area_name(e.c), ".");
    case LogKind::MoveStepAnon:
      return cat(out, a_side(e.a), " block moved from ", area_name(e.b), " to ", area_name(e.c),
                 ".");
    case LogKind::BattleCreated:
      return cat(out, side_name(e.a), " attacks ", area_name(e.b), ".");
    case LogKind::ReserveArrived:
      return cat(out, a_side(e.a), " reserve arrived in ", area_name(e.b), " ", BorderName{e.c},
                 ".");
    case LogKind::NorseMove:
      return cat(out, "The Norse sailed from ", area_name(e.b), " to ", area_name(e.c), ".");
    case LogKind::MovePhaseEnd:
      return cat(out, side_name(e.a), " ended its move phase.");
    case LogKind::BattlePhase:
      return cat(out, "Battle phase: ", static_cast<int>(e.n),
                 e.n == 1 ? " contested area." : " contested areas.");
    case LogKind::BattleBegins:
      return cat(out, "Battle in ", area_name(e.b), ": ", side_name(e.a), " attacks.");
    case LogKind::RoundBegins:
      return cat(out, "Round ", static_cast<int>(e.n), " in ", area_name(e.b), ".");
    case LogKind::BlockRevealed:
      return cat(out, block_name(e.a), " (", static_cast<int>(e.n), ") is revealed.");
    case LogKind::ControlChange:
      return cat(out, "Battlefield control changes in ", area_name(e.b), ": ", side_name(e.a),
                 " now attacks.");
    case LogKind::CelticRoll:
      return cat(out, block_name(e.a), " rolls ", static_cast<int>(e.n), " for Celtic unity",
                 (e.c ? ": it leaves the battle." : ": it stays."));
    case LogKind::Fired: {
      std::string dice;
      for (int i = 0; i < e.d; ++i) {
        if (i > 0) dice += ',';
        dice += static_cast<char>('0' + ((e.n >> (3 * i)) & 7));
      }
      return cat(out, block_name(e.a), " fires: ", dice, " - ", static_cast<int>(e.c),
                 (e.c == 1 ? " hit." : " hits."));
    }
    case LogKind::Passed:
      return cat(out, block_name(e.a), " passes.");
    case LogKind::HitTaken:
      return cat(out, block_name(e.a), " takes a hit (", static_cast<int>(e.n), " left).");
    case LogKind::EliminatedToPool:
      return cat(out, block_name(e.a), " is eliminated.");
    case LogKind::EliminatedDead:
      return cat(out, block_name(e.a), " is eliminated for good.");
    case LogKind::EliminatedAnon:
      return cat(out, a_side(e.a), " block in ", area_name(e.b), " is eliminated.");
    case LogKind::NobleCaptured:
      return cat(out, block_name(e.a), " changes sides in ", area_name(e.b), ": now ",
                 side_name(static_cast<int>(game_data().blocks[e.a].owner)), ".");
    case LogKind::EdwardBecomesII:
      return cat(out, "Edward I is dead; Edward II takes the field.");
    case LogKind::Retreated:
      return cat(out, block_name(e.a), " retreats from ", area_name(e.b), ".");
    case LogKind::RetreatedTo:
      return cat(out, block_name(e.a), " retreats from ", area_name(e.b), " to ", area_name(e.c),
                 ".");
    case LogKind::NorseRetreat:
      return cat(out, "The Norse withdraw by sea from ", area_name(e.b), " to ", area_name(e.c),
                 ".");
    case LogKind::Regrouped:
      return cat(out, block_name(e.a), " regroups from ", area_name(e.b), " to ", area_name(e.c),
                 ".");
    case LogKind::ArrivalsShown:
      return cat(out, static_cast<int>(e.n), " ", side_adjective(e.a),
                 (e.n == 1 ? " block" : " blocks"), " arrived in ", area_name(e.b), ".");
    case LogKind::BattleWon:
      return cat(out, side_name(e.a), " wins the battle in ", area_name(e.b), ".");
    case LogKind::MandatoryRetreat:
      return cat(out, side_name(e.a), " must retreat from ", area_name(e.b), ".");
    case LogKind::CouldNotRetreat:
      return cat(out, static_cast<int>(e.n), " ", side_adjective(e.a),
                 (e.n == 1 ? " block" : " blocks"), " could not retreat from ", area_name(e.b),
                 " and ", (e.n == 1 ? "is" : "are"), " eliminated.");
    case LogKind::RaidVictim:
      return cat(out, "Border raid: ", block_name(e.a), " in ", area_name(e.b),
                 " returns to the pool.");
    case LogKind::RaidVictimAnon:
      return cat(out, "Border raid: an English block in ", area_name(e.b), " returns to the pool.");
    case LogKind::BorderRaidDue:
      return cat(out, "Scots alone hold England: a border raid is due.");
    case LogKind::WinterStart:
      return cat(out, "Winter of ", static_cast<int>(e.n), ".");
    case LogKind::NobleHome:
      return cat(out, block_name(e.a), " goes home to ", area_name(e.b), ".");
    case LogKind::WinterDefection:
      return cat(out, block_name(e.a), " changes sides at home in ", area_name(e.b), ": now ",
                 side_name(static_cast<int>(game_data().blocks[e.a].owner)), ".");
    case LogKind::MorayHome:
      return cat(out, "Moray goes home to ", area_name(e.b), ".");
    case LogKind::KingToCathedral:
      return cat(out, "The King moves from ", area_name(e.b), " to ", area_name(e.c), ".");
    case LogKind::EdwardWinters:
      return cat(out, "Edward I winters in ", area_name(e.b), ".");
    case LogKind::Disbanded:
      return cat(out, block_name(e.a), " in ", area_name(e.b), " disbands.");
    case LogKind::DisbandedAnon:
      return cat(out, a_side(e.a), " block in ", area_name(e.b), " disbands.");
    case LogKind::WallaceSelkirk:
      return cat(out, "Wallace winters in Selkirk Forest.");
    case LogKind::FrenchKnightsAdded:
      return cat(out, "The French Knights join the Scottish pool.");
    case LogKind::StepAdded:
      return cat(out, block_name(e.a), " gains a step (", static_cast<int>(e.n), ").");
    case LogKind::Drew:
      return cat(out, "Drew ", block_name(e.a), " into ", area_name(e.b), " (strength 1).");
    case LogKind::DrewAnon:
      return cat(out, side_name(e.a), " drew a block into ", area_name(e.b), ".");
    case LogKind::ScenarioEnd:
      return cat(out, "End of ", static_cast<int>(e.n), ": England ", static_cast<int>(e.b),
                 " nobles, Scotland ", static_cast<int>(e.c), ".");
    case LogKind::HeraldRoll:
      return cat(out, side_name(e.a), "'s Herald rolls ", static_cast<int>(e.n),
                 (e.n <= 4 ? ": success." : ": no effect."));
    case LogKind::HeraldConverts:
      return cat(out, block_name(e.a), " in ", area_name(e.b), " is won over: now ",
                 side_name(static_cast<int>(game_data().blocks[e.a].owner)), ".");
    case LogKind::PillageTarget:
      return cat(out, side_name(e.a), " pillages ", area_name(e.b), ".");
    case LogKind::PillageHit:
      return cat(out, block_name(e.a), " loses a step to the pillage (", static_cast<int>(e.n),
                 " left).");
    case LogKind::PillageInflicted:
      return cat(out, "The pillage of ", area_name(e.b), " inflicts ", static_cast<int>(e.n),
                 (e.n == 1 ? " hit." : " hits."));
    case LogKind::PillageGainArea:
      return cat(out, side_name(e.a), " takes the plunder to ", area_name(e.b), ".");
    case LogKind::SeaMoved:
      return cat(out, block_name(e.a), " sails from ", area_name(e.b), " to ", area_name(e.c), ".");
    case LogKind::SeaMovedAnon:
      return cat(out, a_side(e.a), " block sails from ", area_name(e.b), " to ", area_name(e.c),
                 ".");
    case LogKind::VictualsArea:
      return cat(out, side_name(e.a), " uses Victuals in ", area_name(e.b), ".");
    case LogKind::Coronation: {
      static constexpr const char* kCandidates[] = {"Bruce", "Comyn", "Balliol"};
      return cat(out, std::string(kCandidates[e.a % 3]), " is crowned King of Scots in ",
                 area_name(e.b), ".");
    }
    case LogKind::CoronationDefects:
      return cat(out, block_name(e.a), " in ", area_name(e.b), " defects to England.");
    case LogKind::Count:
      break;
    case LogKind::GameEnd:
      return cat(out, "Game over: ", side_name(e.a), " wins.");
  }
  return;
}

std::string log_text(const LogEntry& entry) {
  std::string out;
  append_log_text(out, entry);
  return out;
}

}  // namespace blockfog::hots
