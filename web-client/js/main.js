// Start-up and the hash router: #/ lobby, #/game/7, #/game/7/observe, #/replay/7,
// #/invite/TOKEN, #/tournaments, #/tournament/7, #/help, #/settings, #/ratings, #/players/NAME.
// The account comes from GET /api/me (the session cookie is HttpOnly).
import { h, clear } from './dom.js';
import { api } from './api.js';
import { renderLobby, renderInvite } from './lobby.js';
import { openGame } from './game.js';
import { openReplay } from './replay.js';
import { parseRoute } from './route.js';
import { renderHelp } from './help.js';
import { openSettings } from './settings.js';
import { renderTournaments, openTournament } from './tournaments.js';
import { renderLeaderboard, renderPlayerRatings } from './ratings.js';
import { nextGameLink } from './next_game.js';

const app = document.getElementById('app');
const account = document.getElementById('account');
let me = null;
let closePage = () => {};
let nextGame = null;

// The game on screen, if any: the "Your turn" link points past it.
function gameOnScreen() {
  const r = parseRoute(location.hash);
  return r.page === 'game' ? r.id : null;
}

// Tests may ask for a faster lobby refresh with ?lobby_refresh_ms=N.
function lobbyRefreshMs() {
  const n = Number(new URLSearchParams(location.search).get('lobby_refresh_ms'));
  return n >= 200 ? n : undefined;
}

function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function renderAccount() {
  clear(account);
  nextGame?.stop();
  nextGame = null;
  if (!me) return;
  nextGame = nextGameLink(gameOnScreen, lobbyRefreshMs());
  account.append(
    nextGame.el,
    h('span', { class: 'who' }, `Logged in as `, h('strong', {}, me.username)),
    h('a', { class: 'tournaments-link', href: '#/tournaments' }, 'Tournaments'),
    h('a', { class: 'settings-link', href: '#/settings' }, 'Settings'),
    h(
      'button',
      {
        class: 'logout',
        onclick: async () => {
          try {
            await api.logout();
          } finally {
            me = null;
            renderAccount();
            go('#/');
          }
        },
      },
      'Log out',
    ),
  );
}

function setMe(account) {
  me = account;
  renderAccount();
  route();
}

let routeToken = 0;

async function route() {
  closePage();
  closePage = () => {};
  const mine = ++routeToken;
  const r = parseRoute(location.hash);
  nextGame?.refresh();
  document.body.dataset.page = r.page;
  let close = null;
  try {
    if (r.page === 'game') close = await openGame(app, { gameId: r.id, observe: r.observe, me });
    else if (r.page === 'replay') close = await openReplay(app, { gameId: r.id });
    else if (r.page === 'invite') await renderInvite(app, { me, setMe, token: r.token, go });
    else if (r.page === 'tournaments') await renderTournaments(app, { me, go });
    else if (r.page === 'tournament') close = await openTournament(app, { id: r.id, me });
    else if (r.page === 'help') renderHelp(app);
    else if (r.page === 'settings') close = await openSettings(app, { me });
    else if (r.page === 'ratings') await renderLeaderboard(app);
    else if (r.page === 'player') await renderPlayerRatings(app, r.name);
    else close = await renderLobby(app, { me, setMe, go, refreshMs: lobbyRefreshMs() });
  } catch (ex) {
    clear(app).append(
      h('p', { class: 'error', role: 'alert' }, `Something went wrong: ${ex.message}`),
    );
  }
  // A page that finished opening after the route moved on is closed at once.
  if (mine === routeToken) closePage = close || (() => {});
  else close?.();
}

async function start() {
  try {
    me = (await api.me()).account;
  } catch {
    me = null;
  }
  renderAccount();
  window.addEventListener('hashchange', route);
  route();
}

start();
