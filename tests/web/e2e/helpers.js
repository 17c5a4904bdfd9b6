// Shared by the end-to-end tests: players in browser contexts, clicking an action and waiting
// for the view that answers it, a random player that acts only by clicking what the page offers,
// a fast in-page WebSocket player for the seat that is not under test, the views a connection's
// frames make (whole views and view_patch frames), and the fog-of-war watch on England's page
// (every WebSocket frame and replay answer it receives, and its DOM).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { createRequire } from 'node:module';
import { repoRoot } from './harness.js';
import { applyViewPatch, mergeLog } from '../../../web-client/js/view_patch.js';
import { arrowTarget } from '../../../web-client/js/map/map_keys.js';

const raw = JSON.parse(
  fs.readFileSync(path.join(repoRoot, 'web-client/data/game-data.json'), 'utf8'),
);
export const BLOCK_NAME = Object.fromEntries(raw.blocks.map((b) => [b.id, b.name]));
export const EVENT_DATA = raw.cards.deck.filter((c) => c.kind !== 'move');
export const EVENT_CARDS = EVENT_DATA.map((c) => c.id);
// Scottish blocks whose names say nothing else on the page (no area, noble, card or phase is
// called so): England's page may show them only once a view it got revealed them.
const TELLING = raw.blocks
  .filter((b) => b.id.startsWith('sco_') && ['infantry', 'cavalry', 'archers'].includes(b.type))
  .map((b) => b.id);

export const PASSWORD = 'correct horse battery';

// One connection's view, rebuilt from its frames as the page rebuilds it (patches are applied
// with the page's own code, unit-tested against docs/protocol.md). Two views with the same seq
// are the same view: a whole view of the version held must equal it, which checks the views
// rebuilt from patches against the server's. `problems` lists what did not hold.
export class ViewTracker {
  constructor() {
    this.view = null;
    this.seq = -1;
    this.rebuilt = false; // the view held was made by a patch
    this.patches = 0;
    this.compared = 0; // whole views compared with the view held
    this.comparedRebuilt = 0; // ... when that one was made by patches
    this.problems = [];
  }

  // The view a `view` or `view_patch` frame leaves the connection with; null for other frames,
  // for a view older than the one held (the page ignores it) and for a patch that does not apply.
  take(msg) {
    if (msg.type === 'view') {
      if (this.view && msg.seq < this.seq) return null;
      const view = { ...msg.view, log: mergeLog(this.view?.log, msg.log_from, msg.view.log) };
      if (this.view && msg.seq === this.seq) this.compare(view);
      this.rebuilt = false;
      return this.hold(msg.seq, view);
    }
    if (msg.type !== 'view_patch') return null;
    this.patches += 1;
    const view = applyViewPatch(this.view, this.seq, msg);
    if (!view) {
      this.problems.push(
        `a view_patch to version ${msg.seq} does not apply to version ${this.seq}`,
      );
      return null;
    }
    this.rebuilt = true;
    return this.hold(msg.seq, view);
  }

  compare(view) {
    this.compared += 1;
    if (this.rebuilt) this.comparedRebuilt += 1;
    if (isDeepStrictEqual(view, this.view)) return;
    const keys = [...new Set([...Object.keys(view), ...Object.keys(this.view)])].filter(
      (k) => !isDeepStrictEqual(view[k], this.view[k]),
    );
    this.problems.push(
      `version ${this.seq}: the view ${this.rebuilt ? 'rebuilt from patches' : 'held'} ` +
        `and the whole view differ in ${keys.join(', ')}`,
    );
  }

  hold(seq, view) {
    this.seq = seq;
    this.view = view;
    return view;
  }
}

