// Tournaments (docs/tournaments.md): #/tournaments lists them (open, running, finished) with a
// form to create one; #/tournament/7 shows registration, each round's pairings with links to
// the games, the standings, a crosstable, the organiser's controls and log, and the export.
import { h, clear } from './dom.js';
import { api } from './api.js';
import { loadGameData } from './gamedata.js';
import { timeControlField, timeControlText } from './lobby_play.js';
import { resultText } from './wording.js';
import {
  kindsOf,
  gameName,
  optionOrder,
  optionWords,
  scenarioName as kindScenarioName,
} from './game_kinds.js';

const FORMAT_NAMES = {
  round_robin: 'Round robin',
  swiss: 'Swiss',
  single_elimination: 'Single elimination',
};

function when(ms) {
  return ms ? new Date(ms).toLocaleString() : '—';
}

// A scenario of game `kind` in words (Hammer of the Scots': its name and years).
const scenarioName = (data, id, kind = 'hots') => kindScenarioName(data, kind, id);

// Every game of a tournament is of the game chosen here, with its scenario and optional rules.
function createForm(data, kinds, onCreated) {
  const field = (label, input) => h('label', {}, label, input);
  const name = h('input', { name: 'name', required: true, maxlength: 100 });
  const kindSelect = h(
    'select',
    { name: 'kind' },
    kinds.map((k) => h('option', { value: k.game }, gameName(k))),
  );
  const kind = () => kinds.find((k) => k.game === kindSelect.value) ?? kinds[0];
  const scenario = h('select', { name: 'scenario' });
  const options = h('div', { class: 'game-options' });
  let boxes = [];
  const showKind = () => {
    const k = kind();
    scenario.replaceChildren(
      ...(k.scenarios ?? []).map((id) =>
        h('option', { value: id }, scenarioName(data, id, k.game)),
      ),
    );
    boxes = optionOrder(k.options).map((option) => {
      const box = h('input', { type: 'checkbox', name: `option-${option}` });
      box.dataset.option = option;
      return box;
    });
    options.replaceChildren(...boxes.map((box) => field(optionWords(box.dataset.option), box)));
  };
  kindSelect.addEventListener('change', showKind);
  showKind();
  const format = h(
    'select',
    { name: 'format' },
    Object.entries(FORMAT_NAMES).map(([v, t]) => h('option', { value: v }, t)),
  );
  const rounds = h('input', { name: 'rounds', type: 'number', min: 1, max: 20, value: 3 });
  const sides = h(
    'select',
    { name: 'sides' },
    h('option', { value: 'lot' }, 'One game, sides by lot'),
    h('option', { value: 'swapped' }, 'Two games, sides swapped'),
  );
  const deadline = h('input', { name: 'deadline_days', type: 'number', min: 1, max: 60, value: 7 });
  const closes = h('input', { name: 'closes_days', type: 'number', min: 1, max: 365, value: 7 });
  const max = h('input', { name: 'max_players', type: 'number', min: 2, max: 256, value: 16 });
  const rated = h('input', { name: 'rated', type: 'checkbox' });
  const clock = timeControlField('tournament-time');
  const vacation = h('input', { name: 'vacation', type: 'checkbox', checked: true });
  const byHand = h('input', { name: 'rounds_by_hand', type: 'checkbox' });
  const error = h('p', { class: 'error', role: 'alert' });
  const form = h(
    'form',
    {
      class: 'tournament-create',
      onsubmit: async (e) => {
        e.preventDefault();
        error.textContent = '';
        const chosen = {};
        for (const box of boxes) chosen[box.dataset.option] = box.checked;
        const body = {
          name: name.value,
          kind: kind().game,
          scenario: scenario.value,
          options: chosen,
          format: format.value,
          sides: sides.value,
          round_deadline_minutes: Number(deadline.value) * 24 * 60,
          rated: rated.checked,
          registration_closes_at: Date.now() + Number(closes.value) * 86400000,
          max_players: Number(max.value),
          time_control: clock.value(),
          vacation: vacation.checked,
          rounds_by_hand: byHand.checked,
        };
        if (format.value === 'swiss') body.rounds = Number(rounds.value);
        try {
          onCreated((await api.createTournament(body)).tournament);
        } catch (ex) {
          error.textContent = ex.message;
        }
      },
    },
    h('h2', {}, 'Organise a tournament'),
    field('Name', name),
    kinds.length > 1 ? field('Game', kindSelect) : null,
    field('Scenario', scenario),
    options,
    field('Format', format),
    field('Swiss rounds', rounds),
    field('Sides', sides),
    field('Days per round', deadline),
    field('Registration open for (days)', closes),
    field('Most players', max),
    field('Rated', rated),
    clock.el,
    field('Vacations pause the games', vacation),
    field('I start each round myself', byHand),
    h('button', { type: 'submit' }, 'Create'),
    error,
  );
  return form;
}

