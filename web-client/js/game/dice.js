// This seat's part of the dice exchange that makes the game's seed (docs/records.md, "Dice"):
// a random contribution drawn here (crypto.getRandomValues), committed to by its SHA-256, and
// revealed only once the other seat has committed too. The contribution stays in this browser
// (localStorage) until it is revealed: the server never sees it before, so it cannot choose the
// dice with it, and the other player cannot choose his after seeing it.
import { api } from '../api.js';

const other = (role) => (role === 'scotland' ? 'england' : 'scotland');
const storeKey = (gameId, role) => `blockfog-dice-${gameId}-${role}`;

function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function fromHex(text) {
  return new Uint8Array(text.match(/../g).map((pair) => parseInt(pair, 16)));
}

async function commitmentOf(contribution) {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', fromHex(contribution))));
}

// What this browser keeps of a seat's exchange: {contribution}.
function load(gameId, role) {
  try {
    return JSON.parse(localStorage.getItem(storeKey(gameId, role))) ?? null;
  } catch {
    return null;
  }
}

function save(gameId, role, kept) {
  localStorage.setItem(storeKey(gameId, role), JSON.stringify(kept));
}

export function createDice(gameId, { onChange }) {
  let latest = null; // the latest welcome
  let busy = false;
  let again = false; // a welcome came while a step was on its way: look at it after
  let problem = ''; // why this seat cannot take its step, in words

  // The step the dice (as `welcome` tells them) ask of this seat, if any: commit, or reveal.
  async function step() {
    const w = latest;
    const role = w?.role;
    if (busy) {
      again = true;
      return;
    }
    if (!w?.dice || w.status !== 'open' || (role !== 'scotland' && role !== 'england')) return;
    const mine = w.dice[role];
    const theirs = w.dice[other(role)];
    if (!globalThis.crypto?.subtle) {
      problem = 'Rolling the dice needs a secure connection (https): open the game over one.';
      onChange();
      return;
    }
    let kept = load(gameId, role);
    busy = true;
    try {
      // A step the server has already (a welcome older than it) is refused as out of order.
      if (!mine.commitment) {
        if (!kept) {
          kept = { contribution: toHex(crypto.getRandomValues(new Uint8Array(32))) };
          save(gameId, role, kept);
        }
        await api.dice(gameId, { commitment: await commitmentOf(kept.contribution) });
      } else if (!mine.contribution && theirs.commitment) {
        if (!kept || (await commitmentOf(kept.contribution)) !== mine.commitment) {
          problem =
            "This seat's dice were committed in another browser: open the game there to " +
            'start it.';
          return;
        }
        await api.dice(gameId, { contribution: kept.contribution });
      } else {
        return;
      }
      problem = '';
    } catch (e) {
      // A step the server already has (a welcome older than our last step) needs no word.
      if (e.code !== 'dice_out_of_order') problem = e.message;
    } finally {
      busy = false;
      onChange();
      if (again) {
        again = false;
        step();
      }
    }
  }

  return {
    // Each welcome says where the exchange stands.
    onWelcome(welcome) {
      latest = welcome;
      step();
    },
    // The prompt's words while the game waits for its dice, or null when it waits for none.
    text() {
      const w = latest;
      if (!w?.dice || w.status !== 'open' || w.dice.deadline === null) return null;
      const by = new Date(w.dice.deadline).toLocaleString();
      if (problem) return problem;
      if (w.role !== 'scotland' && w.role !== 'england') {
        return 'Both seats are taken: the players are rolling the dice.';
      }
      const opponent = w.players?.[other(w.role)] ?? 'your opponent';
      const mine = w.dice[w.role];
      if (mine.contribution || mine.commitment) {
        return (
          `Rolling the dice: waiting for ${opponent}. The game starts when both have ` +
          `revealed their part, and is cancelled if that is not done by ${by}.`
        );
      }
      return 'Rolling the dice…';
    },
  };
}