export async function newPlayer(browser, server, name, { viewport, fog, query = '' } = {}) {
  const context = await browser.newContext({ viewport: viewport || { width: 1400, height: 1000 } });
  const page = await context.newPage();
  const p = { name, context, page, views: [] };
  page.on('pageerror', (e) => assert.fail(`${name}: page error ${e.message}`));
  // The view each view or view_patch frame leaves the page with (the latest is its current
  // view): { type, seq, view }.
  page.on('websocket', (ws) => {
    const tracker = new ViewTracker();
    ws.on('framereceived', (f) => {
      const text = String(f.payload);
      fog?.frame(text, ws);
      const msg = JSON.parse(text);
      const view = tracker.take(msg);
      if (view) p.views.push({ type: msg.type, seq: msg.seq, view });
    });
  });
  await page.goto(`${server.url}/${query}`);
  await page.fill('#signup-user', name);
  await page.fill('#signup-pass', PASSWORD);
  await page.click('form.signup button[type=submit]');
  await page.waitForSelector('form.create');
  return p;
}

export const viewsCount = (p) =>
  p.page.evaluate(() => document.getElementById('app').dataset.views);

export async function waitForViews(p, before, timeout = 20000) {
  await p.page.waitForFunction((b) => document.getElementById('app').dataset.views !== b, before, {
    timeout,
  });
}

// Waits until no action of the page awaits its answer: the view or error that answers the
// last one sent was drawn (game.js sets data-pending as it draws). At once when none was sent.
export async function waitForAnswer(p, timeout = 20000) {
  await p.page.waitForFunction(
    () => document.getElementById('app').dataset.pending !== 'true',
    null,
    { timeout },
  );
}

// Clicks one thing and waits for the view that answers it.
export async function act(p, selector) {
  const before = await viewsCount(p);
  const target = p.page.locator(selector).first();
  if (!(await target.count())) {
    throw new Error(
      `${p.name}: nothing matches ${selector}; prompt: ` +
        `${await p.page.locator('.prompt').innerText()}`,
    );
  }
  await target.click();
  await waitForViews(p, before);
}

export const isAwaited = (p) =>
  p.page
    .locator('.prompt .awaiting.mine')
    .count()
    .then((n) => n > 0);
export const phaseText = (p) => p.page.locator('.phase-text').innerText();
export const lastView = (p) => p.views.at(-1)?.view;

// Waits until one of `players` is awaited (or `stop()` holds); returns it, or null.
export async function waitForAwaited(players, { timeout = 30000, stop = () => false } = {}) {
  const deadline = Date.now() + timeout;
  for (;;) {
    if (await stop()) return null;
    for (const p of players) if (await isAwaited(p)) return p;
    if (Date.now() > deadline) throw new Error('nobody is awaited');
    await players[0].page.waitForTimeout(50); // polling the page, not waiting for the game
  }
}

const pick = (list) => list[Math.floor(Math.random() * list.length)];

// Clicks an SVG element (a block or a target ring); if something is drawn over it, sends the
// click to it all the same, as a screen reader's activation would.
async function clickThing(locator) {
  try {
    await locator.click({ timeout: 3000 });
  } catch {
    await locator.dispatchEvent('click');
  }
}

// The map by keyboard (map_keys.js): the arrow keys that go from area `from` to area `to`,
// fewest first (breadth first over the page's own arrowTarget on map.json's anchors).
const ANCHORS = new Map(
  JSON.parse(fs.readFileSync(path.join(repoRoot, 'web-client/data/map.json'), 'utf8')).areas.map(
    (a) => [a.id, a.anchor],
  ),
);
const ARROWS = ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'];
export function arrowPath(from, to) {
  const back = new Map([[from, null]]);
  const queue = [from];
  while (queue.length && !back.has(to)) {
    const at = queue.shift();
    for (const key of ARROWS) {
      const next = arrowTarget(ANCHORS, at, key);
      if (next && !back.has(next)) {
        back.set(next, [at, key]);
        queue.push(next);
      }
    }
  }
  const keys = [];
  for (let at = to; back.get(at); at = back.get(at)[0]) keys.unshift(back.get(at)[1]);
  return keys;
}

const focusedArea = (page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el?.classList.contains('cell') ? el.dataset.area : null;
  });

// From the focused area of the map, goes to `area` by the arrow keys alone.
export async function arrowTo(page, area) {
  const from = await focusedArea(page);
  assert.ok(from, 'an area of the map has the focus');
  for (const key of arrowPath(from, area)) await page.keyboard.press(key);
  assert.equal(await focusedArea(page), area, `the arrows went from ${from} to ${area}`);
}

