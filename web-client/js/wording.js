// Plain English for what the view carries as identifiers or terse server text: the outcome,
// the battle step, the battle decision (combat turn or retreat), the winter step being decided,
// and the engine's log lines.
import { SIDE_NAME } from './board.js';

// A count and its noun, singular for exactly one: "1 hit", "3 hits", "0 blocks". `many` is
// the plural when it is not the noun with an s.
export function plural(n, one, many = `${one}s`) {
  return `${n} ${Number(n) === 1 ? one : many}`;
}

// A side's name from its identifier ("scotland" -> "Scotland"); anything else as it came.
export function sideName(side) {
  return SIDE_NAME[side] ?? String(side ?? '');
}

// RULES 12: why the game ended by the rules (the engine's outcome.reason), given the nobles each
// side controls. Every reason the engine writes (rules/hots/engine.cpp) has its words here.
function ruleReason(reason, w, nobles = {}) {
  // The view gives each side's nobles as {total, ...}; a plain number is taken as it is.
  const total = (x) => (typeof x === 'number' ? x : x?.total);
  const sc = total(nobles.scotland);
  const en = total(nobles.england);
  const count = (a, b) => (a !== undefined && b !== undefined ? ` (${a} to ${b})` : '');
  const REASONS = {
    nobles_majority: () => `more nobles${w === 'scotland' ? count(sc, en) : count(en, sc)}`,
    england_has_no_nobles: () => 'England controls no noble',
    scotland_has_no_nobles: () => 'Scotland controls no noble',
    king_killed: () => 'the Scottish King is killed',
    edward_ii_killed: () => 'Edward II is killed',
    wallace_tie_break: () =>
      `nobles tied${count(sc, en)}, and Wallace ${
        w === 'scotland' ? 'is on the map' : 'is not on the map'
      }`,
    ended: () => 'the scenario has ended',
  };
  return REASONS[reason]?.() ?? null;
}

// How a game ended other than by the rules: the server's result reasons (docs/protocol.md,
// docs/tournaments.md).
const END_REASONS = {
  resigned: 'by resignation',
  timeout: 'on time',
  forfeit: 'by forfeit',
  adjudicated: 'by adjudication, the nobles counted',
};

// Every reason code with words of its own, for the tests.
export const REASON_CODES = [
  'nobles_majority',
  'england_has_no_nobles',
  'scotland_has_no_nobles',
  'king_killed',
  'edward_ii_killed',
  'wallace_tie_break',
  'ended',
  ...Object.keys(END_REASONS),
];

// A reason nobody gave words to is still written as words, never as its identifier.
const unknownReason = (reason) => String(reason).replace(/[_-]+/g, ' ');

// The outcome of a game ended by the rules, as the engine's view gives it: "England wins: more
// nobles (9 to 5)." The page shows "Game over" beside it (the engine's phase text).
export function outcomeText(outcome, nobles = {}) {
  const w = outcome?.winner;
  const who = w ? `${sideName(w)} wins` : 'A draw';
  const reason = outcome?.reason;
  if (!reason) return `${who}.`;
  return `${who}: ${ruleReason(reason, w, nobles) ?? unknownReason(reason)}.`;
}

// A game's result as the server stores it ({winner, reason}, null for a cancelled game), in
// words: "England wins by resignation.", "Scotland wins: England controls no noble."
export function resultText(result) {
  if (!result) return 'The game was cancelled.';
  if (result.reason in END_REASONS) {
    const who = result.winner ? `${sideName(result.winner)} wins` : 'No winner';
    return `${who} ${END_REASONS[result.reason]}.`;
  }
  return outcomeText(result, result.nobles);
}

// A border between two areas in words, from its identifier ("angus-fife"): "the Angus–Fife
// border". `data` is the indexed game data (gamedata.js).
export function borderName(id, data) {
  const border = data?.borders?.find((b) => b.id === id);
  if (!border) return unknownReason(id);
  const [a, b] = border.areas.map((x) => data.area[x]?.name ?? x);
  return `the ${a}–${b} border`;
}

// How a reserve entered a battle's area (RULES 5.2: by a border, by sea, or captured).
export function entryText(entry, data) {
  if (entry === 'sea') return 'by sea';
  if (entry === 'captured') return 'captured';
  return `across ${borderName(entry, data)}`;
}

// A log line of the engine as it is shown: a border it names by identifier ("across
// angus-fife") in words.
export function logLineText(text, data) {
  return String(text).replace(/\bacross ([a-z]+(?:_[a-z]+)*-[a-z]+(?:_[a-z]+)*)/g, (m, id) =>
    data?.borders?.some((b) => b.id === id) ? `across ${borderName(id, data)}` : m,
  );
}

