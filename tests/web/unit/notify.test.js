// The pure parts of the turn alerts and the settings route.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { titleFor } from '../../../web-client/js/notify.js';
import { parseRoute } from '../../../web-client/js/route.js';

test('the title counts the games awaiting me', () => {
  assert.equal(titleFor(0, 'Blockfog'), 'Blockfog');
  assert.equal(titleFor(1, 'Blockfog'), '(1) Your turn · Blockfog');
  assert.equal(titleFor(3, 'Blockfog'), '(3) Your turn · Blockfog');
});

test('#/settings is the settings page', () => {
  assert.deepEqual(parseRoute('#/settings'), { page: 'settings' });
  assert.deepEqual(parseRoute('#/game/4'), { page: 'game', id: 4, observe: false });
  assert.deepEqual(parseRoute('#/ratings'), { page: 'ratings' });
  assert.deepEqual(parseRoute('#/players/ann_1'), { page: 'player', name: 'ann_1' });
});
