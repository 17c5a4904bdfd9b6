// The list of one area's blocks, opened from its chip (map_chips.js) over the map: each block the
// seat may see with its name, strength (of its maximum), combat rating, type and move allowance
// (for a noble, its home), and its state; a block that can be chosen is a button that chooses it as
// a tap on the map would, a pinned one a button that says why (RULES 4.7). The other side's blocks
// are only their number and their backs (RULES 13). Up and Down go through the buttons, Escape
// closes it and gives the focus back to the area.
import { h, clear } from '../dom.js';
import { typeAbbrev, homeText } from '../board.js';
import { SIDE_ADJ } from './map_chips.js';
import { plural } from '../wording.js';

function blockRow(b, { actionable, selected, pinned }) {
  const cls = ['pblock', b.side];
  if (b.revealed) cls.push('revealed');
  if (actionable) cls.push('actionable');
  if (selected) cls.push('selected');
  if (pinned) cls.push('pinned');
  if (b.moved) cls.push('moved');
  const states = [
    b.moved && 'moved this turn',
    b.reserve && 'reserve',
    b.revealed && 'revealed in battle',
    pinned && !actionable && pinned,
    selected && 'chosen',
  ].filter(Boolean);
  return [
    cls,
    [
      h('span', { class: `pb-face ${b.side}`, 'aria-hidden': 'true' }, String(b.strength)),
      h(
        'span',
        { class: 'pb-text' },
        h('span', { class: 'pb-name' }, b.name),
        h(
          'span',
          { class: 'pb-meta' },
          `strength ${b.strength}${b.max ? ` of ${b.max}` : ''} · ` +
            `${b.combat} · ${typeAbbrev(b.type)}` +
            `${b.homes?.length ? ` · home ${homeText(b.homes)}` : ''} · move ${b.movement}`,
        ),
        states.length ? h('span', { class: 'pb-state' }, states.join(' · ')) : null,
      ),
    ],
  ];
}

export function createStackPanel({ onBlock, onPinned, onClose }) {
  const title = h('h2', { id: 'stack-panel-title' });
  const list = h('ul', { class: 'pb-list' });
  const el = h(
    'section',
    { class: 'stack-panel', role: 'dialog', 'aria-labelledby': 'stack-panel-title', hidden: true },
    h(
      'div',
      { class: 'pb-head' },
      title,
      h(
        'button',
        {
          type: 'button',
          class: 'pb-close',
          'aria-label': 'Close the list',
          onclick: () => close(true),
        },
        '×',
      ),
    ),
    list,
  );
  let area = null;

  function close(giveBack) {
    if (!area) return;
    const was = area;
    area = null;
    el.hidden = true;
    onClose(was, giveBack);
  }

  // entries: [{own: blockInfo, actionable, selected, pinned}] and [{hidden: side, count}]
  function fill(entries) {
    clear(list);
    if (!entries.length) list.append(h('li', { class: 'pb-none' }, 'No blocks here.'));
    for (const e of entries) {
      if (e.hidden) {
        list.append(
          h(
            'li',
            { class: `pb-hidden ${e.hidden}` },
            h(
              'span',
              { class: 'pb-backs', 'aria-hidden': 'true' },
              Array.from({ length: e.count }, () => h('span', { class: `pb-back ${e.hidden}` })),
            ),
            `${plural(e.count, `${SIDE_ADJ[e.hidden]} block`)}, faces hidden`,
          ),
        );
        continue;
      }
      const [cls, body] = blockRow(e.own, e);
      const act = e.actionable
        ? () => {
            close(false);
            onBlock(e.own.id);
          }
        : e.pinned
          ? () => onPinned(e.pinned)
          : null;
      list.append(
        h(
          'li',
          {},
          act
            ? h(
                'button',
                { type: 'button', class: cls.join(' '), 'data-block': e.own.id, onclick: act },
                body,
              )
            : h('div', { class: cls.join(' '), 'data-block': e.own.id }, body),
        ),
      );
    }
  }

  el.addEventListener('keydown', (e) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close(true);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      const buttons = [...el.querySelectorAll('button')];
      const k = buttons.indexOf(document.activeElement);
      const next =
        buttons[(k + (e.key === 'ArrowDown' ? 1 : -1) + buttons.length) % buttons.length];
      e.preventDefault();
      e.stopPropagation();
      next?.focus();
    } else if (e.key.startsWith('Arrow')) e.stopPropagation(); // not the replay's steps
  });

  return {
    el,
    area: () => area,
    // Opens the list of `name`'s blocks; `focus`: the focus goes to its first choosable block
    // (else its first button).
    open(id, name, entries, focus) {
      area = id;
      title.textContent = `${name}: its blocks`;
      fill(entries);
      el.hidden = false;
      el.dataset.area = id;
      el.scrollIntoView({ block: 'nearest' }); // the map may reach below the screen
      if (focus) (list.querySelector('button.actionable') ?? el.querySelector('button'))?.focus();
    },
    refresh(entries) {
      if (area) fill(entries);
    },
    close,
  };
}
