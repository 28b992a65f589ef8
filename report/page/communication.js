
// ------------------------------------------------------- communication ---
// The communication view: the analyzer's communication structure (schema
// hindsight-communication, doc/communication.md), embedded compressed like
// the report's data, shown below the three panes: the profile per
// communicator, the communication matrix as a heat map, the placement
// advice. Names from the trace reach the document as text only.

// The columns of the communicator table: label, what a row shows, how.
const COMMUNICATOR_COLUMNS = [
  ["Communicator / operation", (r) => r.label, null],
  ["Size", (r) => r.size, (v) => v === undefined ? "" : String(v)],
  ["Topology", (r) => r.topology, (v) => v || ""],
  ["Operations", (r) => r.operations, (v) => formatValue(v, "occ", true)],
  ["Calls", (r) => r.calls, (v) => formatValue(v, "occ", true)],
  ["Time", (r) => r.time, (v) => formatValue(v, "sec")],
  ["Waiting", (r) => r.waiting, (v) => formatValue(v, "sec")],
  ["Bytes sent", (r) => r.bytes_sent, (v) => formatValue(v, "bytes", true)],
  ["Bytes received", (r) => r.bytes_received, (v) => formatValue(v, "bytes", true)],
];

const sum = (items, key) => items.reduce((s, i) => s + (i[key] || 0), 0);

// One row per communicator, each followed by its operations; a click on a
// column heading orders both by that column (again: the other way).
class CommunicatorTable {
  constructor(communicators) {
    this.groups = communicators.map((c) => ({
      row: {
        id: c.id, label: c.label || c.name, size: c.size,
        topology: c.topology + (c.dims && c.dims.length ? ` ${c.dims.join(" × ")}` : "") + (c.reorder ? " (reorder)" : ""),
        operations: c.operations, calls: sum(c.by_operation, "calls"), time: c.time, waiting: c.waiting,
        bytes_sent: c.bytes_sent, bytes_received: sum(c.by_operation, "bytes_received"),
      },
      operations: c.by_operation.map((o) => ({ ...o, label: o.operation })),
    }));
    this.sortColumn = 5;  // time, as the analyzer orders them
    this.descending = true;
    this.element = el("table", "communicators");
    this.element.id = "communicator-table";
    this.draw();
  }

  order(rows) {
    const value = COMMUNICATOR_COLUMNS[this.sortColumn][1];
    const sign = this.descending ? -1 : 1;
    return [...rows].sort((a, b) => {
      const x = value(a), y = value(b);
      return sign * (typeof x === "string" || typeof y === "string" ? String(x).localeCompare(String(y)) : x - y);
    });
  }

  draw() {
    const head = el("tr");
    COMMUNICATOR_COLUMNS.forEach(([title], i) => {
      const th = el("th", i === this.sortColumn ? (this.descending ? "sorted down" : "sorted up") : "", title);
      th.addEventListener("click", () => {
        this.descending = i === this.sortColumn ? !this.descending : i > 2;
        this.sortColumn = i;
        this.draw();
      });
      head.append(th);
    });
    const rows = [];
    for (const group of this.order(this.groups.map((g) => Object.assign(g.row, { group: g })))) {
      rows.push(this.line(group, "communicator", group.id, null));
      for (const op of this.order(group.group.operations)) rows.push(this.line(op, "operation", group.id, op.operation));
    }
    this.element.replaceChildren(el("thead"), el("tbody"));
    this.element.tHead.append(head);
    this.element.tBodies[0].append(...rows);
  }

  line(row, kind, communicator, operation) {
    const tr = el("tr", kind);
    tr.dataset.communicator = String(communicator);
    if (operation !== null) tr.dataset.operation = operation;
    COMMUNICATOR_COLUMNS.forEach(([, value, format], i) => {
      const v = value(row);
      const numeric = i === 1 || i > 2;
      const td = el("td", numeric ? "number" : "", format ? format(v) : v);
      if (numeric) td.dataset.value = String(v);
      tr.append(td);
    });
    return tr;
  }
}

// What the heat map can show: the cell's field and its unit.
const MATRIX_QUANTITIES = {
  bytes: [3, "point-to-point bytes", "bytes"],
  messages: [2, "point-to-point messages", "occ"],
  collective: [4, "bytes collectives imply", "bytes"],
};
const HEATMAP_SIZE = 512;  // canvas pixels per side at most

// Values within this factor of each other are coloured on a linear scale
// from zero, so that nearly equal cells look nearly alike; a wider spread
// gets a log scale from the smallest value, which the legend says.
const LINEAR_SPREAD = 100;
// Rank labels along each axis at most (every cell up to this many).
const AXIS_LABELS = 16;

