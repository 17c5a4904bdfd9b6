// A finished Scotland Rising game stepped through action by action (the replay page, #/replay/N,
// for a game of this kind; replay.js opens it). The action list comes from the record, each
// step's view from the server (GET /api/games/{id}/replay/{seq}). The game hides nothing
// (docs/scotland-rising.md): every seat's view is the whole position, so the page asks for one,
// the observer's, and offers no choice of view. The board is the live page's (board.js), drawn
// as an observer's: no action is offered and no click sends anything.
import { h } from '../dom.js';
import { api } from '../api.js';
import { createSrBoard } from './board.js';
import { shownSrView } from './page.js';
import { createReplaySteps } from '../replay/steps.js';
import { srNames, srRecordLine } from './wording.js';

// The role whose view each step is asked for: any role's is the same position.
const VIEW_ROLE = 'observer';

// Pure: the step line under the controls ("3 / 40 · Scotland: …", "0 / 40 · set-up").
export function srStepText(record, seq, names) {
  const n = record.actions.length;
  const act = record.actions[seq - 1];
  return `${seq} / ${n}` + (act ? ` · ${srRecordLine(act, names)}` : seq === 0 ? ' · set-up' : '');
}

// `root` already holds the page's header, notice and result; `share` is the replay's link.
export function openSrReplay(root, { gameId, record, notice, share }) {
  const n = record.actions.length;
  let names = null; // from the first view drawn: the data file is the same at every step
  const steps = createReplaySteps(n, () => show());
  const stepText = h('span', { class: 'step-text', 'aria-live': 'polite' });
  // The buttons and the slider alone on their row, so that a button stays where it is whatever
  // the step's words are: Next can be clicked again and again without chasing it.
  const controls = h(
    'div',
    { class: 'replay-controls', role: 'group', 'aria-label': 'Replay' },
    steps.buttons,
  );
  const about = h(
    'p',
    { class: 'replay-about' },
    h(
      'span',
      { class: 'replay-same-view' },
      'Seen by everyone: nothing is hidden in this game, every seat sees the same. ',
    ),
    h(
      'a',
      { href: `/api/games/${gameId}/record`, download: `blockfog-game-${gameId}.json` },
      'Download the record',
    ),
    ' ',
    h('span', { class: 'seed' }, `seed ${record.seed}`),
  );
  // Nothing is ever sent: the board is an observer's, and its views offer no actions.
  const board = createSrBoard({ send: () => {}, say: () => {} });
  const side = h(
    'aside',
    { class: 'side', id: 'game-side' },
    h('div', { class: 'dock bottom-sheet' }, board.prompt),
    board.status,
    board.dice,
    board.details,
    board.log,
    h(
      'section',
      { class: 'panel', 'aria-label': 'Actions of the record' },
      h('h2', {}, 'Actions of the record'),
      steps.actionList,
    ),
  );
  root.append(
    controls,
    h('p', { class: 'replay-step' }, stepText),
    about,
    share,
    h('div', { class: 'board sr-board sr-replay' }, board.map, side),
  );

  const cache = new Map();
  const viewOf = (s) => {
    if (!cache.has(s)) {
      const p = api.replayView(gameId, s, VIEW_ROLE).then((res) => res.view);
      p.catch(() => cache.delete(s));
      cache.set(s, p);
    }
    return cache.get(s);
  };
  let token = 0;
  async function show() {
    const mine = ++token;
    const seq = steps.seq;
    if (names) stepText.textContent = srStepText(record, seq, names);
    steps.markCurrent();
    let view;
    try {
      view = await viewOf(seq);
    } catch (ex) {
      if (mine === token) notice.textContent = `This server cannot show step ${seq}: ${ex.message}`;
      return;
    }
    if (mine !== token) return;
    notice.textContent = '';
    if (!names) {
      names = srNames(view);
      steps.listActions(record.actions, (a) => srRecordLine(a, names));
    }
    stepText.textContent = srStepText(record, seq, names);
    // After the last action of a game ended by resignation or time the engine's view still
    // awaits somebody: the record's result ends it on the board too.
    const ended = seq === n && !!record.result;
    board.update(shownSrView(view, ended, record.result), { role: VIEW_ROLE });
    root.dataset.shown = `${seq}/${VIEW_ROLE}`; // lets tests wait for a step to be drawn
  }
  steps.listen(root);
  show();
  return () => {};
}
