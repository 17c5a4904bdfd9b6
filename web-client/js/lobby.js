// The lobby: sign up / log in / log out, open games, creating a game, and my games with those
// awaiting me first.
import { gameLineExtras, timeControlField } from './lobby_play.js';
import { h, clear } from './dom.js';
import { api } from './api.js';
import { setAwaiting } from './notify.js';
import { loadGameData } from './gamedata.js';
import { SIDE_NAME } from './board.js';
import { rememberInvite, inviteOf, inviteBox, inviteLink, fetchInvite } from './invites.js';
import { computerForm, seatName } from './lobby_computer.js';
import { rollWhereDue } from './game/dice.js';
import {
  DEFAULT_KIND,
  kindsOf,
  gameName,
  optionOrder,
  optionWords,
  scenarioName,
} from './game_kinds.js';

function field(id, label, input) {
  input.id = id;
  return h('div', { class: 'field' }, h('label', { for: id }, label), input);
}

function authForm(kind, onDone) {
  const user = h('input', {
    type: 'text',
    name: 'username',
    required: true,
    minlength: 3,
    maxlength: 32,
    pattern: '[A-Za-z0-9_\\-]{3,32}',
    autocomplete: 'username',
  });
  const pass = h('input', {
    type: 'password',
    name: 'password',
    required: true,
    minlength: 8,
    maxlength: 256,
    autocomplete: kind === 'signup' ? 'new-password' : 'current-password',
  });
  const err = h('p', { class: 'error', role: 'alert' });
  const title = kind === 'signup' ? 'Sign up' : 'Log in';
  return h(
    'form',
    {
      class: `auth ${kind}`,
      'aria-label': title,
      onsubmit: async (e) => {
        e.preventDefault();
        err.textContent = '';
        try {
          const call = kind === 'signup' ? api.register : api.login;
          const res = await call(user.value, pass.value);
          onDone(res.account);
        } catch (ex) {
          err.textContent = ex.message;
        }
      },
    },
    h('h2', {}, title),
    field(`${kind}-user`, 'User name', user),
    field(`${kind}-pass`, 'Password', pass),
    h('button', { type: 'submit' }, title),
    err,
  );
}

// The creator of an open game allowed the computer to stand in (pure).
export function standInOffered(g) {
  return g.status === 'open' && Object.values(g.stand_in || {}).some(Boolean);
}

const STATUS_WORDS = {
  open: 'waiting for a player',
  active: 'under way',
  finished: 'finished',
  aborted: 'cancelled',
};

// Both seats taken, the game waits for its players' dice (game/dice.js).
const rollingDice = (g) => g.status === 'open' && g.dice?.deadline != null;

function statusWords(g) {
  if (rollingDice(g)) return 'starting: the players roll the dice';
  return STATUS_WORDS[g.status] ?? g.status;
}