// The battle's step ("attacking A") as a sentence (RULES 5.4: A blocks fire first, defenders
// before attackers).
export function battleStepText(step, attacker, defender) {
  const m = /^(attacking|defending) ([ABC])$/.exec(step || '');
  if (!m) return step || '';
  const side = m[1] === 'attacking' ? attacker : defender;
  const role = m[1] === 'attacking' ? 'attacker' : 'defender';
  return `${SIDE_NAME[side] ?? ''} (${role}) fires with its ${m[2]} blocks`.trim();
}

// "a", "a or b", "a, b or c".
function orList(words) {
  return words.length > 1
    ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`
    : (words[0] ?? '');
}

// What the awaited seat decides in a battle, in words, before it chooses a block: a combat turn
// (RULES 5.5: fire, retreat or pass; the kinds offered say which) or the attacker's retreat after
// the third round (RULES 5.11.3). `view` is the seat's, `kinds` the kinds of its legal actions,
// `areaName` an area's name from its id. Null for any other decision.
export function battleDecision(view, kinds, areaName) {
  const b = view.battle;
  if (view.phase === 'combat' && kinds.has('pass')) {
    const can = ['fire', 'retreat', 'pass'].filter((k) => kinds.has(k));
    return {
      hint: `Choose a block for its combat turn: ${orList(can)}.`,
      info: kinds.has('retreat')
        ? 'A block that retreats leaves the battle at once (RULES 5.5).'
        : null,
    };
  }
  if (view.phase !== 'mandatory_retreat' || !b) return null;
  const won = `${SIDE_NAME[b.victor] ?? 'The defender'} won the battle in ${areaName(b.area)}`;
  if (kinds.has('retreat')) {
    return {
      hint: 'Choose a block to retreat, then the area it retreats to.',
      info:
        `${won}: every one of your blocks there must retreat to an adjacent friendly or ` +
        'neutral area (RULES 5.11.3).',
    };
  }
  return {
    hint: '',
    info:
      `${won}, and none of your blocks left there can retreat: finishing the retreat ` +
      'eliminates them (RULES 5.11.3).',
  };
}

// The words of the button that retreats the chosen block to an area (RULES 5.10; the Norse go
// by sea, 5.10.6).
export function retreatLabel(block, areaName) {
  return `Retreat ${block === 'sco_norse' ? 'by sea ' : ''}to ${areaName}`;
}

// Which winter step (RULES 10) the seat decides, from the kinds of its legal actions.
export function winterStep(kinds) {
  const has = (k) => kinds.has(k);
  if (has('home'))
    return {
      title: 'Nobles go home (RULES 10.1-10.2)',
      done: null,
      hint: 'Choose the home area each noble goes to.',
    };
  if (has('go_home'))
    return { title: 'Moray (RULES 10.3)', done: null, hint: 'Moray may go home or stay.' };
  if (has('move_king'))
    return {
      title: 'The Scottish King (RULES 10.5)',
      done: null,
      hint: 'Choose the cathedral area the King winters in.',
    };
  if (has('winter') || has('disband_edward'))
    return {
      title: 'Edward (RULES 10.6)',
      done: null,
      hint: 'Edward may winter in Scotland, or disband to the pool.',
    };
  if (has('to_selkirk') || has('stay'))
    return {
      title: 'Wallace (RULES 10.8)',
      done: null,
      hint: 'Wallace may go to Selkirk Forest to heal two steps, or stay where he is.',
    };
  if (has('disband'))
    return {
      title: 'Disbanding over castle limits (RULES 10.7, 10.9)',
      done: 'Done disbanding',
      hint: 'Choose a block to disband.',
    };
  if (has('add_step') || has('draw'))
    return {
      title: 'Builds (RULES 10.11-10.12)',
      done: 'Done building (points left are lost)',
      hint: 'Add a step to a block, or draw a block into an area; each costs a build point.',
    };
  if (has('done')) return { title: 'Winter', done: 'Done: end this winter step', hint: '' };
  return null;
}

// The cards played this year in the order they were played: by game turn, Scotland's card
// before England's within a turn (both are revealed together, RULES 3.2, so the order within a
// turn is only the display's).
export function playedInOrder(played) {
  const sideRank = (side) => (side === 'scotland' ? 0 : 1);
  return [...(played ?? [])].sort((a, b) => a.turn - b.turn || sideRank(a.side) - sideRank(b.side));
}
