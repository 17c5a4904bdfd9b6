// Unit tests of how the lobby, the ratings and the tournaments pages name the games served.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { kindsOf, gameName, optionWords, scenarioName } = await import(
  path.join(root, 'web-client/js/game_kinds.js')
);

test('the games offered are the server list, or Hammer of the Scots alone', () => {
  const sr = { game: 'scotland_rising', game_name: 'Scotland Rising', invented_variant: true };
  assert.deepEqual(kindsOf({ games: [{ game: 'hots' }, sr] })[1], sr);
  const alone = kindsOf({ scenarios: ['braveheart'] });
  assert.equal(alone.length, 1);
  assert.equal(alone[0].game, 'hots');
  assert.deepEqual(alone[0].scenarios, ['braveheart']);
  assert.deepEqual(kindsOf(null, ['the_bruce'])[0].scenarios, ['the_bruce']);
});

test('an invented board is marked wherever a game is named', () => {
  assert.equal(gameName({ game_name: 'Hammer of the Scots' }), 'Hammer of the Scots');
  assert.equal(
    gameName({ game_name: 'Scotland Rising', invented_variant: true }),
    'Scotland Rising (invented variant)',
  );
  // A game from a server that names no game is Hammer of the Scots.
  assert.equal(gameName({}), 'Hammer of the Scots');
});

test('options and scenarios are named in words', () => {
  assert.equal(optionWords('schiltroms'), 'Optional rule: Schiltroms');
  assert.equal(optionWords('battle_events'), 'Optional rule: the Battle Events Table');
  assert.equal(optionWords('fog_of_war'), 'Option: fog of war');
  const data = { scenario: { braveheart: { name: 'Braveheart', years: '1297–1305' } } };
  assert.equal(scenarioName(data, 'hots', 'braveheart'), 'Braveheart (1297–1305)');
  assert.equal(scenarioName(data, 'scotland_rising', 'bannockburn_variant'), 'Bannockburn variant');
});
