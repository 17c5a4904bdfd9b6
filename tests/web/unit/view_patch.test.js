// Unit tests of applying view_patch frames (web-client/js/view_patch.js, docs/protocol.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { applyViewPatch, mergeLog } = await import(path.join(root, 'web-client/js/view_patch.js'));

// Frozen all the way down: applying a patch must leave the view it starts from as it was.
function deepFreeze(x) {
  if (x && typeof x === 'object') {
    Object.values(x).forEach(deepFreeze);
    Object.freeze(x);
  }
  return x;
}

const lines = (from, to) =>
  Array.from({ length: to - from }, (_, k) => ({ i: from + k, text: `line ${from + k}` }));
const side = (count) => ({ count, moved: 0, reserves: [] });
const area = (id, sco, eng) => ({ id, scotland: side(sco), england: side(eng) });

// A view of version 7 with a battle on and three log lines.
function view7() {
  return deepFreeze({
    year: 1297,
    phase: 'combat',
    phase_text: 'Scotland: combat',
    awaiting: ['scotland'],
    areas: [area('fife', 2, 0), area('angus', 1, 3), area('mar', 0, 0)],
    battle: { area: 'angus', revealed: { scotland: [{ block: 'sco_wallace', strength: 4 }] } },
    legal_actions: [{ kind: 'fire', block: 'sco_wallace' }],
    log: lines(0, 3),
    log_size: 3,
  });
}

const patch = (fields, view_patch) => ({
  v: 1,
  type: 'view_patch',
  seq: 8,
  log_from: 3,
  ...fields,
  view_patch,
});

test('a patch sets top-level members, new or changed, and leaves the others', () => {
  const old = view7();
  const before = structuredClone(old);
  const next = applyViewPatch(
    old,
    7,
    patch(
      {},
      {
        set: { phase_text: 'England: combat', awaiting: ['england'], move: { points: 2 } },
      },
    ),
  );
  assert.deepEqual(next, {
    ...before,
    phase_text: 'England: combat',
    awaiting: ['england'],
    move: { points: 2 },
  });
  assert.notEqual(next, old, 'a new object: the old version keeps its content');
  assert.deepEqual(old, before);
});

test('a patch unsets members that are gone', () => {
  const old = view7();
  const next = applyViewPatch(
    old,
    7,
    patch({}, { set: { phase: 'regroup' }, unset: ['battle', 'legal_actions'] }),
  );
  assert.equal('battle' in next, false);
  assert.equal('legal_actions' in next, false);
  assert.equal(next.phase, 'regroup');
  assert.equal(old.battle.area, 'angus', 'the old view still has its battle');
});

test('a patch replaces elements of an array in place, in a copy of the array', () => {
  const old = view7();
  const next = applyViewPatch(
    old,
    7,
    patch(
      {},
      {
        elements: {
          areas: [
            [1, area('angus', 1, 2)],
            [2, area('mar', 1, 0)],
          ],
        },
      },
    ),
  );
  assert.deepEqual(next.areas, [area('fife', 2, 0), area('angus', 1, 2), area('mar', 1, 0)]);
  assert.equal(next.areas[0], old.areas[0], 'unchanged elements are shared');
  assert.deepEqual(
    old.areas.map((a) => a.england.count),
    [0, 3, 0],
    'the old areas are as they were',
  );
});

test('the log keeps the lines before log_from and appends the new ones', () => {
  const old = view7();
  const next = applyViewPatch(
    old,
    7,
    patch({ log_from: 3 }, { set: { log: lines(3, 5), log_size: 5 } }),
  );
  assert.deepEqual(next.log, lines(0, 5));
  assert.equal(next.log_size, 5);
  assert.equal(old.log.length, 3);
});

test('a patch without log lines keeps the log', () => {
  const next = applyViewPatch(view7(), 7, patch({ log_from: 3 }, { set: { awaiting: [] } }));
  assert.deepEqual(next.log, lines(0, 3));
  assert.equal(next.log_size, 3);
});

test('an undo shortens the log: lines from log_from on are dropped', () => {
  const next = applyViewPatch(view7(), 7, patch({ log_from: 1 }, { set: { log_size: 1 } }));
  assert.deepEqual(next.log, lines(0, 1));
  // Taken back and replaced by other lines in the same version.
  const redone = applyViewPatch(
    view7(),
    7,
    patch({ log_from: 2 }, { set: { log: [{ i: 2, text: 'other' }], log_size: 3 } }),
  );
  assert.deepEqual(redone.log, [...lines(0, 2), { i: 2, text: 'other' }]);
});

test('an empty patch gives an equal view', () => {
  const old = view7();
  assert.deepEqual(applyViewPatch(old, 7, patch({}, {})), old);
  assert.deepEqual(applyViewPatch(old, 7, { v: 1, type: 'view_patch', seq: 8, log_from: 3 }), old);
});

test('a patch for another version is not applied: the client needs a whole view', () => {
  const p = patch({}, { set: { year: 1298 } });
  assert.equal(applyViewPatch(view7(), 6, p), null, 'a version missed');
  assert.equal(applyViewPatch(view7(), 8, p), null, 'already at that version');
  assert.equal(applyViewPatch(view7(), 9, p), null, 'past it');
  assert.equal(applyViewPatch(null, 7, p), null, 'no view yet');
});

test('a patch that does not fit the view is not applied', () => {
  const old = view7();
  assert.equal(
    applyViewPatch(old, 7, patch({}, { elements: { nobles: [[0, {}]] } })),
    null,
    'elements of a member that is not an array',
  );
  assert.equal(
    applyViewPatch(old, 7, patch({}, { elements: { areas: [[3, {}]] } })),
    null,
    'an element past the end',
  );
  assert.equal(
    applyViewPatch(old, 7, patch({ log_from: 3 }, { set: { log_size: 5 } })),
    null,
    'log lines missing',
  );
});

test('merging a pushed log', () => {
  assert.deepEqual(mergeLog(lines(0, 4), 2, lines(2, 3)), lines(0, 3));
  assert.deepEqual(mergeLog(undefined, 0, lines(0, 2)), lines(0, 2));
  assert.deepEqual(mergeLog(lines(0, 2), 2, undefined), lines(0, 2));
});
