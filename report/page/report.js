// The report page: decodes the embedded report (layout: report/page_data.hpp)
// and shows it in three linked trees, as the Cube browser does. Every name
// from the report reaches the document as text (textContent), never as
// markup.
"use strict";

// What the page's other views (timeline.js) hook in:
// promises the findings wait for before they are shown, functions that
// give a wait-state finding more to say (metric id -> a node or null), and
// functions called after each change of the selection (with the browser).
const pageViews = { loading: [], waitLinks: [], onUpdate: [] };

// ---------------------------------------------------------------- data ---

// Base64 to bytes, without a callback per character (pages reach tens of MB).
function fromBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; ++i) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

// Reads the layout of report/page_data.hpp; the integer arrays are views
// into the inflated buffer, the values are put together from their byte
// planes.
async function decodeData() {
  const packed = fromBase64(document.getElementById("report-data").textContent.trim());
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip"));
  const buffer = await new Response(stream).arrayBuffer();
  const bytes = new DataView(buffer);
  let at = 0;
  const u32 = () => { const v = bytes.getUint32(at, true); at += 4; return v; };
  const u32s = (n) => { const a = new Uint32Array(buffer, at, n); at += 4 * n; return a; };
  const length = u32();
  const structure = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, at, length)));
  at += length;
  const width = structure.locations.length;
  structure.values = structure.metrics.map(() => {
    const rows = u32();
    const cnode = u32s(rows), count = u32s(rows);
    const listed = u32s(u32());
    const start = new Uint32Array(rows + 1);
    const location = new Array(rows);
    for (let r = 0, l = 0; r < rows; ++r) {
      start[r + 1] = start[r] + count[r];
      location[r] = count[r] < width ? listed.subarray(l, l += count[r]) : null;
    }
    const n = start[rows];
    const planes = new Uint8Array(buffer, at, 8 * n), bytes = new Uint8Array(8 * n);
    for (let b = 0; b < 8; ++b)
      for (let i = 0, p = b * n; i < n; ++i, ++p) bytes[8 * i + b] = planes[p];
    const value = new Float64Array(bytes.buffer);
    at += 8 * n;
    return { cnode, start, location, value };
  });
  return structure;
}

// The JSON a side file of the report put in the element `id` (compressed
// and base64-encoded as the report's data is), or null when it is empty.
async function decodeEmbeddedJson(id) {
  const text = document.getElementById(id).textContent.trim();
  if (!text) return null;
  const stream = new Blob([fromBase64(text)]).stream().pipeThrough(new DecompressionStream("gzip"));
  return JSON.parse(await new Response(stream).text());
}

// Children lists and roots of a forest given by parent indices (-1: root).
function forest(parents) {
  const children = parents.map(() => []);
  const roots = [];
  parents.forEach((p, i) => (p < 0 ? roots : children[p]).push(i));
  return { children, roots };
}

// ----------------------------------------------------------- the model ---

// How a metric's values combine over locations, call paths and system
// nodes: summed, or (Score-P's minimum and maximum time) their minimum or
// maximum, where 0 stands for "no value" and is left out.
function combiner(kind) {
  if (kind === "min") return (a, b) => (a === 0 ? b : b === 0 ? a : Math.min(a, b));
  if (kind === "max") return (a, b) => (a === 0 ? b : b === 0 ? a : Math.max(a, b));
  return (a, b) => a + b;
}

class Model {
  constructor(data) {
    this.data = data;
    this.metricTree = forest(data.metrics.map((m) => m.parent));
    this.callTree = forest(data.cnodes.map((c) => c[1]));
    this.width = data.locations.length;
    this.rowSums = new Map();  // metric -> Float64Array of stored values per call path, summed over locations
    this.totals = new Map();   // "metric/inclusive" -> the metric's total
  }

  metricRoot(m) { while (this.data.metrics[m].parent >= 0) m = this.data.metrics[m].parent; return m; }
  regionName(c) { return this.data.regions[this.data.cnodes[c][0]][0]; }
  pathOf(c) { const path = []; for (; c >= 0; c = this.data.cnodes[c][1]) path.unshift(this.regionName(c)); return path; }

  combine(m) { return combiner(this.data.metrics[m].aggregate); }
  // Whether metric m's stored value includes its sub-metric `child`'s.
  includesChild(m, child) {
    const ms = this.data.metrics;
    return ms[m].aggregate === "sum" && ms[child].aggregate === "sum" && ms[m].computed && ms[child].computed;
  }

  storedRowSums(m) {
    let sums = this.rowSums.get(m);
    if (sums) return sums;
    sums = new Float64Array(this.data.cnodes.length);
    const v = this.data.values[m], combine = this.combine(m);
    for (let r = 0; r < v.cnode.length; ++r) {
      let s = 0;
      for (let i = v.start[r]; i < v.start[r + 1]; ++i) s = combine(s, v.value[i]);
      sums[v.cnode[r]] = s;
    }
    this.rowSums.set(m, sums);
    return sums;
  }

  // Per call path, summed over locations: metric m including its
  // sub-metrics, or without them (its own share).
  metricRows(m, inclusive) {
    const stored = this.storedRowSums(m);
    if (inclusive || this.metricTree.children[m].length === 0) return stored;
    const own = Float64Array.from(stored);
    for (const child of this.metricTree.children[m]) {
      if (!this.includesChild(m, child)) continue;
      const s = this.storedRowSums(child);
      for (let c = 0; c < own.length; ++c) own[c] -= s[c];
    }
    return own;
  }

  // Per call path: the call path alone, or with all its callees.
  static subtreeSums(rows, tree, combine) {
    const sums = Float64Array.from(rows);
    // Iterative, for deep call trees: children before parents.
    const order = [];
    const stack = [...tree.roots];
    while (stack.length) { const c = stack.pop(); order.push(c); stack.push(...tree.children[c]); }
    for (let i = order.length - 1; i >= 0; --i) {
      const c = order[i];
      for (const k of tree.children[c]) sums[c] = combine(sums[c], sums[k]);
    }
    return sums;
  }

  metricTotal(m, inclusive) {
    const key = `${m}/${inclusive}`;
    if (!this.totals.has(key)) this.totals.set(key, this.metricRows(m, inclusive).reduce(this.combine(m), 0));
    return this.totals.get(key);
  }