function gameLine(g, data, me, { onJoin } = {}) {
  const scen =
    (g.game ?? DEFAULT_KIND.game) === DEFAULT_KIND.game
      ? (data.scenario[g.scenario]?.name ?? g.scenario)
      : scenarioName(data, g.game, g.scenario);
  const p = g.players || {};
  const c = g.computer || {};
  const seat = (role) => (p[role] ? seatName(p[role], c[role]) : 'free');
  const seats = `Scotland: ${seat('scotland')} · England: ${seat('england')}`;
  const bits = [
    h('span', { class: 'g-title' }, `#${g.id} ${scen}`),
    h('span', { class: `g-game${g.invented_variant ? ' variant' : ''}` }, gameName(g)),
    h('span', { class: 'g-seats' }, seats),
    h('span', { class: `g-status ${g.status}` }, statusWords(g)),
  ];
  if (g.your_turn) bits.unshift(h('span', { class: 'your-turn' }, 'Your turn'));
  if (standInOffered(g)) {
    bits.push(
      h(
        'span',
        { class: 'g-stand-in' },
        'The computer plays on for a player whose time runs out (joining accepts it)',
      ),
    );
  }
  bits.push(...gameLineExtras(g));
  const actions = [];
  const seated = g.your_role;
  if (g.status === 'open' && !rollingDice(g) && me && !seated && onJoin) {
    actions.push(
      h(
        'button',
        { class: 'join', 'data-game': g.id, onclick: () => onJoin(g) },
        `Join game ${g.id}`,
      ),
    );
  }
  // A cancelled game has nothing to play or open (it never started).
  if (seated && (g.status === 'active' || g.status === 'finished')) {
    actions.push(h('a', { class: 'button', href: `#/game/${g.id}` }, `Play ${SIDE_NAME[seated]}`));
  } else if (seated && g.status === 'open') {
    // Both seats taken: the game is the player's, starting once the dice are rolled.
    const label = rollingDice(g) ? `Play ${SIDE_NAME[seated]}` : 'Open';
    actions.push(h('a', { class: 'button', href: `#/game/${g.id}` }, label));
  }
  if (g.status === 'active' || g.status === 'finished') {
    actions.push(h('a', { class: 'button secondary', href: `#/game/${g.id}/observe` }, 'Watch'));
  }
  if (g.status === 'finished') {
    actions.push(h('a', { class: 'button secondary', href: `#/replay/${g.id}` }, 'Step through'));
  }
  if (seated && g.status === 'open' && !rollingDice(g) && g.visibility === 'invite') {
    const box = (link) =>
      inviteBox(h, link, `Invitation link of game ${g.id}`, 'invite-link-saved');
    const known = inviteOf(g.id);
    if (known) actions.push(box(known));
    else {
      // Asked from the server: on another device, or after this browser's storage was cleared.
      const slot = h('span', { class: 'invite-slot' });
      actions.push(slot);
      fetchInvite(g.id).then((link) => {
        if (link) slot.replaceWith(box(link));
      });
    }
  }
  return h(
    'li',
    { class: `game-line${g.your_turn ? ' awaiting-me' : ''}`, 'data-game': g.id },
    bits,
    h('span', { class: 'g-actions' }, actions),
  );
}

// The new-game form: the game (when the server plays more than one), its scenarios and its
// optional rules, and what every game has (side, visibility, chat, rating, clock, stand-in).
function createForm(data, kinds, onCreated) {
  const kindSelect = h(
    'select',
    {},
    kinds.map((k) => h('option', { value: k.game }, gameName(k))),
  );
  const scen = h('select', {});
  const options = h('div', { class: 'game-options' });
  const variantNote = h('p', { class: 'hint variant-note' });
  let boxes = [];
  const kind = () => kinds.find((k) => k.game === kindSelect.value) ?? kinds[0];
  const side = h(
    'select',
    {},
    ['random', 'scotland', 'england'].map((v) =>
      h('option', { value: v }, v === 'random' ? 'Random' : SIDE_NAME[v]),
    ),
  );
  const vis = h(
    'select',
    {},
    h('option', { value: 'public' }, 'Public: listed in open games'),
    h('option', { value: 'invite' }, 'Invite link only'),
  );
  const observerChat = h('input', { type: 'checkbox', id: 'opt-observer-chat' });
  const standIn = h('input', { type: 'checkbox', id: 'opt-stand-in' });
  const standInField = h(
    'div',
    { class: 'field check' },
    standIn,
    h(
      'label',
      { for: 'opt-stand-in' },
      'If my time runs out, the computer may play on for me (if my opponent allows it too)',
    ),
  );
  const rated = h('input', { type: 'checkbox', id: 'opt-rated' });
  const err = h('p', { class: 'error', role: 'alert' });
  const clock = timeControlField();
  // The scenarios and optional rules are the chosen game's; the computer stands in only in a
  // game it plays.
  const showKind = () => {
    const k = kind();
    scen.replaceChildren(
      ...(k.scenarios ?? []).map((id) =>
        h('option', { value: id }, scenarioName(data, k.game, id)),
      ),
    );
    boxes = optionOrder(k.options).map((name) => {
      const box = h('input', { type: 'checkbox', id: `opt-${name.replaceAll('_', '-')}` });
      box.dataset.option = name;
      return box;
    });
    options.replaceChildren(
      ...boxes.map((box) =>
        h(
          'div',
          { class: 'field check' },
          box,
          h('label', { for: box.id }, optionWords(box.dataset.option)),
        ),
      ),
    );
    variantNote.textContent = k.invented_variant
      ? 'Played on a board invented for this site, not the published map.'
      : '';
    variantNote.hidden = !k.invented_variant;
    standInField.hidden = !k.computer;
    if (!k.computer) standIn.checked = false;
  };
  kindSelect.addEventListener('change', showKind);
  showKind();
  return h(
    'form',
    {
      class: 'create',
      'aria-label': 'Create a game',
      onsubmit: async (e) => {
        e.preventDefault();
        err.textContent = '';
        try {
          const chosen = {};
          for (const box of boxes) chosen[box.dataset.option] = box.checked;
          const res = await api.createGame({
            kind: kind().game,
            scenario: scen.value,
            side: side.value,
            visibility: vis.value,
            options: chosen,
            observer_chat: observerChat.checked,
            rated: rated.checked,
            time_control: clock.value(),
            stand_in: standIn.checked,
          });
          onCreated(res);
        } catch (ex) {
          err.textContent = ex.message;
        }
      },
    },
    h('h2', {}, 'Create a game'),
    kinds.length > 1 ? field('create-game', 'Game', kindSelect) : null,
    variantNote,
    field('create-scenario', 'Scenario', scen),
    field('create-side', 'Your side', side),
    field('create-visibility', 'Who may join', vis),
    options,
    h(
      'div',
      { class: 'field check' },
      observerChat,
      h('label', { for: 'opt-observer-chat' }, 'Observers may chat'),
    ),
    h(
      'div',
      { class: 'field check' },
      rated,
      h('label', { for: 'opt-rated' }, 'Rated: the result changes both ratings'),
    ),
    clock.el,
    standInField,
    h('button', { type: 'submit' }, 'Create game'),
    err,
  );
}

