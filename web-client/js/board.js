// Pure: what each area shows for a seat, from the view alone. Own blocks carry identity;
// the other side's blocks are only a count (the view carries nothing more).

export const SIDES = ['scotland', 'england'];
export const SIDE_NAME = { scotland: 'Scotland', england: 'England', observer: 'Observer' };

const TYPE_ABBREV = {
  wallace: 'LDR',
  king: 'KING',
  edward: 'KING',
  infantry: 'INF',
  cavalry: 'CAV',
  archers: 'ARCH',
  knights: 'KNT',
  hobelars: 'HOB',
  noble: 'NOB',
  moray: 'NOB',
  norse: 'NORSE',
  'french-knights': 'KNT',
};

export function typeAbbrev(type) {
  return (
    TYPE_ABBREV[type] ??
    String(type || '')
      .slice(0, 4)
      .toUpperCase()
  );
}

// Everything a seat may show about its own block, from the view entry and the published data.
export function blockInfo(data, entry) {
  const d = data.block[entry.block] || {};
  return {
    id: entry.block,
    name: d.name ?? entry.block,
    type: d.type ?? '?',
    combat: d.combat ?? '?',
    movement: d.movement ?? 0,
    // A noble's home area(s), by name (RULES 1.4, 10.1).
    homes: (d.home_areas || []).map((a) => data.area?.[a]?.name ?? a),
    strength: entry.strength,
    max: d.max_strength,
    moved: !!entry.moved,
    reserve: !!entry.reserve,
    side: entry.block.startsWith('sco_') ? 'scotland' : 'england',
  };
}

// Per area: [{side, own: [blockInfo], revealed: [blockInfo], hidden: n}] in Scotland-then-
// England order. `revealed` are the other side's blocks standing revealed in the current battle
// (the view names them there, with their strength); the rest of that side is only a count.
export function areaStacks(view, data) {
  const out = new Map();
  const battle = view.battle;
  for (const area of view.areas || []) {
    const stacks = [];
    for (const side of SIDES) {
      const s = area[side] || { count: 0 };
      const own = (s.blocks || []).map((b) => blockInfo(data, b));
      const shown = new Set(own.map((b) => b.id));
      const revealed =
        battle && battle.area === area.id
          ? (battle.revealed?.[side] || [])
              .filter((r) => !shown.has(r.block))
              .map((r) => ({ ...blockInfo(data, r), revealed: true }))
          : [];
      const hidden = Math.max(0, (s.count || 0) - own.length - revealed.length);
      if (own.length || revealed.length || hidden) stacks.push({ side, own, revealed, hidden });
    }
    out.set(area.id, { stacks, battle: area.battle || null, raw: area });
  }
  return out;
}

// A noble's home(s) in words ("Annan or Carrick"), and shortened to fit a block's label: three
// letters of one home ("ANG"), the initials of two ("A/C").
export const homeText = (homes) => homes.join(' or ');
export function homeAbbrev(homes) {
  if (homes.length === 1) return homes[0].slice(0, 3).toUpperCase();
  return homes.map((n) => n[0].toUpperCase()).join('/');
}

// The human description of a block for labels and screen readers.
export function blockLabel(b) {
  const home = b.homes?.length ? `, home ${homeText(b.homes)}` : '';
  return (
    `${b.name}, ${b.type}${home}, ${b.combat}, movement ${b.movement}, strength ${b.strength}` +
    `${b.max ? ` of ${b.max}` : ''}${b.reserve ? ', reserve' : ''}${b.moved ? ', moved' : ''}`
  );
}