  // Per location: metric m (with or without sub-metrics) at the call paths
  // marked in `cnodes` (a Set).
  locationValues(m, inclusive, cnodes) {
    const out = new Float64Array(this.width);
    const combine = this.combine(m);
    const add = (metric, sign) => {
      const v = this.data.values[metric];
      for (let r = 0; r < v.cnode.length; ++r) {
        if (!cnodes.has(v.cnode[r])) continue;
        const locations = v.location[r];
        for (let i = v.start[r], k = 0; i < v.start[r + 1]; ++i, ++k) {
          const l = locations ? locations[k] : k;
          out[l] = combine(out[l], sign * v.value[i]);
        }
      }
    };
    add(m, 1);
    if (!inclusive) for (const child of this.metricTree.children[m]) if (this.includesChild(m, child)) add(child, -1);
    return out;
  }

  metricNamed(id) { return this.data.metrics.findIndex((m) => m.id === id); }

  // The `count` (call path, rank) cells where the stored values of the
  // metrics `ms` add up to most, largest first (ties: call path, then rank
  // order); zero cells left out. One pass over the rows, call path by call
  // path, keeping only the best `count` cells. With `sign` -1: the most
  // negative (a difference's largest decreases).
  largestCells(ms, count, sign = 1) {
    const groups = this.data.groups.length;
    const rowsOf = new Map();  // call path -> [metric, row] of the metrics asked for
    for (const m of ms) {
      const v = this.data.values[m];
      for (let r = 0; r < v.cnode.length; ++r) {
        if (!rowsOf.has(v.cnode[r])) rowsOf.set(v.cnode[r], []);
        rowsOf.get(v.cnode[r]).push([m, r]);
      }
    }
    const sums = new Float64Array(groups);
    const best = [];
    for (const cnode of [...rowsOf.keys()].sort((a, b) => a - b)) {
      sums.fill(0);
      for (const [m, r] of rowsOf.get(cnode)) {
        const v = this.data.values[m], locations = v.location[r];
        for (let i = v.start[r], k = 0; i < v.start[r + 1]; ++i, ++k)
          sums[this.data.locations[locations ? locations[k] : k][2]] += v.value[i];
      }
      for (let g = 0; g < groups; ++g) {
        const key = sign * sums[g];
        if (!(key > 0) || (best.length === count && key <= sign * best[count - 1].value)) continue;
        let at = best.length;
        while (at > 0 && sign * best[at - 1].value < key) --at;
        best.splice(at, 0, { cnode, group: g, value: sums[g] });
        if (best.length > count) best.pop();
      }
    }
    return best;
  }

  // The `count` call paths of largest stored value of metric m.
  largestCallPaths(m, count) {
    const rows = this.storedRowSums(m);
    return [...rows.keys()].filter((c) => rows[c] > 0).sort((a, b) => rows[b] - rows[a] || a - b).slice(0, count)
      .map((c) => ({ cnode: c, group: -1, value: rows[c] }));
  }

  subtreeOf(c) {
    const set = new Set();
    const stack = [c];
    while (stack.length) { const x = stack.pop(); set.add(x); stack.push(...this.callTree.children[x]); }
    return set;
  }
}

// ------------------------------------------------------------- display ---

const SI = [[1e-9, "n"], [1e-6, "µ"], [1e-3, "m"], [1, ""], [1e3, "k"], [1e6, "M"], [1e9, "G"]];

// A metric's value for people; "not computed" for a metric whose values the
// report does not hold (a derived metric), never a 0 that looks like data.
function formatMetricValue(value, metric) {
  return metric.computed ? formatValue(value, metric.unit, metric.integer) : "not computed";
}

// A value for people: 4 significant digits with an SI prefix, counts below
// a million in full ("0.000999999 s" -> "1 ms", 1234 visits -> "1,234").
function formatValue(value, unit, integer) {
  if (value === 0) return "0";
  const a = Math.abs(value);
  if (integer && unit !== "sec" && a < 1e6) return Math.round(value).toLocaleString("en-US");
  let s = 0;
  while (s + 1 < SI.length && a >= SI[s + 1][0]) ++s;
  // Rounding may reach the next prefix: 999.96 µs is 1 ms.
  if (s + 1 < SI.length && Math.abs(Number((value / SI[s][0]).toPrecision(4))) >= 1000) ++s;
  const digits = (value / SI[s][0]).toPrecision(4);
  const shown = digits.includes(".") && !digits.includes("e") ? digits.replace(/\.?0+$/, "") : digits;
  const base = unit === "sec" ? "s" : unit === "bytes" ? "B" : unit === "occ" ? "" : unit;
  return `${shown} ${SI[s][1]}${base}`.trim();
}

// A share in percent: two decimals, or two significant digits below 0.01 %.
// Below a billionth of the base it is the rounding noise of sums of both
// signs (a difference's changes that cancel), not a share: 0.
function formatPercent(value, base) {
  const p = 100 * value / (base || 1);
  if (Math.abs(p) < 1e-7) return "0.00 %";
  return `${Math.abs(p) >= 0.01 ? p.toFixed(2) : p.toPrecision(2)} %`;
}

// Statistics of per-rank values: the minimum and maximum with their
// indices (the first of equals), the quartiles and median (interpolated
// between neighbouring values), the mean, and the imbalance: how far the
// maximum lies above the mean. Null for no values.
function rankStatistics(values) {
  const n = values.length;
  if (!n) return null;
  const sorted = Float64Array.from(values).sort();
  const quantile = (q) => {
    const at = q * (n - 1), i = Math.floor(at), fraction = at - i;
    return i + 1 < n ? sorted[i] + fraction * (sorted[i + 1] - sorted[i]) : sorted[i];
  };
  let minIndex = 0, maxIndex = 0, sum = 0;
  values.forEach((v, i) => {
    if (v < values[minIndex]) minIndex = i;
    if (v > values[maxIndex]) maxIndex = i;
    sum += v;
  });
  const mean = sum / n;
  return { min: sorted[0], minIndex, q1: quantile(0.25), median: quantile(0.5), q3: quantile(0.75),
           max: sorted[n - 1], maxIndex, mean, imbalance: sorted[n - 1] - mean };
}

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

// A button in the header that shows the view `name` (the element with that
// id) in place of the three panes; pressed again, the panes come back. One
// view at a time: pressing one releases the others.
function addViewButton(name, label) {
  const button = el("button", "view-button", label);
  button.id = `${name}-button`;
  button.type = "button";
  button.dataset.view = name;
  button.setAttribute("aria-pressed", "false");
  button.addEventListener("click", () => showView(document.body.classList.contains(`show-${name}`) ? null : name));
  document.getElementById("controls").append(button);
  return button;
}

