// A finished game stepped through action by action, from Scotland's or England's view, the
// observer's, or with everything revealed. The action list comes from the downloadable record;
// each step's view from the server, which replays the record (GET /api/games/{id}/replay/{seq}).
// A game under way has no replay for anybody (RULES 13.1): the page says so and links to
// watching it. A Scotland Rising game (the record's `game`, or its last view's) is stepped
// through on its own board (sr/replay.js).
import { h, clear } from './dom.js';
import { api } from './api.js';
import { loadGameData } from './gamedata.js';
import { classify, describe } from './actions.js';
import { createMap } from './map/map.js';
import { mergeViews } from './reveal.js';
import { renderCards } from './panels/cards.js';
import { renderBattle } from './panels/battle.js';
import { renderStatus } from './panels/status.js';
import { renderLog } from './panels/log.js';
import { awaitingText } from './panels/prompt.js';
import { SIDE_NAME } from './board.js';
import { resultText } from './wording.js';
import { openSrReplay } from './sr/replay.js';
import { createReplaySteps } from './replay/steps.js';
import { srResultText } from './sr/wording.js';

const isSr = (kind) => kind === 'scotland_rising';

const ROLES = [
  ['all', 'Everything revealed'],
  ['scotland', "Scotland's view"],
  ['england', "England's view"],
  ['observer', "Observer's view"],
];

// Pure: an action of the record as `role`'s view tells it: in full for everything revealed or
// the seat's own actions, else only who acted (the view itself shows what became known).
export function actionText(a, role, data) {
  if (role === 'all' || a.role === role) return `${SIDE_NAME[a.role]}: ${describe(a.action, data)}`;
  return `${SIDE_NAME[a.role]} decides`;
}

// A finished game's replay is public (an invite game's: for its players): its link to share.
function shareLink(gameId) {
  const shareUrl = `${location.origin}${location.pathname}#/replay/${gameId}`;
  const copied = h('span', { class: 'copied', role: 'status', 'aria-live': 'polite' });
  return h(
    'p',
    { class: 'share-replay' },
    h('label', { for: 'replay-link' }, 'Link to this replay '),
    h('input', {
      id: 'replay-link',
      readonly: true,
      value: shareUrl,
      size: 40,
      onfocus: (e) => e.target.select(),
    }),
    h(
      'button',
      {
        class: 'copy-link',
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(shareUrl);
            copied.textContent = 'Copied';
          } catch {
            copied.textContent = 'Select the link and copy it';
          }
        },
      },
      'Copy link',
    ),
    copied,
  );
}

// The game's kind from the view of its last step, for a record that does not name it (the
// engine's views do); null, taken as Hammer of the Scots, when that step cannot be had.
async function lastViewKind(gameId, record) {
  try {
    const res = await api.replayView(gameId, record.actions.length, 'all');
    return res.views?.scotland?.game ?? null;
  } catch {
    return null;
  }
}

