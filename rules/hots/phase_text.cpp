#include "rules/hots/phase_text.h"

#include "rules/hots/engine.h"

namespace blockfog::hots {

void append_phase_text(std::string& out, const State& s) {
  if (s.phase == Phase::CardChoice) {
    out += "Card choice";
    return;
  }
  if (s.phase == Phase::GameOver) {
    out += "Game over";
    return;
  }
  if (s.phase == Phase::BorderRaid) {
    out += "England: border raid";
    return;
  }
  out += s.active == kNone ? "" : (s.active == 0 ? "Scotland" : "England");
  switch (s.phase) {
    case Phase::Event:
      // 13.1.4: one public name per step, whatever sub-decision the owner faces.
      out += s.event.stage == EventStage::PillageLosses ? ": pillage losses" : ": event";
      return;
    case Phase::Move:
      out += ": move phase";
      return;
    case Phase::BattleChoice:
      out += ": choose a battle";
      return;
    case Phase::Combat:
      out += ": combat";
      return;
    case Phase::HitAllocation:
      out += ": allocate hits";
      return;
    case Phase::MandatoryRetreat:
      out += ": retreat";
      return;
    case Phase::Regroup:
      out += ": regroup";
      return;
    case Phase::Winter:
      // 13.1.4: others see only the owner's generic winter step, or a public homecoming.
      out += s.winter.step == WinterStep::NobleHome ? ": noble homecoming" : ": winter";
      return;
    default:
      return;
  }
}

std::string phase_text(const State& s) {
  std::string out;
  append_phase_text(out, s);
  return out;
}

}  // namespace blockfog::hots
