// #/settings: turn notices by e-mail and webhook (docs/protocol.md, "Turn notices"), the browser's
// own alerts (notify.js), and vacations (lobby_play.js). The server checks every value; a refused
// one is shown with its message and nothing is stored.
import { h, clear } from './dom.js';
import { api } from './api.js';
import { desktopState, enableDesktop, prefs, setPref } from './notify.js';
import { vacationPanel } from './lobby_play.js';

function errorText(ex) {
  return ex.code ? `${ex.message} (${ex.code})` : ex.message;
}

export async function openSettings(root, { me }) {
  if (!me) {
    clear(root).append(
      h(
        'section',
        { class: 'panel settings' },
        h('h1', {}, 'Settings'),
        h('p', {}, 'Log in to choose how you are told it is your turn.'),
        h('p', {}, h('a', { href: '#/' }, 'To the lobby')),
      ),
    );
    return null;
  }
  let s = (await api.notices()).notices;
  const status = h('p', { class: 'settings-status', role: 'status', 'aria-live': 'polite' });
  const problem = h('p', { class: 'error', role: 'alert', hidden: true });
  const say = (text) => {
    status.textContent = text;
    problem.hidden = true;
  };
  const fail = (ex) => {
    problem.textContent = errorText(ex);
    problem.hidden = false;
    status.textContent = '';
  };

  const emailInput = h('input', {
    type: 'email',
    id: 'notice-email',
    name: 'email',
    autocomplete: 'email',
    placeholder: 'name@example.org',
  });
  const emailState = h('p', { class: 'email-state' });
  const emailBox = h('input', { type: 'checkbox', id: 'notice-email-on' });
  const hookInput = h('input', {
    type: 'url',
    id: 'notice-webhook',
    name: 'webhook',
    placeholder: 'https://discord.com/api/webhooks/…',
  });
  const hookBox = h('input', { type: 'checkbox', id: 'notice-webhook-on' });
  const digest = h('input', {
    type: 'number',
    id: 'notice-digest',
    min: '0',
    max: '168',
    step: '1',
  });

  function fill() {
    emailState.textContent = s.email
      ? `Notices go to ${s.email}.`
      : s.email_pending
        ? `Waiting for you to open the link sent to ${s.email_pending}.`
        : 'No address yet.';
    emailBox.checked = s.channels.email;
    emailBox.disabled = !s.email;
    hookInput.value = s.webhook_url || '';
    hookBox.checked = s.channels.webhook;
    digest.value = String(s.digest_hours);
  }

  async function sendAddress(ev) {
    ev.preventDefault();
    try {
      s = (await api.setNoticeEmail(emailInput.value.trim())).notices;
      emailInput.value = '';
      fill();
      say(`A confirmation link was sent to ${s.email_pending}.`);
    } catch (ex) {
      fail(ex);
    }
  }

  async function removeAddress() {
    try {
      s = (await api.setNoticeEmail(null)).notices;
      fill();
      say('The address was removed.');
    } catch (ex) {
      fail(ex);
    }
  }

  async function save(ev) {
    ev.preventDefault();
    const url = hookInput.value.trim();
    const hours = Number(digest.value);
    try {
      s = (
        await api.saveNotices({
          webhook_url: url === '' ? null : url,
          email: emailBox.checked,
          webhook: hookBox.checked,
          digest_hours: Number.isInteger(hours) ? hours : -1,
        })
      ).notices;
      fill();
      say('Saved.');
    } catch (ex) {
      fail(ex);
    }
  }

  const desktop = h('button', { type: 'button', class: 'desktop-permission' });
  const desktopNote = h('span', { class: 'desktop-note' });
  function renderDesktop() {
    const state = desktopState();
    const on = prefs().desktop && state === 'granted';
    desktop.textContent = on ? 'Turn desktop notifications off' : 'Turn desktop notifications on';
    desktop.disabled = state === 'unsupported' || state === 'denied';
    desktopNote.textContent =
      state === 'denied'
        ? ' The browser blocks them for this site.'
        : state === 'unsupported'
          ? ' This browser has none.'
          : '';
  }
  desktop.addEventListener('click', async () => {
    if (prefs().desktop && desktopState() === 'granted') setPref('desktop', false);
    else await enableDesktop();
    renderDesktop();
  });
  const sound = h('input', { type: 'checkbox', id: 'notice-sound' });
  sound.checked = prefs().sound;
  sound.addEventListener('change', () => setPref('sound', sound.checked));

  const emailSection = s.email_available
    ? [
        emailState,
        h(
          'form',
          { class: 'email-form', onsubmit: sendAddress },
          h(
            'div',
            { class: 'field' },
            h('label', { for: 'notice-email' }, 'E-mail address'),
            emailInput,
          ),
          h(
            'p',
            {},
            h('button', { type: 'submit' }, 'Send confirmation link'),
            ' ',
            h(
              'button',
              { type: 'button', class: 'remove-email', onclick: removeAddress },
              'Remove address',
            ),
          ),
        ),
      ]
    : [h('p', {}, 'This server sends no e-mail.'), emailState];

  clear(root).append(
    h(
      'section',
      { class: 'panel settings' },
      h('h1', {}, 'Turn notices'),
      h(
        'p',
        {},
        'When it is your turn and you are not at the game, you can be told by e-mail or by a ' +
          'webhook of your own (Discord or Slack). Your address and webhook are shown to nobody else.',
      ),
      h('h2', {}, 'E-mail'),
      ...emailSection,
      h(
        'form',
        { class: 'notice-form', onsubmit: save },
        h('h2', {}, 'Channels'),
        h(
          'div',
          { class: 'field check' },
          emailBox,
          h('label', { for: 'notice-email-on' }, 'E-mail me when it is my turn'),
        ),
        h(
          'div',
          { class: 'field' },
          h('label', { for: 'notice-webhook' }, 'Webhook URL (Discord or Slack)'),
          hookInput,
        ),
        h(
          'div',
          { class: 'field check' },
          hookBox,
          h('label', { for: 'notice-webhook-on' }, 'Post to my webhook when it is my turn'),
        ),
        h(
          'div',
          { class: 'field' },
          h('label', { for: 'notice-digest' }, 'At most one e-mail every … hours (0: no limit)'),
          digest,
        ),
        h('p', {}, h('button', { type: 'submit', class: 'save-notices' }, 'Save')),
      ),
      problem,
      status,
      h('h2', {}, 'In this browser'),
      h('p', {}, 'The tab title shows “(n) Your turn” while games await you.'),
      h('p', {}, desktop, desktopNote),
      h(
        'div',
        { class: 'field check' },
        sound,
        h('label', { for: 'notice-sound' }, 'Play a sound when it becomes my turn'),
      ),
    ),
    vacationPanel(),
  );
  fill();
  renderDesktop();
  return null;
}
