// Plain English for identifiers and terse engine text, and what a log line names on the map.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const js = (m) => import(path.join(root, 'web-client/js', m));
const { indexGameData } = await js('gamedata.js');
const raw = JSON.parse(fs.readFileSync(path.join(root, 'web-client/data/game-data.json'), 'utf8'));
const data = indexGameData(raw);
const {
  outcomeText,
  battleStepText,
  winterStep,
  plural,
  playedInOrder,
  resultText,
  borderName,
  entryText,
  logLineText,
  sideName,
  REASON_CODES,
  battleDecision,
  retreatLabel,
} = await js('wording.js');
const { nameIndex, linksOf, movesThisTurn } = await js('log_links.js');

test('the outcome says why in words, with the nobles counted', () => {
  assert.equal(
    outcomeText({ winner: 'england', reason: 'nobles_majority' }, { england: 9, scotland: 5 }),
    'England wins: more nobles (9 to 5).',
  );
  assert.equal(
    outcomeText(
      { winner: 'scotland', reason: 'nobles_majority' },
      { england: { total: 2 }, scotland: { total: 12, two_block: 11 } },
    ),
    'Scotland wins: more nobles (12 to 2).',
  );
  assert.equal(
    outcomeText({ winner: 'scotland', reason: 'king_killed' }),
    'Scotland wins: the Scottish King is killed.',
  );
  assert.doesNotMatch(
    outcomeText({ winner: 'scotland', reason: 'wallace_tie_break' }, { england: 7, scotland: 7 }),
    /_/,
  );
});

test('battle steps, winter steps and log lines read as English', () => {
  assert.equal(
    battleStepText('attacking A', 'scotland', 'england'),
    'Scotland (attacker) fires with its A blocks',
  );
  assert.equal(
    battleStepText('defending B', 'scotland', 'england'),
    'England (defender) fires with its B blocks',
  );
  assert.match(winterStep(new Set(['add_step', 'draw', 'done'])).done, /Done building/);
  assert.match(winterStep(new Set(['disband', 'done'])).title, /castle limits/);
  assert.match(winterStep(new Set(['home'])).hint, /home area/);
});

test('a battle decision says what is decided: a combat turn, or the retreat after round 3', () => {
  const name = (id) => data.area[id].name;
  const battle = { area: 'angus', attacker: 'scotland', defender: 'england', round: 3 };
  // RULES 5.5: the options named are those offered.
  const turn = battleDecision(
    { phase: 'combat', battle },
    new Set(['fire', 'pass', 'retreat']),
    name,
  );
  assert.equal(turn.hint, 'Choose a block for its combat turn: fire, retreat or pass.');
  assert.match(turn.info, /leaves the battle at once/);
  const noTarget = battleDecision({ phase: 'combat', battle }, new Set(['pass', 'retreat']), name);
  assert.equal(noTarget.hint, 'Choose a block for its combat turn: retreat or pass.');
  const nowhere = battleDecision({ phase: 'combat', battle }, new Set(['fire', 'pass']), name);
  assert.equal(nowhere.hint, 'Choose a block for its combat turn: fire or pass.');
  assert.equal(nowhere.info, null, 'no word of retreating when no block can');
  // RULES 5.11.3: the attacker must retreat every block; with nowhere to go they are lost.
  const won = { ...battle, victor: 'england' };
  const must = battleDecision(
    { phase: 'mandatory_retreat', battle: won },
    new Set(['retreat']),
    name,
  );
  assert.equal(
    must.info,
    'England won the battle in Angus: every one of your blocks there must ' +
      'retreat to an adjacent friendly or neutral area (RULES 5.11.3).',
  );
  assert.match(must.hint, /Choose a block to retreat, then the area it retreats to/);
  const stuck = battleDecision(
    { phase: 'mandatory_retreat', battle: won },
    new Set(['finish_retreat']),
    name,
  );
  assert.match(
    stuck.info,
    /none of your blocks left there can retreat: finishing the retreat eliminates them/,
  );
  assert.equal(
    battleDecision({ phase: 'hit_allocation', battle }, new Set(['take_hit']), name),
    null,
  );
  assert.equal(battleDecision({ phase: 'move' }, new Set(['move']), name), null);
  // The button names the area in full; the Norse retreat by sea (RULES 5.10.6).
  assert.equal(retreatLabel('sco_wallace', name('selkirk')), `Retreat to ${name('selkirk')}`);
  assert.equal(retreatLabel('sco_norse', 'Moray'), 'Retreat by sea to Moray');
});

