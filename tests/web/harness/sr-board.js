// The Scotland Rising board alone, fed a fixture view (tests/web/fixtures/sr/NAME.json) as the
// game page feeds it a frame's view: ?fixture=NAME&role=scotland|england|observer. Actions the
// board sends are kept in window.srSent for the test to read.
import { mountSrLayout } from '/js/sr/layout.js';

const q = new URLSearchParams(location.search);
const name = q.get('fixture') || 'turn1';
const file = await (await fetch(`/fixtures/sr/${name}.json`)).json();
const role = q.get('role') || file.role;
window.srSent = [];
const root = document.getElementById('app');
const page = mountSrLayout(root, {
  send: (action) => window.srSent.push(action),
  title: `Harness: ${name} (${role})`,
});
page.board.update(file.view, { role });
window.srBoardView = () => file.view;
document.body.dataset.ready = 'true';
