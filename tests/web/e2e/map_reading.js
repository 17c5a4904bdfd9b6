// Shared by the browser tests of the map's reading at Fit (layout.test.js, map_sizes.test.js):
// how the map shows the seat's blocks and the enemy's backs, measured by the elements' screen
// boxes and font sizes, and a late Campaign position that a page is made to see.
import assert from 'node:assert/strict';
import { BLOCK_NAME } from './helpers.js';

// How the map shows each block of the seat (`own`: [{id, area}]) and each area's enemy blocks:
// per block the element showing it ('block' drawn whole, 'tag', 'square' with its strength
// alone, or 'none'), its name and strength as drawn with their font sizes on the screen, and
// whether its box lies in its own area (the box's corners and edge midpoints, 0.5 px in, in
// the area's shape); per area the backs of the enemy's blocks drawn, and the boxes of the
// sides' groups where there are two.
export const mapReading = (page, own, enemy) =>
  page.evaluate(
    ({ own, enemy }) => {
      const svg = document.querySelector('svg.map');
      const toMap = svg.getScreenCTM().inverse();
      const px = (el) => el && el.getScreenCTM().a * parseFloat(getComputedStyle(el).fontSize);
      const inArea = (el, area) => {
        const cell = svg.querySelector(`.cell[data-area="${area}"]`);
        const r = el.getBoundingClientRect();
        return [0, 0.5, 1].every((u) =>
          [0, 0.5, 1].every((v) =>
            cell.isPointInFill(
              new DOMPoint(
                r.left + 0.5 + u * (r.width - 1),
                r.top + 0.5 + v * (r.height - 1),
              ).matrixTransform(toMap),
            ),
          ),
        );
      };
      const blocks = own.map(({ id, area }) => {
        const el = svg.querySelector(`.blocks [data-block="${id}"]`);
        if (!el) return { id, area, kind: 'none' };
        const name = el.querySelector('.bname, .tname');
        const strength = el.querySelector('.bstrength, .tstrength');
        return {
          id,
          area,
          kind: el.classList.contains('tag') ? (name ? 'tag' : 'square') : 'block',
          drawnIn: el.dataset.area,
          name: name?.textContent ?? null,
          namePx: px(name) ?? 0,
          strength: strength?.textContent ?? null,
          strengthPx: px(strength) ?? 0,
          inside: inArea(el, area),
        };
      });
      const areas = Object.fromEntries(
        Object.entries(enemy).map(([area, side]) => {
          const backs = [...svg.querySelectorAll(`.blocks rect.block.hidden.${side}`)].filter(
            (el) => el.dataset.area === area,
          );
          const groups = [...svg.querySelectorAll(`.tags[data-area="${area}"] .tag-group`)].map(
            (g) => g.getBoundingClientRect().toJSON(),
          );
          return [
            area,
            {
              backs: backs.length,
              backsInside: backs.every((el) => inArea(el, area)),
              backSide: backs.map((el) => getComputedStyle(el).fill),
              groups,
            },
          ];
        }),
      );
      // Every pair of things drawn for blocks (whole blocks, tags, squares, backs) whose boxes
      // overlap by more than half a pixel each way.
      const drawn = [
        ...svg.querySelectorAll('.blocks g.block, .blocks rect.block.hidden, .blocks .chip'),
      ].map((el) => ({
        what: `${el.dataset.area}'s ${el.dataset.block ?? 'back'}`,
        r: el.getBoundingClientRect(),
      }));
      const overlaps = [];
      drawn.forEach((a, i) => {
        for (const b of drawn.slice(i + 1)) {
          const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
          const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
          if (w > 0.5 && h > 0.5) overlaps.push(`${a.what} and ${b.what}`);
        }
      });
      return {
        blocks,
        areas,
        overlaps,
        chips: svg.querySelectorAll('.blocks .chip').length,
        sideFill: Object.fromEntries(
          ['sco', 'eng'].map((v) => {
            const probe = document.createElement('div');
            probe.style.color = `var(--${v})`;
            document.body.append(probe);
            const rgb = getComputedStyle(probe).color;
            probe.remove();
            return [v === 'sco' ? 'scotland' : 'england', rgb];
          }),
        ),
      };
    },
    { own, enemy },
  );

