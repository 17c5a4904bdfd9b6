#include "rules/hots/log.h"

#include "rules/hots/data.h"
#include "rules/hots/state.h"

namespace blockfog::hots {
namespace {

using core::Role;

std::string side_name(int side) { return side == 0 ? "Scotland" : "England"; }
std::string side_adjective(int side) { return side == 0 ? "Scottish" : "English"; }
std::string area_name(int area) { return area < kAreaCount ? game_data().areas[area].name : "?"; }
std::string block_name(int block) {
  return block < kBlockCount ? game_data().blocks[block].name : "?";
}
std::string card_name(int card) {
  if (card >= kCardCount) return "?";
  const auto& info = game_data().cards[card];
  return info.kind == CardKind::Move ? "move " + info.name : info.name;
}
std::string border_name(int entry) {
  if (entry == kEntryBySea) return "by sea";
  if (entry == kEntryCaptured) return "captured";
  return entry < kBorderCount ? "across " + game_data().borders[entry].id : "?";
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

std::string log_text(const LogEntry& e) {
  switch (e.kind) {
    case LogKind::YearStart:
      return "Year " + std::to_string(e.n) + " begins.";
    case LogKind::TurnStart:
      return "Game turn " + std::to_string(e.n) + ".";
    case LogKind::CardsDealt:
      return "Cards shuffled; " + std::to_string(e.n) + " dealt to each player.";
    case LogKind::CardChosen:
      return side_name(e.a) + " has chosen a card.";
    case LogKind::CardTakenBack:
      return side_name(e.a) + " took its card back.";
    case LogKind::CardsRevealed:
      return "Cards revealed: Scotland " + card_name(e.a) + ", England " + card_name(e.b) + ". " +
             side_name(e.c) + " is Player 1.";
    case LogKind::DoubleEvent:
      return "Both players played events: the year ends after this game turn.";
    case LogKind::LevyBlock:
      return "Levied " + block_name(e.a) + " into " + area_name(e.b) + ".";
    case LogKind::LevyCount:
      return "England levied " + std::to_string(e.n) + " blocks into " + area_name(e.b) + ".";
    case LogKind::EventDeclined:
      return side_name(e.a) + " declined the event " + card_name(e.b) + ".";
    case LogKind::TruceInForce:
      return "Truce: " + side_name(e.a) + " may not attack this game turn.";
    case LogKind::MovePhaseStart:
      return side_name(e.a) + " moves with " + std::to_string(e.n) + " move points.";
    case LogKind::MoveStep:
      return block_name(e.a) + " moved from " + area_name(e.b) + " to " + area_name(e.c) + ".";
    case LogKind::MoveStepAnon:
      return "A " + side_adjective(e.a) + " block moved from " + area_name(e.b) + " to " +
             area_name(e.c) + ".";
    case LogKind::BattleCreated:
      return side_name(e.a) + " attacks " + area_name(e.b) + ".";
    case LogKind::ReserveArrived:
      return "A " + side_adjective(e.a) + " reserve arrived in " + area_name(e.b) + " " +
             border_name(e.c) + ".";
    case LogKind::NorseMove:
      return "The Norse sailed from " + area_name(e.b) + " to " + area_name(e.c) + ".";
    case LogKind::MovePhaseEnd:
      return side_name(e.a) + " ended its move phase.";
    case LogKind::BattlePhase:
      return "Battle phase: " + std::to_string(e.n) + " contested areas.";
    case LogKind::BattleBegins:
      return "Battle in " + area_name(e.b) + ": " + side_name(e.a) + " attacks.";
    case LogKind::RoundBegins:
      return "Round " + std::to_string(e.n) + " in " + area_name(e.b) + ".";
    case LogKind::BlockRevealed:
      return block_name(e.a) + " (" + std::to_string(e.n) + ") is revealed.";
    case LogKind::ControlChange:
      return "Battlefield control changes in " + area_name(e.b) + ": " + side_name(e.a) +
             " now attacks.";
    case LogKind::CelticRoll:
      return block_name(e.a) + " rolls " + std::to_string(e.n) + " for Celtic unity" +
             (e.c ? ": it leaves the battle." : ": it stays.");
    case LogKind::Fired: {
      std::string dice;
      for (int i = 0; i < e.d; ++i) {
        if (i > 0) dice += ',';
        dice += static_cast<char>('0' + ((e.n >> (3 * i)) & 7));
      }
      return block_name(e.a) + " fires: " + dice + " - " + std::to_string(e.c) +
             (e.c == 1 ? " hit." : " hits.");
    }
    case LogKind::Passed:
      return block_name(e.a) + " passes.";
    case LogKind::HitTaken:
      return block_name(e.a) + " takes a hit (" + std::to_string(e.n) + " left).";
    case LogKind::EliminatedToPool:
      return block_name(e.a) + " is eliminated.";
    case LogKind::EliminatedDead:
      return block_name(e.a) + " is eliminated for good.";
    case LogKind::EliminatedAnon:
      return "A " + side_adjective(e.a) + " block in " + area_name(e.b) + " is eliminated.";
    case LogKind::NobleCaptured:
      return block_name(e.a) + " changes sides in " + area_name(e.b) + ": now " +
             side_name(static_cast<int>(game_data().blocks[e.a].owner)) + ".";
    case LogKind::EdwardBecomesII:
      return "Edward I is dead; Edward II takes the field.";
    case LogKind::Retreated:
      return block_name(e.a) + " retreats from " + area_name(e.b) + ".";
    case LogKind::RetreatedTo:
      return block_name(e.a) + " retreats from " + area_name(e.b) + " to " + area_name(e.c) + ".";
    case LogKind::NorseRetreat:
      return "The Norse withdraw by sea from " + area_name(e.b) + " to " + area_name(e.c) + ".";
    case LogKind::Regrouped:
      return block_name(e.a) + " regroups from " + area_name(e.b) + " to " + area_name(e.c) + ".";
    case LogKind::ArrivalsShown:
      return std::to_string(e.n) + " " + side_adjective(e.a) + (e.n == 1 ? " block" : " blocks") +
             " arrived in " + area_name(e.b) + ".";
    case LogKind::BattleWon:
      return side_name(e.a) + " wins the battle in " + area_name(e.b) + ".";
    case LogKind::MandatoryRetreat:
      return side_name(e.a) + " must retreat from " + area_name(e.b) + ".";
    case LogKind::CouldNotRetreat:
      return std::to_string(e.n) + " " + side_adjective(e.a) + (e.n == 1 ? " block" : " blocks") +
             " could not retreat from " + area_name(e.b) + " and " + (e.n == 1 ? "is" : "are") +
             " eliminated.";
    case LogKind::RaidVictim:
      return "Border raid: " + block_name(e.a) + " in " + area_name(e.b) + " returns to the pool.";
    case LogKind::RaidVictimAnon:
      return "Border raid: an English block in " + area_name(e.b) + " returns to the pool.";
    case LogKind::BorderRaidDue:
      return "Scots alone hold England: a border raid is due.";
    case LogKind::WinterStart:
      return "Winter of " + std::to_string(e.n) + ".";
    case LogKind::NobleHome:
      return block_name(e.a) + " goes home to " + area_name(e.b) + ".";
    case LogKind::WinterDefection:
      return block_name(e.a) + " changes sides at home in " + area_name(e.b) + ": now " +
             side_name(static_cast<int>(game_data().blocks[e.a].owner)) + ".";
    case LogKind::MorayHome:
      return "Moray goes home to " + area_name(e.b) + ".";
    case LogKind::KingToCathedral:
      return "The King moves from " + area_name(e.b) + " to " + area_name(e.c) + ".";
    case LogKind::EdwardWinters:
      return "Edward I winters in " + area_name(e.b) + ".";
    case LogKind::Disbanded:
      return block_name(e.a) + " in " + area_name(e.b) + " disbands.";
    case LogKind::DisbandedAnon:
      return "A " + side_adjective(e.a) + " block in " + area_name(e.b) + " disbands.";
    case LogKind::WallaceSelkirk:
      return "Wallace winters in Selkirk Forest.";
    case LogKind::FrenchKnightsAdded:
      return "The French Knights join the Scottish pool.";
    case LogKind::StepAdded:
      return block_name(e.a) + " gains a step (" + std::to_string(e.n) + ").";
    case LogKind::Drew:
      return "Drew " + block_name(e.a) + " into " + area_name(e.b) + " (strength 1).";
    case LogKind::DrewAnon:
      return side_name(e.a) + " drew a block into " + area_name(e.b) + ".";
    case LogKind::ScenarioEnd:
      return "End of " + std::to_string(e.n) + ": England " + std::to_string(e.b) +
             " nobles, Scotland " + std::to_string(e.c) + ".";
    case LogKind::HeraldRoll:
      return side_name(e.a) + "'s Herald rolls " + std::to_string(e.n) +
             (e.n <= 4 ? ": success." : ": no effect.");
    case LogKind::HeraldConverts:
      return block_name(e.a) + " in " + area_name(e.b) + " is won over: now " +
             side_name(static_cast<int>(game_data().blocks[e.a].owner)) + ".";
    case LogKind::PillageTarget:
      return side_name(e.a) + " pillages " + area_name(e.b) + ".";
    case LogKind::PillageHit:
      return block_name(e.a) + " loses a step to the pillage (" + std::to_string(e.n) + " left).";
    case LogKind::PillageInflicted:
      return "The pillage of " + area_name(e.b) + " inflicts " + std::to_string(e.n) +
             (e.n == 1 ? " hit." : " hits.");
    case LogKind::PillageGainArea:
      return side_name(e.a) + " takes the plunder to " + area_name(e.b) + ".";
    case LogKind::SeaMoved:
      return block_name(e.a) + " sails from " + area_name(e.b) + " to " + area_name(e.c) + ".";
    case LogKind::SeaMovedAnon:
      return "A " + side_adjective(e.a) + " block sails from " + area_name(e.b) + " to " +
             area_name(e.c) + ".";
    case LogKind::VictualsArea:
      return side_name(e.a) + " uses Victuals in " + area_name(e.b) + ".";
    case LogKind::Coronation: {
      static constexpr const char* kCandidates[] = {"Bruce", "Comyn", "Balliol"};
      return std::string(kCandidates[e.a % 3]) + " is crowned King of Scots in " + area_name(e.b) +
             ".";
    }
    case LogKind::CoronationDefects:
      return block_name(e.a) + " in " + area_name(e.b) + " defects to England.";
    case LogKind::Count:
      break;
    case LogKind::GameEnd:
      return "Game over: " + side_name(e.a) + " wins.";
  }
  return "";
}

}  // namespace blockfog::hots
