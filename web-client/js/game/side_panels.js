// The game page's side column folds away on a wide screen, so that the map takes the window's
// width: one button (aria-expanded, its state kept in this browser) hides every panel of the
// column but what is decided now (the dock: prompt, hand; the game's controls; a battle under
// way), which then lies over the map's right edge, on the sea at Fit. Any panel added to the
// column later folds with the others without being named here (style.css, .panels-collapsed).
// The map's frame follows its new width by itself (map_view.js watches its size).
import { h } from '../dom.js';

const KEY = 'blockfog.panels';

function remembered() {
  try {
    return localStorage.getItem(KEY) === 'collapsed';
  } catch {
    return false;
  }
}

function remember(collapsed) {
  try {
    localStorage.setItem(KEY, collapsed ? 'collapsed' : 'open');
  } catch {
    // Private mode: the choice lasts for this page only.
  }
}

// Puts the button at the head of `side` (an element with an id) and folds `board` as last chosen.
export function mountSidePanels(board, side) {
  // The name stays; aria-expanded says whether the panels are shown (a disclosure button).
  const mark = h('span', { class: 'side-toggle-mark', 'aria-hidden': 'true' });
  const button = h(
    'button',
    { type: 'button', class: 'side-toggle', 'aria-controls': side.id },
    mark,
    ' Side panels',
  );
  const set = (collapsed) => {
    board.classList.toggle('panels-collapsed', collapsed);
    button.setAttribute('aria-expanded', String(!collapsed));
    mark.textContent = collapsed ? '«' : '»';
    button.title = collapsed
      ? 'Show the state of the war, the log and the chat beside the map'
      : 'Give the map the window: the prompt and the hand stay, over the map';
  };
  button.addEventListener('click', () => {
    const collapsed = !board.classList.contains('panels-collapsed');
    set(collapsed);
    remember(collapsed);
  });
  set(remembered());
  side.prepend(button);
  return button;
}
