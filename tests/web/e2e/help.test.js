// End to end in headless Chromium at a desktop (1440x900) and a phone (390x844) size: the "How
// to play here" page links each rules section it names to the rules page (/rules.html, from
// RULES.md), every such link lands on an existing anchor, following one scrolls its section
// into view, and axe-core finds no serious or critical problem on either page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useServerAndBrowser, outputDir } from './harness.js';
import { axeProblems } from './helpers.js';

const running = useServerAndBrowser();
const shots = outputDir();

for (const [size, viewport] of [
  ['desktop', { width: 1440, height: 900 }],
  ['phone', { width: 390, height: 844 }],
]) {
  test(`${size}: every rules link of the help page lands on a section of the rules page`, async () => {
    const context = await running.browser.newContext({ viewport });
    const page = await context.newPage();
    page.on('pageerror', (e) => assert.fail(`page error ${e.message}`));
    await page.goto(`${running.server.url}/#/help`);
    await page.locator('article.help h1', { hasText: 'How to play here' }).waitFor();
    const hrefs = await page
      .locator('article.help a.rules-link')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    assert.ok(hrefs.length >= 8, `${hrefs.length} rules links`);
    assert.deepEqual(await axeProblems(page), [], 'help page');
    await page.screenshot({ path: path.join(shots, `help-${size}.png`), fullPage: true });

    // Each link's anchor exists on the served page.
    const rules = await context.newPage();
    await rules.goto(`${running.server.url}/rules.html`);
    await rules.locator('h1').waitFor();
    for (const href of hrefs) {
      assert.match(href, /^\/rules\.html#r[0-9A-Z.]+$/);
      const id = href.split('#')[1];
      assert.equal(await rules.locator(`[id="${id}"]`).count(), 1, href);
    }
    assert.deepEqual(await axeProblems(rules), [], 'rules page');
    await rules.close();

    // Following "RULES 4.7" opens the rules at Pinning, on screen.
    const [opened] = await Promise.all([
      context.waitForEvent('page'),
      page.locator('article.help a.rules-link', { hasText: 'RULES 4.7' }).first().click(),
    ]);
    await opened.waitForLoadState();
    assert.ok(opened.url().endsWith('/rules.html#r4.7'), opened.url());
    const target = opened.locator('[id="r4.7"]');
    await target.waitFor();
    await opened.waitForFunction(() => {
      const r = document.getElementById('r4.7').getBoundingClientRect();
      return r.top >= 0 && r.top < window.innerHeight;
    });
    assert.match(await target.textContent(), /Pinning/);
    await opened.screenshot({ path: path.join(shots, `rules-4.7-${size}.png`) });
    await context.close();
  });
}
