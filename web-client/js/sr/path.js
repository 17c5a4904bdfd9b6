// Pure: a move built by clicking hexes (docs/web-client.md, "The Scotland Rising board"). The
// engine lists one cheapest path per destination and accepts any legal path; a player may also
// route a unit by hand, one neighbouring hex at a time. The board never judges a route's cost
// (that is the engine's rule): it only keeps a route to hexes the unit may reach, each next to
// the one before, and sends it as the destination's move with this path.
import { isAdjacent } from './hex.js';

// The path after a click on `hex`, for a unit at `from` whose move destinations are `moves`
// (hex -> legal move action). `path` is the route so far ([] for none).
//   - a hex next to the route's end that the unit may reach extends the route;
//   - any other hex it may reach starts again from the engine's path to it;
//   - a hex already on the route cuts the route back to it;
//   - anything else leaves the route as it was.
export function extendPath(path, hex, from, moves) {
  const at = path.indexOf(hex);
  if (at >= 0) return path.slice(0, at + 1);
  if (!moves.has(hex)) return path;
  const end = path.length ? path[path.length - 1] : from;
  if (isAdjacent(end, hex)) return [...path, hex];
  return [...moves.get(hex).path];
}

// The move action a route makes: the destination's own action with the route as its path, or
// null when the route ends nowhere the unit may go.
export function routeAction(path, moves) {
  if (!path.length) return null;
  const action = moves.get(path[path.length - 1]);
  if (!action) return null;
  return { ...action, path: [...path] };
}
