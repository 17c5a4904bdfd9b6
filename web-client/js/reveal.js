// Pure: "everything revealed" for a finished game's step, made from Scotland's and England's
// views of the same step (each knows its own blocks, hand and pool).
export function mergeViews(sco, eng) {
  const engAreas = new Map((eng.areas || []).map((a) => [a.id, a]));
  const areas = (sco.areas || []).map((a) => ({
    ...a,
    england: engAreas.get(a.id)?.england ?? a.england,
  }));
  const hand = [...(sco.cards?.hand || []), ...(eng.cards?.hand || [])];
  return {
    ...sco,
    role: 'all',
    areas,
    pools: { scotland: sco.pools?.scotland, england: eng.pools?.england },
    nobles: sco.nobles,
    cards: {
      ...sco.cards,
      hand,
      my_choice: null,
      hands: { scotland: sco.cards?.hand || [], england: eng.cards?.hand || [] },
    },
    legal_actions: [],
    log: sco.log,
  };
}

// The role whose own blocks a merged view shows: both.
export function ownSides(role) {
  if (role === 'all') return ['scotland', 'england'];
  if (role === 'scotland' || role === 'england') return [role];
  return [];
}