// The matrix of ranks (or nodes) as a heat map: row = sender, column =
// receiver. More ranks than pixels: each pixel sums a block of ranks.
class HeatMap {
  constructor(data) {
    this.data = data;
    this.canvas = el("canvas", "heatmap");
    this.canvas.id = "heatmap";
    this.tip = el("div", "heatmap-tip");
    this.tip.id = "heatmap-tip";
    this.legend = el("div", "heatmap-legend");
    // The canvas between its axes: receivers above, senders to the left.
    this.columns = el("div", "heatmap-axis heatmap-columns");
    this.rows = el("div", "heatmap-axis heatmap-rows");
    this.frame = el("div", "heatmap-frame");
    this.frame.append(el("span", "heatmap-corner", "from ↓ to →"), this.columns, this.rows, this.canvas);
    this.canvas.addEventListener("mousemove", (e) => {
      // In canvas pixels, whatever size the style gives the canvas.
      const box = this.canvas.getBoundingClientRect(), c = this.canvas;
      this.hover((e.clientX - box.left - c.clientLeft) * c.width / c.clientWidth,
                 (e.clientY - box.top - c.clientTop) * c.height / c.clientHeight);
    });
    this.canvas.addEventListener("mouseleave", () => { this.tip.textContent = ""; });
  }

  // Draws `quantity` (a MATRIX_QUANTITIES key) of ranks or nodes.
  draw(quantity, perNode) {
    const started = performance.now();
    const names = perNode ? this.data.nodes : null;
    const n = perNode ? this.data.nodes.length : this.data.ranks;
    const cells = (perNode ? this.data.node_matrix : this.data.rank_matrix) || [];
    const [field, what, unit] = MATRIX_QUANTITIES[quantity];
    const block = Math.max(1, Math.ceil(n / HEATMAP_SIZE));  // ranks per pixel
    const grid = Math.max(1, Math.ceil(n / block));          // pixels of data per side
    const scale = Math.max(1, Math.floor(HEATMAP_SIZE / grid));  // screen pixels per grid cell
    const sums = new Float64Array(grid * grid);
    for (const c of cells) sums[Math.floor(c[0] / block) * grid + Math.floor(c[1] / block)] += c[field];
    let low = Infinity, high = 0;
    for (const v of sums) if (v > 0) { low = Math.min(low, v); high = Math.max(high, v); }
    const side = grid * scale;
    this.canvas.width = this.canvas.height = side;
    const context = this.canvas.getContext("2d");
    const image = context.createImageData(side, side);
    const pixels = new Uint32Array(image.data.buffer);
    const logarithmic = high > LINEAR_SPREAD * low;
    const span = Math.log(high / low);
    const shade = (v) => heatColour(logarithmic ? Math.log(v / low) / span : v / high);
    for (let g = 0; g < grid * grid; ++g) {
      const v = sums[g];
      const colour = v > 0 ? shade(v) : 0xfff4f4f4;
      const top = Math.floor(g / grid) * scale, left = (g % grid) * scale;
      for (let y = top; y < top + scale; ++y) pixels.fill(colour, y * side + left, y * side + left + scale);
    }
    context.putImageData(image, 0, 0);
    Object.assign(this, { n, names, sums, grid, block, scale, unit, what, perNode });
    this.tip.textContent = "";
    this.drawLegend(logarithmic ? low : 0, high, unit, what, logarithmic);
    this.drawAxes();
    this.canvas.dataset.drawMs = String(performance.now() - started);
    this.canvas.dataset.block = String(block);
  }

  // Labels of the ranks (or nodes) along both axes: every cell's where
  // there are few, else evenly spaced ones, each at its cell's middle.
  drawAxes() {
    const labels = [];
    const step = Math.max(1, Math.ceil(this.grid / AXIS_LABELS));
    for (let g = 0; g < this.grid; g += step) labels.push(g);
    if (labels[labels.length - 1] !== this.grid - 1) labels.push(this.grid - 1);
    const name = (g) => (this.perNode ? this.names[g * this.block] : String(g * this.block));
    for (const axis of [this.columns, this.rows]) {
      axis.replaceChildren(...labels.map((g) => {
        const label = el("span", "", name(g));
        label.style.setProperty("--at", `${((g + 0.5) / this.grid) * 100}%`);
        return label;
      }));
    }
  }

  drawLegend(low, high, unit, what, logarithmic) {
    const bar = el("canvas", "heatmap-scale");
    bar.width = 160;
    bar.height = 12;
    const context = bar.getContext("2d");
    for (let x = 0; x < bar.width; ++x) {
      const c = heatColour(x / (bar.width - 1));
      context.fillStyle = `rgb(${c & 255},${(c >> 8) & 255},${(c >> 16) & 255})`;
      context.fillRect(x, 0, 1, bar.height);
    }
    const parts = high > 0
      ? [el("span", "", `${what}: ${formatValue(low, unit, true)}`), bar,
         el("span", "", `${formatValue(high, unit, true)} (${logarithmic ? "log scale from the smallest value" : "linear scale from 0"}; grey: none)`)]
      : [el("span", "", `no ${what}`)];
    this.legend.replaceChildren(...parts);
  }

