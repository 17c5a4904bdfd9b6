// The published game facts (a copy of rules/hots/data/game-data.json), indexed by id.
export function indexGameData(raw) {
  const byId = (list) => Object.fromEntries(list.map((x) => [x.id, x]));
  return {
    raw,
    areas: raw.areas,
    area: byId(raw.areas),
    borders: raw.borders,
    block: byId(raw.blocks),
    card: byId(raw.cards.deck),
    scenario: byId(raw.scenarios),
    map: raw.map,
  };
}

let cached = null;
export async function loadGameData() {
  if (!cached) {
    cached = fetch('/data/game-data.json')
      .then((r) => r.json())
      .then(indexGameData);
  }
  return cached;
}
