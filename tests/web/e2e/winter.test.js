// End to end in headless Chromium: two players play the first year (and more if needed) only by
// clicking what their pages offer, at random: a move is made and taken back with the undo
// button, an event card is played and resolved by clicking, and the winter is played through.
// England's page never holds a hidden Scottish block (every frame, and its DOM).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import {
  newPlayer,
  startGame,
  FogWatch,
  waitForAwaited,
  clickRandomAction,
  phaseText,
  lastView,
  viewsCount,
  waitForViews,
  EVENT_CARDS,
  EVENT_DATA,
  MAP_CHOICE,
  chooseOnMap,
} from './helpers.js';

const running = useServerAndBrowser();
const shots = outputDir();

const moveInfo = (p) => p.page.locator('.move-info').innerText();

// Moves a block by clicking, then takes the move back with the undo button. False if the
// move left nothing to undo (it ended the phase), so that the caller tries again later.
async function moveAndUndo(p) {
  const info = await moveInfo(p);
  const lines = await p.page.locator('.log li').count();
  const id = await chooseOnMap(p.page, p.page.locator(MAP_CHOICE).first());
  const ring = p.page.locator('.target-ring').first();
  if (!(await ring.count())) {
    await p.page.locator('.action-bar .act.cancel').click();
    return false;
  }
  let views = await viewsCount(p);
  await ring.click();
  await p.page.waitForFunction(
    (b) =>
      document.getElementById('app').dataset.views !== b ||
      /Choose:/.test(document.querySelector('.action-bar')?.textContent || ''),
    views,
  );
  if ((await viewsCount(p)) === views) {
    await p.page.locator('.action-bar button.act:not(.cancel)').first().click();
    await waitForViews(p, views);
  }
  if (!(await p.page.locator('.action-bar button.act-undo').count())) {
    return false;
  }
  assert.notEqual(
    await moveInfo(p),
    info,
    `moving ${id} changed the move points or the moving block`,
  );
  await p.page.screenshot({ path: path.join(shots, 'move-undo.png') });
  await p.page.setViewportSize({ width: 390, height: 844 });
  await p.page.screenshot({ path: path.join(shots, 'move-phone.png'), fullPage: true });
  await p.page.setViewportSize({ width: 1400, height: 1000 });
  views = await viewsCount(p);
  await p.page.locator('.action-bar button.act-undo').click();
  await waitForViews(p, views);
  assert.equal(await moveInfo(p), info, 'undo restored the move points');
  assert.equal(await p.page.locator('.log li').count(), lines, 'undo took the move out of the log');
  assert.equal(
    await p.page
      .locator(`.block.actionable[data-block="${id}"], ` + `.chip.actionable[data-blocks~="${id}"]`)
      .count(),
    1,
    `${id} may move again`,
  );
  return true;
}

