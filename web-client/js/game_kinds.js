// The games the server plays (GET /api/scenarios, `games`: docs/protocol.md) as the lobby,
// the ratings and the tournaments pages name and offer them.

// What a server that lists no games offers: Hammer of the Scots alone.
export const DEFAULT_KIND = {
  game: 'hots',
  game_name: 'Hammer of the Scots',
  invented_variant: false,
  options: { schiltroms: 'boolean' },
  computer: true,
};

// Pure: the games of a GET /api/scenarios answer, the default first; `scenarios` (the
// published list) for an answer without `games`.
export function kindsOf(answer, scenarios = []) {
  if (Array.isArray(answer?.games) && answer.games.length) return answer.games;
  return [{ ...DEFAULT_KIND, scenarios: answer?.scenarios ?? scenarios }];
}

// Pure: a game's name as a list shows it, with the mark of a board invented for it.
export function gameName(g) {
  const name = g?.game_name ?? DEFAULT_KIND.game_name;
  return g?.invented_variant ? `${name} (invented variant)` : name;
}

// The words of each optional rule's checkbox; an option without words shows its name.
const OPTION_WORDS = {
  schiltroms: 'Optional rule: Schiltroms',
  longbows_vs_schiltron: 'Optional rule: longbows may shoot at a schiltron',
  battle_events: 'Optional rule: the Battle Events Table',
  solitaire_events: 'Battle events at the solitaire frequency (with the Battle Events Table)',
  freeform_setup: 'Optional rule: free-form setup on the blue and red rows',
};

// Pure: the options of a game in the order the form shows them (related rules together).
export function optionOrder(options) {
  const known = Object.keys(OPTION_WORDS);
  const rank = (name) => (known.includes(name) ? known.indexOf(name) : known.length);
  return Object.keys(options ?? {}).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

// Pure: the label of option `name`.
export function optionWords(name) {
  return OPTION_WORDS[name] ?? `Option: ${name.replaceAll('_', ' ')}`;
}

// Pure: a scenario's name: Hammer of the Scots' from its published data, another game's id in
// words ("bannockburn_variant" → "Bannockburn variant").
export function scenarioName(data, kind, id) {
  if (kind === DEFAULT_KIND.game && data?.scenario?.[id]) {
    const s = data.scenario[id];
    return s.years ? `${s.name} (${s.years})` : s.name;
  }
  const words = id.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
