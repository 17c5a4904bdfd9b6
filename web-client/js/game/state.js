// The game page's state: the seat's latest view and what the player has chosen but not sent.
// Every module of the page reads and writes this one object; render() draws it.
export function createState() {
  return {
    view: null, // the seat's latest view (engine's Game::view, patched)
    ended: false, // the game has ended (game_ended or welcome said finished)
    status: null, // the game's status: open, active, finished or aborted
    result: null, // the server's {winner, reason} once the game has ended
    revealed: null, // once the game has ended: both seats' final views merged (reveal.js)
    seq: 0, // its version
    role: 'observer',
    welcome: null,
    welcomes: 0, // how many welcomes were taken: one per (re)connection and seating
    conn: 'connecting',
    ref: null, // the ref of the action awaiting its answer
    refs: 0,
    pending: false, // an action is sent and not yet answered
    lastArea: null, // where the last action sent went (a move's destination)
    selected: null, // the block chosen on the map or in the battle panel
    choice: null, // several actions for one click: the player picks one
    highlight: null, // {areas, blocks} named by the log line pointed at
    chatMax: 0,
    views: 0,
    syncing: false,
  };
}