// The seat's blocks in `view` ([{id, area}]), the number of blocks in each side's stack there,
// and the enemy's count per area.
export function seatBlocks(view) {
  const role = view.role;
  const other = role === 'scotland' ? 'england' : 'scotland';
  const own = [];
  const sides = {};
  const enemy = {};
  for (const a of view.areas) {
    for (const b of a[role]?.blocks || []) own.push({ id: b.block, area: a.id });
    sides[a.id] = { own: a[role]?.count ?? 0, enemy: a[other]?.count ?? 0 };
    if (a[other]?.count) enemy[a.id] = other;
  }
  return { own, sides, enemy, other };
}

// A short name says the block: each of its words begins a word of the block's full name.
export const saysName = (short, full) =>
  short.split(' ').every((w) => full.split(' ').some((f) => f.startsWith(w)));

// Asserts that at this zoom every block of the seat in `view` shows its strength and a short name
// of at least 10 px inside its own area (strengths alone in a side of five or more), that no area
// is a chip, that every enemy block is a back in its side's colour inside its area, that the
// two sides of an area are groups apart, and that nothing drawn for a block covers another.
export async function assertMapReads(page, view, when) {
  const { own, sides, enemy, other } = seatBlocks(view);
  const m = await mapReading(page, own, enemy);
  assert.ok(own.length >= 3, `${when}: the seat has blocks on the map (${own.length})`);
  assert.equal(m.chips, 0, `${when}: no area is a chip`);
  assert.deepEqual(m.overlaps, [], `${when}: no two blocks, tags or backs overlap`);
  for (const b of m.blocks) {
    const full = BLOCK_NAME[b.id];
    assert.notEqual(b.kind, 'none', `${when}: ${b.id} is drawn`);
    assert.equal(b.drawnIn, b.area, `${when}: ${b.id} is drawn in its area`);
    assert.ok(b.inside, `${when}: ${b.id} lies inside ${b.area}`);
    const here = view.areas.find((a) => a.id === b.area)[view.role].blocks;
    const { strength } = here.find((x) => x.block === b.id);
    assert.equal(b.strength, String(strength), `${when}: ${b.id} shows its strength`);
    assert.ok(b.strengthPx >= 10, `${when}: ${b.id}'s strength is ${b.strengthPx} px`);
    if (b.kind === 'square') {
      assert.ok(sides[b.area].own >= 5, `${when}: ${b.id} has a name (${sides[b.area].own})`);
      continue;
    }
    assert.ok(b.namePx >= 10, `${when}: ${b.id}'s name is ${b.namePx} px`);
    assert.ok(saysName(b.name, full), `${when}: ${b.id} is named "${b.name}" (${full})`);
  }
  for (const [area, a] of Object.entries(m.areas)) {
    assert.equal(a.backs, sides[area].enemy, `${when}: every enemy block in ${area} is a back`);
    assert.ok(a.backsInside, `${when}: the enemy's backs lie inside ${area}`);
    for (const fill of a.backSide)
      assert.equal(fill, m.sideFill[other], `${when}: ${area}'s backs are ${other}'s`);
    if (sides[area].own) {
      assert.equal(a.groups.length, 2, `${when}: ${area} shows each side as a group`);
      const [g, h] = a.groups;
      const apart = g.right + 3 <= h.left || h.right + 3 <= g.left;
      const above = g.bottom + 3 <= h.top || h.bottom + 3 <= g.top;
      assert.ok(apart || above, `${when}: ${area}'s two sides are groups apart`);
    }
  }
}

