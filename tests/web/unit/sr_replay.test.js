// The Scotland Rising replay's words (web-client/js/sr/wording.js): every action of a record
// and every action the engine offers in the fixtures, named as the board names units (never by
// a unit's id), and how a game ended. And the replay fixture itself (tests/web/fixtures/sr/
// replay.json, by tools/game-views --record): a record and one view per step, consistent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const { outcomeText } = await import(path.join(root, 'web-client/js/sr/model.js'));
const { srNames, describeSrAction, srRecordLine, srResultText } = await import(
  path.join(root, 'web-client/js/sr/wording.js')
);
const file = (name) =>
  JSON.parse(fs.readFileSync(path.join(root, 'tests/web/fixtures/sr', `${name}.json`), 'utf8'));
const replay = file('replay');
const names = srNames({ ...replay.views[0], board: replay.board });

test('each kind of action in words, units by side, type and name, hexes by their names', () => {
  const cases = [
    [
      { type: 'move', unit: 'sc_pike2', path: ['0405', '0404'] },
      'Scotland Pike (Moray) moves to 0404 (2 hexes)',
    ],
    [
      { type: 'move', unit: 'sc_moray', path: ['0102'] },
      'Scotland Leader (Moray) moves to 0102 (New Park)',
    ],
    [
      { type: 'attack', unit: 'en_longbow1', target: '0213' },
      'England Longbow (Archers) attacks 0213 (Bannockburn)',
    ],
    [
      { type: 'charge', unit: 'en_knight5', path: ['0811', '0710'], target: '0709' },
      'England Knights (Clifford) charges 0709 from 0710',
    ],
    [
      { type: 'move_attack', unit: 'sc_pike3', path: ['0507'], target: '0508' },
      'Scotland Pike (Douglas) moves to 0507 and attacks 0508',
    ],
    [
      { type: 'exit', unit: 'en_hobelar1', path: ['0702', '0701'] },
      'England Hobelars (Clifford) leaves the field toward Stirling',
    ],
    [
      { type: 'rally', leader: 'sc_moray', unit: 'sc_pike1' },
      'Scotland Leader (Moray) rallies Scotland Pike (Moray)',
    ],
    [{ type: 'event_rally', unit: 'sc_ax2' }, 'Scotland Ax (Islesmen) rallies (battle event)'],
    [{ type: 'schiltron', unit: 'sc_pike8' }, 'Scotland Pike (R. Bruce) forms schiltron'],
    [{ type: 'leave_schiltron', unit: 'en_pike1' }, 'England Pike (Foot) leaves schiltron'],
    [{ type: 'place', unit: 'sc_ax1', hex: '0306' }, 'Scotland Ax (R. Bruce) is set up at 0306'],
    [{ type: 'end_turn' }, 'ends the turn'],
    [{ type: 'undo' }, 'takes back the last choice'],
    [{ type: 'roll_ap' }, 'rolls for action points'],
    [{ type: 'scots_charge' }, 'announces the Scots Charge'],
    [{ type: 'setup_done' }, 'finishes the set-up'],
  ];
  for (const [action, words] of cases) assert.equal(describeSrAction(action, names), words);
  // What the data file does not know is said to be unknown, not passed off as a name.
  assert.equal(
    describeSrAction({ type: 'schiltron', unit: 'sc_nobody' }, names),
    'an unknown unit (sc_nobody) forms schiltron',
  );
  assert.equal(describeSrAction({ type: 'fly' }, names), 'does "fly"');
});

test('a record line names the side that acted', () => {
  assert.equal(
    srRecordLine({ seq: 20, role: 'scotland', action: { type: 'end_turn' } }, names),
    'Scotland ends the turn',
  );
  assert.equal(
    srRecordLine(replay.actions[20], names),
    'England: England Leader (Edward II) moves to 0612 (3 hexes)',
  );
  assert.equal(
    srRecordLine(replay.actions[29], names),
    'Scotland: Scotland Leader (Moray) charges 0510 from 0509',
  );
});

test('no action of the record nor any action the engine offers is worded with a unit id', () => {
  const offered = ['start', 'ap', 'turn1', 'charge', 'longbow', 'midgame', 'freeform'].flatMap(
    (n) => file(n).view.legal_actions,
  );
  const ids = new Set(replay.board.units.map((u) => u.id));
  let worded = 0;
  for (const action of [...replay.actions.map((a) => a.action), ...offered]) {
    const words = describeSrAction(action, names);
    for (const id of ids) assert.ok(!words.includes(id), `${words} names ${id}`);
    assert.ok(!/undefined|null/.test(words), words);
    worded++;
  }
  assert.ok(worded > 100);
});

test('how a game ended', () => {
  assert.equal(
    srResultText({ winner: 'england', reason: 'resigned' }),
    'England wins by resignation.',
  );
  assert.equal(srResultText({ winner: 'scotland', reason: 'timeout' }), 'Scotland wins on time.');
  assert.equal(
    srResultText({ winner: 'scotland', reason: 'victory_points' }),
    'Scotland wins on victory points.',
  );
  assert.equal(srResultText({ winner: null, reason: 'draw' }), 'The game is drawn.');
  assert.equal(srResultText(null), 'The game was cancelled.');
  // The board's own line (its prompt and status) says how a game not ended by the rules ended:
  // not as if England had won on its 0 VP.
  assert.equal(
    outcomeText(
      { finished: true, winner: 'england', reason: 'resigned' },
      { scotland: 5, england: 0 },
    ),
    'England wins by resignation (Scotland 5 VP, England 0 VP).',
  );
});