// Shows the view `name` (null: the panes).
function showView(name) {
  for (const button of document.querySelectorAll("#controls .view-button")) {
    const shown = button.dataset.view === name;
    document.body.classList.toggle(`show-${button.dataset.view}`, shown);
    button.setAttribute("aria-pressed", String(shown));
  }
}

// A tree pane: rows for the visible nodes, expand/collapse, selection,
// keyboard navigation. `source` says what the nodes are:
//   roots(), children(id), label(id), value(id, expanded) -> number,
//   format(number, id) -> text, percentBase(id) -> number (null: absolute),
//   and optionally barBase(id) -> what a full bar is (default: the largest
//   value shown)
class TreePane {
  constructor(container, source, onSelect) {
    this.container = container;
    this.source = source;
    this.onSelect = onSelect;
    this.expanded = new Set();
    this.selected = null;
    this.marked = new Set();
    this.sortByValue = false;
    // "all" rows, or none whose value with everything below it is 0
    // ("nonzero") or below 1 % of the largest root's ("small"); the selected
    // row always shows.
    this.rowFilter = "all";
    container.addEventListener("keydown", (e) => this.key(e));
    container.addEventListener("click", (e) => this.click(e));
  }

  isExpanded(id) { return this.expanded.has(id); }

  ordered(ids) {
    if (!this.sortByValue) return ids;
    return [...ids].map((id) => [id, Math.abs(this.source.value(id, this.expanded.has(id)))])
      .sort((a, b) => b[1] - a[1]).map((p) => p[0]);
  }

  visible() {
    const out = [];
    // A row goes with all below it: judged by its value with its children.
    const value = (id) => Math.abs(this.source.value(id, false));
    const threshold = this.rowFilter === "small"
      ? 0.01 * this.source.roots().reduce((a, id) => Math.max(a, Math.abs(this.source.value(id, false))), 0) : 0;
    const hidden = (id) => this.rowFilter !== "all" && id !== this.selected &&
      (value(id) === 0 || value(id) < threshold);
    const walk = (ids, depth) => {
      for (const id of this.ordered(ids)) {
        if (hidden(id)) continue;
        out.push([id, depth]);
        if (this.expanded.has(id)) walk(this.source.children(id), depth + 1);
      }
    };
    walk(this.source.roots(), 0);
    return out;
  }

  render() {
    const rows = this.visible();
    this.shown = rows.map((r) => r[0]);
    let largest = 0;
    const values = rows.map(([id]) => { const v = this.source.value(id, this.expanded.has(id)); largest = Math.max(largest, Math.abs(v)); return v; });
    const fragment = document.createDocumentFragment();
    rows.forEach(([id, depth], i) => {
      const leaf = this.source.children(id).length === 0;
      const row = el("div", "row");
      row.dataset.id = String(id);
      row.dataset.value = String(values[i]);
      row.setAttribute("role", "treeitem");
      row.setAttribute("aria-level", String(depth + 1));
      if (!leaf) row.setAttribute("aria-expanded", String(this.expanded.has(id)));
      if (id === this.selected) { row.classList.add("selected"); row.setAttribute("aria-selected", "true"); }
      if (this.marked.has(id)) row.classList.add("match");
      row.style.paddingLeft = `${depth * 1.1}em`;
      row.append(el("span", "toggle", leaf ? "" : this.expanded.has(id) ? "▾" : "▸"));
      const base = this.source.percentBase(id);
      const shown = base === null ? this.source.format(values[i], id) : formatPercent(values[i], base);
      const cell = el("span", "value", shown);
      cell.title = this.source.format(values[i], id);
      row.append(cell);
      const bar = el("span", "bar");
      const fill = el("span", values[i] < 0 ? "fill negative" : "fill");
      const full = this.source.barBase ? Math.abs(this.source.barBase(id)) : largest;
      fill.style.width = `${full ? Math.min(100, 100 * Math.abs(values[i]) / full) : 0}%`;
      bar.append(fill);
      row.append(bar);
      const label = el("span", "label", this.source.label(id));
      label.title = this.source.fullName ? this.source.fullName(id) : this.source.label(id);
      row.append(label);
      fragment.append(row);
    });
    this.container.replaceChildren(fragment);
    const selectedRow = this.container.querySelector(".row.selected");
    if (selectedRow && this.container.contains(document.activeElement)) selectedRow.scrollIntoView({ block: "nearest" });
  }

  select(id) { this.selected = id; this.onSelect(id); }
  toggle(id) {
    if (this.source.children(id).length === 0) return;
    if (this.expanded.has(id)) this.expanded.delete(id); else this.expanded.add(id);
    this.onSelect(this.selected);
  }

  click(e) {
    const row = e.target.closest(".row");
    if (!row) return;
    const id = Number(row.dataset.id);
    if (e.target.classList.contains("toggle")) this.toggle(id); else this.select(id);
    this.container.focus();
  }

  parentOf(id) {
    for (const [candidate] of this.visible()) if (this.source.children(candidate).includes(id)) return candidate;
    return null;
  }

  key(e) {
    const at = this.shown.indexOf(this.selected);
    const id = this.selected;
    switch (e.key) {
      case "ArrowDown": if (at + 1 < this.shown.length) this.select(this.shown[at + 1]); break;
      case "ArrowUp": if (at > 0) this.select(this.shown[at - 1]); break;
      case "Home": if (this.shown.length) this.select(this.shown[0]); break;
      case "End": if (this.shown.length) this.select(this.shown[this.shown.length - 1]); break;
      case "ArrowRight":
        if (id === null) return;
        if (!this.expanded.has(id)) this.toggle(id);
        else if (this.source.children(id).length) this.select(this.ordered(this.source.children(id))[0]);
        break;
      case "ArrowLeft": {
        if (id === null) return;
        if (this.expanded.has(id)) { this.toggle(id); break; }
        const parent = this.parentOf(id);
        if (parent !== null) this.select(parent);
        break;
      }
      case "Enter": case " ": if (id !== null) this.toggle(id); break;
      default: return;
    }
    e.preventDefault();
  }
}

// ----------------------------------------------------------- the page ---

