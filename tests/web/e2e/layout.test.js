// End to end in headless Chromium: the game page's layout. On a 1440x900 screen the map takes
// most of the window's width beside the dock (prompt, controls, hand), and Fit shows the whole
// map on the screen; on a 390x844 phone the dock is a sheet at the foot of the screen, so the
// prompt and every card of the hand are on the screen without scrolling past the map, and the
// map's frame ends above the sheet. Measured by the elements' boxes.
// The map read at Fit: on the desktop, in the Braveheart, Bruce and Campaign set-ups and in a
// late Campaign position, every block of the seat shows its strength and a short name at 10 px
// or more on the screen, inside its own area (a side of five blocks or more may show strengths
// alone), the enemy's blocks are backs in their side's colour, and each side of a battle is a
// group of its own; on the phone a tap on an area shows its name at 12 px or more and the faces
// of the seat's blocks there (name, strength of its steps). Font sizes are the computed size
// times the text's screen scale; boxes are the elements' screen boxes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import { newPlayer, startGame, lastView, BLOCK_NAME } from './helpers.js';

const running = useServerAndBrowser();
const shots = process.env.BLOCKFOG_SHOTS || outputDir();

const box = (page, selector) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width };
    });

// The part of the map shown (the svg's viewBox) and the map's own size, in map units.
const shown = (page) =>
  page.evaluate(() => {
    const svg = document.querySelector('svg.map');
    const [x, y, w, h] = svg.getAttribute('viewBox').split(' ').map(Number);
    return { x, y, w, h };
  });