// On the focused area, chooses a block by keyboard: Enter goes to its blocks (or opens their
// list, when the area shows a chip), the arrows go round them to `blockId` (else to one that
// can be chosen), Enter chooses it. Returns its id.
export async function keyChooseBlock(page, blockId = null) {
  await page.keyboard.press('Enter');
  const wanted = blockId ? `[data-block="${blockId}"]` : '.actionable';
  for (let k = 0; k < 40; k++) {
    const ok = await page.evaluate((sel) => document.activeElement?.matches(sel), wanted);
    if (ok) {
      const id = await page.evaluate(() => document.activeElement.dataset.block);
      await page.keyboard.press('Enter');
      return id;
    }
    const inList = await page.evaluate(() => !!document.activeElement?.closest('.stack-panel'));
    await page.keyboard.press(inList ? 'ArrowDown' : 'ArrowRight');
  }
  throw new Error(`no block ${wanted} reached by the arrows`);
}

// What the map offers to choose: a block drawn as a block, or the chip of an area too small to
// show its blocks at this zoom (map_chips.js), whose list holds the block.
export const MAP_CHOICE = '.blocks .block.actionable, .blocks .chip.actionable';

// Chooses on the map what `target` (a locator of MAP_CHOICE) offers: a block is clicked; a
// chip is clicked and a block of its list (`blockId`, else one at random) chosen there.
// Returns the block's id.
export async function chooseOnMap(page, target, blockId = null) {
  if (!(await target.getAttribute('data-chip'))) {
    const id = await target.getAttribute('data-block');
    await clickThing(target);
    return id;
  }
  await clickThing(target);
  const rows = page.locator(
    blockId
      ? `.stack-panel button.pblock[data-block="${blockId}"]`
      : '.stack-panel button.pblock.actionable',
  );
  await rows.first().waitFor();
  const row = rows.nth(Math.floor(Math.random() * (await rows.count())));
  const id = await row.getAttribute('data-block');
  await row.click();
  return id;
}

// Chooses the seat's block `id` on the map: the block itself, or its area's chip and then it.
export async function chooseBlock(page, id) {
  const block = page.locator(`.blocks .block[data-block="${id}"]`);
  if (await block.count()) return chooseOnMap(page, block);
  return chooseOnMap(page, page.locator(`.blocks .chip[data-blocks~="${id}"]`), id);
}

