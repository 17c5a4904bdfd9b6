// Pure: what a log line names on the map (areas and blocks, by their names in the text), and
// the moves the opponent made this game turn, read from the seat's own log lines (only what
// the seat may read: RULES 13 is the engine's, the log is already the seat's view).

const escape = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function nameIndex(data) {
  const areas = new Map();
  for (const a of data.areas) {
    areas.set(a.name, a.id);
    if (a.display_name) areas.set(a.display_name, a.id);
  }
  const blocks = new Map();
  for (const b of data.raw.blocks) {
    if (!blocks.has(b.name)) blocks.set(b.name, []);
    blocks.get(b.name).push(b.id);
  }
  const names = [...new Set([...areas.keys(), ...blocks.keys()])].sort(
    (x, y) => y.length - x.length,
  );
  return { areas, blocks, re: new RegExp(`\\b(${names.map(escape).join('|')})\\b`, 'g') };
}

// {areas: Set(area id), blocks: Set(block id)} named in `text`.
export function linksOf(text, index) {
  const areas = new Set();
  const blocks = new Set();
  for (const m of String(text).matchAll(index.re)) {
    if (index.areas.has(m[1])) areas.add(index.areas.get(m[1]));
    for (const id of index.blocks.get(m[1]) || []) blocks.add(id);
  }
  return { areas, blocks };
}

const PHASE_START = /^(Scotland|England) moves with \d+ move points?\.$/;
const TURN_START = /^Game turn \d+\.$/;
const MOVES = [
  /^(?:.+?) moved from (.+?) to (.+?)\.$/,
  /^(?:.+?) sails from (.+?) to (.+?)\.$/,
  /^The Norse sailed from (.+?) to (.+?)\.$/,
];

// The moves of `side`'s move phases since the current game turn began:
// [{from, to, text}] (area ids), oldest first. `side` null: either side's.
export function movesThisTurn(log, side, index) {
  const out = [];
  let mover = null;
  let start = 0;
  for (let k = log.length - 1; k >= 0; k--) {
    if (TURN_START.test(log[k].text)) {
      start = k + 1;
      break;
    }
  }
  for (let k = start; k < log.length; k++) {
    const text = log[k].text;
    const phase = PHASE_START.exec(text);
    if (phase) {
      mover = phase[1].toLowerCase();
      continue;
    }
    if (/ended its move phase\.$/.test(text)) {
      mover = null;
      continue;
    }
    if (!mover || (side && mover !== side)) continue;
    for (const re of MOVES) {
      const m = re.exec(text);
      if (m && index.areas.has(m[1]) && index.areas.has(m[2])) {
        out.push({ from: index.areas.get(m[1]), to: index.areas.get(m[2]), text, side: mover });
        break;
      }
    }
  }
  return out;
}
