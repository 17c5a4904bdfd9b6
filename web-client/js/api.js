// The HTTP API of docs/protocol.md. Every call resolves to the JSON body or throws an ApiError
// carrying the server's error code.
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
  }
}

// A game-scoped request that meets its game between two server nodes is refused with 503
// `game_moving` before anything is done (docs/protocol.md), so asking again is safe: wait as long
// as the server's Retry-After says (whole seconds; at most kMoveWaitCapMs), up to
// kMoveRetries times, then let the caller show the error.
export const kMoveRetries = 3;
const kMoveWaitCapMs = 10000;

export function moveWaitMs(retryAfter) {
  const seconds = Number.parseInt(retryAfter ?? '', 10);
  return Math.min(Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 1000, kMoveWaitCapMs);
}

// How the waits are taken: replaced by the unit tests.
export const timing = { sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };

// Resolves to the JSON body, or throws an ApiError with the server's error code.
export async function call(method, path, body) {
  const init = { method, credentials: 'same-origin', headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  for (let attempt = 0; ; ++attempt) {
    const res = await fetch(path, init);
    // A body that is not JSON (a proxy's error page, an empty 204) reads as null.
    const json = await res.json().catch(() => null);
    if (res.ok) return json;
    const err = json && json.error ? json.error : {};
    if (res.status === 503 && err.code === 'game_moving' && attempt < kMoveRetries) {
      await timing.sleep(moveWaitMs(res.headers.get('Retry-After')));
      continue;
    }
    throw new ApiError(res.status, err.code, err.message);
  }
}

export const api = {
  me: () => call('GET', '/api/me'),
  register: (username, password) => call('POST', '/api/register', { username, password }),
  login: (username, password) => call('POST', '/api/login', { username, password }),
  logout: () => call('POST', '/api/logout'),
  scenarios: () => call('GET', '/api/scenarios'),
  tournaments: () => call('GET', '/api/tournaments'),
  tournament: (id) => call('GET', `/api/tournaments/${id}`),
  createTournament: (body) => call('POST', '/api/tournaments', body),
  tournamentAction: (id, action, body) => call('POST', `/api/tournaments/${id}/${action}`, body),
  openGames: () => call('GET', '/api/games'),
  myGames: () => call('GET', '/api/games/mine'),
  liveGames: () => call('GET', '/api/games/live'),
  game: (id) => call('GET', `/api/games/${id}`),
  createGame: (req) => call('POST', '/api/games', req),
  join: (id, invite, standIn) =>
    call('POST', `/api/games/${id}/join`, {
      ...(invite ? { invite } : {}),
      ...(standIn ? { stand_in: true } : {}),
    }),
  // One step of this seat's dice exchange (game/dice.js): {commitment} or {contribution}.
  dice: (id, step) => call('POST', `/api/games/${id}/dice`, step),
  invite: (token) => call('GET', `/api/invites/${encodeURIComponent(token)}`),
  // An invite game's link token, for its creator and players (404 for anybody else).
  gameInvite: (id) => call('GET', `/api/games/${id}/invite`),
  record: (id) => call('GET', `/api/games/${id}/record`),
  // The caller's own seat's private notes on a game (panels/notes.js).
  notes: (id) => call('GET', `/api/games/${id}/notes`),
  saveNotes: (id, text) => call('PUT', `/api/games/${id}/notes`, { text }),
  // Ratings (ratings.js).
  ratings: (game = 'hots') =>
    call('GET', `/api/ratings?limit=100&game=${encodeURIComponent(game)}`),
  playerRatings: (name) => call('GET', `/api/players/${encodeURIComponent(name)}/ratings`),
  // A finished game's view after action `seq` for `role`; for a tournament's organiser, also
  // one under way (see replay.js).
  replayView: (id, seq, role) =>
    call('GET', `/api/games/${id}/replay/${seq}?role=${encodeURIComponent(role)}`),
  // Turn notices (settings.js).
  notices: () => call('GET', '/api/notices'),
  saveNotices: (req) => call('POST', '/api/notices', req),
  setNoticeEmail: (email) => call('POST', '/api/notices/email', { email }),
  // Vacations (lobby_play.js).
  vacation: () => call('GET', '/api/me/vacation'),
  takeVacation: (days) => call('POST', '/api/me/vacation', { days }),
};
