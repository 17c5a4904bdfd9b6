// The header's "Your turn" link: how many of the player's games await him, and a link to the
// next one, as a player of several games by correspondence wants it from every page. It shows
// only what "my games" shows (which games await their player is public, RULES 13.1.4).
import { h } from './dom.js';
import { api } from './api.js';
import { rollWhereDue } from './game/dice.js';

const REFRESH_MS = 30000;

// The link element, kept up to date until stop(); `currentGame()` is the game on screen, which
// the link skips while another awaits.
export function nextGameLink(currentGame, refreshMs = REFRESH_MS) {
  const count = h('span', { class: 'next-game-count' });
  // On a phone's game page the link gives way to the map, as the account's name does
  // (style.css); every other page shows it.
  const link = h('a', { class: 'next-game', href: '#/', hidden: true }, 'Your turn ', count);
  let timer = null;
  let stopped = false;

  async function refresh() {
    let games;
    try {
      games = (await api.myGames()).games ?? [];
    } catch {
      return; // keep what it showed: a failed refresh says nothing new
    }
    if (stopped) return;
    rollWhereDue(games);
    const awaiting = games.filter((g) => g.your_turn);
    const here = currentGame();
    const next = awaiting.find((g) => g.id !== here) ?? awaiting[0];
    link.hidden = awaiting.length === 0;
    count.textContent = String(awaiting.length);
    link.href = next ? `#/game/${next.id}` : '#/';
    const said =
      awaiting.length === 1
        ? 'Your turn in 1 game: open it'
        : `Your turn in ${awaiting.length} games: open the next`;
    // The visible words stay the link's name (WCAG 2.5.3); the title says more.
    link.title = said;
  }

  function schedule() {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(() => refresh().finally(schedule), refreshMs);
  }

  refresh().finally(schedule);
  return {
    el: link,
    refresh,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}