class Browser {
  constructor(model) {
    this.model = model;
    // Each pane's values: absolute, or a percentage of a base its mode names.
    this.modes = { metrics: "absolute", calls: "absolute", system: "absolute" };
    this.flat = false;  // the call pane as a flat profile: one row per region
    this.ranksSorted = false;
    this.topology = 0;  // the topology shown, of the report's Cartesian topologies
    this.selectedMetric = 0;
    this.selectedCnode = model.callTree.roots[0] ?? 0;
    const d = model.data;
    const metric = () => d.metrics[this.selectedMetric];
    const metricInclusive = () => !this.metrics.isExpanded(this.selectedMetric);

    this.metrics = new TreePane(document.getElementById("metric-tree"), {
      roots: () => model.metricTree.roots,
      children: (m) => model.metricTree.children[m],
      label: (m) => d.metrics[m].name,
      fullName: (m) => `${d.metrics[m].name} (${d.metrics[m].id})`,
      value: (m, expanded) => model.metricTotal(m, !expanded),
      // Each metric in its own unit, as a share of its own tree's root.
      format: (v, m) => formatMetricValue(v, d.metrics[m]),
      percentBase: (m) => (this.modes.metrics === "absolute" || !d.metrics[m].computed ? null
                                                                                     : model.metricTotal(model.metricRoot(m), true)),
      // Metrics of different units are compared with their own root only.
      barBase: (m) => model.metricTotal(model.metricRoot(m), true),
    }, (m) => { this.selectedMetric = m; this.update(); });

    const callRows = () => model.metricRows(this.selectedMetric, metricInclusive());
    let cachedKey = null, cachedOwn = null, cachedSubtree = null;
    const callValues = () => {
      const key = `${this.selectedMetric}/${metricInclusive()}`;
      if (key !== cachedKey) { cachedKey = key; cachedOwn = callRows(); cachedSubtree = Model.subtreeSums(cachedOwn, model.callTree, model.combine(this.selectedMetric)); }
      return [cachedOwn, cachedSubtree];
    };
    // The flat profile: each region with its own values summed over the
    // call paths that end in it.
    this.regionCnodes = d.regions.map(() => []);
    d.cnodes.forEach((c, i) => this.regionCnodes[c[0]].push(i));
    const regionsCalled = [...d.regions.keys()].filter((r) => this.regionCnodes[r].length);
    const regionValue = (r) => this.regionCnodes[r].reduce((a, c) => model.combine(this.selectedMetric)(a, callValues()[0][c]), 0);
    this.calls = new TreePane(document.getElementById("call-tree"), {
      roots: () => (this.flat ? regionsCalled : model.callTree.roots),
      children: (c) => (this.flat ? [] : model.callTree.children[c]),
      label: (c) => (this.flat ? d.regions[c][0] : model.regionName(c)),
      fullName: (c) => (this.flat ? d.regions[c][0] : model.pathOf(c).join(" > ")),
      value: (c, expanded) => (this.flat ? regionValue(c) : callValues()[expanded ? 0 : 1][c]),
      format: (v) => formatMetricValue(v, metric()),
      percentBase: () => this.callPercentBase(),
    }, (c) => {
      if (this.flat) this.selectedRegion = c; else this.selectedCnode = c;
      this.update();
    });

    this.buildSystem();
    this.system = new TreePane(document.getElementById("system-tree"), {
      roots: () => this.sys.roots,
      children: (s) => this.sys.children[s],
      label: (s) => this.sys.label[s],
      fullName: (s) => { const path = []; for (; s >= 0; s = this.sys.parent[s]) path.unshift(this.sys.label[s]); return path.join(" > "); },
      value: (s, expanded) => (expanded ? this.sys.own(s) : this.sys.total(s)),
      format: (v) => formatMetricValue(v, metric()),
      percentBase: () => this.systemPercentBase(),
    }, () => this.update());

    this.metrics.selected = 0;
    this.calls.selected = this.selectedCnode;
    for (const r of model.callTree.roots) this.calls.expanded.add(r);
    for (const r of this.sys.roots) this.system.expanded.add(r);
    this.bindControls();
  }

  // System tree items: system nodes, then location groups (processes), then
  // locations (threads), in one numbering.
  buildSystem() {
    const d = this.model.data;
    const nodes = d.systemNodes.length, groups = d.groups.length;
    const label = [], parent = [], location = [];
    d.systemNodes.forEach((s) => { label.push(s[0]); parent.push(s[2]); location.push(-1); });
    d.groups.forEach((g) => { label.push(g[0]); parent.push(g[2]); location.push(-1); });
    d.locations.forEach((l, i) => { label.push(l[0]); parent.push(nodes + l[2]); location.push(i); });
    const { children, roots } = forest(parent);
    this.sys = {
      label, children, roots, location, parent, groupBase: nodes, groups,
      values: new Float64Array(d.locations.length),
      own: (s) => (location[s] >= 0 ? this.sys.values[location[s]] : 0),
      total: (s) => (location[s] >= 0 ? this.sys.values[location[s]]
                                      : children[s].reduce((a, k) => this.sys.combine(a, this.sys.total(k)), 0)),
      combine: combiner("sum"),
    };
  }

  // The call pane's base: the selected metric's total, its root metric's,
  // or the selected row's value.
  callPercentBase() {
    const mode = this.modes.calls;
    if (mode === "absolute" || !this.model.data.metrics[this.selectedMetric].computed) return null;
    if (mode === "selection") {
      const id = this.calls.selected;
      return id === null ? null : this.calls.source.value(id, this.calls.isExpanded(id));
    }
    const m = mode === "root" ? this.model.metricRoot(this.selectedMetric) : this.selectedMetric;
    return this.model.metricTotal(m, true);
  }

  // The system pane's base: the selected call path's value over all ranks,
  // or the largest rank's (peer percent: the largest shows 100 %).
  systemPercentBase() {
    const mode = this.modes.system;
    if (mode === "absolute" || !this.model.data.metrics[this.selectedMetric].computed) return null;
    return mode === "peer" ? this.sys.largestRank : this.sys.allRanks;
  }

  bindControls() {
    const topologies = document.getElementById("topology-select");
    this.model.data.topologies.forEach((t, i) => {
      const option = el("option", "", `${t.name} (${t.dims.join(" × ")})`);
      option.value = String(i);
      topologies.append(option);
    });
    topologies.addEventListener("change", (e) => { this.topology = Number(e.target.value); this.renderRankChart(); });
    document.getElementById("sort-ranks").addEventListener("change", (e) => {
      this.ranksSorted = e.target.checked;
      this.renderRankChart();
    });
    for (const pane of Object.keys(this.modes))
      document.getElementById(`${pane}-mode`).addEventListener("change", (e) => { this.modes[pane] = e.target.value; this.update(); });
    document.getElementById("rows").addEventListener("change", (e) => {
      for (const pane of [this.metrics, this.calls, this.system]) pane.rowFilter = e.target.value;
      this.update();
    });
    document.getElementById("flat-profile").addEventListener("change", (e) => this.setFlat(e.target.checked));
    document.getElementById("sort-by-value").addEventListener("change", (e) => {
      for (const pane of [this.metrics, this.calls, this.system]) pane.sortByValue = e.target.checked;
      this.update();
    });
    const search = document.getElementById("search");
    search.addEventListener("input", () => this.find(search.value, false));
    search.addEventListener("keydown", (e) => { if (e.key === "Enter") { this.find(search.value, true); e.preventDefault(); } });
  }

