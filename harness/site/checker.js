// The course site as a student's browser shows it: harness/site/check.sh opens checker.html in
// headless Chromium, which loads every page of the site in an iframe, one after the other, and
// writes what it finds into its own page for --dump-dom to print. config.js (written by check.sh)
// names the pages and, for the pages made from Markdown, their source file. A JavaScript error of
// a page reaches the console, which check.sh reads from Chromium's log: checker.js logs
// "course-site-check: page NAME" before each page so that an error is charged to its page.
'use strict';

const config = window.COURSE_SITE;
const findings = [];
const add = (page, what) => findings.push(page + ': ' + what);
const short = (text) => {
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > 90 ? text.slice(0, 87) + '...' : text;
};

// Files read once (sync XHR: file:// allows it with --allow-file-access-from-files).
const files = new Map();
function readFile(url) {
  if (!files.has(url)) {
    let text = null;
    try {
      const request = new XMLHttpRequest();
      request.open('GET', url, false);
      request.send();
      if (request.status === 200 || request.status === 0) text = request.responseText;
    } catch (e) {
      text = null;
    }
    files.set(url, text);
  }
  return files.get(url);
}
const parsed = new Map();
function parsePage(url) {
  if (!parsed.has(url)) {
    const text = readFile(url);
    parsed.set(url, text === null ? null : new DOMParser().parseFromString(text, 'text/html'));
  }
  return parsed.get(url);
}

// --- raw Markdown or HTML, and options whose two hyphens became an en dash ----------------
const rawMarkup = [
  [/\*\*/, "'**'"],
  [/(^|[^A-Za-z0-9])__|__($|[^A-Za-z0-9])/, "'__'"],
  [/`/, 'a backtick'],
  [/&(lt|gt|amp|quot|nbsp);/, 'an HTML entity'],
  [/\\ilinebr/, "'\\ilinebr'"],
  [/<\/?(tt|td|tr|th|table|thead|tbody|b|i|em|strong|code|br|a|p|div|span|sup|sub|ul|ol|li|img|pre|kbd|hr|h[1-6]|details|summary|dl|dt|dd)(\s[^<>]*)?\/?>/i, 'an HTML tag'],
];
const enDashOption = /(^|[\s(\[\/,;:"'\u2018\u2019\u201c\u201d])\u2013[A-Za-z]/;

function textNodes(root) {
  // Code, and the API pages' C++ declarations (char **argv is C++ there, not Markdown).
  const skip = 'code, pre, kbd, samp, script, style, .fragment, .line, #nav-tree, #MSearchBox, #MSearchResultsWindow, ' +
    '.memproto, .memname, .memItemLeft, .memItemRight, .memTemplParams, .paramname, .paramtype, td.entry';
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent && !parent.closest(skip)) nodes.push(node);
  }
  return nodes;
}

function checkText(page, doc) {
  const root = doc.querySelector('div.contents') || doc.body;
  const seen = new Set();
  for (const node of textNodes(root)) {
    const text = node.data;
    // What the reader sees around the text: the enclosing paragraph, cell or heading.
    const around = () => short((node.parentElement.closest('p, li, td, th, h1, h2, h3, h4, div') || node.parentElement).textContent);
    for (const [pattern, name] of rawMarkup) {
      const match = text.match(pattern);
      if (match) {
        const line = 'raw markup (' + name + ') shows as text: "' + around() + '"';
        if (!seen.has(line)) { seen.add(line); add(page, line); }
      }
    }
    if (enDashOption.test(text)) {
      const line = 'an option shows an en dash where its source has two hyphens: "' + around() + '"';
      if (!seen.has(line)) { seen.add(line); add(page, line); }
    }
  }
  // Doxygen's own line-break marker is never right, not even inside code.
  if (root.textContent.includes('\\ilinebr')) add(page, "Doxygen's '\\ilinebr' shows as text: \"" + short(root.textContent.slice(Math.max(0, root.textContent.indexOf('\\ilinebr') - 40), root.textContent.indexOf('\\ilinebr') + 50)) + '"');
  // A page title is text too (Doxygen writes the first heading there).
  const title = doc.querySelector('div.headertitle, div.title');
  if (title && /\*\*|`|<\/?tt>|\\ilinebr/.test(title.textContent)) add(page, 'raw markup in the title: "' + short(title.textContent) + '"');
}

