// The step controls of a replay page, whatever the game (replay.js for Hammer of the Scots,
// sr/replay.js for Scotland Rising): first, previous, the step slider, next, last, the arrow
// keys, and the list of the record's actions. `count` is the record's number of actions; the
// step shown is 0 (the set-up) to `count`, the last at first; `show(seq)` draws a step.
import { h } from '../dom.js';

export function createReplaySteps(count, show) {
  let seq = count;
  const slider = h('input', {
    id: 'replay-seq',
    type: 'range',
    min: 0,
    max: count,
    value: count,
    oninput: () => {
      seq = Number(slider.value);
      show(seq);
    },
  });
  const goTo = (s) => {
    seq = Math.max(0, Math.min(count, s));
    slider.value = seq;
    show(seq);
  };
  const go = (d) => goTo(seq + d);
  const buttons = [
    h('button', { onclick: () => go(-count), 'aria-label': 'First position' }, '«'),
    h('button', { onclick: () => go(-1), 'aria-label': 'Previous action' }, '◀'),
    h('label', { for: 'replay-seq', class: 'visually-hidden' }, 'Action number'),
    slider,
    h('button', { onclick: () => go(1), 'aria-label': 'Next action' }, '▶'),
    h('button', { onclick: () => go(count), 'aria-label': 'Last position' }, '»'),
  ];

  // The list of the record's actions, each a button to its step; the step shown is marked.
  const actionList = h('ol', { class: 'record-actions', start: 1 });
  // Fills the list, each action in the words of `textOf(action)`.
  function listActions(actions, textOf) {
    actionList.replaceChildren(
      ...actions.map((a) =>
        h(
          'li',
          { 'data-seq': a.seq },
          h('button', { class: 'linkish', onclick: () => goTo(a.seq) }, textOf(a)),
        ),
      ),
    );
    markCurrent();
  }
  function markCurrent() {
    for (const li of actionList.children)
      li.classList.toggle('current', Number(li.dataset.seq) === seq);
  }

  // The arrow keys step anywhere on `root` but where they have a meaning of their own: a form
  // field (the slider moves itself), and the map, which moves its focus from place to place
  // with them.
  function listen(root) {
    root.addEventListener('keydown', (e) => {
      if (e.target.tagName === 'INPUT' || e.target.closest?.('.map-holder')) return;
      if (e.key === 'ArrowRight') go(1);
      if (e.key === 'ArrowLeft') go(-1);
    });
  }

  return {
    get seq() {
      return seq;
    },
    goTo,
    // The buttons and the slider, in their order, for the page's group of controls.
    buttons,
    actionList,
    listActions,
    markCurrent,
    listen,
  };
}
