// Pure: a Scotland Rising action (docs/scotland-rising.md, "Actions (JSON)") as a sentence, for
// the replay's list of a record's actions; the engine's log lines as the log panel shows them.
// Units are named as the board names them (side, type and the leader's name on the counter, from
// the view's data file), never by their ids; a hex by its id, and by its name where the board
// names it ("0102 (New Park)").
import { unitList, unitLabel, SIDE_NAME } from './model.js';
import { resultText } from '../wording.js';

// What each action of no unit does, in words.
const GENERAL = {
  end_turn: 'ends the turn',
  undo: 'takes back the last choice',
  roll_ap: 'rolls for action points',
  scots_charge: 'announces the Scots Charge',
  setup_done: 'finishes the set-up',
};

// How the engine names a unit in its log lines (rules/scotland_rising/log.cpp): side, type, id
// and the name on the counter ("Scots pike sc_pike8 (R. Bruce)").
const LOG_SIDE = { scotland: 'Scots', england: 'English' };
const logLabel = (u) =>
  `${LOG_SIDE[u.side] ?? u.side} ${u.type} ${u.id}${u.name ? ` (${u.name})` : ''}`;
const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// The words for the units and hexes a view names, made once per view: `unit(id)`, `hex(id)`,
// and `line(text)`, a log line of the engine with its units named as the board names them.
export function srNames(view) {
  const units = unitList(view);
  const byId = new Map(units.map((u) => [u.id, u]));
  const hexNames = view?.board?.hex_names || {};
  // Longest first: a label that is the start of another ("sc_pike1" of "sc_pike10", for a unit
  // without a name) never takes the other's place.
  const labels = units.map((u) => [logLabel(u), unitLabel(u)]);
  labels.sort((a, b) => b[0].length - a[0].length);
  const byLabel = new Map(labels);
  const pattern = labels.length ? new RegExp(labels.map(([l]) => escaped(l)).join('|'), 'g') : null;
  return {
    unit: (id) => (byId.has(id) ? unitLabel(byId.get(id)) : `an unknown unit (${id})`),
    hex: (hex) => (hexNames[hex] ? `${hex} (${hexNames[hex]})` : String(hex)),
    line: (text) => (pattern ? String(text).replace(pattern, (l) => byLabel.get(l)) : String(text)),
  };
}

// `action` in words; `names` from srNames (any view of the game: the data file is the same at
// every step).
export function describeSrAction(action, names) {
  const a = action || {};
  const end = a.path?.length ? names.hex(a.path[a.path.length - 1]) : null;
  const via = a.path?.length > 1 ? ` (${a.path.length} hexes)` : '';
  switch (a.type) {
    case 'move':
      return `${names.unit(a.unit)} moves to ${end}${via}`;
    case 'attack':
      return `${names.unit(a.unit)} attacks ${names.hex(a.target)}`;
    case 'charge':
      return `${names.unit(a.unit)} charges ${names.hex(a.target)} from ${end}`;
    case 'move_attack':
      return `${names.unit(a.unit)} moves to ${end} and attacks ${names.hex(a.target)}`;
    case 'exit':
      return `${names.unit(a.unit)} leaves the field toward Stirling`;
    case 'rally':
      return `${names.unit(a.leader)} rallies ${names.unit(a.unit)}`;
    case 'event_rally':
      return `${names.unit(a.unit)} rallies (battle event)`;
    case 'schiltron':
      return `${names.unit(a.unit)} forms schiltron`;
    case 'leave_schiltron':
      return `${names.unit(a.unit)} leaves schiltron`;
    case 'place':
      return `${names.unit(a.unit)} is set up at ${names.hex(a.hex)}`;
    default:
      return GENERAL[a.type] ?? `does "${a.type ?? 'something unknown'}"`;
  }
}

// One action of a record ({seq, role, action}) with the side that took it.
export function srRecordLine(entry, names) {
  const who = SIDE_NAME[entry.role] ?? entry.role;
  const what = describeSrAction(entry.action, names);
  return entry.action && GENERAL[entry.action.type] ? `${who} ${what}` : `${who}: ${what}`;
}

// How a finished game ended, from its record's `result`: the rules' ends in this game's terms
// (victory points or a draw, docs/scotland-rising.md, "Exits and victory"), the server's
// (resigned, timeout, forfeit, adjudicated) as for any game.
export function srResultText(result) {
  if (!result) return 'The game was cancelled.';
  if (result.reason === 'draw') return 'The game is drawn.';
  if (result.reason === 'victory_points')
    return `${SIDE_NAME[result.winner]} wins on victory points.`;
  return resultText(result);
}