// Plays one decision of an awaited page by clicking what it offers, at random: a card
// (an event card first when `preferEvents`), a block and then what that block may do, an
// area, or a button. Never undo. Returns a description of what was clicked.
export async function clickRandomAction(p, { preferEvents = false, avoid = [] } = {}) {
  const { page } = p;
  const before = await viewsCount(p);
  const cards = await page
    .locator('.hand button.card:not([disabled])')
    .evaluateAll((els) => els.map((e) => e.dataset.card));
  if (cards.length) {
    const events = cards.filter((c) => EVENT_CARDS.includes(c));
    const card = preferEvents && events.length ? pick(events) : pick(cards);
    await page.click(`.hand button.card[data-card="${card}"]`);
    await waitForViews(p, before);
    return `card ${card}`;
  }
  const kinds = [];
  const count = async (sel) => page.locator(sel).count();
  // Buttons of the kinds in `avoid` (e.g. declining an event) only when nothing else is offered.
  let ACTS = '.action-bar button.act:not(.cancel):not(.act-undo):not([disabled])';
  const avoiding = ACTS + avoid.map((k) => `:not(.act-${k})`).join('');
  if (
    (await count(MAP_CHOICE)) ||
    (await count('button.bblock')) ||
    (await count('.target-ring')) ||
    (await count(avoiding))
  )
    ACTS = avoiding;
  if (await count(MAP_CHOICE)) kinds.push(MAP_CHOICE);
  if (await count('button.bblock')) kinds.push('button.bblock');
  if (await count('.target-ring')) kinds.push('.target-ring');
  if (await count(ACTS)) kinds.push(ACTS);
  if (!kinds.length)
    throw new Error(
      `${p.name}: nothing to click; prompt: ${await page.locator('.prompt').innerText()}`,
    );
  const kind = pick(kinds);
  const all = page.locator(kind);
  const target = all.nth(Math.floor(Math.random() * (await all.count())));
  let what = `${kind} ${(await target.getAttribute('data-block')) ?? (await target.getAttribute('data-target')) ?? (await target.innerText().catch(() => ''))}`;
  if (kind === MAP_CHOICE || kind === 'button.bblock') {
    // Selecting a block: then one of its actions, a button or a highlighted area.
    if (kind === MAP_CHOICE) what = `block ${await chooseOnMap(page, target)}`;
    else await clickThing(target);
    await page.waitForSelector('.action-bar .act.cancel');
    const next = [];
    if (await count('.target-ring')) next.push('.target-ring');
    if (await count(ACTS)) next.push(ACTS);
    assert.ok(next.length, `${p.name}: a selected block offers nothing`);
    const follow = page.locator(pick(next));
    const chosen = follow.nth(Math.floor(Math.random() * (await follow.count())));
    what += ` then ${(await chosen.getAttribute('data-target')) ?? (await chosen.innerText())}`;
    await clickThing(chosen);
  } else {
    await clickThing(target);
  }
  // Either the view answers, or several actions lead there and the page asks which.
  await page.waitForFunction(
    (b) =>
      document.getElementById('app').dataset.views !== b ||
      /Choose:/.test(document.querySelector('.action-bar')?.textContent || ''),
    before,
    { timeout: 20000 },
  );
  if ((await viewsCount(p)) === before) {
    const choices = page.locator('.action-bar button.act:not(.cancel)');
    const choice = choices.nth(Math.floor(Math.random() * (await choices.count())));
    what += ` choosing ${await choice.innerText()}`;
    await choice.click();
    await waitForViews(p, before);
  }
  return what;
}

// The ids England may know in one view: dead and not-in-play blocks, and those revealed in the
// battle of that view. A view of a finished game may show everything (RULES 13.1.6).
function allowedIn(view) {
  const ids = new Set([...(view.dead || []), ...(view.not_in_play || [])]);
  for (const list of Object.values(view.battle?.revealed || {}))
    for (const r of list) ids.add(r.block);
  return ids;
}

// Watches what one seat ("england") receives: every frame and replay answer is checked on its
// own, and the page's DOM against everything the seat was ever shown. A view_patch frame is
// checked as it came and in the view it makes (for which the watch rebuilds each connection's
// view); so are the areas it replaces.
export class FogWatch {
  constructor(role = 'england') {
    this.role = role;
    this.enemy = role === 'england' ? 'scotland' : 'england';
    this.prefix = role === 'england' ? 'sco_' : 'eng_';
    this.leaks = [];
    this.everShown = new Set();
    this.over = false;
    this.frames = 0;
    this.patches = 0; // view_patch frames among them
    this.years = new Set(); // the years of the views scanned: proof the watch saw them
    this.trackers = new Map(); // a connection (the key `frame` is given) -> ViewTracker
  }