export async function renderTournaments(root, { me, go }) {
  clear(root);
  root.append(h('h1', {}, 'Tournaments'));
  const { tournaments } = await api.tournaments();
  for (const status of ['registering', 'running', 'finished']) {
    const list = tournaments.filter((t) => t.status === status);
    const title = {
      registering: 'Open for registration',
      running: 'Under way',
      finished: 'Finished',
    }[status];
    root.append(
      h(
        'section',
        { class: 'panel', 'data-status': status },
        h('h2', {}, title),
        list.length
          ? h(
              'ul',
              { class: 'tournaments' },
              list.map((t) =>
                h(
                  'li',
                  {},
                  h('a', { href: `#/tournament/${t.id}` }, t.name),
                  ` — ${gameName(t)}, ${FORMAT_NAMES[t.format]}, ` +
                    `${t.player_count}/${t.max_players} players, by ${t.organiser}`,
                ),
              ),
            )
          : h('p', {}, 'None.'),
      ),
    );
  }
  if (me) {
    const data = await loadGameData();
    let kinds = kindsOf(null, Object.keys(data.scenario));
    try {
      kinds = kindsOf(await api.scenarios(), Object.keys(data.scenario));
    } catch {
      /* the game data's list */
    }
    root.append(
      h(
        'section',
        { class: 'panel' },
        createForm(data, kinds, (t) => go(`#/tournament/${t.id}`)),
      ),
    );
  }
}

// A wide table in a box of its own that scrolls sideways on a narrow screen: a Tab stop, so that
// the keyboard can scroll it too (WCAG 2.1.1; axe's scrollable-region-focusable).
const scrolling = (label, table) =>
  h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': label }, table);

function crosstable(t) {
  const names = t.standings.map((s) => s.player);
  const cell = {};
  for (const round of t.rounds_played) {
    for (const g of round.games) {
      if (!g.result) continue;
      const w = g.result.winner;
      const add = (a, b, pts) => {
        cell[`${a}|${b}`] = (cell[`${a}|${b}`] || 0) + pts;
      };
      add(g.scotland, g.england, w === 'scotland' ? 1 : w ? 0 : 0.5);
      add(g.england, g.scotland, w === 'england' ? 1 : w ? 0 : 0.5);
    }
  }
  return h(
    'table',
    { class: 'crosstable', 'aria-label': 'Crosstable' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Player'),
        names.map((_, i) => h('th', { scope: 'col' }, String(i + 1))),
      ),
    ),
    h(
      'tbody',
      {},
      names.map((a, i) =>
        h(
          'tr',
          {},
          h('th', {}, `${i + 1}. ${a}`),
          names.map((b) => h('td', {}, a === b ? '×' : (cell[`${a}|${b}`] ?? ''))),
        ),
      ),
    ),
  );
}

// Rounds started by hand: the next round's button once every game of this one has ended.
function nextRound(t, act) {
  if (!t.rounds_by_hand || t.status !== 'running' || t.current_round >= t.rounds) return null;
  const games = t.rounds_played[t.current_round - 1]?.games || [];
  const next = t.current_round + 1;
  return games.every((g) => g.result)
    ? h('button', { class: 'next-round', onclick: () => act('next_round') }, `Start round ${next}`)
    : h(
        'p',
        { class: 'next-round-wait' },
        `Round ${next} can start once every game of round ${t.current_round} has ended.`,
      );
}

function organiserControls(t, act) {
  const text = h('input', { name: 'note', placeholder: 'A note for everybody', maxlength: 2000 });
  const player = h('input', { name: 'player', placeholder: 'Player to remove' });
  return h(
    'section',
    { class: 'panel organiser' },
    h('h2', {}, 'Organiser'),
    t.status === 'registering'
      ? h('button', { class: 'start', onclick: () => act('start') }, 'Start the tournament')
      : null,
    nextRound(t, act),
    t.status === 'running'
      ? h(
          'button',
          { class: 'extend', onclick: () => act('extend', { minutes: 24 * 60 }) },
          'Extend the deadline by a day',
        )
      : null,
    h(
      'form',
      {
        onsubmit: (e) => {
          e.preventDefault();
          act('note', { text: text.value });
        },
      },
      text,
      h('button', {}, 'Add note'),
    ),
    t.status !== 'finished'
      ? h(
          'form',
          {
            onsubmit: (e) => {
              e.preventDefault();
              act('remove', { player: player.value });
            },
          },
          player,
          h('button', {}, 'Remove'),
        )
      : null,
  );
}

