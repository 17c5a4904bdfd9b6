// Pure: what the Scotland Rising board shows and offers, from the view alone (the engine's
// rules/scotland_rising/view.cpp: the board's data file, every unit's state, and the seat's
// legal actions). The client never decides a rule: what may be done is what the legal actions
// list (docs/scotland-rising.md, "Actions (JSON)").

export const SIDE_NAME = { scotland: 'Scotland', england: 'England' };

export const TYPE_NAME = {
  pike: 'Pike',
  ax: 'Ax',
  longbow: 'Longbow',
  crossbow: 'Crossbow',
  knight: 'Knights',
  hobelar: 'Hobelars',
  leader: 'Leader',
};

export const TERRAIN_NAME = {
  clear: 'clear',
  woods: 'woods',
  potholes: 'potholes',
  burn: 'the Bannock Burn',
  bridge: 'a bridge',
  swamp: 'swamp',
  village: 'the village',
};

// Terrain by hex id, from the data file's rows and key.
export function terrainMap(board) {
  const out = new Map();
  const key = board.terrain_key || {};
  (board.terrain_rows || []).forEach((line, row) => {
    [...line].forEach((ch, col) => {
      const two = (n) => String(n + 1).padStart(2, '0');
      out.set(`${two(col)}${two(row)}`, key[ch] ?? 'clear');
    });
  });
  return out;
}

// Every unit: its data (side, type, name, full and reduced values, vp) and its state.
export function unitList(view) {
  const data = new Map((view.board?.units || []).map((u) => [u.id, u]));
  return (view.units || []).map((st) => {
    const d = data.get(st.id) || {};
    const values = st.reduced && d.reduced ? d.reduced : d.full || { dice: 0, hit: 0, move: 0 };
    return {
      ...st,
      side: d.side,
      type: d.type,
      name: d.name || '',
      full: d.full,
      reduced: d.reduced ?? null,
      isReduced: !!st.reduced,
      vp: d.vp,
      commander: !!d.commander,
      leader: d.type === 'leader',
      values,
      onBoard: !!st.hex && !st.eliminated && !st.exited,
    };
  });
}

// Per hex on the board: {unit, leader} (a hex holds at most one of each; docs, "The board").
export function stacks(units) {
  const out = new Map();
  for (const u of units) {
    if (!u.onBoard) continue;
    const s = out.get(u.hex) || { unit: null, leader: null };
    if (u.leader) s.leader = u;
    else s.unit = u;
    out.set(u.hex, s);
  }
  return out;
}

function emptyUnitActions() {
  return {
    moves: new Map(), // destination hex -> action
    attacks: new Map(), // target hex -> action
    charges: new Map(), // target hex -> [action] (one per hex the charge ends on)
    moveAttacks: new Map(), // target hex -> [action]
    exits: [],
    rallies: [], // a leader's: {type: 'rally', leader, unit}
    other: [], // schiltron, leave_schiltron, event_rally
  };
}

// The legal actions sorted for the board: per unit (by the unit that acts; a rally by its
// leader), the free-form setup's placements by hex, and those of no unit (end turn, undo,
// roll_ap, scots_charge, setup_done).
export function classify(legal) {
  const byUnit = new Map();
  const places = new Map();
  const general = [];
  const of = (id) => {
    if (!byUnit.has(id)) byUnit.set(id, emptyUnitActions());
    return byUnit.get(id);
  };
  const push = (map, key, a) => map.set(key, [...(map.get(key) || []), a]);
  for (const a of legal || []) {
    switch (a.type) {
      case 'move':
        of(a.unit).moves.set(a.path[a.path.length - 1], a);
        break;
      case 'attack':
        of(a.unit).attacks.set(a.target, a);
        break;
      case 'charge':
        push(of(a.unit).charges, a.target, a);
        break;
      case 'move_attack':
        push(of(a.unit).moveAttacks, a.target, a);
        break;
      case 'exit':
        of(a.unit).exits.push(a);
        break;
      case 'rally':
        of(a.leader).rallies.push(a);
        break;
      case 'schiltron':
      case 'leave_schiltron':
      case 'event_rally':
        of(a.unit).other.push(a);
        break;
      case 'place':
        places.set(a.hex, a);
        break;
      default:
        general.push(a);
    }
  }
  return { byUnit, places, general };
}