  // A WebSocket frame, as received on `socket` (any key, one per connection).
  frame(text, socket = null) {
    this.frames += 1;
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      this.leaks.push(`not JSON: ${text.slice(0, 100)}`);
      return;
    }
    if (!this.trackers.has(socket)) this.trackers.set(socket, new ViewTracker());
    const view = this.trackers.get(socket).take(msg);
    if (msg.type !== 'view_patch') {
      this.check(text, msg.type === 'view' ? msg.view : null);
      return;
    }
    this.patches += 1;
    if (!view)
      this.leaks.push(
        `${this.role} got a view_patch to version ${msg.seq} it cannot apply, nor check`,
      );
    // The frame (every member it sets, every element, the log lines) may name only what the
    // view it makes shows; the areas it carries, and then that whole view, are checked as well.
    const { set = {}, elements = {} } = msg.view_patch || {};
    const areas = [...(set.areas || []), ...(elements.areas || []).map(([, a]) => a)];
    this.check(text, view, areas);
    if (view) this.check(JSON.stringify(view), view);
  }

  // A view as the seat got it some other way (a replay step).
  view(view) {
    this.check(JSON.stringify(view), view);
  }

  // What rebuilding the views of the frames found wrong (see ViewTracker).
  viewProblems() {
    return [...this.trackers.values()].flatMap((t) => t.problems);
  }

  // `text` may name no enemy block but those `view` shows; `areas` (by default the view's) show
  // only counts of the enemy's blocks.
  check(text, view, areas = view?.areas || []) {
    let allowed = new Set();
    if (view) {
      if (view.outcome) {
        this.over = true;
        return;
      }
      if (view.year !== undefined) this.years.add(view.year);
      allowed = allowedIn(view);
      for (const id of allowed) this.everShown.add(id);
    }
    for (const area of areas) {
      for (const key of Object.keys(area[this.enemy] || {})) {
        if (!['count', 'moved', 'reserves'].includes(key)) {
          this.leaks.push(`${this.role} sees '${key}' of ${this.enemy} blocks in ${area.id}`);
        }
      }
    }
    const re = new RegExp(`"(${this.prefix}[a-z_]+)"`, 'g');
    for (const m of text.matchAll(re)) {
      if (!allowed.has(m[1])) {
        this.leaks.push(
          `${this.role} received ${m[1]} in ...${text.slice(Math.max(0, m.index - 150), m.index + 50)}`,
        );
      }
    }
  }

  // Fails the test if anything leaked so far, in the frames or in the page.
  // `except`: parts of the page not to look at (a selector), else the whole page is.
  async assertClean(page, when, except = null) {
    assert.deepEqual(this.leaks, [], `${this.role}'s frames ${when}`);
    assert.deepEqual(
      this.viewProblems(),
      [],
      `${this.role}'s views rebuilt from its frames ${when}`,
    );
    if (this.over || this.role !== 'england') return;
    const html = except
      ? await page.evaluate((sel) => {
          const copy = document.documentElement.cloneNode(true);
          for (const e of copy.querySelectorAll(sel)) e.remove();
          return copy.outerHTML;
        }, except)
      : await page.content();
    for (const id of TELLING) {
      if (this.everShown.has(id)) continue;
      const m = new RegExp(`\\b${BLOCK_NAME[id]}\\b|${id}`).exec(html);
      assert.equal(
        m,
        null,
        `England's page ${when} shows the hidden ${BLOCK_NAME[id]}: ` +
          `...${m ? html.slice(Math.max(0, m.index - 200), m.index + 50) : ''}`,
      );
    }
  }
}

