// What the player's clicks mean: send an action (with the seq of the view it came from),
// select a block, choose an area (the selected block's destination, or an area action).
import { classify, destinations, describe } from '../actions.js';

// `sendAction(action)`: the frame's (game/frame.js), false when nothing was sent.
export function createIntents(st, { data, sendAction, render, say }) {
  function send(action) {
    if (!sendAction(action)) return;
    st.lastArea = action.to ?? action.area ?? null;
    st.selected = null;
    st.choice = null;
    say(`Sent: ${describe(action, data)}`);
    render();
  }

  function select(block) {
    st.selected = st.selected === block ? null : block;
    st.choice = null;
    render();
  }

  function chooseArea(area) {
    const cls = classify(st.view?.legal_actions);
    const acts = st.selected
      ? destinations(cls.blocks.get(st.selected)).get(area) || []
      : cls.areas.get(area) || [];
    if (acts.length === 1) send(acts[0]);
    else if (acts.length > 1) {
      st.choice = acts;
      render();
    }
  }

  const setChoice = (c) => {
    st.choice = c;
    render();
  };

  return { send, select, chooseArea, setChoice };
}