test('undo, an event card and the winter, all by clicking', async () => {
  const fog = new FogWatch('england');
  const sco = await newPlayer(running.browser, running.server, 'robert', {});
  const eng = await newPlayer(running.browser, running.server, 'longshanks', { fog });
  await startGame(sco, eng);
  const players = [sco, eng];
  await eng.page.waitForSelector('button.card');
  const startYear = lastView(eng).year;
  const events = EVENT_CARDS.map((c) => c);
  let undone = false;
  let eventClicks = 0;
  let winterClicks = 0;
  let winterShot = false;
  let eventShot = false;
  let eventTold = 0; // decisions whose prompt named the event card, with its text and rule
  let winterTold = 0; // decisions whose prompt named the winter step, with its rule
  const history = [];
  const done = () =>
    undone && eventClicks > 0 && winterClicks > 0 && lastView(eng).year > startYear;
  for (let guard = 0; guard < 3000 && !done(); guard++) {
    const view = lastView(eng);
    if (view.outcome || view.year > startYear + 2) break;
    const p = await waitForAwaited(players, { stop: done });
    if (!p) break;
    const phase = await phaseText(p);
    if (!undone && /move phase/.test(phase) && (await p.page.locator(MAP_CHOICE).count())) {
      undone = await moveAndUndo(p);
      continue;
    }
    const isEvent = /: event|pillage/.test(phase);
    const isWinter = /winter|homecoming/.test(phase);
    if (isEvent && (await p.page.locator('.prompt .event-info').count())) {
      // The event card being resolved: its name, its text and a link to its RULES 7 section.
      const info = p.page.locator('.prompt .event-info');
      const text = await info.innerText();
      const card = EVENT_DATA.find((c) => text.startsWith(`Event: ${c.name}. `));
      assert.ok(card, `the prompt names the event card: ${text}`);
      assert.ok(text.includes(card.effect), `the prompt gives ${card.name}'s text`);
      assert.equal(
        await info.locator('a.rules-link').getAttribute('href'),
        `/rules.html#r${card.rules_section}`,
      );
      eventTold += 1;
    }
    if (isWinter && (await p.page.locator('.prompt .step-info').count())) {
      // The winter step decided: its title in words, with a link to its RULES 10 section.
      // (A step the client does not tell apart is titled "Winter" alone, without a rule.)
      const info = p.page.locator('.prompt .step-info');
      const text = await info.innerText();
      assert.match(text, /^Winter: [A-Z]/);
      if (!text.startsWith('Winter: Winter.')) {
        assert.match(text, /^Winter: [A-Z][^.]* \(RULES 10\.\d+/);
        assert.match(
          await info.locator('a.rules-link').first().getAttribute('href'),
          /^\/rules\.html#r10\.\d+$/,
        );
        winterTold += 1;
      }
    }
    if (isEvent && !eventShot) {
      await p.page.screenshot({ path: path.join(shots, 'event.png') });
      eventShot = true;
    }
    if (isWinter && !winterShot) {
      await p.page.screenshot({ path: path.join(shots, 'winter.png') });
      winterShot = true;
    }
    // Event cards only once a move was undone: when both players play one the year ends at
    // once (RULES 3.3), and always preferring them ended year after year without a move phase.
    const what = await clickRandomAction(p, { preferEvents: undone, avoid: ['decline'] });
    history.push(`${p.name} in ${phase}: ${what}`);
    if (isEvent && !/Decline/.test(what)) eventClicks += 1;
    if (isWinter) winterClicks += 1;
    if (guard % 20 === 0) await fog.assertClean(eng.page, `after ${history.at(-1)}`);
  }
  const log = await sco.page.locator('.log').innerText();
  const tail = history.slice(-15).join('\n');
  assert.ok(undone, `a move was undone by clicking undo\n${tail}`);
  assert.match(
    log,
    new RegExp(`Cards revealed: .*(${events.map((c) => c.replace('_', ' ')).join('|')})`, 'i'),
    'an event card was played',
  );
  assert.ok(eventClicks > 0, `an event was resolved by clicking\n${tail}`);
  assert.ok(winterClicks > 0, `the winter was played by clicking\n${tail}`);
  assert.ok(eventTold > 0, `an event's prompt gave its card's text and rule\n${tail}`);
  assert.ok(winterTold > 0, `a winter step's prompt gave its title and rule\n${tail}`);
  assert.ok(lastView(eng).year > startYear, `the game went past the winter of ${startYear}`);
  // The watch scanned every frame England's page took a view from, through the year and past
  // it (how many frames a year takes depends on the cards: two events end it at once).
  assert.ok(fog.frames >= Number(await viewsCount(eng)), 'the watch saw every view England got');
  assert.ok(
    fog.years.has(startYear) && fog.years.has(startYear + 1),
    `England's frames were scanned in ${startYear} and ${startYear + 1}`,
  );
  // After actions the page gets view_patch frames (the watch rebuilt the views they make).
  assert.ok(fog.patches > 0, "England's page got view_patch frames");
  await fog.assertClean(eng.page, 'at the end');
});