// A fast player for a seat that is not under test: a WebSocket opened inside a page of its
// own browser context holding the seat's session cookie, choosing random legal actions from
// each view (never undo) as soon as the seat is awaited. With `patches` (as the game page) it
// asks for view_patch frames and applies them with the page's code; a patch that does not
// apply fails it. Runs until stopBot() or, with `toTheEnd`, until the game is over; resolves to
// the number of actions sent.
export async function startBot(
  p,
  server,
  gameId,
  { toTheEnd = false, fog = null, patches = true } = {},
) {
  // A second page in the player's own context would be a second tab of its window, and
  // Chromium draws the tab left in the background at one frame a second: the player's page
  // would then take seconds per click. The bot gets a context of its own with the same cookie.
  const context = await p.context
    .browser()
    .newContext({ storageState: await p.context.storageState() });
  const page = await context.newPage();
  page.on('pageerror', (e) => assert.fail(`${p.name} bot: page error ${e.message}`));
  if (fog)
    page.on('websocket', (ws) => ws.on('framereceived', (f) => fog.frame(String(f.payload), ws)));
  await page.goto(`${server.url}/healthz`);
  const done = page.evaluate(
    ({ id, toTheEnd: end, patches: asked }) =>
      new Promise((resolve, reject) => {
        let sent = 0;
        let role = null;
        let view = null;
        let seq = -1;
        const code = import('/js/view_patch.js');
        // The seat's dice are rolled as the game page rolls them, whichever comes first.
        const dice = import('/js/game/dice.js').then((m) => m.createDice(id, { onChange() {} }));
        const ws = new WebSocket(
          `ws://${location.host}/ws/games/${id}${asked ? '?patches=1' : ''}`,
        );
        window.stopBot = () => {
          ws.close();
          resolve(sent);
        };
        ws.onclose = () => resolve(sent);
        ws.onerror = () => reject(new Error('bot WebSocket failed'));
        const take = (m, { applyViewPatch, mergeLog }) => {
          if (m.type === 'welcome') {
            role = m.role;
            dice.then((d) => d.onWelcome(m));
          } else if (m.type === 'error') {
            // A refused action (e.g. both chose at once): ask for the current view again.
            ws.send(JSON.stringify({ v: 1, type: 'sync', chat_since: 1e9 }));
          } else if (m.type === 'view' || m.type === 'view_patch') {
            if (m.type === 'view') {
              if (view && m.seq < seq) return;
              view = { ...m.view, log: mergeLog(view?.log, m.log_from, m.view.log) };
            } else {
              view = applyViewPatch(view, seq, m);
              if (!view) {
                ws.close();
                reject(
                  new Error(`a view_patch to version ${m.seq} does not apply to version ${seq}`),
                );
                return;
              }
            }
            seq = m.seq;
            if (view.outcome) {
              if (end) window.stopBot();
              return;
            }
            if (!(view.awaiting || []).includes(role)) return;
            const acts = (view.legal_actions || []).filter((a) => a.kind !== 'undo');
            if (!acts.length) return;
            const action = acts[Math.floor(Math.random() * acts.length)];
            sent += 1;
            ws.send(JSON.stringify({ v: 1, type: 'action', seq, action }));
          }
        };
        // Frames are taken in order, each once the page's code has loaded.
        let queue = code;
        ws.onmessage = (e) => {
          const m = JSON.parse(e.data);
          queue = queue.then((mod) => {
            try {
              take(m, mod);
            } catch (ex) {
              reject(ex);
            }
            return mod;
          });
        };
        code.catch(reject);
      }),
    { id: gameId, toTheEnd, patches },
  );
  // stop() awaits the bot's end and throws what ended it. A test that fails before stopping its
  // bot leaves it to the browser's closing, which rejects `done` after the test: handled here,
  // so that the test's own failure is what is reported, not an unhandled rejection after it.
  done.catch(() => {});
  return {
    done,
    async stop() {
      await page.evaluate(() => window.stopBot?.()).catch(() => {});
      const n = await done;
      await context.close();
      return n;
    },
  };
}

// Creates a public game as `creator` (Scotland) and lets `joiner` join it from the lobby;
// both end on the game page. Returns the game id.
export async function startGame(creator, joiner) {
  await creator.page.selectOption('#create-side', 'scotland');
  await creator.page.click('form.create button[type=submit]');
  const line = creator.page.locator('.games.mine .game-line').first();
  await line.waitFor();
  const id = Number(await line.getAttribute('data-game'));
  await joiner.page.reload();
  await joiner.page.locator(`.games.open button.join[data-game="${id}"]`).click();
  await joiner.page.waitForSelector('.seat.england');
  await creator.page.goto(`${creator.page.url().split('#')[0]}#/game/${id}`);
  await creator.page.waitForSelector('.seat.scotland');
  return id;
}

let axeSource = null;

// axe-core's serious and critical violations on the page as it is (WCAG 2.1 A and AA, 2.2 AA's
// target size, and axe's best practices).
export async function axeProblems(page) {
  axeSource ??= fs.readFileSync(
    createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
    'utf8',
  );
  // Evaluated through the DevTools protocol: the page's CSP rightly refuses inline scripts.
  await page.evaluate(`${axeSource}\n;0`);
  const result = await page.evaluate(() =>
    window.axe.run(document, {
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
      },
    }),
  );
  return result.violations
    .filter((v) => ['serious', 'critical'].includes(v.impact))
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.length} nodes, e.g. ${v.nodes[0]?.target}`);
}
