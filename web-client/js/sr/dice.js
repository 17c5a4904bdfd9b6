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

// The log's last attack with the lines that followed it (its results), or null.
export function lastAttack(log) {
  const lines = (log || []).map((l) => (typeof l === 'string' ? l : l.text));
  for (let k = lines.length - 1; k >= 0; k--) {
    const attack = parseAttack(lines[k]);
    if (!attack) continue;
    const results = [];
    for (let j = k + 1; j < lines.length && !parseAttack(lines[j]); j++) {
      if (/ is (reduced|eliminated|disordered)$| for a hit: /.test(lines[j]))
        results.push(lines[j]);
      else break;
    }
    return { ...attack, index: k, results };
  }
  return null;
}

// The hexes a log line names ("0712"), for lighting them up on the map.
export const hexesIn = (line) => [...String(line).matchAll(/\b(\d{4})\b/g)].map((m) => m[1]);
