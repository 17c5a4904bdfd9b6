// A view_patch frame (docs/protocol.md) turns the view of version seq - 1 into that of version
// seq: the members it sets or unsets, the array elements it replaces, and the new log lines.

// The log after a frame that holds the lines from `logFrom` on: ours before it, then `lines`.
// Ours at or after it are dropped: an undo took them back. A line is an object with its index
// `i` (a seat may read only some lines: Hammer of the Scots), or a string whose index is its
// place (every line is public: Scotland Rising).
export function mergeLog(old, logFrom, lines) {
  return (old || []).filter((l, k) => (l?.i ?? k) < logFrom).concat(lines || []);
}

// The view `msg` makes of `view`, this client's view of version `seq`; null when the patch is
// not for that version or does not fit it (then only a whole view, by `sync`, can repair it).
// `view` is left as it was (the new view shares only what did not change): a version, once
// held, keeps its content.
export function applyViewPatch(view, seq, msg) {
  if (!view || msg.seq !== seq + 1) return null;
  const { set = {}, unset = [], elements = {} } = msg.view_patch || {};
  const { log, ...members } = set;
  const next = { ...view, ...members };
  for (const name of unset) delete next[name];
  for (const [name, pairs] of Object.entries(elements)) {
    if (!Array.isArray(next[name])) return null;
    const list = next[name].slice();
    for (const [i, value] of pairs) {
      if (!Number.isInteger(i) || i < 0 || i >= list.length) return null;
      list[i] = value;
    }
    next[name] = list;
  }
  next.log = mergeLog(view.log, msg.log_from, log);
  if (next.log_size !== undefined && next.log.length !== next.log_size) return null;
  return next;
}
