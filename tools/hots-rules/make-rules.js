// Writes web-client/rules.html from rules/hots/data/RULES.md (see render.js). Run by hand after
// changing RULES.md: node tools/hots-rules/make-rules.js. tests/web/unit/rules_page.test.js
// fails while the committed page is out of date.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rulesPage } from './render.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const markdown = fs.readFileSync(path.join(root, 'rules/hots/data/RULES.md'), 'utf8');
fs.writeFileSync(path.join(root, 'web-client/rules.html'), rulesPage(markdown));
