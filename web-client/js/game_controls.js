// The game page's resign, cancel and rematch controls (docs/protocol.md, "Time controls,
// resignation, rematches, vacations"), and its clocks (clock_view.js). Told of the server's
// game_ended, clocks and rematch messages by game.js.
import { h, clear } from './dom.js';
import { mountClocks } from './clock_view.js';
import { resultText } from './wording.js';
import { call } from './api.js';

// A button that asks before it acts: [label] opens "question [yes] [no]".
// `asking` holds the act whose question is open: the question stays open, and keeps focus, when
// the controls are drawn again (the server's welcome or a rematch message may come meanwhile).
function confirmed({ act, label, question, yes, no, onYes }, asking) {
  const ask = h(
    'span',
    { class: `confirm-${act}`, hidden: asking.act !== act },
    question,
    h(
      'button',
      { type: 'button', class: 'danger', 'data-act': `confirm-${act}`, onclick: onYes },
      yes,
    ),
    h(
      'button',
      {
        type: 'button',
        'data-act': `keep-${act}`,
        onclick: () => {
          asking.act = null;
          ask.hidden = true;
          open.focus();
        },
      },
      no,
    ),
  );
  const open = h(
    'button',
    {
      type: 'button',
      'data-act': act,
      onclick: () => {
        asking.act = act;
        ask.hidden = false;
        ask.querySelector('button').focus();
      },
    },
    label,
  );
  return [open, ask];
}

// Mounts the controls in `holder` for the game `details` (a Game object) seen by `me` (the
// account name, or null); `onStatus(status)` hears the game's status change by this page's own
// resignation or cancel. Returns { onMessage(msg), stop() }.
export function mountGameControls(holder, { gameId, details, me, onStatus = () => {} }) {
  const box = h('section', { class: 'panel game-controls', 'aria-label': 'Game controls' });
  const note = h('p', { class: 'controls-note', role: 'status', 'aria-live': 'polite' });
  holder.append(box);
  const clocks = mountClocks(holder);
  clocks.update(details.clocks);
  const st = {
    status: details.status,
    result: details.result || null,
    yourRole: details.your_role,
    creator: details.created_by === me,
    rematch: null,
    asking: { act: null },
  };
  const run = async (path, done) => {
    try {
      const body = await call('POST', `/api/games/${gameId}${path}`, {});
      done(body);
    } catch (ex) {
      note.textContent = ex.message;
    }
    draw();
  };
  const draw = () => {
    const parts = [];
    // Resigning and cancelling cannot be undone: each asks first.
    if (st.status === 'active' && st.yourRole) {
      parts.push(
        ...confirmed(
          {
            act: 'resign',
            label: 'Resign…',
            question: 'Resign this game? ',
            yes: 'Yes, resign',
            no: 'Keep playing',
            onYes: () =>
              run('/resign', (b) => {
                st.status = b.game.status;
                st.result = b.game.result;
                onStatus(st.status);
              }),
          },
          st.asking,
        ),
      );
    }
    if (st.status === 'open' && st.creator) {
      parts.push(
        ...confirmed(
          {
            act: 'cancel',
            label: 'Cancel game…',
            question: 'Cancel this game? Nobody can join it after. ',
            yes: 'Yes, cancel it',
            no: 'Keep it open',
            onYes: () =>
              run('/cancel', (b) => {
                st.status = b.game.status;
                onStatus(st.status);
              }),
          },
          st.asking,
        ),
      );
    }
    if (st.status === 'finished' || st.status === 'aborted') {
      parts.push(
        h('p', { class: 'game-result' }, resultText(st.status === 'aborted' ? null : st.result)),
      );
    }
    if (st.status === 'finished' && st.yourRole) {
      const r = st.rematch;
      if (!r) {
        parts.push(
          h(
            'button',
            {
              type: 'button',
              'data-act': 'rematch',
              onclick: () =>
                run('/rematch/offer', (b) => {
                  st.rematch = b.rematch;
                }),
            },
            'Rematch',
          ),
        );
      } else if (r.state === 'offered' && r.offered_by !== me) {
        parts.push(
          h('p', {}, `${r.offered_by} offers a rematch with sides swapped.`),
          h(
            'button',
            {
              type: 'button',
              'data-act': 'accept',
              onclick: () =>
                run('/rematch/accept', (b) => {
                  st.rematch = b.rematch;
                }),
            },
            'Accept',
          ),
          h(
            'button',
            {
              type: 'button',
              'data-act': 'decline',
              onclick: () =>
                run('/rematch/decline', (b) => {
                  st.rematch = b.rematch;
                }),
            },
            'Decline',
          ),
        );
      } else if (r.state === 'offered') {
        parts.push(h('p', {}, 'Rematch offered; waiting for your opponent.'));
      } else if (r.state === 'accepted') {
        parts.push(
          h(
            'a',
            { class: 'button', href: `#/game/${r.game_id}`, 'data-act': 'open-rematch' },
            'Open the rematch',
          ),
        );
      } else {
        parts.push(h('p', {}, 'The rematch was declined.'));
      }
    }
    // Focus stays on the same control across a redraw (a keyboard user loses no place).
    const focused = box.contains(document.activeElement)
      ? document.activeElement.dataset.act
      : null;
    clear(box).append(...parts, note);
    if (focused) box.querySelector(`[data-act="${focused}"]`)?.focus();
    box.hidden = parts.length === 0 && !note.textContent;
  };
  draw();
  return {
    onMessage(msg) {
      if (msg.type === 'game_ended') {
        st.status = msg.status;
        st.result = msg.result;
        clocks.update(null);
      } else if (msg.type === 'clocks') {
        clocks.update(msg.clocks);
        return;
      } else if (msg.type === 'rematch') {
        st.rematch = msg;
      } else if (msg.type === 'welcome') {
        st.status = msg.status;
      } else {
        return;
      }
      draw();
    },
    stop() {
      clocks.stop();
    },
  };
}