test("a log line names its areas and blocks; the opponent's moves this turn are found", () => {
  const index = nameIndex(data);
  const l = linksOf('Wallace moved from Fife to Selkirk Forest.', index);
  assert.deepEqual([...l.areas].sort(), ['fife', 'selkirk']);
  assert.ok(l.blocks.has('sco_wallace'));
  const log = [
    'Game turn 1.',
    'England moves with 2 move points.',
    'A English block moved from England to Teviot.',
    'England ended its move phase.',
    'Game turn 2.',
    'Scotland moves with 3 move points.',
    'Wallace moved from Fife to Lothian.',
    'The Norse sailed from Ross to Buchan.',
    'Scotland ended its move phase.',
    'England moves with 1 move points.',
    'A English block moved from Teviot to Selkirk Forest.',
    'England ended its move phase.',
  ].map((text, i) => ({ i, text }));
  assert.deepEqual(
    movesThisTurn(log, 'england', index).map((m) => [m.from, m.to]),
    [['teviot', 'selkirk']],
  );
  assert.deepEqual(
    movesThisTurn(log, 'scotland', index).map((m) => [m.from, m.to]),
    [
      ['fife', 'lothian'],
      ['ross', 'buchan'],
    ],
  );
  assert.equal(movesThisTurn(log, null, index).length, 3);
  // A new game turn clears them.
  assert.deepEqual(movesThisTurn([...log, { i: 99, text: 'Game turn 3.' }], 'england', index), []);
});

test("pinned blocks: read from the engine's marks on the seat's own blocks", async () => {
  const { pinnedBlocks } = await js('map/pinning.js');
  const own = (block, extra = {}) => ({
    block,
    moved: false,
    reserve: false,
    strength: 2,
    ...extra,
  });
  const reason =
    'pinned: 1 enemy block in this area holds your 1; a block may leave only while ' +
    'yours outnumber them (RULES 4.7)';
  const view = {
    role: 'scotland',
    phase: 'move',
    legal_actions: [{ kind: 'move' }],
    areas: [
      {
        id: 'fife',
        scotland: {
          blocks: [own('sco_wallace', { pinned: reason }), own('sco_douglas', { reserve: true })],
          count: 2,
        },
        england: { count: 1 },
      },
      {
        id: 'lothian',
        scotland: { blocks: [own('sco_bruce'), own('sco_fraser')], count: 2 },
        england: { count: 1 },
      },
    ],
  };
  const pinned = pinnedBlocks(view);
  assert.deepEqual([...pinned.entries()], [['sco_wallace', reason]]);
  assert.equal(pinnedBlocks({ role: 'observer', areas: view.areas }).size, 0);
  assert.equal(pinnedBlocks(null).size, 0);
});

test('counts read in the singular for one, the plural otherwise', async () => {
  assert.equal(plural(1, 'hit'), '1 hit');
  assert.equal(plural(2, 'hit'), '2 hits');
  assert.equal(plural(0, 'block'), '0 blocks');
  assert.equal(plural(1, 'English block'), '1 English block');
  assert.equal(plural(3, 'move point'), '3 move points');
  assert.equal(plural(1, 'day'), '1 day');
  assert.equal(plural(1, 'mouse', 'mice'), '1 mouse');
  assert.equal(plural(4, 'mouse', 'mice'), '4 mice');
  const { timeControlText } = await js('lobby_play.js');
  assert.equal(
    timeControlText({ kind: 'correspondence', days_per_turn: 1, bank_days: 7 }),
    'Correspondence: 1 day per turn + 7 days bank',
  );
});