// How often the lobby's lists refresh while it is shown (and whenever the tab gets focus).
export const LOBBY_REFRESH_MS = 10000;

// Pure: my games with those awaiting me first (the server sorts them so too), the rest in
// the server's order.
export function awaitingFirst(games) {
  return [...games.filter((g) => g.your_turn), ...games.filter((g) => !g.your_turn)];
}

// Renders the lobby; returns a function that stops its refreshing.
export async function renderLobby(root, { me, setMe, go, refreshMs = LOBBY_REFRESH_MS }) {
  const data = await loadGameData();
  clear(root);
  const notice = h('div', { class: 'lobby-notice', role: 'status', 'aria-live': 'polite' });
  root.append(
    h('h1', { class: 'lobby-title' }, 'Lobby'),
    h(
      'p',
      { class: 'help-link' },
      h('a', { href: '#/help' }, 'How to play here'),
      ' · ',
      h('a', { href: '#/ratings' }, 'Ratings'),
    ),
    notice,
  );
  const join = async (g) => {
    try {
      // Joining allows the stand-in as the creator did (the game line says so).
      await api.join(g.id, undefined, standInOffered(g));
      go(`#/game/${g.id}`);
    } catch (ex) {
      notice.textContent = ex.message;
    }
  };
  // A list is redrawn only when its games changed, so that focus and scrolling stay put.
  const shown = new Map();
  const fill = (list, key, games, line, empty) => {
    const text = JSON.stringify(games);
    if (shown.get(key) === text) return;
    shown.set(key, text);
    clear(list);
    if (!games.length) list.append(h('li', { class: 'empty' }, empty));
    for (const g of games) list.append(line(g));
  };
  let refreshMine = async () => {};
  if (!me) {
    root.append(
      h('div', { class: 'auth-forms' }, authForm('login', setMe), authForm('signup', setMe)),
    );
  } else {
    let kinds = kindsOf(null, Object.keys(data.scenario));
    try {
      kinds = kindsOf(await api.scenarios(), Object.keys(data.scenario));
    } catch {
      /* the published list will do */
    }
    // The computer's form offers the games it plays.
    const computerKinds = kinds.filter((k) => k.computer);
    const mine = h('ul', { class: 'games mine', 'aria-label': 'My games' });
    root.append(
      h(
        'div',
        { class: 'lobby-cols' },
        h('section', { class: 'panel' }, h('h2', {}, 'My games'), mine),
        h(
          'section',
          { class: 'panel' },
          createForm(data, kinds, (res) => {
            if (res.invite) {
              const link = inviteLink(res.invite);
              rememberInvite(res.game.id, link);
              notice.replaceChildren(
                h(
                  'p',
                  {},
                  `Game ${res.game.id} created. Send this invitation ` +
                    'link to your opponent (it stays under My games until the game starts): ',
                  inviteBox(h, link),
                ),
              );
            } else {
              notice.textContent = `Game ${res.game.id} created; it starts when somebody joins.`;
            }
            refresh();
          }),
        ),
        computerKinds.length
          ? h('section', { class: 'panel' }, computerForm(data, computerKinds, go))
          : null,
      ),
    );
    refreshMine = async () => {
      try {
        const { games } = await api.myGames();
        games.forEach((g) => setAwaiting(g.id, !!g.your_turn));
        rollWhereDue(games);
        fill(mine, 'mine', awaitingFirst(games), (g) => gameLine(g, data, me), 'No games yet.');
      } catch (ex) {
        shown.delete('mine');
        mine.replaceChildren(h('li', { class: 'error' }, ex.message));
      }
    };
  }
  const open = h('ul', { class: 'games open', 'aria-label': 'Open games' });
  const live = h('ul', { class: 'games live', 'aria-label': 'Games to watch' });
  root.append(
    h('section', { class: 'panel' }, h('h2', {}, 'Open games'), open),
    h('section', { class: 'panel' }, h('h2', {}, 'Games to watch'), live),
  );
  const refreshLive = async () => {
    try {
      const { games } = await api.liveGames();
      fill(live, 'live', games, (g) => gameLine(g, data, me), 'No games under way.');
    } catch (ex) {
      shown.delete('live');
      live.replaceChildren(h('li', { class: 'error' }, ex.message));
    }
  };
  const refreshOpen = async () => {
    try {
      const { games } = await api.openGames();
      fill(
        open,
        'open',
        games,
        (g) => {
          const mineSeat =
            me && (g.players?.scotland === me.username || g.players?.england === me.username);
          return gameLine({ ...g, your_role: mineSeat ? 'x' : null }, data, me, { onJoin: join });
        },
        'No open games.',
      );
    } catch (ex) {
      shown.delete('open');
      open.replaceChildren(h('li', { class: 'error' }, ex.message));
    }
  };
  let busy = false;
  let refreshes = 0;
  const refresh = async () => {
    if (busy) return;
    busy = true;
    try {
      await Promise.all([refreshMine(), refreshOpen(), refreshLive()]);
    } finally {
      busy = false;
      root.dataset.refreshes = String(++refreshes); // lets tests wait for a refresh
    }
  };
  await refresh();
  // Live without a reload: periodically while visible, and at once when the tab comes back.
  const timer = setInterval(() => {
    if (document.visibilityState !== 'hidden') refresh();
  }, refreshMs);
  const onFocus = () => refresh();
  const onVisible = () => {
    if (document.visibilityState === 'visible') refresh();
  };
  window.addEventListener('focus', onFocus);
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    clearInterval(timer);
    window.removeEventListener('focus', onFocus);
    document.removeEventListener('visibilitychange', onVisible);
  };
}

export async function renderInvite(root, { me, setMe, token, go }) {
  clear(root);
  const notice = h('p', { role: 'status' });
  root.append(h('h1', {}, 'Invitation'), notice);
  try {
    const [{ game }, data] = await Promise.all([api.invite(token), loadGameData()]);
    notice.textContent =
      `Game ${game.id}: ${data.scenario[game.scenario]?.name ?? game.scenario}, ` +
      `created by ${game.created_by}.`;
    if (!me) {
      // Signing up or logging in here comes back to this invitation.
      root.append(
        h('p', {}, 'Log in or sign up to join this game.'),
        h('div', { class: 'auth-forms' }, authForm('login', setMe), authForm('signup', setMe)),
      );
      return;
    }
    root.append(
      h(
        'button',
        {
          class: 'join-invite',
          onclick: async () => {
            try {
              await api.join(game.id, token);
              go(`#/game/${game.id}`);
            } catch (ex) {
              notice.textContent = ex.message;
            }
          },
        },
        `Join game ${game.id}`,
      ),
    );
  } catch (ex) {
    notice.textContent = ex.message;
  }
}