// A late Campaign position, as the engine's view of each seat would give it: blocks in many
// areas, one side of six, and two battles (Fife attacked by England, Selkirk Forest by Scotland).
// Each seat's view holds its own blocks and only the other side's counts (RULES 13).
export const LATE = {
  ross: { scotland: [['sco_ross', 3]] },
  moray: { scotland: [['sco_moray', 2]] },
  strathspey: { scotland: [['sco_dunbar', 2]] },
  buchan: {
    scotland: [
      ['sco_buchan', 3],
      ['sco_comyn', 4],
    ],
  },
  mar: { scotland: [['sco_mar', 3]] },
  badenoch: {
    england: [
      ['eng_hobelars', 2],
      ['eng_durham_infantry', 3],
    ],
  },
  angus: {
    scotland: [
      ['sco_angus', 2],
      ['sco_keith', 3],
    ],
  },
  atholl: {
    scotland: [
      ['sco_atholl', 3],
      ['sco_steward', 2],
    ],
  },
  fife: {
    battle: 'england',
    scotland: [
      ['sco_wallace', 3],
      ['sco_douglas', 4],
    ],
    england: [
      ['eng_york_knights', 4],
      ['eng_lancaster_archers', 2],
    ],
  },
  lothian: {
    england: [
      ['eng_york_infantry', 3],
      ['eng_cumbria_infantry', 2],
    ],
  },
  mentieth: {
    scotland: [
      ['sco_bruce', 4],
      ['sco_mentieth', 2],
      ['sco_lennox', 3],
      ['sco_fraser', 2],
    ],
  },
  lanark: {
    scotland: [
      ['sco_campbell', 3],
      ['sco_graham', 4],
      ['sco_macdonald', 2],
      ['sco_etterick', 1],
      ['sco_french_knights', 3],
      ['sco_king', 4],
    ],
  },
  argyll: { scotland: [['sco_argyll', 2]] },
  lennox: { scotland: [['sco_barclay', 2]] },
  galloway: { england: [['eng_galloway', 3]] },
  annan: {
    england: [
      ['eng_edward', 4],
      ['eng_lancaster_knights', 3],
      ['eng_northumber_infantry', 4],
      ['eng_westmor_infantry', 2],
      ['eng_wales_archers', 3],
    ],
  },
  selkirk: {
    battle: 'scotland',
    scotland: [
      ['sco_lindsay', 2],
      ['sco_grant', 2],
    ],
    england: [
      ['eng_lancaster_infantry', 3],
      ['eng_durham_knights', 3],
    ],
  },
  dunbar: {
    england: [
      ['eng_dunbar', 2],
      ['eng_wales_infantry', 3],
    ],
  },
  teviot: { england: [['eng_ulster_infantry', 2]] },
};

// Battles in the smallest areas, each side with two or three blocks (one in Teviot): Fife,
// Lothian, Dunbar and Teviot, where tags have the least room (RULES 5).
export const BATTLES = {
  fife: {
    battle: 'england',
    scotland: [
      ['sco_wallace', 4],
      ['sco_douglas', 3],
      ['sco_barclay', 2],
    ],
    england: [
      ['eng_york_knights', 4],
      ['eng_lancaster_archers', 3],
      ['eng_durham_infantry', 2],
    ],
  },
  lothian: {
    battle: 'scotland',
    scotland: [
      ['sco_moray', 2],
      ['sco_fraser', 3],
    ],
    england: [
      ['eng_york_infantry', 3],
      ['eng_cumbria_infantry', 2],
    ],
  },
  dunbar: {
    battle: 'england',
    scotland: [
      ['sco_lindsay', 2],
      ['sco_grant', 2],
    ],
    england: [
      ['eng_dunbar', 2],
      ['eng_wales_infantry', 3],
    ],
  },
  teviot: {
    battle: 'scotland',
    scotland: [['sco_keith', 2]],
    england: [['eng_ulster_infantry', 2]],
  },
  mentieth: { scotland: [['sco_bruce', 4]] },
  annan: { england: [['eng_edward', 4]] },
};

// `view` (the seat's) with the areas of `position`: its own blocks, the enemy's counts.
export function lateView(view, position = LATE) {
  const areas = view.areas.map((a) => {
    const at = position[a.id] ?? {};
    const out = { id: a.id };
    for (const side of ['scotland', 'england']) {
      const blocks = at[side] ?? [];
      out[side] = { count: blocks.length };
      if (side === view.role)
        out[side].blocks = blocks.map(([block, strength]) => ({ block, strength }));
    }
    if (at.battle) out.battle = { attacker: at.battle };
    return out;
  });
  return { ...view, year: 1305, areas };
}

// The page's socket with each whole view it receives replaced by the late position's.
export async function seeLatePosition(p, position = LATE) {
  await p.page.routeWebSocket(/\/ws\/games\//, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => {
      const msg = JSON.parse(m);
      if (msg.type === 'view') msg.view = lateView(msg.view, position);
      ws.send(JSON.stringify(msg));
    });
  });
}
