// The published game facts (a copy of rules/hots/data/game-data.json), indexed by id, and the
// board drawn from them (map.json, made by tools/hots-map).
export function indexGameData(raw, shape = null) {
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
    shape: shape && { ...shape, area: Object.fromEntries(shape.areas.map((a) => [a.id, a])) },
  };
}

let cached = null;
export async function loadGameData() {
  if (!cached) {
    const get = (url) => fetch(url).then((r) => r.json());
    cached = Promise.all([get('/data/game-data.json'), get('/data/map.json')]).then(
      ([raw, shape]) => indexGameData(raw, shape),
    );
  }
  return cached;
}
