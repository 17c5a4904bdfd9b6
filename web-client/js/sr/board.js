// The Scotland Rising board (docs/web-client.md, "The Scotland Rising board"): the map and its
// panels, drawn from the seat's view, and what the player's clicks and keys mean. Only the
// view's legal actions are offered, each sent as the engine lists it (a move's route may be
// the player's own, see path.js). `send(action)` hands an action to the page (or a test);
// `say(text)` puts a line in the page's notice; `afterEnd()`, if given, what the prompt shows under
// the result once the game is over (the game page's links to the replay and the record).
import { h, clear } from '../dom.js';
import { createSrMap } from './map.js';
import {
  classify,
  targetsOf,
  unitList,
  stacks as stacksOf,
  terrainMap,
  isMyTurn,
  describeAction,
  unitLabel,
  unitDescription,
  GENERAL_LABEL,
  SIDE_NAME,
  outcomeText,
  hexSummary,
} from './model.js';
import { extendPath, routeAction } from './path.js';
import { sightLine } from './los.js';
import { distance } from './hex.js';
import { lastAttack, attackAt } from './dice.js';
import { renderStatus, renderDice, renderDetails, renderLog } from './panels.js';
import { srNames } from './wording.js';

const last = (path) => (path?.length ? path[path.length - 1] : null);

// Where a charge or a move-and-attack ends: the hex the player picks among several.
const endOf = (a) => last(a.path);