  // Marks the call paths whose region name contains `text`, opens their
  // callers, and with `next` selects the next match.
  find(text, next) {
    const status = document.getElementById("search-status");
    const needle = text.trim().toLowerCase();
    this.calls.marked = new Set();
    const d = this.model.data;
    if (needle && this.flat) {
      d.regions.forEach((r, i) => { if (this.regionCnodes[i].length && r[0].toLowerCase().includes(needle)) this.calls.marked.add(i); });
    } else if (needle) {
      d.cnodes.forEach((c, i) => { if (this.model.regionName(i).toLowerCase().includes(needle)) this.calls.marked.add(i); });
      for (const c of this.calls.marked)
        for (let p = d.cnodes[c][1]; p >= 0; p = d.cnodes[p][1]) this.calls.expanded.add(p);
    }
    status.textContent = needle ? `${this.calls.marked.size} ${this.flat ? "region(s)" : "call path(s)"}` : "";
    const matches = [...this.calls.marked].sort((a, b) => a - b);
    if (next && matches.length) {
      const after = matches.find((c) => c > this.calls.selected);
      this.calls.select(after ?? matches[0]);
      return;
    }
    this.update();
  }

  // The call pane as a flat profile, or back as the call tree; the
  // selection follows: the selected call path's region, or the call path
  // selected before (or the region's first) when that region is selected.
  setFlat(flat) {
    if (flat === this.flat) return;
    this.flat = flat;
    document.getElementById("flat-profile").checked = flat;
    const cnodes = this.model.data.cnodes;
    if (flat) {
      this.selectedRegion = cnodes[this.selectedCnode][0];
    } else if (cnodes[this.selectedCnode][0] !== this.selectedRegion) {
      this.selectedCnode = this.regionCnodes[this.selectedRegion][0];
      for (let p = cnodes[this.selectedCnode][1]; p >= 0; p = cnodes[p][1]) this.calls.expanded.add(p);
    }
    this.calls.selected = flat ? this.selectedRegion : this.selectedCnode;
    this.update();
  }

  // Shows the selection: metric -> call tree -> system tree and rank chart.
  update() {
    const model = this.model, d = model.data;
    const m = this.selectedMetric, c = this.selectedCnode;
    const inclusive = !this.metrics.isExpanded(m);
    // In the flat profile: the own values of every call path of the region.
    const cnodes = this.flat ? new Set(this.regionCnodes[this.selectedRegion])
                             : this.calls.isExpanded(c) ? new Set([c]) : model.subtreeOf(c);
    this.sys.values = model.locationValues(m, inclusive, cnodes);
    this.sys.combine = model.combine(m);
    // Each rank's value, its threads combined, for the chart and the
    // statistics; the system pane's bases, once per selection.
    this.sys.perGroup = new Float64Array(d.groups.length);
    d.locations.forEach((l, i) => {
      this.sys.perGroup[l[2]] = this.sys.combine(this.sys.perGroup[l[2]], this.sys.values[i]);
    });
    this.sys.allRanks = this.sys.values.reduce((a, v) => this.sys.combine(a, v), 0);
    this.sys.largestRank = this.sys.perGroup.reduce((a, v) => Math.max(a, Math.abs(v)), 0);
    this.metrics.render();
    this.calls.render();
    this.system.render();
    this.renderRankChart();
    this.renderMetricInfo();
    document.getElementById("call-heading").textContent = `${this.flat ? "Flat profile" : "Call tree"} — ${d.metrics[m].name}`;
    document.getElementById("system-heading").textContent =
      `System — ${this.flat ? `${d.regions[this.selectedRegion][0]} (all call paths)` : model.regionName(c)}`;
    for (const listener of pageViews.onUpdate) listener(this);
  }

  // One bar per rank, in rank order or sorted by value (largest first), and
  // the statistics over the ranks below.
  renderRankChart() {
    const d = this.model.data;
    const chart = document.getElementById("rank-chart");
    const perGroup = this.sys.perGroup, largest = this.sys.largestRank;
    const metric = d.metrics[this.selectedMetric];
    const order = [...perGroup.keys()];
    if (this.ranksSorted) order.sort((a, b) => perGroup[b] - perGroup[a] || a - b);
    const fragment = document.createDocumentFragment();
    order.forEach((g) => {
      const v = perGroup[g];
      const bar = el("div", v < 0 ? "rank negative" : "rank");
      bar.dataset.rank = String(d.groups[g][1]);
      bar.dataset.value = String(v);
      bar.style.height = `${largest ? Math.max(1, 100 * Math.abs(v) / largest) : 0}%`;
      bar.title = `${d.groups[g][0]}: ${formatMetricValue(v, metric)}`;
      bar.addEventListener("click", () => { this.system.selected = this.sys.groupBase + g; this.update(); });
      if (this.system.selected === this.sys.groupBase + g) bar.classList.add("selected");
      // Rank numbers where the bars are wide enough for them.
      if (perGroup.length <= 32) bar.append(el("span", "rank-label", String(d.groups[g][1])));
      fragment.append(bar);
    });
    chart.replaceChildren(fragment);
    this.renderRankStatistics(perGroup, metric);
    this.renderTopology(metric);
  }

