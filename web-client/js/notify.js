// Turn alerts in the browser (docs/protocol.md, "Turn notices"): the tab title counts the games
// awaiting me ("(2) Your turn"), and, only if the player asked for them, a desktop notification
// (Notification API, permission asked from a button, never on load) and a short sound when a
// game starts awaiting me while the tab is in the background. Preferences stay in this browser.

const awaiting = new Set();
let baseTitle = null;
const PREFS = { desktop: 'blockfog.notify.desktop', sound: 'blockfog.notify.sound' };

// Pure: the tab title for `n` games awaiting me.
export function titleFor(n, base) {
  return n > 0 ? `(${n}) Your turn · ${base}` : base;
}

function pref(name) {
  try {
    return localStorage.getItem(PREFS[name]) === '1';
  } catch {
    return false;
  }
}

export function setPref(name, on) {
  try {
    localStorage.setItem(PREFS[name], on ? '1' : '0');
  } catch {
    // Private mode: the preference lasts for this page only.
  }
}

export function prefs() {
  return { desktop: pref('desktop'), sound: pref('sound') };
}

function renderTitle() {
  if (baseTitle === null) baseTitle = document.title;
  document.title = titleFor(awaiting.size, baseTitle);
}

function beep() {
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.value = 0.08;
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.18);
    osc.onended = () => ctx.close();
  } catch {
    // No audio: the title still says it.
  }
}

function alertPlayer(gameId, text) {
  if (!document.hidden) return;
  if (
    pref('desktop') &&
    typeof Notification !== 'undefined' &&
    Notification.permission === 'granted'
  ) {
    const n = new Notification('Your turn', {
      body: text || `Game ${gameId}`,
      tag: `blockfog-${gameId}`,
    });
    n.onclick = () => {
      window.focus();
      location.hash = `#/game/${gameId}`;
      n.close();
    };
  }
  if (pref('sound')) beep();
}

// Game `gameId` awaits me (true) or not; `text` says what for ("Scotland: winter").
export function setAwaiting(gameId, isAwaiting, text = '') {
  const was = awaiting.has(gameId);
  if (isAwaiting) awaiting.add(gameId);
  else awaiting.delete(gameId);
  renderTitle();
  if (isAwaiting && !was) alertPlayer(gameId, text);
}

// Whether desktop notifications can be asked for here, and how they stand.
export function desktopState() {
  if (typeof Notification === 'undefined') return 'unsupported';
  return Notification.permission; // 'default', 'granted' or 'denied'
}

// Asks the browser for permission (from a click only) and turns them on when given.
export async function enableDesktop() {
  if (typeof Notification === 'undefined') return 'unsupported';
  const answer = await Notification.requestPermission();
  setPref('desktop', answer === 'granted');
  return answer;
}