test('the replay fixture: a view after each action, each log extending the one before', () => {
  const { actions, views } = replay;
  assert.equal(views.length, actions.length + 1);
  assert.ok(replay.board.units.length > 20, 'the data file is written once');
  actions.forEach((a, k) => assert.equal(a.seq, k + 1));
  for (let k = 0; k < views.length; k++) {
    const v = views[k];
    assert.equal(v.game, 'scotland_rising');
    assert.equal(v.role, 'observer');
    assert.equal(v.board, undefined);
    if (k === 0) continue;
    // The action of step k was its side's to take in the view before it.
    assert.ok(views[k - 1].awaiting.includes(actions[k - 1].role), `step ${k}`);
    assert.deepEqual(v.log.slice(0, views[k - 1].log.length), views[k - 1].log);
    assert.ok(v.log.length >= views[k - 1].log.length);
  }
  // The game's fights are in it: the charge and its dice.
  assert.ok(actions.some((a) => a.action.type === 'charge'));
  assert.ok(views.at(-1).log.some((l) => / charges \d{4}: .*rolled/.test(l)));
});

// The log panel's lines: the engine's log names units by id ("Scots pike sc_pike8 (R. Bruce)");
// the page shows them as the board and the replay's list of actions name them.
const views = ['start', 'turn1', 'charged', 'longbow', 'midgame', 'over', 'freeform'].map(
  (n) => file(n).view,
);

test('every log line of the engine shows its units by name, never by id', () => {
  const ids = replay.board.units.map((u) => u.id);
  let named = 0;
  for (const view of views) {
    const logNames = srNames(view);
    for (const line of view.log) {
      const shown = logNames.line(line);
      for (const id of ids) assert.ok(!new RegExp(`\\b${id}\\b`).test(shown), `${shown}: ${id}`);
      if (shown !== line) named++;
      // Only the units' words change: the hexes and the dice read from a line stay.
      assert.deepEqual(shown.match(/\b\d{4}\b/g), line.match(/\b\d{4}\b/g), line);
      const dice = (text) => / rolled [\d,]+: \d+ hits?$/.exec(text)?.[0] ?? null;
      assert.equal(dice(shown), dice(line), line);
    }
  }
  assert.ok(named > 300, `only ${named} lines named a unit`);
});

test('log lines in words: each kind of line the engine writes about units', () => {
  const view = file('midgame').view;
  const { line } = srNames(view);
  const cases = [
    [
      'Scots leader sc_douglas (Douglas) charges 0508: 2 dice hitting on 6+, rolled 6,2: 1 hit',
      'Scotland Leader (Douglas) charges 0508: 2 dice hitting on 6+, rolled 6,2: 1 hit',
    ],
    [
      'English knight en_knight2 (Gloucester) rolls 3 for a hit: ignored',
      'England Knights (Gloucester) rolls 3 for a hit: ignored',
    ],
    ['Scots pike sc_pike8 (R. Bruce) forms schiltron', 'Scotland Pike (R. Bruce) forms schiltron'],
    [
      'English crossbow en_crossbow2 (Gascons) is eliminated',
      'England Crossbow (Gascons) is eliminated',
    ],
    [
      'Scots leader sc_moray (Moray) rallies Scots pike sc_pike1 (Moray): rolled 2, full strength again',
      'Scotland Leader (Moray) rallies Scotland Pike (Moray): rolled 2, full strength again',
    ],
    [
      'English hobelar en_hobelar1 (Clifford) exits toward Stirling: 1 VP',
      'England Hobelars (Clifford) exits toward Stirling: 1 VP',
    ],
    ['Turn 14', 'Turn 14'],
    ['England rolls 3 for AP: 6 + 2 = 8 AP', 'England rolls 3 for AP: 6 + 2 = 8 AP'],
  ];
  for (const [engine, shown] of cases) assert.equal(line(engine), shown);
  // An id the data file does not hold is left as the engine wrote it.
  assert.equal(
    line('Scots pike sc_pike9 (Moray) forms schiltron'),
    'Scots pike sc_pike9 (Moray) forms schiltron',
  );
});

test('a unit without a name whose id begins another id: each line names the right one', () => {
  const board = {
    units: [
      { id: 'sc_pike1', side: 'scotland', type: 'pike', name: '' },
      { id: 'sc_pike10', side: 'scotland', type: 'pike', name: 'Keith' },
      { id: 'en_knight1', side: 'england', type: 'knight', name: '' },
    ],
  };
  const view = {
    board,
    units: board.units.map((u) => ({ id: u.id, hex: '0101', reduced: false })),
  };
  const { line } = srNames(view);
  assert.equal(line('Scots pike sc_pike10 (Keith) moves 0102'), 'Scotland Pike (Keith) moves 0102');
  assert.equal(line('Scots pike sc_pike1 moves 0102'), 'Scotland Pike moves 0102');
  assert.equal(
    line('English knight en_knight1 attacks 0102: 3 dice hitting on 5+, rolled 1,2,3: 0 hits'),
    'England Knights attacks 0102: 3 dice hitting on 5+, rolled 1,2,3: 0 hits',
  );
});