// The hexes the selected unit's actions point at, by what a click there does:
// `move` (a destination), `attack`, `charge`, `moveAttack` (targets), `exit` (the arrow).
export function targetsOf(acts) {
  const out = new Map();
  if (!acts) return out;
  const mark = (hex, kind) => {
    if (!out.has(hex)) out.set(hex, new Set());
    out.get(hex).add(kind);
  };
  for (const hex of acts.moves.keys()) mark(hex, 'move');
  for (const hex of acts.attacks.keys()) mark(hex, 'attack');
  for (const hex of acts.charges.keys()) mark(hex, 'charge');
  for (const hex of acts.moveAttacks.keys()) mark(hex, 'moveAttack');
  for (const a of acts.exits) mark(a.path.length ? a.path[a.path.length - 1] : null, 'exit');
  out.delete(null);
  return out;
}

// Whether the view awaits `role` (and the game is on).
export function isMyTurn(view, role) {
  return !view.outcome?.finished && (view.awaiting || []).includes(role);
}

export const unitLabel = (u) =>
  `${SIDE_NAME[u.side] ?? u.side} ${TYPE_NAME[u.type] ?? u.type}${u.name ? ` (${u.name})` : ''}`;

// "2-5-2": dice, hit on, move (the counter's three values, rulebook 3).
export const valuesText = (v) => (v ? `${v.dice}-${v.hit}-${v.move}` : '—');

// A unit in words, for a counter's title and a screen reader.
export function unitDescription(u) {
  const state = [
    u.isReduced ? 'reduced' : 'full strength',
    u.schiltron ? 'in schiltron' : null,
    u.disordered ? 'disordered' : null,
    u.acted ? 'has acted' : null,
  ].filter(Boolean);
  const v = u.values;
  return (
    `${unitLabel(u)}: ${v.dice} dice, hit on ${v.hit}+, move ${v.move}; ` + `${state.join(', ')}`
  );
}

// An action in words, for buttons and the notice.
export function describeAction(a, byId) {
  const name = (id) => (byId.get(id) ? unitLabel(byId.get(id)) : id);
  const end = a.path?.length ? a.path[a.path.length - 1] : null;
  switch (a.type) {
    case 'move':
      return `${name(a.unit)}: move to ${end}`;
    case 'attack':
      return `${name(a.unit)}: attack ${a.target}`;
    case 'charge':
      return `${name(a.unit)}: charge ${a.target} from ${end}`;
    case 'move_attack':
      return `${name(a.unit)}: move to ${end} and attack ${a.target}`;
    case 'exit':
      return `${name(a.unit)}: exit toward Stirling`;
    case 'rally':
      return `${name(a.leader)}: rally ${name(a.unit)}`;
    case 'event_rally':
      return `${name(a.unit)}: rally (battle event)`;
    case 'schiltron':
      return `${name(a.unit)}: form schiltron`;
    case 'leave_schiltron':
      return `${name(a.unit)}: leave schiltron`;
    case 'place':
      return `${name(a.unit)}: set up at ${a.hex}`;
    default:
      return GENERAL_LABEL[a.type] ?? a.type;
  }
}

export const GENERAL_LABEL = {
  end_turn: 'End turn',
  undo: 'Undo',
  roll_ap: 'Roll for AP',
  scots_charge: 'Scots Charge!',
  setup_done: 'Set-up done',
};

// How a side won, by the rules or by the server's ends (a resignation, time, a tournament's
// forfeit or adjudication), in the words after "England wins".
const END_HOW = {
  victory_points: ' on victory points',
  resigned: ' by resignation',
  timeout: ' on time',
  forfeit: ' by forfeit',
  adjudicated: ' by adjudication',
};

// The game's end in words, from the view's outcome (docs/scotland-rising.md, "Exits and victory").
export function outcomeText(outcome, vp) {
  if (!outcome?.finished) return '';
  const score = vp ? ` (Scotland ${vp.scotland} VP, England ${vp.england} VP)` : '';
  if (!outcome.winner) return `The game is drawn${score}.`;
  const how = END_HOW[outcome.reason] ?? '';
  return `${SIDE_NAME[outcome.winner]} wins${how}${score}.`;
}

// A hex and what stands there in one line ("0610, clear: England Knights (Edward II) 3-6-3,
// reduced, disordered"), for the prompt: a phone shows it without scrolling to the panels.
export function hexSummary(hex, terrain, stacks, names = {}) {
  const stack = stacks.get(hex);
  const units = [stack?.unit, stack?.leader]
    .filter(Boolean)
    .map((u) =>
      [
        `${unitLabel(u)} ${valuesText(u.values)}`,
        u.isReduced && 'reduced',
        u.schiltron && 'schiltron',
        u.disordered && 'disordered',
        u.acted && 'has acted',
      ]
        .filter(Boolean)
        .join(', '),
    );
  const where = `${hex}, ${TERRAIN_NAME[terrain.get(hex)] ?? terrain.get(hex)}${names[hex] ? ` (${names[hex]})` : ''}`;
  return `${where}: ${units.length ? units.join('; ') : 'nobody'}`;
}
