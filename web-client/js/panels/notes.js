// The seat's private notepad for this game (docs/protocol.md, "Private notes"): shown only to
// a player of the game (the server answers anybody else's GET with an error, and the panel
// stays hidden), saved after a pause in typing and when the text loses focus.
import { h } from '../dom.js';
import { api } from '../api.js';

const SAVE_AFTER_MS = 1200;
const MAX_BYTES = 10000; // protocol::kMaxNotesBytes

const bytesOf = (text) => new TextEncoder().encode(text).length;

export function createNotes(gameId, { loggedIn }) {
  const area = h('textarea', {
    id: 'notes-text',
    rows: 5,
    spellcheck: 'true',
    placeholder: 'Plans, reminders, what the enemy did…',
  });
  const state = h('p', { class: 'notes-state', role: 'status', 'aria-live': 'polite' });
  const el = h(
    'section',
    { class: 'panel notesp', 'aria-label': 'Notes', hidden: true },
    h('h2', {}, 'Notes'),
    h('label', { for: 'notes-text', class: 'notes-hint' }, 'Private: nobody else sees them.'),
    area,
    state,
  );
  let saved = ''; // the text as the server last stored it
  let timer = null;
  let queue = Promise.resolve(); // saves run one after another, in order
  const say = (text, problem = false) => {
    state.textContent = text;
    state.classList.toggle('problem', problem);
  };

  async function save() {
    const text = area.value;
    if (text === saved) {
      if (state.textContent) say('Saved'); // typed, then undone: nothing to store
      return;
    }
    const size = bytesOf(text);
    if (size > MAX_BYTES) {
      say(`Not saved: ${size} bytes, at most ${MAX_BYTES}.`, true);
      return;
    }
    say('Saving…');
    try {
      saved = (await api.saveNotes(gameId, text)).text;
      if (area.value === saved) say('Saved');
    } catch (ex) {
      say(`Not saved: ${ex.message}`, true);
    }
  }
  const saveNow = () => {
    clearTimeout(timer);
    timer = null;
    queue = queue.then(save);
    return queue;
  };
  area.addEventListener('input', () => {
    const over = bytesOf(area.value) > MAX_BYTES;
    say(over ? `Too long: at most ${MAX_BYTES} bytes.` : 'Editing…', over);
    clearTimeout(timer);
    timer = setTimeout(saveNow, SAVE_AFTER_MS);
  });
  area.addEventListener('blur', saveNow);

  if (loggedIn) {
    api
      .notes(gameId)
      .then((notes) => {
        saved = notes.text;
        area.value = notes.text;
        el.hidden = false;
      })
      .catch(() => {}); // not a player of this game: no notepad
  }
  return {
    el,
    // Leaving the page: what was typed since the last save is saved.
    stop() {
      if (timer) saveNow();
    },
  };
}
