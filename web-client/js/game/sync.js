// The page's side of the protocol (docs/protocol.md): whole views, view patches (a patch that
// does not apply asks for one sync), the answer to our own action, chat lines and errors.
import { applyViewPatch, mergeLog } from '../view_patch.js';
import { setAwaiting } from '../notify.js';

// `render` draws the page from `st`; `renderSoon` asks for one drawing before the next display
// frame (game.js), which is how a frame's view is drawn: frames that come faster than the map
// can be drawn are all taken, and drawn once.
export function createSync(st, { gameId, conn, renderSoon, renderHead, say, onChat }) {
  // The view a `view` frame gives, or null if it is older than ours.
  function wholeView(msg) {
    // seq is this seat's view version: it only moves when what this seat sees changed.
    if (st.view && msg.seq < st.seq) return null;
    st.syncing = false;
    const view = msg.view;
    // A pushed view holds only the log lines from log_from on: keep ours before it.
    if (msg.log_from > 0 && st.view) view.log = mergeLog(st.view.log, msg.log_from, view.log);
    return view;
  }

  // The view a `view_patch` frame makes of ours, or null if it does not apply to ours: then
  // one sync, whose whole view also supersedes the patches that arrive before it.
  function patchedView(msg) {
    const view = st.syncing ? null : applyViewPatch(st.view, st.seq, msg);
    if (!view && !st.syncing) st.syncing = conn().send({ type: 'sync', chat_since: st.chatMax });
    return view;
  }

  function onMessage(msg) {
    if (msg.type === 'welcome') {
      st.welcome = msg;
      st.welcomes += 1;
      st.role = msg.role;
    } else if (msg.type === 'view' || msg.type === 'view_patch') {
      const view = msg.type === 'view' ? wholeView(msg) : patchedView(msg);
      if (!view) return;
      const answer = msg.ref !== undefined && msg.ref === st.ref;
      st.view = view;
      st.seq = msg.seq;
      st.views += 1;
      // A whole view (joining, sync) answers whatever was pending; a patch only our own action.
      if (answer || (msg.type === 'view' && msg.log_from === 0)) st.pending = false;
      st.choice = null;
      // The tab's title and the optional alert: only while this seat is awaited (notify.js).
      setAwaiting(
        gameId,
        st.role !== 'observer' && !view.outcome && (view.awaiting || []).includes(st.role),
        view.phase_text,
      );
      // A stale action is answered by the fresh view: choose again, no dialog.
      say(answer && msg.stale ? 'The game had moved on; here is the current position.' : '');
    } else if (msg.type === 'chat') {
      if (msg.id <= st.chatMax) return;
      st.chatMax = msg.id;
      onChat(msg);
      return;
    } else if (msg.type === 'error') {
      st.pending = false;
      st.views += 1;
      say(msg.message || msg.code);
    } else return;
    renderSoon();
  }

  function onStatus(s) {
    st.conn = s;
    if (s !== 'open') st.pending = false;
    renderHead();
  }

  return { onMessage, onStatus, chatSince: () => st.chatMax };
}
