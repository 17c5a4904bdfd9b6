// Unit tests of the clock display's arithmetic (web-client/js/clock_view.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { formatRemaining, formatAgo, remainingAt } = await import(
  path.join(root, 'web-client/js/clock_view.js')
);

test('remaining time reads as days and hours, or h:mm:ss, or m:ss', () => {
  assert.equal(formatRemaining(2 * 86400e3 + 4 * 3600e3 + 5e3), '2 d 4 h');
  assert.equal(formatRemaining(3600e3 + 5 * 60e3 + 9e3), '1:05:09');
  assert.equal(formatRemaining(4 * 60e3 + 9e3), '4:09');
  assert.equal(formatRemaining(-5), '0:00');
});

test('last activity reads as how long ago', () => {
  const now = 1e12;
  assert.equal(formatAgo(now - 10e3, now), 'just now');
  assert.equal(formatAgo(now - 5 * 60e3, now), '5 min ago');
  assert.equal(formatAgo(now - 2 * 3600e3, now), '2 h ago');
  assert.equal(formatAgo(now - 3 * 86400e3, now), '3 d ago');
  assert.equal(formatAgo(null, now), 'never');
});

test("a running clock ticks down from the server's figure; a stopped or vacationing one stays", () => {
  const clocks = {
    now: 1000,
    scotland: { remaining_ms: 60e3, running: true, vacation_until: null },
    england: { remaining_ms: 90e3, running: false, vacation_until: null },
  };
  assert.equal(remainingAt(clocks, 'scotland', 5000, 15000), 50e3);
  assert.equal(remainingAt(clocks, 'england', 5000, 15000), 90e3);
  assert.equal(remainingAt(clocks, 'scotland', 5000, 500e3), 0);
  const paused = {
    ...clocks,
    scotland: { remaining_ms: 60e3, running: true, vacation_until: 21000 },
  };
  assert.equal(remainingAt(paused, 'scotland', 5000, 15000), 60e3); // within the vacation
  assert.equal(remainingAt(paused, 'scotland', 5000, 35000), 50e3); // 10 s after it ended
});