export async function openTournament(root, { id, me }) {
  let timer = null;
  const render = async () => {
    const [{ tournament: t }, data] = await Promise.all([api.tournament(id), loadGameData()]);
    const error = h('p', { class: 'error', role: 'alert' });
    const act = async (action, body = {}) => {
      try {
        await api.tournamentAction(id, action, body);
        await render();
      } catch (ex) {
        error.textContent = ex.message;
      }
    };
    clear(root);
    root.append(
      h('h1', {}, t.name),
      h(
        'p',
        { class: 'tournament-facts' },
        `${gameName(t)}: ${t.scenario ? `${scenarioName(data, t.scenario, t.game)}. ` : ''}${FORMAT_NAMES[t.format]}${t.format === 'swiss' ? `, ${t.rounds} rounds` : ''}, ` +
          `${t.sides === 'lot' ? 'one game per pairing, sides by lot' : 'two games per pairing, sides swapped'}, ` +
          `organised by ${t.organiser}${t.rated ? ', rated' : ''}. ` +
          `${timeControlText(t.time_control)}. Status: ${t.status}` +
          (t.status === 'running'
            ? `, round ${t.current_round}, deadline ${when(t.deadline_at)}`
            : ''),
      ),
      ...(t.description ? [h('p', {}, t.description)] : []),
      error,
    );
    if (me && t.status === 'registering' && !t.you.organiser) {
      root.append(
        t.you.registered
          ? h('button', { class: 'withdraw', onclick: () => act('withdraw') }, 'Withdraw')
          : h('button', { class: 'register', onclick: () => act('register') }, 'Register'),
      );
    }
    root.append(
      h(
        'section',
        { class: 'panel' },
        h('h2', {}, `Players (${t.players.length}/${t.max_players})`),
        h(
          'ol',
          { class: 'players' },
          t.players.map((p) => h('li', {}, p.name, p.removed ? ' (removed)' : '')),
        ),
      ),
    );
    for (const round of [...t.rounds_played].reverse()) {
      root.append(
        h(
          'section',
          { class: 'panel round' },
          h('h2', {}, `Round ${round.round}`),
          h(
            'ul',
            { class: 'pairings' },
            round.games.map((g) =>
              h(
                'li',
                {},
                h(
                  'a',
                  {
                    href: g.status === 'finished' ? `#/replay/${g.game_id}` : `#/game/${g.game_id}`,
                  },
                  `${g.scotland} (Scotland) v ${g.england} (England)`,
                ),
                ' — ',
                g.result ? (g.result.text ?? resultText(g.result)) : g.status,
                g.overdue ? h('strong', { class: 'overdue' }, ' overdue: for the organiser') : null,
                // Also a game whose dice are being rolled (docs/tournaments.md).
                t.you.organiser && (g.status === 'active' || g.status === 'open')
                  ? [
                      ' ',
                      h(
                        'button',
                        {
                          onclick: () => act('forfeit', { game_id: g.game_id, winner: 'scotland' }),
                        },
                        'Scotland wins by forfeit',
                      ),
                      h(
                        'button',
                        {
                          onclick: () => act('forfeit', { game_id: g.game_id, winner: 'england' }),
                        },
                        'England wins by forfeit',
                      ),
                      h(
                        'button',
                        {
                          onclick: () =>
                            act('forfeit', { game_id: g.game_id, reason: 'adjudicated' }),
                        },
                        'Adjudicate by nobles',
                      ),
                    ]
                  : null,
              ),
            ),
            round.byes.map((b) => h('li', {}, `${b}: bye`)),
          ),
        ),
      );
    }
    if (t.standings.length && t.current_round > 0) {
      root.append(
        h(
          'section',
          { class: 'panel' },
          h('h2', {}, 'Standings'),
          scrolling(
            'Standings',
            h(
              'table',
              { class: 'standings' },
              h(
                'thead',
                {},
                h(
                  'tr',
                  {},
                  [
                    '#',
                    'Player',
                    'Points',
                    'W',
                    'L',
                    t.format === 'swiss' ? 'Buchholz' : 'Head-to-head',
                    t.format === 'swiss' ? 'S-B' : 'Wins as Scotland',
                  ].map((c) => h('th', {}, c)),
                ),
              ),
              h(
                'tbody',
                {},
                t.standings.map((s) =>
                  h(
                    'tr',
                    {},
                    [
                      s.rank,
                      s.player,
                      s.points,
                      s.wins,
                      s.losses,
                      t.format === 'swiss' ? s.buchholz : s.head_to_head,
                      t.format === 'swiss' ? s.sonneborn_berger : s.wins_as_scotland,
                    ].map((c) => h('td', {}, String(c))),
                  ),
                ),
              ),
            ),
          ),
          h('h2', {}, 'Crosstable'),
          scrolling('Crosstable', crosstable(t)),
        ),
      );
    }
    if (t.you.organiser) root.append(organiserControls(t, act));
    root.append(
      h(
        'section',
        { class: 'panel' },
        h('h2', {}, 'Log'),
        h(
          'ul',
          { class: 'tournament-log' },
          t.log.map((l) =>
            h('li', {}, `${when(l.at)} — ${l.author ?? 'server'}: ${l.action}: ${l.detail}`),
          ),
        ),
      ),
      h(
        'p',
        {},
        h(
          'a',
          { class: 'export', href: `/api/tournaments/${id}/export`, download: '' },
          'Download every finished game (tar bundle)',
        ),
      ),
    );
  };
  await render();
  timer = setInterval(() => {
    if (!document.activeElement || document.activeElement === document.body)
      render().catch(() => {});
  }, 10000);
  return () => clearInterval(timer);
}
