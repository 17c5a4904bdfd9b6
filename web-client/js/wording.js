// Plain English for what the view carries as identifiers or terse server text: the outcome,
// the battle step, the battle decision (combat turn or retreat), the winter step being decided,
// and the engine's log lines.
import { SIDE_NAME } from './board.js';

// A count and its noun, singular for exactly one: "1 hit", "3 hits", "0 blocks". `many` is
// the plural when it is not the noun with an s.
export function plural(n, one, many = `${one}s`) {
  return `${n} ${Number(n) === 1 ? one : many}`;
}

// RULES 12: why the game ended, given the nobles each side controls.
export function outcomeText(outcome, nobles = {}) {
  const w = outcome?.winner;
  const who = w ? `${SIDE_NAME[w]} wins` : 'A draw';
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
  const reason = outcome?.reason;
  if (!reason) return `Game over: ${who}`;
  const text = REASONS[reason] ? REASONS[reason]() : reason.replace(/_/g, ' ');
  return `Game over: ${who}: ${text}`;
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
