// Pure helpers on a view's legal_actions: which thing on screen each action belongs to (a
// card, a block, an area, a noble, or a plain button), and how to say it in words.

const PLAIN_LABELS = {
  take_back: 'Take back my card',
  decline: 'Decline the event',
  truce: 'Put the Truce in force',
  stop: 'Stop this block here',
  end_move_phase: 'End move phase',
  finish_retreat: 'Finish the retreat',
  end_regroup: 'End the regroup',
  go_home: 'Moray goes home',
  winter: 'Edward winters in Scotland',
  to_selkirk: 'Move Wallace to Selkirk to heal',
  done: 'Done',
  roll: 'Roll for the Herald',
  crown_bruce: 'Crown Bruce',
  crown_comyn: 'Crown Comyn',
  return_of_the_king: 'Return of the King (Balliol)',
  undo: 'Undo',
  stay: 'Leave Wallace where he is', // Wallace's winter step (RULES 10.8.2)
  disband_edward: 'Disband',
};

const BLOCK_VERBS = {
  move: 'Move',
  fire: 'Fire with',
  pass: 'Pass with',
  retreat: 'Retreat',
  take_hit: 'Take the hit on',
  regroup: 'Regroup',
  raid_victim: 'Give up to the raid:',
  disband: 'Disband',
  add_step: 'Add a step to',
  gain: 'Add the pillaged step to',
  sea_move: 'Sea move',
  victual: 'Victual',
};

const AREA_VERBS = {
  step: 'Step into',
  norse_move: 'Norse sail to',
  choose_battle: 'Fight the battle in',
  pillage: 'Pillage',
  draw: 'Draw a block into',
  home: 'Go home to',
  move_king: 'Move the King to',
};

// The action's single target field that is an area, when it has no block ("step", ...).
const AREA_FIELDS = ['to', 'area'];

export function sameAction(a, b) {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && a[k] === b[k]);
}

function push(map, key, action) {
  if (!map.has(key)) map.set(key, []);
  map.get(key).push(action);
}

// Groups the legal actions by what is clicked to take them.
export function classify(actions) {
  const out = { buttons: [], cards: new Map(), blocks: new Map(), areas: new Map(), nobles: [] };
  for (const a of actions || []) {
    if (a.card) push(out.cards, a.card, a);
    else if (a.block) push(out.blocks, a.block, a);
    else if (a.noble) out.nobles.push(a);
    else if (AREA_FIELDS.some((f) => typeof a[f] === 'string')) {
      push(out.areas, a.to ?? a.area, a);
    } else out.buttons.push(a);
  }
  return out;
}

// The areas a block's actions lead to (move, retreat, regroup, sea_move), each with its action.
export function destinations(blockActions) {
  const map = new Map();
  for (const a of blockActions || []) if (a.to) push(map, a.to, a);
  return map;
}

const nameOf = (data, kind, id) => {
  if (!data || !id) return id;
  if (kind === 'block') return data.block[id]?.name ?? id;
  if (kind === 'area') return data.area[id]?.name ?? id;
  if (kind === 'card') return cardName(data.card[id]) ?? id;
  return id;
};

export function cardName(card) {
  if (!card) return null;
  return card.kind === 'move' ? `Move ${card.value}` : card.name;
}

function title(word) {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

// A sentence for an action, e.g. "Move Wallace to Lothian".
export function describe(a, data) {
  const k = a.kind;
  if (k === 'play_card') return `Play ${nameOf(data, 'card', a.card)}`;
  if (k === 'herald') return `Herald: name ${title(a.noble)}`;
  if (a.block) {
    const verb = BLOCK_VERBS[k] ?? title(k.replace(/_/g, ' '));
    const base = `${verb} ${nameOf(data, 'block', a.block)}`;
    return a.to ? `${base} to ${nameOf(data, 'area', a.to)}` : base;
  }
  const area = a.to ?? a.area;
  if (area) {
    const verb = AREA_VERBS[k] ?? title(k.replace(/_/g, ' '));
    return `${verb} ${nameOf(data, 'area', area)}`;
  }
  return PLAIN_LABELS[k] ?? title(k.replace(/_/g, ' '));
}

// A short label for a button that acts on an already selected block ("Fire", "Pass", ...).
export function shortLabel(a) {
  if (a.kind === 'take_hit') return 'Take hit';
  if (a.kind === 'add_step') return 'Add step';
  if (a.kind === 'raid_victim') return 'Give up';
  return title(a.kind.replace(/_/g, ' '));
}