export function createSrBoard({ send, say = () => {}, afterEnd = null }) {
  const st = {
    view: null,
    role: 'observer',
    pending: false,
    selected: null, // the unit chosen
    route: [], // the move under way (path.js)
    armed: null, // {action, hex}: the action a second click (or Enter) on `hex` sends
    strikeAt: null, // a target hex with several charges (or moves and attacks) to choose from
    info: null, // the hex whose contents the details panel shows
    highlight: null, // hexes named by the log line pointed at
  };
  let m = null; // the model of the last drawing

  const variant = h('p', { class: 'sr-variant-mark' });
  const map = createSrMap({
    note: variant,
    onHex: (hex) => clickHex(hex),
    onEscape: () => reset(),
    onFocusHex: (hex) => {
      st.info = hex;
      if (m) {
        renderDetails(details, hex, m);
        renderPrompt();
      }
    },
  });
  const prompt = h('section', {
    class: 'prompt sr-prompt',
    'aria-label': 'Prompt',
    'aria-live': 'polite',
  });
  const status = h('section', { class: 'panel sr-status', 'aria-label': 'The battle' });
  const dice = h('section', { class: 'panel sr-last-attack', 'aria-label': 'Last attack' });
  const details = h('section', { class: 'panel sr-details', 'aria-label': 'Hex contents' });
  const log = h('section', { class: 'panel logp', 'aria-label': 'Game log' });
  const mapEl = h('div', { class: 'map-holder sr-holder' }, map.el);

  function reset() {
    st.selected = null;
    st.route = [];
    st.armed = null;
    st.strikeAt = null;
    draw();
  }

  function choose(unit) {
    st.selected = unit;
    st.route = [];
    st.armed = null;
    st.strikeAt = null;
  }

  function doSend(action) {
    if (st.pending) return;
    st.pending = true;
    const words = describeAction(action, m.byId);
    choose(null);
    say(`Sent: ${words}`);
    send(action);
    draw();
  }

  function arm(action, hex) {
    st.armed = { action, hex };
  }

  // A click, tap, Enter or Space on a hex (docs/web-client.md: a first click shows what a
  // second one does; a move's route is built hex by hex).
  function clickHex(hex) {
    if (!m) return;
    st.info = hex;
    if (!m.mine) return draw();
    if (st.armed?.hex === hex) return doSend(st.armed.action);
    const stack = m.stacks.get(hex);
    const own = [stack?.unit, stack?.leader].filter((u) => u && m.actionable.has(u.id));
    if (st.selected) {
      const acts = m.cls.byUnit.get(st.selected);
      const unit = m.byId.get(st.selected);
      const strikes = (target) => [
        ...(acts.charges.get(target) || []),
        ...(acts.moveAttacks.get(target) || []),
      ];
      if (st.strikeAt) {
        const pick = strikes(st.strikeAt).filter((a) => endOf(a) === hex);
        if (pick.length) {
          arm(pick[0], hex);
          st.route = [...pick[0].path];
          return draw();
        }
      }
      const attack = acts.attacks.get(hex);
      const several = strikes(hex);
      if (attack || several.length) {
        st.route = [];
        st.strikeAt = several.length > (attack ? 0 : 1) ? hex : null;
        if (attack) arm(attack, hex);
        else if (several.length === 1) {
          arm(several[0], hex);
          st.route = [...several[0].path];
        } else st.armed = null;
        return draw();
      }
      const exit = acts.exits.find((a) => endOf(a) === hex);
      if (exit) {
        st.route = [...exit.path];
        arm(exit, hex);
        return draw();
      }
      if (acts.moves.has(hex) || st.route.includes(hex)) {
        st.strikeAt = null;
        st.route = extendPath(st.route, hex, unit.hex, acts.moves);
        const a = routeAction(st.route, acts.moves);
        st.armed = a && last(st.route) === hex ? { action: a, hex } : null;
        return draw();
      }
      if (hex === unit.hex) {
        // The hex's other counter, if it may act (a leader with his unit), else nothing.
        const other = own.find((u) => u.id !== unit.id);
        choose(other ? other.id : null);
        return draw();
      }
      choose(own.length ? own[0].id : null);
      return draw();
    }
    const place = m.cls.places.get(hex);
    if (place) {
      arm(place, hex);
      return draw();
    }
    st.armed = null;
    if (own.length) choose(own[0].id);
    return draw();
  }

  function buildModel() {
    const view = st.view;
    const units = unitList(view);
    const byId = new Map(units.map((u) => [u.id, u]));
    const mine = isMyTurn(view, st.role) && !st.pending;
    const cls = classify(mine ? view.legal_actions : []);
    const actionable = new Set(cls.byUnit.keys());
    if (st.selected && !actionable.has(st.selected)) choose(null);
    const terrain = terrainMap(view.board);
    const stacks = stacksOf(units);
    const acts = st.selected ? cls.byUnit.get(st.selected) : null;
    const marks = targetsOf(acts);
    const addMark = (hex, kind) => marks.set(hex, new Set([...(marks.get(hex) || []), kind]));
    if (!acts) for (const hex of cls.places.keys()) addMark(hex, 'place');
    if (acts && st.strikeAt) {
      for (const a of [
        ...(acts.charges.get(st.strikeAt) || []),
        ...(acts.moveAttacks.get(st.strikeAt) || []),
      ]) {
        addMark(endOf(a), 'chargeEnd');
      }
    }
    for (const hex of st.route) addMark(hex, 'route');
    const unit = st.selected ? byId.get(st.selected) : null;
    // A longbow's targets beyond the next hex: the line of sight the engine allowed (R8).
    const sight = [];
    if (unit?.type === 'longbow' && acts) {
      for (const target of acts.attacks.keys()) {
        if (distance(unit.hex, target) < 2) continue;
        sight.push({ ...sightLine(unit.hex, target, terrain), armed: st.armed?.hex === target });
      }
    }
    // The printed set-up's letters (rulebook 4) on the hexes still empty during the set-up:
    // a unit type's letter, and a leader's name under it.
    const setupLetters = new Map();
    if (view.phase === 'setup') {
      for (const side of ['scotland', 'england']) {
        for (const { hex, letter } of view.board.setup?.[side] || []) {
          const mark = setupLetters.get(hex) || { letter: '', leader: '' };
          if (letter.length === 1) mark.letter = letter;
          else mark.leader = letter;
          setupLetters.set(hex, mark);
        }
      }
    }
    const attack = lastAttack(view.log);
    const firstUnit = [...actionable].map((id) => byId.get(id)?.hex).find(Boolean);
    return {
      view,
      board: view.board,
      units,
      byId,
      mine,
      cls,
      actionable,
      terrain,
      stacks,
      marks,
      selected: st.selected,
      route: st.route,
      routeFrom: unit?.hex ?? null,
      armed: st.armed,
      sight,
      setupLetters,
      side: view.side,
      highlight: st.highlight,
      lastTarget: attack?.target ?? null,
      attack,
      firstChoice: firstUnit ?? [...cls.places.keys()][0] ?? null,
    };
  }

  // The words of the units and hexes: the board's data file is the same in every view of a
  // game, so they are made again only for another board.
  let names = null;
  function namesOf(view) {
    if (names?.board !== view.board) names = { board: view.board, ...srNames(view) };
    return names;
  }

  function button(label, onclick, cls = '') {
    return h('button', { type: 'button', class: `act ${cls}`, onclick }, label);
  }

  function phaseHint(view) {
    if (view.phase === 'setup') {
      if (m.cls.places.size) {
        const next = m.byId.get([...m.cls.places.values()][0].unit);
        return `Set up ${unitLabel(next)}: choose a highlighted hex, then choose it again.`;
      }
      return 'Set-up: form or leave schiltron with your pike if you wish, then say Set-up done.';
    }
    if (view.phase === 'scots_ap')
      return 'Roll for action points, or announce the Scots Charge (once a game).';
    if (st.selected) {
      return 'Green: move (choose hexes along a route, the end again to go). Red: attack. Orange: charge.';
    }
    return 'Choose a unit with a gold outline.';
  }

  function renderPrompt() {
    const view = st.view;
    clear(prompt);
    if (st.info && st.info !== m.byId.get(st.selected)?.hex) {
      prompt.append(
        h(
          'p',
          { class: 'sr-info' },
          hexSummary(st.info, m.terrain, m.stacks, view.board.hex_names),
        ),
      );
    }
    if (view.outcome?.finished) {
      prompt.append(h('p', { class: 'finished' }, outcomeText(view.outcome, view.vp)));
      if (afterEnd) prompt.append(afterEnd());
      return;
    }
    const who = SIDE_NAME[view.side];
    const head =
      st.role === view.side
        ? `Your turn (${who}), turn ${view.turn}${view.phase === 'actions' ? `: ${view.ap} AP left` : ''}.`
        : `${who} to act, turn ${view.turn}.`;
    prompt.append(h('p', { class: 'sr-turn-line' }, head));
    if (!m.mine) {
      if (st.pending) prompt.append(h('p', { class: 'hint' }, 'Sent; waiting for the answer…'));
      return;
    }
    prompt.append(h('p', { class: 'hint' }, phaseHint(view)));
    const bar = h('div', { class: 'action-bar' });
    if (st.armed) {
      bar.append(
        button(
          describeAction(st.armed.action, m.byId),
          () => doSend(st.armed.action),
          'sr-confirm',
        ),
        button('Cancel', () => reset(), 'cancel'),
      );
    }
    if (st.selected) {
      const u = m.byId.get(st.selected);
      const acts = m.cls.byUnit.get(st.selected);
      prompt.append(h('p', { class: 'sr-selected' }, unitDescription(u)));
      if (st.strikeAt && !st.armed) {
        prompt.append(
          h(
            'p',
            { class: 'hint' },
            `Choose where the attack on ${st.strikeAt} starts from (orange rings), or:`,
          ),
        );
      }
      const extra = [
        ...acts.other,
        ...acts.rallies,
        ...acts.exits.filter((a) => st.armed?.action !== a),
        ...(st.strikeAt
          ? [...(acts.charges.get(st.strikeAt) || []), ...(acts.moveAttacks.get(st.strikeAt) || [])]
          : []),
      ];
      for (const a of extra) bar.append(button(describeAction(a, m.byId), () => doSend(a)));
      if (!st.armed) bar.append(button('Cancel', () => reset(), 'cancel'));
    }
    for (const a of m.cls.general) {
      const cls = a.type === 'undo' ? 'act-undo' : a.type === 'end_turn' ? 'act-end' : '';
      bar.append(button(GENERAL_LABEL[a.type] ?? a.type, () => doSend(a), cls));
    }
    prompt.append(bar);
  }

  function draw() {
    if (!st.view) return;
    // A keyboard player whose focus was on a button this drawing replaces (the prompt's) keeps
    // it on the map, at the hex pointed at last, rather than on the page's body.
    const held = document.activeElement;
    const inPrompt = !!held && prompt.contains(held);
    drawAll();
    if (inPrompt && !held.isConnected) map.focusHex(map.focused);
  }

  function drawAll() {
    m = buildModel();
    variant.textContent = st.view.variant_note || '';
    variant.hidden = !st.view.variant_note;
    map.render(m);
    renderPrompt();
    renderStatus(status, st.view);
    const words = namesOf(st.view).line;
    renderDice(dice, m.attack, words);
    renderDetails(details, st.info, m);
    renderLog(log, st.view, words, (hexes, index) => {
      st.highlight = hexes;
      m = buildModel();
      map.render(m);
      const pointed = index === null ? null : attackAt(st.view.log, index);
      renderDice(dice, pointed ?? m.attack, words, !!pointed);
    });
  }

  // A new view (or the answer to ours): what was chosen but not sent stays only if the view
  // still offers it.
  function update(view, { role = st.role, pending = false } = {}) {
    const same = st.view && view.log_size === st.view.log_size && view.ap === st.view.ap;
    st.view = view;
    st.role = role;
    st.pending = pending;
    if (!same) {
      st.route = [];
      st.armed = null;
      st.strikeAt = null;
    }
    draw();
  }

  return {
    map: mapEl,
    prompt,
    status,
    dice,
    details,
    log,
    update,
    // For the page: whether an action awaits its answer is the page's to say.
    setPending(p) {
      st.pending = p;
      draw();
    },
    focusMap: () => map.focusHex(map.focused),
    get state() {
      return st;
    },
  };
}