  // The text for the cell at canvas pixel (x, y), also shown below the map.
  cellText(x, y) {
    const row = Math.floor(y / this.scale), column = Math.floor(x / this.scale);
    if (row < 0 || column < 0 || row >= this.grid || column >= this.grid) return "";
    const who = (g) => {
      const first = g * this.block, last = Math.min(this.n, first + this.block) - 1;
      if (this.perNode) return `node ${this.names[first]}`;
      return first === last ? `rank ${first}` : `ranks ${first}–${last}`;
    };
    const value = this.sums[row * this.grid + column];
    return `${who(row)} → ${who(column)}: ${formatValue(value, this.unit, true)} ${this.what}`;
  }

  hover(x, y) { this.tip.textContent = this.cellText(x, y); }
}

// 0..1 to a colour from pale yellow through orange and red to dark red, as
// the little-endian RGBA word ImageData holds.
function heatColour(t) {
  const stops = [[255, 255, 204], [253, 141, 60], [227, 26, 28], [128, 0, 38]];
  const at = Math.min(Math.max(t, 0), 1) * (stops.length - 1);
  const i = Math.min(Math.floor(at), stops.length - 2), f = at - i;
  const mix = (k) => Math.round(stops[i][k] + f * (stops[i + 1][k] - stops[i][k]));
  return ((255 << 24) | (mix(2) << 16) | (mix(1) << 8) | mix(0)) >>> 0;
}

function placementView(placement) {
  const box = el("div", "placement");
  box.id = "placement";
  if (!placement) return box;
  box.append(el("h3", "", `Placement on ${placement.nodes} nodes of ${placement.cores_per_node} cores ` +
    `(${placement.cores_from === "option" ? "--cores-per-node" : "as the busiest node of the trace"})`));
  const table = el("table");
  table.append(el("tr"));
  table.rows[0].append(el("th", "", "mapping"), el("th", "", "bytes between nodes"), el("th", "", "of all bytes"));
  for (const m of placement.mappings) {
    const tr = el("tr");
    tr.dataset.mapping = m.name;
    const bytes = el("td", "number", formatValue(m.inter_node_bytes, "bytes", true));
    bytes.dataset.value = String(m.inter_node_bytes);
    tr.append(el("td", "", m.name), bytes, el("td", "number", formatPercent(m.inter_node_bytes, placement.total_bytes)));
    table.append(tr);
  }
  box.append(table, el("p", "", `of ${formatValue(placement.total_bytes, "bytes", true)} between ranks`));
  return box;
}

// Builds the view below the panes; nothing when the page has no data.
async function showCommunication() {
  const data = await decodeEmbeddedJson("communication-data");
  if (!data) return;
  const section = el("section", "communication");
  section.id = "communication";
  section.setAttribute("aria-label", "Communication");
  const table = new CommunicatorTable(data.communicators || []);
  const map = new HeatMap(data);
  const quantity = el("select");
  quantity.id = "matrix-quantity";
  for (const [key, [, what]] of Object.entries(MATRIX_QUANTITIES)) {
    const option = el("option", "", what);
    option.value = key;
    quantity.append(option);
  }
  const level = el("select");
  level.id = "matrix-level";
  for (const [key, what] of [["ranks", "rank to rank"], ["nodes", "node to node"]]) {
    const option = el("option", "", what);
    option.value = key;
    level.append(option);
  }
  const redraw = () => map.draw(quantity.value, level.value === "nodes");
  quantity.addEventListener("change", redraw);
  level.addEventListener("change", redraw);
  const controls = el("div", "matrix-controls");
  controls.append(el("span", "", "Sender ↓, receiver →"), quantity, level);
  const matrix = el("div", "matrix");
  matrix.append(el("h3", "", "Communication matrix"), controls, map.frame, map.legend, map.tip,
                placementView(data.placement));
  const profile = el("div", "profile");
  profile.append(el("h3", "", "Communicators"), table.element);
  section.append(el("h2", "", "Communication"), profile, matrix);
  document.querySelector("main").after(section);
  redraw();
  // A button in the header switches between the three panes and this view.
  addViewButton("communication", "Communication");
  window.hindsightCommunication = { data, table, map };  // for tests and the console
}

showCommunication().then(
  () => { document.body.dataset.communication = String(performance.now()); },
  (e) => {
    document.body.dataset.communication = "failed";
    document.getElementById("status").append(` The communication data could not be shown: ${e.message}`);
    throw e;
  });
