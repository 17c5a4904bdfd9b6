// The rules page (/rules.html) is RULES.md as committed, and every rules reference of the client
// (a "RULES n" in its text, an event card's rules_section) lands on an anchor of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (p) => fs.readFileSync(path.join(root, p), 'utf8');
const { rulesPage, renderRules } = await import(path.join(root, 'tools/hots-rules/render.js'));
const page = read('web-client/rules.html');
const anchors = new Set([...page.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));

const sources = (dir) =>
  fs
    .readdirSync(path.join(root, dir), { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? sources(path.join(dir, e.name))
        : e.name.endsWith('.js')
          ? [path.join(dir, e.name)]
          : [],
    );

test('the committed rules page is RULES.md rendered', () => {
  assert.equal(
    page,
    rulesPage(read('rules/hots/data/RULES.md')),
    'run: node tools/hots-rules/make-rules.js',
  );
});

test('every numbered section and item of RULES.md has its own anchor', () => {
  for (const s of ['r1', 'r4.7', 'r4.7.2', 'r5.4', 'r7.2', 'r10.8.2', 'r13.1.6', 'r16', 'rA']) {
    assert.ok(anchors.has(s), `#${s}`);
  }
  const ids = [...page.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
  assert.equal(new Set(ids).size, ids.length, 'anchors are unique');
  const headings = read('rules/hots/data/RULES.md')
    .split('\n')
    .filter((l) => /^#{2,3} \d/.test(l));
  for (const h of headings) {
    assert.ok(anchors.has(`r${/^#+ (\d+(?:\.\d+)*)/.exec(h)[1]}`), h);
  }
});

test('the renderer keeps lists, tables and inline marks', () => {
  const { body } = renderRules(
    '### 9.9 X\n\n1. **Bold** and *it* `a<b`\n   - sub\n2. two\n\n| A | B |\n|---|---|\n| 1 | 2 |\n',
  );
  assert.match(body, /<h3 id="r9.9">9.9 X<\/h3>/);
  assert.match(
    body,
    /<li id="r9.9.1"><strong>Bold<\/strong> and <em>it<\/em> <code>a&lt;b<\/code><ul>\n<li>sub<\/li>/,
  );
  assert.match(body, /<li id="r9.9.2">two<\/li>/);
  assert.match(body, /<th scope="col">A<\/th>.*<td>2<\/td>/s);
});

test('every rules reference of the client resolves on the rules page', () => {
  const refs = new Map();
  for (const file of sources('web-client/js')) {
    const text = read(file);
    for (const m of text.matchAll(/RULES (\d+(?:\.\d+)*|[A-Z]\b)/g)) refs.set(m[1], file);
    for (const m of text.matchAll(/rulesLink\('([^']+)'/g)) refs.set(m[1], file);
  }
  for (const card of JSON.parse(read('web-client/data/game-data.json')).cards.deck) {
    if (card.rules_section) refs.set(card.rules_section, `game-data.json card ${card.id}`);
  }
  assert.ok(refs.size >= 15, `found ${refs.size} references`);
  for (const [section, where] of refs)
    assert.ok(anchors.has(`r${section}`), `RULES ${section} (${where})`);
});