  // The selected Cartesian topology: its grid with each location's value as
  // a colour from white (0) to the chart's red (the largest magnitude; blue
  // where negative); a grid of more than two dimensions as one grid of its
  // first two per point of the others. A click selects the cell's rank.
  renderTopology(metric) {
    const d = this.model.data, section = document.getElementById("topology");
    section.hidden = !d.topologies.length;
    const topology = d.topologies[this.topology];
    if (!topology) return;
    const values = this.sys.values;
    const largest = topology.coords.reduce((a, [l]) => Math.max(a, Math.abs(values[l])), 0);
    const dims = topology.dims.length ? topology.dims : [1];
    const rows = dims.length > 1 ? dims[0] : 1, columns = dims.length > 1 ? dims[1] : dims[0];
    // Cells as large as a pane's width allows, from 4 to 28 pixels.
    const cellSize = Math.max(4, Math.min(28, Math.floor(360 / Math.max(rows, columns))));
    const grids = new Map();  // the coordinates beyond the first two -> their grid
    for (const [location, coords] of topology.coords) {
      const rest = coords.slice(2).join(",");
      if (!grids.has(rest)) {
        const grid = el("div", "topology-grid");
        grid.style.gridTemplateColumns = `repeat(${columns}, ${cellSize}px)`;
        grid.style.gridAutoRows = `${cellSize}px`;
        for (let k = 0; k < rows * columns; ++k) grid.append(el("div", "cell"));
        if (rest) grid.title = `coordinates ${rest} beyond the first two`;
        grids.set(rest, grid);
      }
      const [row, column] = coords.length > 1 ? coords : [0, coords[0] ?? 0];
      const cell = grids.get(rest).children[row * columns + column];
      const v = values[location], group = d.locations[location][2], rank = d.groups[group][1];
      const share = largest ? Math.abs(v) / largest : 0;
      const tint = (c) => Math.round(255 - share * (255 - c));
      cell.style.background = v < 0 ? `rgb(${tint(0x2f)},${tint(0x7f)},${tint(0xd0)})`
                                    : `rgb(${tint(0xd0)},${tint(0x45)},${tint(0x2f)})`;
      cell.dataset.location = String(location);
      cell.dataset.value = String(v);
      cell.dataset.coords = coords.join(",");
      if (cellSize >= 14) cell.textContent = String(rank);
      cell.title = `${d.groups[group][0]} (${coords.join(", ")}): ${formatMetricValue(v, metric)}`;
      if (this.system.selected === this.sys.groupBase + group) cell.classList.add("selected");
      cell.addEventListener("click", () => { this.system.selected = this.sys.groupBase + group; this.update(); });
    }
    document.getElementById("topology-grids").replaceChildren(...grids.values());
  }

  // The box plot over the ranks (whiskers at the minimum and maximum, the
  // box from the first to the third quartile, the median a line, the mean a
  // dot) on a scale from the minimum to the maximum (the numbers below say
  // how far apart they are), and its numbers.
  renderRankStatistics(perGroup, metric) {
    const d = this.model.data;
    const s = rankStatistics(perGroup);
    const box = document.getElementById("rank-box"), numbers = document.getElementById("rank-numbers");
    if (!s) { box.replaceChildren(); numbers.textContent = ""; return; }
    const x = (v) => (s.max > s.min ? 100 * (v - s.min) / (s.max - s.min) : 50);
    // Each part a box placed in percent of the width.
    const part = (className, from, to) => {
      const e = el("div", className);
      e.style.left = `${x(from)}%`;
      if (to !== undefined) e.style.width = `${x(to) - x(from)}%`;
      return e;
    };
    box.replaceChildren(part("whisker", s.min, s.max), part("box", s.q1, s.q3), part("median", s.median),
                        part("mean", s.mean));
    const f = (v) => formatMetricValue(v, metric);
    const rank = (g) => `rank ${d.groups[g][1]}`;
    const share = s.max > 0 ? `, ${formatPercent(s.imbalance, s.max)} of the maximum` : "";
    numbers.textContent = `min ${f(s.min)} (${rank(s.minIndex)}) · quartiles ${f(s.q1)}, ${f(s.median)}, ${f(s.q3)} · ` +
      `max ${f(s.max)} (${rank(s.maxIndex)}) · mean ${f(s.mean)} · imbalance (max − mean) ${f(s.imbalance)}${share}`;
  }

  // Selects metric m, call path c and (when >= 0) location group g in the
  // panes, opening what leads to them.
  show(m, c, g) {
    const model = this.model;
    this.setFlat(false);
    for (let p = model.data.metrics[m].parent; p >= 0; p = model.data.metrics[p].parent) this.metrics.expanded.add(p);
    for (let p = model.data.cnodes[c][1]; p >= 0; p = model.data.cnodes[p][1]) this.calls.expanded.add(p);
    this.metrics.selected = this.selectedMetric = m;
    this.calls.selected = this.selectedCnode = c;
    if (g >= 0) {
      for (let s = this.sys.groupBase + g; s >= 0; s = this.sys.parent[s]) if (s !== this.sys.groupBase + g) this.system.expanded.add(s);
      this.system.selected = this.sys.groupBase + g;
    }
    this.update();
    for (const id of ["metric-tree", "call-tree", "system-tree"]) {
      const row = document.querySelector(`#${id} .row.selected`);
      if (row) row.scrollIntoView({ block: "nearest" });
    }
  }

  // A link that shows one cell: "main > solve > MPI_Recv on rank 3 (1.2 ms)".
  cellLink(m, cell) {
    const d = this.model.data;
    const path = this.model.pathOf(cell.cnode);
    const where = (path.length > 3 ? "… > " : "") + path.slice(-3).join(" > ") +
      (cell.group >= 0 ? ` on rank ${d.groups[cell.group][1]}` : "");
    const link = el("a", "", where);
    link.href = "#";
    link.dataset.metric = String(m);
    link.dataset.cnode = String(cell.cnode);
    link.dataset.rank = cell.group >= 0 ? String(d.groups[cell.group][1]) : "";
    link.dataset.group = String(cell.group);
    link.addEventListener("click", (e) => { e.preventDefault(); this.show(m, cell.cnode, cell.group); });
    const item = el("span", "cell");
    item.append(link, ` (${formatValue(cell.value, d.metrics[m].unit, d.metrics[m].integer)})`);
    return item;
  }

  // The delays behind wait-state metric m: the largest cells of its delay
  // costs, as links; null when the report has none for it.
  causes(m) {
    const d = this.model.data;
    const names = d.findings.waitStates.find((w) => w[0] === d.metrics[m].id);
    if (!names) return null;
    const delays = [names[1], names[2]].filter((n) => n).map((n) => this.model.metricNamed(n)).filter((x) => x >= 0);
    const cells = this.model.largestCells(delays, 3);
    if (!cells.length) return null;
    const list = el("span", "causes");
    list.append("caused by delays at ");
    cells.forEach((cell, i) => { if (i) list.append("; "); list.append(this.cellLink(delays[0], cell)); });
    return list;
  }

