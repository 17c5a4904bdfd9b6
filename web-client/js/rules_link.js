// Links to the rules page (/rules.html, generated from RULES.md by tools/hots-rules): one anchor
// per numbered section or item, "#r4.7" or "#r10.8.2". The page opens in a new tab so that a
// game in progress stays where it is.
import { h } from './dom.js';

export const RULES_PAGE = '/rules.html';

export const rulesHref = (section) => `${RULES_PAGE}#r${section}`;

export const rulesLink = (section, label = `RULES ${section}`) =>
  h(
    'a',
    {
      class: 'rules-link',
      href: rulesHref(section),
      target: '_blank',
      rel: 'noopener',
    },
    label,
  );

// A section reference in running text: "RULES 4.7" (also the first of "RULES 10.1-10.2").
export const RULES_REF = /RULES (\d+(?:\.\d+)*|[A-Z])/g;

// The text as nodes, each "RULES n" in it a link to section n.
export function withRulesLinks(text) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(RULES_REF)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push(rulesLink(m[1], m[0]));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