// --- tables: as many cells on the page as in the Markdown -----------------------------------
// The Markdown's pipe tables, in order: rows (header included) times the separator's columns.
function markdownTables(source) {
  const lines = source.split('\n');
  const tables = [];
  const separator = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
  let fence = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const opening = line.match(/^\s*(```|~~~)/);
    if (fence) { if (opening && opening[1] === fence) fence = null; continue; }
    if (opening) { fence = opening[1]; continue; }
    if (/^( {4}|\t)/.test(line) || !line.includes('|') || i + 1 >= lines.length) continue;
    const next = lines[i + 1];
    if (!separator.test(next) || !next.includes('-') || !(next.includes('|') || line.includes('|'))) continue;
    const columns = next.replace(/^\s*\|/, '').replace(/\|\s*$/, '').split('|').length;
    let rows = 1;
    let j = i + 2;
    while (j < lines.length && lines[j].includes('|') && lines[j].trim() !== '') { rows++; j++; }
    tables.push({ line: i + 1, rows: rows, columns: columns, header: short(line) });
    i = j - 1;
  }
  return tables;
}

function renderedCells(table) {
  let cells = 0;
  for (const cell of table.querySelectorAll('th, td')) cells += (cell.colSpan || 1) * (cell.rowSpan || 1);
  return cells;
}

function checkTables(page, doc, markdownUrl, markdownName) {
  const source = readFile(markdownUrl);
  if (source === null) { add(page, 'its Markdown source ' + markdownName + ' cannot be read'); return; }
  const expected = markdownTables(source);
  const shown = Array.from(doc.querySelectorAll('table.markdownTable'));
  if (shown.length < expected.length) {
    add(page, 'shows ' + shown.length + ' tables; ' + markdownName + ' has ' + expected.length);
  }
  for (let k = 0; k < Math.min(shown.length, expected.length); k++) {
    const want = expected[k].rows * expected[k].columns;
    const got = renderedCells(shown[k]);
    if (got < want) {
      add(page, 'table ' + (k + 1) + ' (' + markdownName + ' line ' + expected[k].line + ', "' + expected[k].header + '") renders as ' +
        got + ' cells; its Markdown has ' + want + ' (' + expected[k].rows + ' rows of ' + expected[k].columns + ')');
    }
  }
}

// --- images -------------------------------------------------------------------------------
function checkImages(page, doc) {
  for (const image of doc.querySelectorAll('img')) {
    if (!image.complete || image.naturalWidth === 0) {
      add(page, "the image '" + image.getAttribute('src') + "' does not load");
    } else if (image.closest('div.contents') && image.clientWidth < 0.6 * image.naturalWidth && !image.closest('a[href]')) {
      // Shrunk to fit the column: its detail must be a click away (harness/site/site.js).
      add(page, "the picture '" + image.getAttribute('src') + "' is shown at " + Math.round(100 * image.clientWidth / image.naturalWidth) +
        '% of its width and does not open at full size');
    }
  }
  for (const object of doc.querySelectorAll('object[data]')) {
    const url = new URL(object.getAttribute('data'), doc.baseURI).href;
    if (readFile(url) === null) add(page, "the picture '" + object.getAttribute('data') + "' does not load");
  }
}

// --- links and anchors inside the site ----------------------------------------------------
function hasAnchor(doc, name) {
  return doc.getElementById(name) !== null || doc.getElementsByName(name).length > 0;
}

function checkLinks(page, doc) {
  const site = config.site;
  const seen = new Set();
  for (const link of doc.querySelectorAll('a[href]')) {
    const href = link.getAttribute('href');
    if (/^(https?:|mailto:|javascript:|ftp:)/i.test(href) || href === '#' || href === '' || seen.has(href)) continue;
    seen.add(href);
    const url = new URL(href, doc.baseURI);
    const fragment = decodeURIComponent(url.hash.slice(1));
    url.hash = '';
    const file = url.href;
    const label = short(link.textContent) || href;
    if (url.protocol !== 'file:' || !file.startsWith(site)) {
      add(page, "the link '" + label + "' (" + href + ') leads outside the site');
      continue;
    }
    const same = file === doc.URL.replace(/#.*$/, '');
    const target = same ? doc : parsePage(file);
    if (target === null) { add(page, "the link '" + label + "' (" + href + ') leads to a page that does not exist'); continue; }
    if (fragment && !hasAnchor(target, fragment)) add(page, "the link '" + label + "' (" + href + ') leads to an anchor that does not exist');
  }
}

// --- code blocks: wider than their column only if they wrap or scroll inside their box ----
function checkCodeBlocks(page, doc, width) {
  const view = doc.defaultView;
  for (const block of doc.querySelectorAll('div.contents div.fragment, div.contents pre')) {
    if (block.parentElement.closest('div.fragment, pre')) continue;
    const style = view.getComputedStyle(block);
    const scrolls = /^(auto|scroll)$/.test(style.overflowX);
    const column = block.parentElement.closest('div.textblock, div.contents, td, li') || doc.body;
    const box = block.getBoundingClientRect();
    const room = column.getBoundingClientRect();
    const what = '"' + short(block.textContent).slice(0, 50) + '"';
    if (block.scrollWidth > block.clientWidth + 1 && !scrolls) {
      add(page, 'a code block ' + what + ' is wider than its box (' + block.scrollWidth + ' > ' + block.clientWidth +
        ' px at a ' + width + ' px window) and neither wraps nor scrolls');
    } else if (box.right > room.right + 1 || box.right > view.innerWidth + 1) {
      add(page, 'a code block ' + what + ' runs past its column (' + Math.round(box.right) + ' > ' +
        Math.round(Math.min(room.right, view.innerWidth)) + ' px at a ' + width + ' px window)');
    }
  }
}

// --- the pages, one after the other --------------------------------------------------------
const frame = document.getElementById('page');
let next = 0;
let width = config.widths[0];

function checkPage(entry) {
  const doc = frame.contentDocument;
  if (!doc || !doc.body || doc.URL === 'about:blank') { add(entry.html, 'the page does not open'); return; }
  // A collapsed section is checked as a reader sees it once opened.
  for (const section of doc.querySelectorAll('details')) section.open = true;
  if (width === config.widths[0]) {
    checkText(entry.html, doc);
    if (entry.markdown) checkTables(entry.html, doc, entry.markdown, entry.markdownName);
    checkImages(entry.html, doc);
    checkLinks(entry.html, doc);
  }
  checkCodeBlocks(entry.html, doc, width);
}

function openNext() {
  if (next === config.pages.length) {
    const at = config.widths.indexOf(width) + 1;
    if (at === config.widths.length) { finish(); return; }
    width = config.widths[at];
    frame.style.width = width + 'px';
    next = 0;
  }
  const entry = config.pages[next++];
  console.log('course-site-check: page ' + entry.html);
  frame.onload = () => {
    // Doxygen's own scripts lay the page out on load (the side bar, the menus and the search
    // box's pictures): the page is checked once its pictures are in, or after 5 s.
    const started = Date.now();
    const settled = () => {
      const doc = frame.contentDocument;
      const loading = doc ? Array.from(doc.images).some((image) => !image.complete) : false;
      if (loading && Date.now() - started < 5000) { setTimeout(settled, 50); return; }
      try { checkPage(entry); } catch (e) { add(entry.html, 'the check itself failed on it: ' + e); }
      openNext();
    };
    setTimeout(settled, 50);
  };
  frame.src = config.site + entry.html;
}

function finish() {
  console.log('course-site-check: page (done)');
  const out = document.getElementById('findings');
  out.textContent = findings.map((line) => 'DEFECT ' + line).join('\n');
  document.getElementById('status').textContent = 'checked ' + config.pages.length + ' pages';
}

window.onerror = (message) => {
  document.getElementById('status').textContent = 'the checker failed: ' + message;
};
if (!config || !config.pages || config.pages.length === 0) {
  document.getElementById('status').textContent = 'the checker failed: no pages to check';
} else {
  openNext();
}