  renderMetricInfo() {
    const d = this.model.data;
    const metric = d.metrics[this.selectedMetric];
    const info = document.getElementById("metric-info");
    const parts = [el("strong", "", metric.name), el("span", "unique", ` (${metric.id}, ${metric.unit || "no unit"})`),
                   el("p", "", metric.description)];
    if (metric.aggregate !== "sum") parts.push(el("p", "aggregate", `Values combine by their ${metric.aggregate === "min" ? "minimum" : "maximum"}, not their sum.`));
    if (!metric.computed)
      parts.push(el("p", "derived", metric.expression ? `Derived metric, not computed here: ${metric.expression}` : "Values of this type are not interpreted: not computed."));
    const causes = this.causes(this.selectedMetric);
    if (causes) { const p = el("p", "metric-causes"); p.append(causes); parts.push(p); }
    let url = metric.url;
    if (url.startsWith("@mirror@") && d.mirrors.length) url = d.mirrors[0] + url.slice("@mirror@".length);
    if (/^https?:\/\//.test(url)) {
      const link = el("a", "", "documentation");
      link.href = url;
      link.rel = "noopener noreferrer";
      parts.push(link);
    }
    info.replaceChildren(...parts);
  }
}

// ------------------------------------------------------------ findings ---

// The activity graph's longest path and predicted run times (--graph,
// --what-if), which the analyzer keeps as the report's attribute `key`
// (schema hindsight-activity-graph): [title, items] per section, as the
// summary has them; the call paths most on each path as links to their
// time.
function graphFindings(browser, key) {
  const d = browser.model.data;
  const attribute = d.attributes.find(([k]) => k === key);
  if (!attribute) return [];
  let graph;
  try { graph = JSON.parse(attribute[1]); } catch { graph = null; }
  const time = browser.model.metricNamed(d.findings.time);
  if (!graph || graph.schema !== "hindsight-activity-graph" || !graph.recorded || time < 0)
    return [["Longest path of the activity graph", [["The report's activity graph findings cannot be read."]]]];
  const length = graph.recorded.seconds;
  const onPath = (scenario) => {
    const cells = (scenario.path || []).filter(([c]) => Number.isInteger(c) && c >= 0 && c < d.cnodes.length).slice(0, 3);
    if (!cells.length) return [];
    const parts = [el("br"), "on the path: "];
    cells.forEach(([cnode, value], i) => {
      if (i) parts.push(", ");
      parts.push(browser.cellLink(time, { cnode, group: -1, value }));
    });
    return parts;
  };
  const predicted = (scenario) => [el("strong", "", scenario.label), ` ${formatValue(scenario.seconds, "sec")}` +
    (length > 0 ? ` (${(100 * (scenario.seconds - length) / length).toFixed(1)} %)` : ""), ...onPath(scenario)];
  return [
    ["Longest path of the activity graph", [[`${formatValue(length, "sec")}`, ...onPath(graph.recorded)]]],
    ["What if (predicted run time)", (graph.what_ifs || []).map(predicted)],
    ["Most promising changes (predicted run time)", (graph.suggestions || []).map(predicted)],
  ];
}

// The first view: what the terminal summary says, from any report that
// uses Scalasca's metric names, each line a link into the panes.
function showAnswers(browser, untouched) {
  const model = browser.model, d = model.data, f = d.findings;
  const present = (id) => { const m = model.metricNamed(id); return m >= 0 && model.metricTotal(m, true) > 0 ? m : -1; };
  const time = model.metricNamed(f.time);
  const timeTotal = time >= 0 ? model.metricTotal(time, true) : 0;
  // The summary's words: shares of the total time (summed over ranks), the
  // critical path against the wall clock, which only the analyzer's
  // attribute gives (another tool's report: no share at all).
  const share = (v) => (timeTotal > 0 ? ` (${(100 * v / timeTotal).toFixed(1)} % of the total time)` : "");
  const wallAttribute = d.attributes.find(([key]) => key === f.wallClock);
  const wall = wallAttribute ? Number(wallAttribute[1]) : NaN;
  const ofWall = () => (wall > 0 ? ` (of ${formatValue(wall, "sec")} wall clock)` : "");
  const sections = [];
  const section = (title, items) => {
    if (!items.length) return;
    const block = el("div", "finding");
    block.append(el("h2", "", title));
    const list = el("ol");
    for (const item of items) { const li = el("li"); li.append(...item); list.append(li); }
    block.append(list);
    sections.push(block);
  };

  // A difference of two runs: what got worse, what got better, of the
  // metrics the findings look at (all times: more is worse), as
  // hindsight-report --diff --text begins.
  if (d.attributes.some(([key]) => key === f.difference)) {
    const ids = [f.time, ...f.waitStates.map((w) => w[0]), ...f.criticalPath, f.delay, ...f.imbalance];
    const changes = [...new Set(ids.map((id) => model.metricNamed(id)).filter((m) => m >= 0))].map((m) => {
      const total = model.metricTotal(m, true), sign = total > 0 ? 1 : -1;
      const cell = model.largestCells([m], 1, sign)[0];
      // Changes that cancel leave rounding noise, no change.
      return cell && Math.abs(total) > 1e-9 * Math.abs(cell.value) ? { m, total, cell } : null;
    }).filter((c) => c).sort((a, b) => Math.abs(b.total) - Math.abs(a.total));
    const line = ({ m, total, cell }) => {
      const metric = d.metrics[m];
      return [el("strong", "", metric.name), ` ${total > 0 ? "+" : ""}${formatValue(total, metric.unit, metric.integer)}, most at `,
              browser.cellLink(m, cell)];
    };
    section("What got worse", changes.filter((c) => c.total > 0).map(line));
    section("What got better", changes.filter((c) => c.total < 0).map(line));
    if (!sections.length) section("No change", [["None of the findings' metrics changed."]]);
    document.getElementById("answers").replaceChildren(...sections);
    return;
  }

  const waits = f.waitStates.map((w) => ({ m: present(w[0]), noise: w[3] }))
    .filter((w) => w.m >= 0 && !(w.noise && model.metricTotal(w.m, true) <= @NOISE_SHARE@ * timeTotal))
    .map((w) => ({ m: w.m, total: model.metricTotal(w.m, true) }))
    .sort((a, b) => b.total - a.total).slice(0, @WAIT_STATES_SHOWN@);
  section("Largest wait states", waits.map(({ m, total }) => {
    const metric = d.metrics[m];
    const worst = model.largestCells([m], 1)[0];
    const item = [el("strong", "", metric.name), ` ${formatValue(total, metric.unit, metric.integer)}${share(total)}, most at `,
                  browser.cellLink(m, worst)];
    const causes = browser.causes(m);
    if (causes) item.push(el("br"), causes);
    for (const more of pageViews.waitLinks) {
      const part = more(metric.id);
      if (part) item.push(el("br"), part);
    }
    return item;
  }));

  // Each metric with its total and where it is largest; a metric with the
  // same total and place as the one before is joined to its line ("Imbalance
  // impact = Intra-partition imbalance"), as the summary does.
  const totals = (ids, shareOf) => {
    const lines = [];
    for (const m of ids.map(present).filter((x) => x >= 0)) {
      const metric = d.metrics[m], total = model.metricTotal(m, true);
      const top = model.largestCallPaths(m, 1)[0];
      const before = lines[lines.length - 1];
      if (before && Math.abs(before.total - total) <= 1e-9 * Math.abs(before.total) && before.top.cnode === top.cnode) {
        before.names.push(metric.name);
        continue;
      }
      lines.push({ m, total, top, names: [metric.name], metric });
    }
    return lines.map((l) => [el("strong", "", l.names.join(" = ")),
      ` ${formatValue(l.total, l.metric.unit, l.metric.integer)}${shareOf(l.total)}, most at `, browser.cellLink(l.m, l.top)]);
  };
  section("Critical path and its imbalance", totals(f.criticalPath, ofWall));
  const delay = present(f.delay);
  if (delay >= 0)
    section("Root causes (delay costs)", model.largestCells([delay], 3).map((cell) => [browser.cellLink(delay, cell)]));
  section("Imbalance indicators", totals(f.imbalance, share));
  graphFindings(browser, f.activityGraph).forEach(([title, items]) => section(title, items));
  document.getElementById("answers").replaceChildren(...sections);
  // The first view shows the largest finding in the panes (not the root
  // call path, whose own time says nothing), unless the reader has chosen
  // something meanwhile.
  const first = document.querySelector("#answers a");
  if (first && untouched()) browser.show(Number(first.dataset.metric), Number(first.dataset.cnode), Number(first.dataset.group));
}