export async function openReplay(root, { gameId }) {
  const data = await loadGameData();
  clear(root);
  const notice = h('p', { class: 'notice', role: 'status', 'aria-live': 'polite' });
  root.append(
    h(
      'header',
      { class: 'game-head' },
      h('a', { href: '#/', class: 'back' }, '← Lobby'),
      h('h1', {}, `Game ${gameId}: replay`),
    ),
    notice,
  );
  let record;
  try {
    record = await api.record(gameId);
  } catch (ex) {
    // A game under way has no replay for anybody, its organiser included (docs/tournaments.md,
    // "Replays"): it can be watched as an observer.
    notice.textContent =
      ex.code === 'game_not_finished'
        ? 'This game is under way: its replay opens when it has ended.'
        : `The record is not available: ${ex.message}`;
    if (ex.code === 'game_not_finished') {
      root.append(
        h(
          'p',
          { class: 'under-way' },
          h('a', { href: `#/game/${gameId}/observe` }, 'Watch it as an observer'),
        ),
      );
    }
    return () => {};
  }
  const sr = isSr(record.game ?? (await lastViewKind(gameId, record)));
  // How the game ended, by the rules, resignation or time (who won, and why), under the title.
  if (record.result) {
    const text = sr ? srResultText(record.result) : resultText(record.result);
    root.append(h('p', { class: 'game-result' }, text));
  }
  if (sr) return openSrReplay(root, { gameId, record, notice, share: shareLink(gameId) });
  const n = record.actions.length;
  let role = 'all';
  const roleSel = h(
    'select',
    {
      id: 'replay-role',
      onchange: () => {
        role = roleSel.value;
        show();
      },
    },
    ROLES.map(([v, l]) => h('option', { value: v }, l)),
  );
  const steps = createReplaySteps(n, () => show());
  const stepText = h('span', { class: 'step-text', 'aria-live': 'polite' });
  const controls = h(
    'div',
    { class: 'replay-controls', role: 'group', 'aria-label': 'Replay' },
    h('label', { for: 'replay-role' }, 'Seen by '),
    roleSel,
    steps.buttons,
    stepText,
    h(
      'a',
      { href: `/api/games/${gameId}/record`, download: `blockfog-game-${gameId}.json` },
      'Download the record',
    ),
    h('span', { class: 'seed' }, `seed ${record.seed}`),
  );
  const share = shareLink(gameId);
  const map = createMap(data, { onArea: () => {}, onBlock: () => {} });
  const prompt = h('section', { class: 'prompt' });
  const cards = h('section', { class: 'panel cards' });
  const battle = h('section', { class: 'panel battle', hidden: true });
  const status = h('section', { class: 'panel status' });
  const logPanel = h('section', { class: 'panel logp' }, h('h2', {}, 'Log'));
  // The list is redrawn per role: a seat's view does not say what the other seat decided.
  let listedFor = null;
  const listActions = () => {
    if (listedFor === role) return;
    listedFor = role;
    steps.listActions(record.actions, (a) => actionText(a, role, data));
  };
  root.append(
    controls,
    share,
    prompt,
    h(
      'div',
      { class: 'board' },
      h('div', { class: 'map-holder' }, map.el),
      h(
        'aside',
        { class: 'side' },
        cards,
        battle,
        status,
        logPanel,
        h('section', { class: 'panel' }, h('h2', {}, 'Actions of the record'), steps.actionList),
      ),
    ),
  );

  // One request per step and role; "all" answers both seats' views, merged here.
  const cache = new Map();
  const viewOf = (s, r) => {
    const key = `${s}/${r}`;
    if (!cache.has(key)) {
      const p = api
        .replayView(gameId, s, r)
        .then((res) =>
          r === 'all' ? mergeViews(res.views.scotland, res.views.england) : res.view,
        );
      p.catch(() => cache.delete(key));
      cache.set(key, p);
    }
    return cache.get(key);
  };
  let token = 0;
  let loggedFor = null;
  async function show() {
    const mine = ++token;
    const seq = steps.seq;
    const act = record.actions[seq - 1];
    listActions();
    stepText.textContent =
      `${seq} / ${n}` + (act ? ` · ${actionText(act, role, data)}` : seq === 0 ? ' · set-up' : '');
    steps.markCurrent();
    let view;
    try {
      view = await viewOf(seq, role);
    } catch (ex) {
      if (mine === token) notice.textContent = `This server cannot show step ${seq}: ${ex.message}`;
      return;
    }
    if (mine !== token) return;
    notice.textContent = '';
    const ctx = {
      data,
      role: view.role ?? role,
      cls: classify([]),
      send: () => {},
      select: () => {},
      selected: null,
      pending: true,
    };
    // After the last action of a game ended by resignation or time the engine's view still
    // awaits somebody: the record's result says how it ended instead.
    const endedHere = seq === n && record.result && !view.outcome;
    clear(prompt).append(
      h(
        'div',
        { class: 'prompt-line' },
        h(
          'strong',
          { class: 'phase-text' },
          endedHere ? 'Game over' : view.phase_text || view.phase,
        ),
        h(
          'span',
          { class: 'awaiting' },
          endedHere ? resultText(record.result) : awaitingText(view, null),
        ),
      ),
    );
    map.render(view, {
      selected: null,
      blockActionable: new Set(),
      areaTargets: new Map(),
      moving: view.move?.moving || null,
    });
    renderCards(cards, view, ctx);
    renderBattle(battle, view, ctx);
    renderStatus(status, view, ctx);
    if (loggedFor !== role) clear(logPanel).append(h('h2', {}, 'Log'));
    loggedFor = role; // another seat's log is another log: drawn anew
    renderLog(logPanel, view, null, data);
    root.dataset.shown = `${seq}/${role}`; // lets tests wait for a step to be drawn
  }
  steps.listen(root);
  show();
  return () => {};
}