// How the map shows each block of the seat (`own`: [{id, area}]) and each area's enemy blocks:
// per block the element showing it ('block' drawn whole, 'tag', 'square' with its strength
// alone, or 'none'), its name and strength as drawn with their font sizes on the screen, and
// whether its box lies in its own area (the box's corners and edge midpoints, 0.5 px in, in
// the area's shape); per area the backs of the enemy's blocks drawn, and the boxes of the
// sides' groups where there are two.
const mapReading = (page, own, enemy) =>
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
      return {
        blocks,
        areas,
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
function seatBlocks(view) {
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
const saysName = (short, full) =>
  short.split(' ').every((w) => full.split(' ').some((f) => f.startsWith(w)));

// Asserts that at this zoom every block of the seat in `view` shows its strength and a short name
// of at least 10 px inside its own area (strengths alone in a side of five or more), that no area
// is a chip, that every enemy block is a back in its side's colour inside its area, and that the
// two sides of an area are groups apart.
async function assertMapReads(page, view, when) {
  const { own, sides, enemy, other } = seatBlocks(view);
  const m = await mapReading(page, own, enemy);
  assert.ok(own.length >= 3, `${when}: the seat has blocks on the map (${own.length})`);
  assert.equal(m.chips, 0, `${when}: no area is a chip`);
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

// Taps an area's name on the phone: the list over the map names the area at 12 px or more, on
// the screen, and holds each block of the seat there with its name, strength and steps.
async function tapArea(page, area) {
  const at = await page.locator(`.area-label[data-label="${area}"] .area-name`).boundingBox();
  await page.mouse.click(at.x + at.width / 2, at.y + at.height / 2);
  await page.waitForSelector(`.stack-panel[data-area="${area}"]:not([hidden])`);
  return page.evaluate(() => {
    const panel = document.querySelector('.stack-panel:not([hidden])');
    const title = panel.querySelector('h2');
    const r = title.getBoundingClientRect();
    return {
      title: title.textContent,
      titlePx: parseFloat(getComputedStyle(title).fontSize),
      onScreen: r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= 390,
      rows: [...panel.querySelectorAll('.pblock')].map((row) => ({
        id: row.dataset.block,
        name: row.querySelector('.pb-name').textContent,
        namePx: parseFloat(getComputedStyle(row.querySelector('.pb-name')).fontSize),
        text: row.textContent,
      })),
      none: panel.querySelector('.pb-none')?.textContent ?? null,
    };
  });
}

// On the phone at Fit: one tap on an area with blocks of the seat shows their faces, and one on
// an empty area its name.
async function assertTapsRead(page, view, when, shotName) {
  await page.click('.zoom .fit');
  const { own, sides } = seatBlocks(view);
  const area = own[0].area;
  const list = await tapArea(page, area);
  await page.screenshot({ path: path.join(shots, `layout-${shotName}-phone-tap.png`) });
  const areaName = (id) =>
    page.evaluate((a) => document.querySelector(`.cell[data-area="${a}"]`).ariaLabel, id);
  assert.ok((await areaName(area)).startsWith(list.title.split(':')[0]), `${when}: named`);
  assert.ok(list.titlePx >= 12, `${when}: the area's name is ${list.titlePx} px`);
  assert.ok(list.onScreen, `${when}: the area's name is on the screen`);
  const here = own.filter((b) => b.area === area);
  assert.deepEqual(
    list.rows.map((r) => r.id).sort(),
    here.map((b) => b.id).sort(),
    `${when}: the list holds the seat's blocks in ${area}`,
  );
  for (const row of list.rows) {
    assert.equal(row.name, BLOCK_NAME[row.id], `${when}: ${row.id}'s face is named`);
    assert.ok(row.namePx >= 12, `${when}: ${row.id}'s name is ${row.namePx} px`);
    assert.match(row.text, /strength [1-4] of [1-4]/, `${when}: ${row.id}'s strength and steps`);
  }
  await page.click('.stack-panel .pb-close');
  const empty = Object.keys(sides).find((a) => !sides[a].own && !sides[a].enemy);
  const none = await tapArea(page, empty);
  assert.match(none.title, /^[A-Z]/, `${when}: an empty area is named`);
  assert.equal(none.none, 'No blocks here.');
  assert.ok(none.titlePx >= 12 && none.onScreen, `${when}: the empty area's name reads`);
  await page.click('.stack-panel .pb-close');
}

for (const scenario of ['braveheart', 'the_bruce', 'campaign']) {
  test(`${scenario}: the map takes most of a desktop; a phone's dock holds prompt and hand`, async () => {
    const sco = await newPlayer(running.browser, running.server, `lay${scenario.slice(0, 5)}s`, {
      viewport: { width: 1440, height: 900 },
    });
    const eng = await newPlayer(running.browser, running.server, `lay${scenario.slice(0, 5)}e`, {
      viewport: { width: 390, height: 844 },
    });
    await sco.page.selectOption('#create-scenario', scenario);
    await startGame(sco, eng);

    // Desktop: the map's frame is most of the window's width, all of it on the screen.
    const desk = sco.page;
    await desk.waitForSelector('button.card');
    await desk.click('.zoom .fit');
    const frame = await box(desk, '.map-viewport');
    assert.ok(frame.width >= 0.68 * 1440, `the map is ${frame.width} px of 1440 wide`);
    assert.ok(frame.top >= 0 && frame.bottom <= 900, 'the frame is on the screen');
    const vb = await shown(desk);
    assert.ok(vb.x <= 0 && vb.y <= 0, 'Fit shows the map from its corner');
    assert.ok(vb.w >= 1000 - 1 && vb.h >= 1300 - 1, 'Fit shows the whole map');
    const prompt = await box(desk, '.prompt');
    assert.ok(prompt.left >= frame.right, 'the prompt is beside the map');
    assert.ok(prompt.bottom <= 900, 'the prompt is on the screen');
    await desk.screenshot({ path: path.join(shots, `layout-${scenario}-desktop.png`) });
    await assertMapReads(desk, lastView(sco), `${scenario} at Fit`);

    // Phone: the dock is a sheet at the foot of the screen; the prompt and every card of the
    // hand lie on the screen with the page at its top, and the map's frame ends above them.
    const phone = eng.page;
    await phone.waitForSelector('button.card');
    await phone.evaluate(() => window.scrollTo(0, 0));
    const dock = await box(phone, '.dock');
    assert.ok(
      dock.bottom <= 844 + 0.5 && dock.top >= 844 * 0.5,
      `the dock is a sheet: ${dock.top}`,
    );
    const onScreen = async (selector) => {
      for (const b of await phone
        .locator(selector)
        .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().toJSON()))) {
        assert.ok(b.top >= 0 && b.bottom <= 844 && b.left >= 0 && b.right <= 390, selector);
      }
    };
    await onScreen('.prompt .phase-text');
    await onScreen('.cards button.card');
    const phoneFrame = await box(phone, '.map-viewport');
    assert.ok(phoneFrame.bottom <= dock.top + 0.5, 'the map ends above the sheet');
    const pvb = await shown(phone);
    assert.ok(pvb.w >= 1000 - 1 && pvb.h >= 1300 - 1, "a phone's Fit shows the whole map");
    await phone.screenshot({ path: path.join(shots, `layout-${scenario}-phone.png`) });
    await assertTapsRead(phone, lastView(eng), `${scenario} on a phone`, scenario);
    // England's seat on the desktop reads the same way at Fit.
    await phone.setViewportSize({ width: 1440, height: 900 });
    await phone.click('.zoom .fit');
    await phone.screenshot({ path: path.join(shots, `layout-${scenario}-england-desktop.png`) });
    await assertMapReads(phone, lastView(eng), `${scenario}, England at Fit`);
    await sco.context.close();
    await eng.context.close();
  });
}

// A late Campaign position, as the engine's view of each seat would give it: blocks in many
// areas, one side of six, and two battles (Fife attacked by England, Selkirk Forest by Scotland).
// Each seat's view holds its own blocks and only the other side's counts (RULES 13).
const LATE = {
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

// `view` (the seat's) with the areas of the late position: its own blocks, the enemy's counts.
function lateView(view) {
  const areas = view.areas.map((a) => {
    const at = LATE[a.id] ?? {};
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
async function seeLatePosition(p) {
  await p.page.routeWebSocket(/\/ws\/games\//, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => {
      const msg = JSON.parse(m);
      if (msg.type === 'view') msg.view = lateView(msg.view);
      ws.send(JSON.stringify(msg));
    });
  });
}

test('a late Campaign position reads at Fit: every own block, backs, battles apart', async () => {
  const sco = await newPlayer(running.browser, running.server, 'latesco', {
    viewport: { width: 1440, height: 900 },
  });
  const eng = await newPlayer(running.browser, running.server, 'lateeng', {
    viewport: { width: 1440, height: 900 },
  });
  await seeLatePosition(sco);
  await seeLatePosition(eng);
  await sco.page.selectOption('#create-scenario', 'campaign');
  await startGame(sco, eng);
  for (const p of [sco, eng]) {
    const { page } = p;
    await page.waitForSelector('button.card');
    await page.waitForSelector('.cell.battle[data-area="fife"]');
    await page.click('.zoom .fit');
    // The frames the test hears are the server's; the page drew them made late (the battle).
    const view = lateView(lastView(p));
    const role = view.role;
    await page.screenshot({ path: path.join(shots, `layout-late-${role}-desktop.png`) });
    await assertMapReads(page, view, `late Campaign, ${role} at Fit`);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(shots, `layout-late-${role}-phone.png`) });
    await assertTapsRead(page, view, `late Campaign, ${role} on a phone`, `late-${role}`);
  }
  await sco.context.close();
  await eng.context.close();
});