// The panes resize by dragging the splitters between them: the two panes
// beside a splitter share their widths as dragged (each at least 40 px).
function bindSplitters() {
  const main = document.querySelector("main");
  const widths = [1, 1.4, 1];
  const apply = () => {
    main.style.gridTemplateColumns = widths.map((w) => `minmax(0, ${w}fr)`).join(" 8px ");
  };
  document.querySelectorAll("main > .splitter").forEach((splitter, i) => {
    splitter.addEventListener("pointerdown", (down) => {
      splitter.setPointerCapture(down.pointerId);
      const panes = main.querySelectorAll(".pane");
      const left = panes[i].getBoundingClientRect(), right = panes[i + 1].getBoundingClientRect();
      const share = widths[i] + widths[i + 1], pixels = left.width + right.width;
      const grab = down.clientX - left.right;  // where on the splitter it was taken
      splitter.onpointermove = (move) => {
        const x = Math.min(Math.max(move.clientX - grab - left.left, 40), pixels - 40);
        widths[i] = share * x / pixels;
        widths[i + 1] = share - widths[i];
        apply();
      };
      splitter.onpointerup = () => { splitter.onpointermove = null; };
    });
  });
}

// What ran, as the analyzer keeps it in the attribute `run` (JSON; null
// for another tool's report and for a difference of two runs, whose title
// names both).
function runInformation(d) {
  if (d.attributes.some(([key]) => key === d.findings.difference)) return null;
  const attribute = d.attributes.find(([key]) => key === d.findings.run);
  if (!attribute) return null;
  try {
    return JSON.parse(attribute[1]);
  } catch {
    return null;
  }
}

// "2026-11-27T19:40:39Z" as "2026-11-27 19:40:39 UTC".
const utcTime = (iso) => iso.replace("T", " ").replace("Z", " UTC");

// The page's title: the program and when it started.
function runTitle(run) {
  const program = (run.program || "").split("/").pop() || "run";
  return run.start ? `${program}, ${utcTime(run.start)}` : program;
}

// One line under the title: the call, the ranks and machine, the start and
// the wall clock, the tools; the trace's path on hover.
function runLine(run) {
  const call = [(run.program || "").split("/").pop(), ...(run.arguments || [])].filter((w) => w).join(" ");
  const nodes = run.nodes || [];
  const where = [run.machine, nodes.length ? `${nodes.length} node${nodes.length === 1 ? "" : "s"}` : ""]
    .filter((w) => w).join(", ");
  const parts = [call, `${run.ranks} ranks${where ? ` on ${where}` : ""}`,
                 run.start ? `started ${utcTime(run.start)}` : "",
                 `${formatValue(run.wall_clock, "sec")} wall clock`,
                 [run.writer ? `traced by ${run.writer}` : "", run.analyzer ? `analyzed by ${run.analyzer}` : ""]
                   .filter((w) => w).join(", ")];
  const line = el("span", "", parts.filter((p) => p).join(" · "));
  line.title = `trace: ${run.trace}${nodes.length ? `\nnodes: ${nodes.join(", ")}` : ""}`;
  return line;
}

async function main() {
  const status = document.getElementById("status");
  try {
    const data = await decodeData();
    const run = runInformation(data);
    const title = run && run.program ? runTitle(run) : data.title;
    document.title = title;
    document.getElementById("title").textContent = title;
    if (run) document.getElementById("run").replaceChildren(runLine(run));
    // What the analysis could not be trusted with (the analyzer's warnings
    // line, kept as an attribute of the report) and what the reader found
    // suspicious in the file, above everything else.
    const analysis = data.attributes.filter(([key]) => key === "Hindsight warnings").map(([, value]) => value);
    document.getElementById("warnings").replaceChildren(
      ...[...analysis, ...data.warnings].map((w) => el("p", "", `Warning: ${w}`)));
    if (!data.metrics.length || !data.cnodes.length) {
      status.textContent = "The report holds no metrics or no call paths: there is nothing to show.";
      document.body.dataset.ready = document.body.dataset.findings = String(performance.now());
      return;
    }
    const model = new Model(data);
    const browser = new Browser(model);
    bindSplitters();
    window.hindsightReport = browser;  // for tests and the console
    browser.update();
    status.textContent = `${data.metrics.length} metrics, ${data.cnodes.length} call paths, ` +
      `${data.groups.length} ranks, ${data.locations.length} locations`;
    // Milliseconds from the start of navigation until the trees are shown.
    document.body.dataset.ready = String(performance.now());
    // The findings scan whole metrics: after the trees are on the screen.
    const selection = () => [browser.selectedMetric, browser.selectedCnode, browser.system.selected].join();
    const opened = selection();
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    await Promise.allSettled(pageViews.loading);
    showAnswers(browser, () => selection() === opened);
    document.body.dataset.findings = String(performance.now());
  } catch (e) {
    status.textContent = `This page could not show its report: ${e.message}`;
    throw e;
  }
}

main();
