// "How to play here": the sequence of play and how each decision is taken on this site, with
// the RULES.md section of each step.
import { h, clear } from './dom.js';
import { RULES_PAGE, rulesLink, withRulesLinks } from './rules_link.js';

const STEPS = [
  [
    'Card phase',
    '3',
    'Both players choose a card from their hand at once; the cards are ' +
      'revealed together. The higher move card makes its player Player 1; an event card is ' +
      'played for its effect instead of moving (RULES 7). Click a card in your hand to choose it.',
  ],
  [
    'Move phase',
    '4',
    'Each move point activates the blocks of one area. Click a block with a gold ' +
      'outline, then a destination: a button in the prompt or the ▼ mark on the map. Black ' +
      'borders let 6 blocks cross, red borders 2, and blocks crossing a red border stop. ' +
      'Crossing the Anglo-Scottish border costs a whole move point (RULES 4.5). A block in an area ' +
      'with enemy blocks may leave only while its side outnumbers them there (RULES 4.7); the ' +
      'map marks the blocks that may not, with the reason. "End move phase" ' +
      'finishes; "Undo" takes back your last move.',
  ],
  [
    'Battles',
    '5',
    'Player 1 chooses the order of the battles. Blocks fire by letter (A, then B, ' +
      'then C; defenders first), each one by one: choose the block in the battle panel, then Fire, ' +
      'Retreat or Pass. Hits go to the strongest block; choose which when strengths are equal.',
  ],
  [
    'Border raid',
    '9',
    'Scots alone in England at the end of a game turn send English blocks ' + 'home.',
  ],
  [
    'Winter',
    '10',
    'After the fifth game turn: nobles go home, the King and Edward winter, blocks ' +
      'over the castle limits disband, then both sides build. The prompt names each step and ' +
      'what "Done" ends.',
  ],
  [
    'Victory',
    '12',
    'The side controlling more nobles when the scenario ends wins; some events ' +
      'end the game at once (the King or Edward II killed, a side with no noble).',
  ],
];

export function renderHelp(root) {
  clear(root).append(
    h(
      'article',
      { class: 'help panel' },
      h('h1', {}, 'How to play here'),
      h(
        'p',
        {},
        'Blockfog plays Hammer of the Scots by ',
        h('a', { href: RULES_PAGE }, 'its rules'),
        ' (each section named below links to it). You see your own blocks face up and only the ' +
          "number of the enemy's, as on the table; the server never sends more (",
        rulesLink('13'),
        ').',
      ),
      h('h2', {}, 'The sequence of play (', rulesLink('2.3'), ')'),
      h(
        'ol',
        { class: 'help-steps' },
        STEPS.map(([title, section, text]) =>
          h(
            'li',
            {},
            h('strong', {}, `${title} `),
            h('span', { class: 'rules-ref' }, '(', rulesLink(section), ')'),
            ': ',
            withRulesLinks(text),
          ),
        ),
      ),
      h('h2', {}, 'The map'),
      h(
        'ul',
        {},
        h(
          'li',
          {},
          'The areas are regions of the real map of Scotland; England is one area south ' +
            'of the border. "Fit" shows the whole map; zoom with the wheel, two fingers or the + ' +
            "and − buttons; drag to pan. When an area's blocks would be too small to read, it " +
            'shows a chip with the number of blocks of each side instead: tap it to list them, and ' +
            'choose a block from the list. A tap on an area (not a destination) names it and lists ' +
            'your blocks there. ' +
            'On a wide screen, "Side panels" folds the state of the war, the log and the chat ' +
            'away so that the map takes the window; the prompt and your hand stay over its edge.',
        ),
        h(
          'li',
          {},
          'By keyboard the map is one Tab stop: the arrow keys go from area to area as ' +
            'they lie on the map (Home and End: the first and last area of the list), Enter or ' +
            'Space takes the area as a destination, or else goes to its blocks (or opens their ' +
            'list); among the blocks the arrows go round them, Enter chooses, Escape goes back to ' +
            'the area. Shift with an arrow pans, + and − zoom, 0 shows the whole map.',
        ),
        h(
          'li',
          {},
          'A block shows its name, its strength as pips on the top edge (and the number), ' +
            'and its rating: letter and fire number, type, movement. The legend under the map ' +
            'explains the marks and outlines.',
        ),
        h(
          'li',
          {},
          'Point at a line of the log (or tap it) to light up the areas and blocks it ' +
            "names. The opponent's moves this game turn stay on the map as purple arrows.",
        ),
      ),
      h('h2', {}, 'Games'),
      h(
        'ul',
        {},
        h(
          'li',
          {},
          'Create a game in the lobby; an invite-only game gives a link to send, with a ' +
            'Copy button under "My games" on any device you log in on, until somebody joins.',
        ),
        h(
          'li',
          {},
          '"Games to watch" lists public games under way; observers see what an observer ' +
            'may (',
          rulesLink('13'),
          ').',
        ),
        h('li', {}, 'A finished game can be stepped through move by move from either seat.'),
      ),
      h('p', {}, h('a', { href: '#/' }, '← Back to the lobby')),
    ),
  );
}