test('the cards played this year read in the order they were played', () => {
  const played = [
    { side: 'england', card: 'move2_1', turn: 2 },
    { side: 'scotland', card: 'move3_1', turn: 1 },
    { side: 'scotland', card: 'move1_1', turn: 2 },
    { side: 'england', card: 'move1_2', turn: 1 },
  ];
  assert.deepEqual(
    playedInOrder(played).map((p) => `${p.turn} ${p.side}`),
    ['1 scotland', '1 england', '2 scotland', '2 england'],
  );
  assert.deepEqual(played[0].side, 'england', 'the list it was given is left as it was');
  assert.deepEqual(playedInOrder(undefined), []);
  assert.deepEqual(playedInOrder(null), []);
});

test('a game names its scenario as the game data does, never by its identifier', () => {
  assert.ok(raw.scenarios.length > 0);
  for (const { id } of raw.scenarios) {
    const name = data.scenario[id]?.name;
    assert.ok(name, `scenario ${id} has a name`);
    assert.ok(!/_/.test(name) && name !== id, `${name} reads as words`);
  }
});

// The reasons a game ends for: every one the engine writes (RULES 12) and the server's own.
const engineReasons = [
  ...fs
    .readFileSync(path.join(root, 'rules/hots/engine.cpp'), 'utf8')
    .matchAll(/reason = "([a-z_]+)"/g),
].map((m) => m[1]);
const serverReasons = ['resigned', 'timeout', 'forfeit', 'adjudicated'];

test('every result reason reads in words, once, never as its code', () => {
  assert.ok(engineReasons.length >= 5, 'the engine reasons are found');
  for (const reason of [...engineReasons, ...serverReasons]) {
    assert.ok(REASON_CODES.includes(reason), `${reason} has words of its own`);
    for (const winner of ['scotland', 'england', null]) {
      const text = resultText({ winner, reason });
      assert.doesNotMatch(text, /_|\b(scotland|england)\b|\(|Game over/, `${reason}: ${text}`);
      assert.match(text, /^[A-Z].*\.$/, `${reason}: ${text} is a sentence`);
      const shown = outcomeText({ winner, reason }, { scotland: 7, england: 5 });
      assert.doesNotMatch(shown, /_|Game over/, `${reason}: ${shown}`);
    }
  }
  assert.equal(
    resultText({ winner: 'scotland', reason: 'england_has_no_nobles' }),
    'Scotland wins: England controls no noble.',
  );
  assert.equal(
    resultText({ winner: 'england', reason: 'resigned' }),
    'England wins by resignation.',
  );
  assert.equal(resultText(null), 'The game was cancelled.');
  assert.equal(sideName('scotland'), 'Scotland');
});

test('every border reads as its two areas, in log lines and reserves alike', () => {
  assert.ok(data.borders.length > 40);
  for (const b of data.borders) {
    const [x, y] = b.areas.map((a) => data.area[a].name);
    assert.equal(borderName(b.id, data), `the ${x}–${y} border`);
    assert.equal(entryText(b.id, data), `across the ${x}–${y} border`);
    const line = logLineText(`Scotland: a reserve entered across ${b.id}.`, data);
    assert.equal(line, `Scotland: a reserve entered across the ${x}–${y} border.`);
    assert.doesNotMatch(line, new RegExp(b.id));
  }
  assert.equal(entryText('sea', data), 'by sea');
  assert.equal(entryText('captured', data), 'captured');
  assert.equal(
    logLineText('Wallace moved across the river.', data),
    'Wallace moved across the river.',
  );
});
