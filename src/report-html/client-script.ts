/**
 * The page's own script: reads the head and the rows from their JSON elements, then draws each section by its own
 * function, in the page's order: the run, the verdict, the counts (each with its status's meaning), the flips (one
 * list per direction, each item a link to its row), the tier matrix, the score chart, the age histogram, the nights'
 * charts and the virtual rows table.
 *
 * Each row of the table is `#row-<n>`, `n` its place in the report (the JSON report's `agents[n]`); a link to it
 * (a flip, or a URL ending in `#row-<n>`) brings it on screen, clearing the filters that hide it. The row height
 * comes from the stylesheet (`--row-height`), which changes with the layout.
 *
 * Every value is set with `textContent` (never as markup), and the table keeps in the document only the rows on
 * screen, whatever the number of rows. It runs in the browser: plain ES2017, no module, uPlot as the global `uPlot`.
 *
 * @packageDocumentation
 */

/** The script's text, inlined into the page (its SHA-256 hash is in the page's Content-Security-Policy). */
export const CLIENT_SCRIPT = String.raw`(function () {
"use strict";
performance.mark("page-script-start");
var byId = function (id) { return document.getElementById(id); };
var head = JSON.parse(byId("page-head").textContent);
var rows = JSON.parse(byId("page-rows").textContent);
var C = {};
head.columns.forEach(function (name, i) { C[name] = i; });
var FLIP_NAMES = ["", "pass→fail", "fail→pass"];
var NONE = "—";

function el(tag, className, text) {
  var node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}
function time(seconds) { return seconds === null ? NONE : new Date(seconds * 1000).toISOString().replace(".000Z", "Z"); }
function show(value) { return value === null ? NONE : String(value); }
function agentOf(row) { return row[C.chain] + ":" + row[C.agentId] + ":" + row[C.registry]; }

/* The run, the verdict, the --max-errors state. */
function drawRun() {
  byId("run").textContent = "Generated " + head.generatedAt + " · oracle " + head.source.oracle + " on chain " + head.source.chainId +
    (head.source.blockNumber === null ? "" : " at block " + head.source.blockNumber) + " · rule " + head.decisionRule +
    " · stale after " + Math.round(head.maxAgeSeconds / 360) / 10 + " h · service " + head.source.api;
}
function drawVerdict() {
  byId("verdict").className = "verdict exit-" + head.verdict.exitCode;
  byId("verdict-code").textContent = "exit " + head.verdict.exitCode;
  byId("verdict-reason").textContent = head.verdict.reason;
  var u = head.unverified;
  byId("unverified").textContent = "--max-errors: " + u.count + " of " + head.agents + " agents unverified; the limit (" + u.limit +
    ") allows " + u.allowed + (u.exceeded ? ": exceeded, the run exits 4." : ": within the limit.");
}

/* The counts, each with what its status means; a zero count stays neutral (data-zero). */
function drawCounts() {
  head.statuses.forEach(function (status) {
    var item = el("li");
    item.dataset.status = status;
    if (head.byStatus[status] === 0) item.dataset.zero = "";
    item.appendChild(el("dfn", null, status));
    item.appendChild(el("span", "count", head.byStatus[status]));
    item.appendChild(el("span", "meaning", head.statusMeanings[status]));
    byId("counts").appendChild(item);
  });
  byId("notes").textContent = head.notes.join(" ");
}

/* The flips, one list per direction; each item links to its row. */
var FLIPS_LISTED = 200;
function drawFlips() {
  byId("flip-counts").textContent = head.flips.passToFail + " pass→fail, " + head.flips.failToPass + " fail→pass";
  [byId("flips-pass-to-fail"), byId("flips-fail-to-pass")].forEach(function (list) {
    var direction = Number(list.dataset.flip);
    var listed = 0;
    var more = 0;
    for (var i = 0; i < rows.length; i++) {
      var row = rows[i];
      if (row[C.flip] !== direction) continue;
      if (listed === FLIPS_LISTED) { more++; continue; }
      listed++;
      var item = el("li");
      var link = el("a", null, agentOf(row));
      link.href = "#row-" + i;
      link.dataset.index = String(i);
      link.addEventListener("click", revealFromLink);
      item.appendChild(link);
      item.appendChild(document.createTextNode("  " + show(row[C.onchainScore]) + " → " + show(row[C.attestedScore])));
      list.appendChild(item);
    }
    if (more > 0) list.appendChild(el("li", "muted", more + " more in the table"));
    if (listed === 0) list.appendChild(el("li", "muted", "none"));
  });
}
function revealFromLink(event) { revealRow(Number(event.currentTarget.dataset.index)); }

/* The table's state: filters, sort, the rows in view. */
var filter = { status: -1, chain: null, tier: null, text: "", matrix: null };
var sort = { column: -1, descending: false };
var view = new Uint32Array(0);

/* The tier matrix: on-chain tier (rows) against attested tier (columns), the kit's tiers lowest first, then any
   other tier, then a side without a tier, set apart: "(missing)" (no record, or no attestation), "(invalid)" (the
   attestation does not verify) and "(error)" (it could not be read). */
var NO_TIER = { "invalid-attestation": "(invalid)", error: "(error)" };
var NO_TIER_ORDER = ["(missing)", "(invalid)", "(error)"];
function tierKey(row, tier) {
  if (tier !== null) return tier;
  return NO_TIER[head.statuses[row[C.status]]] || "(missing)";
}
function onchainKey(row) { return tierKey(row, row[C.onchainTier]); }
function attestedKey(row) { return tierKey(row, row[C.attestedTier]); }
function tierRank(key) {
  var known = head.tiers.indexOf(key);
  if (known >= 0) return known;
  var apart = NO_TIER_ORDER.indexOf(key);
  return apart >= 0 ? head.tiers.length + 1 + apart : head.tiers.length;
}
function tierOrder(a, b) { return tierRank(a) - tierRank(b) || (a < b ? -1 : a > b ? 1 : 0); }
function isApart(key) { return NO_TIER_ORDER.indexOf(key) >= 0; }
var matrix = byId("matrix");
var onList = [];
var atList = [];
function drawMatrix() {
  var matrixCounts = new Map();
  var onTiers = new Set();
  var atTiers = new Set();
  rows.forEach(function (row) {
    var on = onchainKey(row);
    var at = attestedKey(row);
    onTiers.add(on);
    atTiers.add(at);
    var key = on + "\u0000" + at;
    matrixCounts.set(key, (matrixCounts.get(key) || 0) + 1);
  });
  onList = Array.from(onTiers).sort(tierOrder);
  atList = Array.from(atTiers).sort(tierOrder);
  var firstApart = function (list, key, k) { return isApart(key) && (k === 0 || !isApart(list[k - 1])); };
  var headRow = el("tr");
  headRow.appendChild(el("th", null, "on-chain ↓ attested →"));
  atList.forEach(function (at, k) {
    var th = el("th", firstApart(atList, at, k) ? "apart" : null, at);
    th.scope = "col";
    headRow.appendChild(th);
  });
  matrix.appendChild(headRow);
  onList.forEach(function (on, j) {
    var line = el("tr", firstApart(onList, on, j) ? "apart" : null);
    var th = el("th", null, on);
    th.scope = "row";
    line.appendChild(th);
    atList.forEach(function (at, k) {
      var count = matrixCounts.get(on + "\u0000" + at) || 0;
      var cell = el("td", (on === at ? "diagonal " : "") + (firstApart(atList, at, k) ? "apart" : ""));
      if (count > 0) {
        var button = el("button", null, count);
        button.type = "button";
        button.dataset.onchain = on;
        button.dataset.attested = at;
        button.addEventListener("click", function () {
          filter.matrix = { onchain: on, attested: at, cell: cell };
          update();
          byId("rows-title").scrollIntoView({ block: "start" });
        });
        cell.appendChild(button);
      }
      line.appendChild(cell);
    });
    matrix.appendChild(line);
  });
}

drawRun();
drawVerdict();
drawCounts();
drawFlips();
drawMatrix();

/* The score chart: one point per agent with both scores, the flips apart, the threshold drawn. */
var plain = [[], []];
var flips = [[], []];
rows.forEach(function (row) {
  var on = row[C.onchainScore];
  var at = row[C.attestedScore];
  if (on === null || at === null) return;
  var target = row[C.flip] === 0 ? plain : flips;
  target[0].push(on);
  target[1].push(at);
});
function drawLines(u, xs, ys, colour) {
  var ctx = u.ctx;
  ctx.save();
  ctx.strokeStyle = colour;
  ctx.lineWidth = 1.5 * devicePixelRatio;
  ctx.setLineDash([6, 4]);
  xs.forEach(function (x) {
    var px = u.valToPos(x, "x", true);
    ctx.beginPath(); ctx.moveTo(px, u.bbox.top); ctx.lineTo(px, u.bbox.top + u.bbox.height); ctx.stroke();
  });
  ys.forEach(function (y) {
    var py = u.valToPos(y, "y", true);
    ctx.beginPath(); ctx.moveTo(u.bbox.left, py); ctx.lineTo(u.bbox.left + u.bbox.width, py); ctx.stroke();
  });
  ctx.restore();
}
var threshold = head.threshold === null ? [] : [head.threshold];
/* uPlot's scatter mode draws each series through its paths function: one square per point, in one Path2D. */
function pointPaths(size) {
  return function (u, seriesIndex) {
    var xs = u.data[seriesIndex][0];
    var ys = u.data[seriesIndex][1];
    var side = size * devicePixelRatio;
    var path = new Path2D();
    for (var k = 0; k < xs.length; k++) {
      path.rect(u.valToPos(xs[k], "x", true) - side / 2, u.valToPos(ys[k], "y", true) - side / 2, side, side);
    }
    return { stroke: new Path2D(), fill: path };
  };
}
function pointSeries(label, colour, size) {
  return { label: label, stroke: colour, fill: colour, width: 0, points: { show: false }, paths: pointPaths(size) };
}
/* A chart takes its section's width, at most its own. */
function widthIn(id, most) { return Math.max(200, Math.min(most, byId(id).clientWidth || most)); }
new uPlot({
  width: widthIn("scatter", 380), height: 340, mode: 2,
  scales: { x: { time: false, range: [0, 100] }, y: { range: [0, 100] } },
  axes: [{ label: "on-chain score" }, { label: "attested score" }],
  cursor: { show: false },
  legend: { live: false },
  series: [{}, pointSeries("agents", "rgba(9,105,218,0.35)", 3), pointSeries("flips", "#cf222e", 5)],
  hooks: { draw: [function (u) { drawLines(u, threshold, threshold, "#57606a"); }] }
}, [null, plain, flips], byId("scatter"));

/* The record ages: on-chain updatedAt and attested issuedAt, in hours before the report; the staleness limit drawn. */
var generated = Date.parse(head.generatedAt) / 1000;
var maxAgeHours = head.maxAgeSeconds / 3600;
var maxHours = maxAgeHours;
rows.forEach(function (row) {
  var a = row[C.onchainUpdatedAt];
  var b = row[C.attestedIssuedAt];
  if (a !== null) maxHours = Math.max(maxHours, (generated - a) / 3600);
  if (b !== null) maxHours = Math.max(maxHours, (generated - b) / 3600);
});
var BINS = 40;
var binHours = Math.max(maxHours * 1.05, 1) / BINS;
var binStarts = [];
var onchainAges = [];
var attestedAges = [];
for (var b = 0; b < BINS; b++) { binStarts.push(b * binHours); onchainAges.push(0); attestedAges.push(0); }
rows.forEach(function (row) {
  var a = row[C.onchainUpdatedAt];
  var t = row[C.attestedIssuedAt];
  if (a !== null) onchainAges[Math.min(BINS - 1, Math.max(0, Math.floor((generated - a) / 3600 / binHours)))]++;
  if (t !== null) attestedAges[Math.min(BINS - 1, Math.max(0, Math.floor((generated - t) / 3600 / binHours)))]++;
});
var bars = uPlot.paths.bars({ size: [0.45, 40], align: 1 });
var barsAfter = uPlot.paths.bars({ size: [0.45, 40], align: -1 });
new uPlot({
  width: widthIn("ages", 380), height: 340,
  scales: { x: { time: false, range: [0, BINS * binHours] } },
  axes: [{ label: "age (hours)" }, { label: "agents" }],
  cursor: { show: false },
  legend: { live: false },
  series: [{}, { label: "on-chain updatedAt", fill: "rgba(9,105,218,0.6)", stroke: "#0969da", paths: bars, points: { show: false } },
    { label: "attested issuedAt", fill: "rgba(130,80,223,0.6)", stroke: "#8250df", paths: barsAfter, points: { show: false } }],
  hooks: { draw: [function (u) { drawLines(u, [maxAgeHours], [], "#cf222e"); }] }
}, [binStarts, onchainAges, attestedAges], byId("ages"));

/* The nights before (the state file's history): a small chart per measure, its numbers in a table under it. The
   agents per status are on a log scale (in-sync's thousands would flatten the rest), each status in its cards'
   colour; a zero is a gap on that scale, and stays 0 in the numbers. */
function drawHistory() {
  if (head.history.length === 0) return;
  byId("history-section").hidden = false;
  var nights = head.history.map(function (night) { return Date.parse(night.finishedAt) / 1000; });
  var small = function (name, title, series, data, log) {
    var box = el("figure", "night-chart");
    box.dataset.chart = name;
    box.appendChild(el("figcaption", "muted", title));
    byId("history").appendChild(box);
    var drawn = log ? data.map(function (values) { return values.map(function (v) { return v > 0 ? v : null; }); }) : data;
    var chart = new uPlot({ width: widthIn("history", 360), height: 180, cursor: { show: false },
      scales: log ? { y: { distr: 3, log: 10 } } : {},
      legend: { live: false }, series: [{}].concat(series) }, [nights].concat(drawn), box);
    box.dataset.yScale = chart.scales.y.distr === 3 ? "log" : "linear";
    var numbers = el("details");
    numbers.appendChild(el("summary", "muted", "numbers"));
    var table = el("table", "night-values");
    var titles = el("tr");
    titles.appendChild(el("th", null, "night finished"));
    series.forEach(function (s) { titles.appendChild(el("th", null, s.label)); });
    table.appendChild(el("thead")).appendChild(titles);
    var body = table.appendChild(el("tbody"));
    head.history.forEach(function (night, n) {
      var line = el("tr");
      line.appendChild(el("th", null, night.finishedAt));
      data.forEach(function (values) { line.appendChild(el("td", null, values[n])); });
      body.appendChild(line);
    });
    numbers.appendChild(table);
    box.appendChild(numbers);
  };
  small("statuses", "agents per status (log scale)",
    head.statuses.map(function (status) { return { label: status, stroke: head.statusColours[status], width: 2 }; }),
    head.statuses.map(function (status) { return head.history.map(function (night) { return night.statuses[status] || 0; }); }), true);
  small("flips", "flips", [{ label: "pass→fail", stroke: "#cf222e" }, { label: "fail→pass", stroke: "#2da44e" }],
    [head.history.map(function (n) { return n.flips.passToFail; }), head.history.map(function (n) { return n.flips.failToPass; })], false);
  small("signed-fetches", "signed fetches", [{ label: "signed fetches", stroke: "#0969da" }], [head.history.map(function (n) { return n.signedFetches; })], false);
}
drawHistory();

/* The rows table: filters, sorting, and only the rows on screen in the document. Each cell's class names its column
   (col-<id>), which the narrow layout places; data-label names the value there. */
var COLUMNS = [
  { id: "status", title: "Status", value: function (r) { return head.statuses[r[C.status]]; }, sortBy: function (r) { return r[C.status]; }, cls: function (r) { return "status-" + head.statuses[r[C.status]]; } },
  { id: "agent", title: "Agent", value: agentOf },
  { id: "onscore", title: "On-chain", key: C.onchainScore, num: true, label: "on-chain" },
  { id: "ontier", title: "Tier", key: C.onchainTier },
  { id: "updated", title: "Updated", key: C.onchainUpdatedAt, format: time, label: "updated" },
  { id: "atscore", title: "Attested", key: C.attestedScore, num: true, label: "attested" },
  { id: "attier", title: "Tier", key: C.attestedTier },
  { id: "issued", title: "Issued", key: C.attestedIssuedAt, format: time, label: "issued" },
  { id: "delta", title: "Δ", key: C.scoreDelta, num: true, label: "Δ" },
  { id: "flip", title: "Flip", value: function (r) { return FLIP_NAMES[r[C.flip]] || NONE; }, cls: function (r) { return "flip-" + r[C.flip]; }, label: "flip" },
  { id: "reason", title: "Reason", key: C.reason }
];
COLUMNS.forEach(function (column) {
  if (!column.value) column.value = function (r) { return r[column.key]; };
});
var tableHead = byId("table-head");
var sortButtons = COLUMNS.map(function (column, k) {
  var button = el("button", null, column.title);
  button.type = "button";
  button.dataset.column = String(k);
  button.addEventListener("click", function () {
    sort = sort.column === k ? { column: k, descending: !sort.descending } : { column: k, descending: false };
    update();
  });
  tableHead.appendChild(button);
  return button;
});

function options(select, labels, values) {
  labels.forEach(function (label, k) {
    var option = el("option", null, label);
    option.value = String(values[k]);
    select.appendChild(option);
  });
}
options(byId("filter-status"), ["all"].concat(head.statuses), [-1].concat(head.statuses.map(function (_, k) { return k; })));
var chains = Array.from(new Set(rows.map(function (r) { return r[C.chain]; }))).sort();
options(byId("filter-chain"), ["all"].concat(chains), [""].concat(chains));
var tiers = Array.from(new Set(onList.concat(atList))).sort(tierOrder);
options(byId("filter-tier"), ["all"].concat(tiers), [""].concat(tiers));
byId("filter-status").addEventListener("change", function (e) { filter.status = Number(e.target.value); update(); });
byId("filter-chain").addEventListener("change", function (e) { filter.chain = e.target.value || null; update(); });
byId("filter-tier").addEventListener("change", function (e) { filter.tier = e.target.value || null; update(); });
byId("filter-text").addEventListener("input", function (e) { filter.text = e.target.value.toLowerCase(); update(); });
byId("filter-matrix").addEventListener("click", function () { filter.matrix = null; update(); });

function matches(row) {
  if (filter.status >= 0 && row[C.status] !== filter.status) return false;
  if (filter.chain !== null && row[C.chain] !== filter.chain) return false;
  var on = onchainKey(row);
  var at = attestedKey(row);
  if (filter.tier !== null && on !== filter.tier && at !== filter.tier) return false;
  if (filter.matrix !== null && (on !== filter.matrix.onchain || at !== filter.matrix.attested)) return false;
  if (filter.text !== "") {
    var text = (agentOf(row) + " " + on + " " + at + " " + (row[C.reason] || "")).toLowerCase();
    if (text.indexOf(filter.text) < 0) return false;
  }
  return true;
}
/* Every filter off, and the controls saying so. */
function clearFilters() {
  filter = { status: -1, chain: null, tier: null, text: "", matrix: null };
  byId("filter-status").value = "-1";
  byId("filter-chain").value = "";
  byId("filter-tier").value = "";
  byId("filter-text").value = "";
}
function compare(a, b) {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  return a < b ? -1 : 1;
}
function update() {
  var kept = [];
  for (var k = 0; k < rows.length; k++) if (matches(rows[k])) kept.push(k);
  if (sort.column >= 0) {
    var value = COLUMNS[sort.column].sortBy || COLUMNS[sort.column].value;
    var keys = new Map();
    kept.forEach(function (k) { keys.set(k, value(rows[k])); });
    var sign = sort.descending ? -1 : 1;
    kept.sort(function (a, b) {
      var ka = keys.get(a);
      var kb = keys.get(b);
      if (ka === null || ka === undefined || kb === null || kb === undefined) return compare(ka, kb) || a - b;
      return sign * compare(ka, kb) || a - b;
    });
  }
  view = Uint32Array.from(kept);
  sortButtons.forEach(function (button, k) {
    if (k === sort.column) button.setAttribute("aria-sort", sort.descending ? "descending" : "ascending");
    else button.removeAttribute("aria-sort");
  });
  var chip = byId("filter-matrix");
  matrix.querySelectorAll("td.active").forEach(function (cell) { cell.classList.remove("active"); });
  if (filter.matrix !== null) {
    chip.hidden = false;
    chip.textContent = "on-chain " + filter.matrix.onchain + " → attested " + filter.matrix.attested + " ✕";
    filter.matrix.cell.classList.add("active");
  } else chip.hidden = true;
  byId("rows-count").textContent = view.length + " of " + rows.length + " shown";
  byId("rows-count").dataset.shown = String(view.length);
  layout();
  tableView.scrollTop = 0;
  paint();
}
var tableView = byId("table-view");
var tableSpacer = byId("table-spacer");
var tableBody = byId("table-body");
var rowHeight = 24;
var target = -1;
/* The row height of the layout in force (the stylesheet's --row-height), and the rows' full height from it. */
function layout() {
  rowHeight = parseFloat(getComputedStyle(tableView).getPropertyValue("--row-height")) || 24;
  tableSpacer.style.height = view.length * rowHeight + "px";
}
function paint() {
  var above = Math.max(0, tableView.scrollTop - tableSpacer.offsetTop);
  var first = Math.floor(above / rowHeight);
  var last = Math.min(view.length, first + Math.ceil(tableView.clientHeight / rowHeight) + 2);
  tableBody.style.top = first * rowHeight + "px";
  tableBody.replaceChildren();
  for (var k = first; k < last; k++) {
    var row = rows[view[k]];
    var line = el("div", view[k] === target ? "table-row target" : "table-row");
    line.id = "row-" + view[k];
    line.dataset.index = String(view[k]);
    COLUMNS.forEach(function (column) {
      var raw = column.value(row);
      var text = column.format ? column.format(raw) : show(raw === undefined ? null : raw);
      var cell = el("span", "col-" + column.id + (column.num ? " num" : "") + (column.cls ? " " + column.cls(row) : ""), text);
      if (column.label) cell.dataset.label = column.label;
      cell.title = text;
      line.appendChild(cell);
    });
    tableBody.appendChild(line);
  }
}
/* Brings row n (the report's agents[n]) on screen: in the table's view (clearing the filters if they hide it),
   marked, and the page scrolled to it. */
function revealRow(index) {
  if (!(index >= 0 && index < rows.length)) return;
  var position = view.indexOf(index);
  if (position < 0) {
    clearFilters();
    update();
    position = view.indexOf(index);
  }
  target = index;
  tableView.scrollTop = tableSpacer.offsetTop + position * rowHeight - (tableView.clientHeight - rowHeight) / 2;
  paint();
  byId("row-" + index).scrollIntoView({ block: "center" });
}
function revealFromHash() {
  var match = /^#row-(\d+)$/.exec(location.hash);
  if (match) revealRow(Number(match[1]));
}
var paintPending = false;
tableView.addEventListener("scroll", function () {
  if (paintPending) return;
  paintPending = true;
  requestAnimationFrame(function () { paintPending = false; paint(); });
}, { passive: true });
window.addEventListener("resize", function () { layout(); paint(); });
window.addEventListener("hashchange", revealFromHash);
update();
revealFromHash();
performance.measure("page-script", "page-script-start");
document.documentElement.dataset.ready = "true";
})();
`;
