// Plain English for what the view carries as identifiers or terse server text: the outcome,
// the battle step, the winter step being decided, and the engine's log lines.
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
    wallace_tie_break: () => `nobles tied${count(sc, en)}, and Wallace ${w === 'scotland'
      ? 'is on the map' : 'is not on the map'}`,
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

// Which winter step (RULES 10) the seat decides, from the kinds of its legal actions.
export function winterStep(kinds) {
  const has = (k) => kinds.has(k);
  if (has('home')) return { title: 'Nobles go home (RULES 10.1-10.2)', done: null,
    hint: 'Choose the home area each noble goes to.' };
  if (has('go_home')) return { title: 'Moray (RULES 10.3)', done: null,
    hint: 'Moray may go home or stay.' };
  if (has('move_king')) return { title: 'The Scottish King (RULES 10.5)', done: null,
    hint: 'Choose the cathedral area the King winters in.' };
  if (has('winter') || has('disband_edward')) return { title: 'Edward (RULES 10.6)', done: null,
    hint: 'Edward may winter in Scotland, or disband to the pool.' };
  if (has('to_selkirk') || has('stay')) return { title: 'Wallace (RULES 10.8)', done: null,
    hint: 'Wallace may go to Selkirk Forest to heal two steps, or stay where he is.' };
  if (has('disband')) return { title: 'Disbanding over castle limits (RULES 10.7, 10.9)',
    done: 'Done disbanding', hint: 'Choose a block to disband.' };
  if (has('add_step') || has('draw')) return { title: 'Builds (RULES 10.11-10.12)',
    done: 'Done building (points left are lost)',
    hint: 'Add a step to a block, or draw a block into an area; each costs a build point.' };
  if (has('done')) return { title: 'Winter', done: 'Done: end this winter step', hint: '' };
  return null;
}

// The cards played this year in the order they were played: by game turn, Scotland's card
// before England's within a turn (both are revealed together, RULES 3.2, so the order within a
// turn is only the display's).
export function playedInOrder(played) {
  const sideRank = (side) => (side === 'scotland' ? 0 : 1);
  return [...(played ?? [])]
    .sort((a, b) => a.turn - b.turn || sideRank(a.side) - sideRank(b.side));
}
