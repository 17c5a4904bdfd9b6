// The current battle: attackers, defenders and reserves, revealed blocks with their strength
// (clickable when they have actions), the dice rolled and the hits, from this seat's log.
import { h, clear } from '../dom.js';
import { battleStepText, plural, entryText } from '../wording.js';
import { SIDE_NAME, typeAbbrev } from '../board.js';

// Splits "Wallace fires: 6,3,1 - 2 hits." into its dice and hits.
export function parseFire(text) {
  const m = /^(.*) fires: ([\d, ]+?) - (\d+) hits?\./.exec(text);
  if (!m) return null;
  return {
    who: m[1],
    dice: m[2]
      .trim()
      .split(/[,\s]+/)
      .map(Number),
    hits: Number(m[3]),
  };
}

function battleLines(view) {
  const lines = view.log || [];
  let start = 0;
  lines.forEach((l, k) => {
    if (l.text.startsWith('Battle in ')) start = k;
  });
  return lines.slice(start).slice(-14);
}

export function renderBattle(el, view, ctx) {
  const { data, cls, select, selected } = ctx;
  clear(el);
  const b = view.battle;
  el.hidden = !b;
  if (!b) return;
  const area = view.areas.find((a) => a.id === b.area) || {};
  el.append(
    h('h2', {}, `Battle in ${data.area[b.area]?.name ?? b.area}`),
    // Once won, the step of the last round is over: the head says who won (and, in the
    // attacker's retreat after the third round, who must retreat: RULES 5.11.3).
    h(
      'p',
      { class: 'battle-head' },
      `Round ${b.round}: ` +
        (b.victor
          ? `won by ${SIDE_NAME[b.victor]}` +
            (view.phase === 'mandatory_retreat'
              ? `; ${SIDE_NAME[b.attacker]} retreats every block`
              : '')
          : battleStepText(b.step, b.attacker, b.defender) +
            (b.hits_to_allocate ? ` · ${plural(b.hits_to_allocate, 'hit')} to allocate` : '')),
    ),
  );
  const side = (s) => {
    const role = s === b.attacker ? 'Attacker' : 'Defender';
    const revealed = b.revealed?.[s] || [];
    const reserves = area[s]?.reserves || [];
    const list = h('ul', { class: 'battle-blocks' });
    for (const r of revealed) {
      const d = data.block[r.block] || {};
      const acts = cls.blocks.get(r.block) || [];
      const label = `${d.name}, ${d.combat}, strength ${r.strength}`;
      const body = [
        h('span', { class: 'bb-strength' }, String(r.strength)),
        h('span', { class: 'bb-name' }, d.name ?? r.block),
        h('span', { class: 'bb-meta' }, `${d.combat ?? ''} ${typeAbbrev(d.type)}`),
      ];
      list.append(
        h(
          'li',
          {},
          acts.length
            ? h(
                'button',
                {
                  class: `bblock ${s}${selected === r.block ? ' selected' : ''}`,
                  'data-block': r.block,
                  'aria-label': `${label}: choose`,
                  onclick: () => select(r.block),
                },
                body,
              )
            : h('span', { class: `bblock ${s}` }, body),
        ),
      );
    }
    if (reserves.length) {
      list.append(
        h(
          'li',
          { class: 'reserves' },
          `${reserves.length} in reserve (` +
            reserves.map((r) => entryText(r, data)).join(', ') +
            ')',
        ),
      );
    }
    const leaving = b.leaving?.[s];
    if (leaving) list.append(h('li', { class: 'leaving' }, `${leaving} retreating`));
    return h('div', { class: `battle-side ${s}` }, h('h3', {}, `${role}: ${SIDE_NAME[s]}`), list);
  };
  el.append(h('div', { class: 'battle-sides' }, side(b.attacker), side(b.defender)));
  const rolls = h('ol', { class: 'battle-log', 'aria-label': 'Dice and hits' });
  for (const line of battleLines(view)) {
    const f = parseFire(line.text);
    if (f) {
      rolls.append(
        h(
          'li',
          { class: 'fire' },
          `${f.who} fires: `,
          f.dice.map((d) => h('span', { class: 'die', 'aria-label': `die ${d}` }, String(d))),
          h('strong', {}, ` ${plural(f.hits, 'hit')}`),
        ),
      );
    } else rolls.append(h('li', {}, line.text));
  }
  el.append(rolls);
}
