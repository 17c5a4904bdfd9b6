// Pure: the dice of attacks, read from the log's lines (docs/scotland-rising.md, "Combat"). The
// engine writes each attack as one line: "<unit> attacks|charges HEX: N dice hitting on H+,
// rolled a,b,c: K hits", followed by what the hits did and, for a charge, a disorder.

const ATTACK =
  /^(.*) (attacks|charges) (\d{4}): (\d+) dice? hitting on (\d)\+, rolled ([\d,]+): (\d+) hits?$/;

// The attack a line tells of, or null.
export function parseAttack(line) {
  const m = ATTACK.exec(String(line));
  if (!m) return null;
  const need = Number(m[5]);
  const faces = m[6].split(',').map(Number);
  return {
    attacker: m[1],
    charge: m[2] === 'charges',
    target: m[3],
    dice: Number(m[4]),
    need,
    faces,
    hits: Number(m[7]),
    hitFaces: faces.map((f) => f >= need),
  };
}

const texts = (log) => (log || []).map((l) => (typeof l === 'string' ? l : l.text));

// The attack told by the log's line `k` with the lines after it that tell what its hits did,
// or null when that line tells of no attack.
export function attackAt(log, k) {
  const lines = texts(log);
  const attack = parseAttack(lines[k]);
  if (!attack) return null;
  const results = [];
  for (let j = k + 1; j < lines.length; j++) {
    if (!/ is (reduced|eliminated|disordered)$| for a hit: /.test(lines[j])) break;
    results.push(lines[j]);
  }
  return { ...attack, index: k, results };
}

// The log's last attack with the lines that followed it (its results), or null.
export function lastAttack(log) {
  const lines = texts(log);
  for (let k = lines.length - 1; k >= 0; k--) {
    if (parseAttack(lines[k])) return attackAt(lines, k);
  }
  return null;
}

// The hexes a log line names ("0712"), for lighting them up on the map.
export const hexesIn = (line) => [...String(line).matchAll(/\b(\d{4})\b/g)].map((m) => m[1]);
