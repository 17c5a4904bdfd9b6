// RULES.md as one HTML page: the subset of Markdown the rules use (headings, paragraphs, nested
// ordered and bullet lists, tables, rules, **bold**, *italic*, `code`). Every numbered heading
// gets the anchor `r<number>` ("### 4.7 Pinning" is #r4.7, "## 4. Movement" is #r4, "Appendix A"
// is #rA) and every numbered item of a numbered section `r<section>.<item>` (#r10.8.2), unless a
// heading already owns that anchor. Pure: no file access, so tests can render in memory.

const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  .replace(/"/g, '&quot;');

export function inline(text) {
  const codes = [];
  let s = text.replace(/`([^`]+)`/g, (_, c) => {
    codes.push(`<code>${escape(c)}</code>`);
    return `\u0000${codes.length - 1}\u0000`;
  });
  s = escape(s)
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^*])\*([^*\s][^*]*?)\*(?!\*)/g, '$1<em>$2</em>');
  return s.replace(/\u0000(\d+)\u0000/g, (_, i) => codes[Number(i)]);
}

// The anchor of a heading's text, or null when it carries no section number.
export function headingAnchor(text) {
  const num = /^(\d+(?:\.\d+)*)\.?\s/.exec(text);
  if (num) return `r${num[1]}`;
  const appendix = /^Appendix ([A-Z])\b/.exec(text);
  return appendix ? `r${appendix[1]}` : null;
}

const HEADING = /^(#{1,6})\s+(.*)$/;
const ITEM = /^(\s*)(\d+\.|[-*])\s+(.*)$/;
const indentOf = (line) => /^\s*/.exec(line)[0].length;

function renderTable(rows) {
  const cells = (row) => row.trim().replace(/^\||\|$/g, '').split('|').map((c) => inline(c.trim()));
  const [head, , ...body] = rows;
  // Focusable, so that a keyboard can scroll a table wider than a phone.
  return '<div class="table-wrap" tabindex="0" role="region" aria-label="Table"><table>\n<thead><tr>'
    + cells(head).map((c) => `<th scope="col">${c}</th>`).join('') + '</tr></thead>\n<tbody>\n'
    + body.map((r) => '<tr>' + cells(r).map((c) => `<td>${c}</td>`).join('') + '</tr>').join('\n')
    + '\n</tbody></table></div>';
}

// A list block (its lines, blank lines removed) as a tree of items, by indentation.
function parseList(lines) {
  const root = { children: [], indent: -1 };
  const stack = [root];
  for (const line of lines) {
    const m = ITEM.exec(line);
    if (m) {
      const indent = m[1].length;
      while (stack.length > 1 && stack[stack.length - 1].indent >= indent) stack.pop();
      const item = { indent, ordered: /\d/.test(m[2]), number: parseInt(m[2], 10), text: m[3],
        children: [] };
      stack[stack.length - 1].children.push(item);
      stack.push(item);
    } else {
      stack[stack.length - 1].text += ` ${line.trim()}`;
    }
  }
  return root.children;
}

function renderItems(items, prefix, used) {
  if (!items.length) return '';
  const tag = items[0].ordered ? 'ol' : 'ul';
  const start = items[0].ordered && items[0].number !== 1 ? ` start="${items[0].number}"` : '';
  const lis = items.map((item) => {
    const id = prefix && item.ordered ? `${prefix}.${item.number}` : null;
    const idAttr = id && !used.has(id) ? ` id="${id}"` : '';
    if (idAttr) used.add(id);
    return `<li${idAttr}>${inline(item.text)}${renderItems(item.children, id, used)}</li>`;
  });
  return `<${tag}${start}>\n${lis.join('\n')}\n</${tag}>`;
}

// The body HTML and the table of contents (the level-2 headings) of a Markdown text.
export function renderRules(markdown) {
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  const used = new Set(lines.map((l) => HEADING.exec(l)).filter(Boolean)
    .map((m) => headingAnchor(m[2])).filter(Boolean));
  const out = [];
  const toc = [];
  let section = null;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) { i += 1; continue; }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = heading[1].length;
      const anchor = headingAnchor(heading[2]);
      section = anchor;
      if (level === 2 && anchor) toc.push({ anchor, text: heading[2] });
      out.push(`<h${level}${anchor ? ` id="${anchor}"` : ''}>${inline(heading[2])}</h${level}>`);
      i += 1;
    } else if (/^-{3,}\s*$/.test(line)) {
      out.push('<hr>');
      i += 1;
    } else if (line.trim().startsWith('|')) {
      const rows = [];
      while (i < lines.length && lines[i].trim().startsWith('|')) rows.push(lines[i++]);
      out.push(renderTable(rows));
    } else if (ITEM.test(line) && indentOf(line) === 0) {
      // The list goes on over blank lines while the next line is an item or indented.
      const block = [];
      while (i < lines.length) {
        const l = lines[i];
        if (!l.trim()) {
          const next = lines[i + 1] ?? '';
          if (!(ITEM.test(next) || /^\s+\S/.test(next))) break;
        } else if (HEADING.test(l) || (indentOf(l) === 0 && !ITEM.test(l))) {
          break;
        } else {
          block.push(l);
        }
        i += 1;
      }
      out.push(renderItems(parseList(block), section, used));
    } else {
      const para = [];
      while (i < lines.length && lines[i].trim() && !HEADING.test(lines[i])
        && !(ITEM.test(lines[i]) && indentOf(lines[i]) === 0) && !lines[i].trim().startsWith('|')) {
        para.push(lines[i++].trim());
      }
      out.push(`<p>${inline(para.join(' '))}</p>`);
    }
  }
  return { body: out.join('\n'), toc };
}

// The whole page served at /rules.html.
export function rulesPage(markdown) {
  const { body, toc } = renderRules(markdown);
  // The contents go under the title (the first heading).
  const split = body.indexOf('</h1>') + '</h1>'.length;
  const nav = `<nav class="rules-toc" aria-label="Sections">
<ol>
${toc.map((t) => `<li><a href="#${t.anchor}">${inline(t.text)}</a></li>`).join('\n')}
</ol>
</nav>`;
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Rules: Hammer of the Scots · Blockfog</title>
  <link rel="stylesheet" href="/css/style.css">
  <link rel="stylesheet" href="/css/rules.css">
  <link rel="icon" href="data:,">
</head>
<body class="rules-page">
  <!-- Generated by tools/hots-rules/make-rules.js from rules/hots/data/RULES.md. Do not edit. -->
  <a class="skip" href="#rules">Skip to the rules</a>
  <header class="site">
    <a class="brand" href="/#/">Blockfog</a>
    <nav aria-label="Help"><a href="/#/help">How to play here</a></nav>
  </header>
  <main id="rules" class="rules" tabindex="-1">
${body.slice(0, split)}
${nav}
${body.slice(split)}
  </main>
</body>
</html>
`;
}
