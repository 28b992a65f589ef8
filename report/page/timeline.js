// ------------------------------------------------------------ timeline ---
// The timeline view: the analyzer's timeline windows (schema
// hindsight-timeline, doc/analyzer.md), embedded compressed like the
// report's data. For each of the longest single waits it kept, every
// rank's events around the wait: a lane per rank on a canvas (thousands of
// bars stay fast there), with the messages, collectives, wait states and
// the critical path, and below it a lane of region visits per OpenMP worker
// thread of the rank. Names from the trace reach the document as text only.

const LANE_HEIGHT = 30;                  // CSS pixels per rank (and per worker thread)
const BAR_TOP = 3, BAR_HEIGHT = 20;      // the region bars within a lane
const CRITICAL_TOP = 25, CRITICAL_HEIGHT = 4;  // the critical path's band below them
const TICK_SPACING = 90;                 // CSS pixels between time labels at least
const MESSAGE_REACH = 4;                 // how near the pointer must be to a message line
const STUB = 10;                         // the length of a message whose other side is not kept
const MESSAGES_PER_PATH = 32;            // message lines stroked at once
// MPI calls in a red family, so that communication and waiting stand out.
const MPI_REDS = ["#c01c28", "#e01b24", "#a51d2d", "#d33a2f", "#b5302a"];
const COLOURS = { message: "#1d2430", collective: "#1a5fb4", wait: "rgba(29, 36, 48, 0.6)", critical: "#f5a800",
                  selected: "#1a5fb4", notKept: "#d8dbe0", notKeptLines: "#b0b4bb" };

// A stable hash of a name (FNV-1a), so that a region has its colour on every page.
function nameHash(name) {
  let h = 2166136261;
  for (let i = 0; i < name.length; ++i) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  return h >>> 0;
}

// MPI call paths in one of the reds; other regions a light colour of a hue
// away from red (40 to 290 degrees), by name.
function regionColour(info) {
  const h = nameHash(info.name);
  if (info.mpi) return MPI_REDS[h % MPI_REDS.length];
  return `hsl(${40 + (h % 251)}, 45%, ${62 + ((h >>> 8) % 11)}%)`;
}

// A time since the trace's start as the summary gives it ("1.48 s"), to the nanosecond.
const formatTime = (t) => `${t.toFixed(9).replace(/\.?0+$/, "")} s`;

// Diagonal lines on `background` (transparent: over what lies below), as a fill.
function hatch(context, lines, background) {
  const tile = document.createElement("canvas");
  tile.width = tile.height = 6;
  const c = tile.getContext("2d");
  if (background) { c.fillStyle = background; c.fillRect(0, 0, 6, 6); }
  c.strokeStyle = lines;
  c.lineWidth = 1.5;
  c.beginPath();
  c.moveTo(-1, 7); c.lineTo(7, -1);
  c.moveTo(5, 7); c.lineTo(7, 5);
  c.moveTo(-1, 1); c.lineTo(1, -1);
  c.stroke();
  return context.createPattern(tile, "repeat");
}

// The labels of a time axis from t0 to t1 over `width` pixels: round steps
// (1, 2 or 5 times a power of ten), in the unit of the span shown.
function timeTicks(t0, t1, width) {
  const span = t1 - t0;
  if (!(span > 0) || !(width > 0)) return [];
  const raw = span / Math.max(2, Math.floor(width / TICK_SPACING));
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].find((m) => m * power >= raw * (1 - 1e-9)) * power;
  const [unit, name] = span >= 1 ? [1, "s"] : span >= 1e-3 ? [1e-3, "ms"] : span >= 1e-6 ? [1e-6, "µs"] : [1e-9, "ns"];
  const decimals = Math.max(0, Math.ceil(-Math.log10(step / unit) - 1e-9));
  const ticks = [];
  for (let k = Math.ceil(t0 / step - 1e-9); k * step <= t1 + step * 1e-9; ++k)
    ticks.push({ t: k * step, text: `${(k * step / unit).toFixed(decimals)} ${name}` });
  return ticks;
}

// One window of the data prepared for drawing: lanes by rank, each
// followed by its worker threads' (thread > 0: region visits only), bars in
// drawing order (shallower first, so that the innermost region shows), the
// messages paired by slot and the collectives by operation.
function prepareWindow(data, w) {
  const inDrawingOrder = (bars) => [...(bars || [])].sort((a, b) => a[2] - b[2] || a[0] - b[0]);
  const lanes = (w.lanes || []).flatMap((lane) => [
    { rank: lane.rank, thread: 0, from: lane.from, to: lane.to, bars: inDrawingOrder(lane.bars),
      collectives: lane.collectives || [], waits: lane.waits || [], critical: lane.critical || [] },
    ...(lane.threads || []).map((t) => ({
      rank: lane.rank, thread: t.thread, from: t.from, to: t.to, bars: inDrawingOrder(t.bars),
      collectives: [], waits: [], critical: [] })),
  ]);
  // The rank's own lane, where its messages, collectives and waits are.
  const laneOf = new Map(lanes.flatMap((lane, i) => (lane.thread === 0 ? [[lane.rank, i]] : [])));
  const messages = new Map();  // "sender>receiver#slot" -> the message
  const message = (sender, receiver, slot) => {
    const key = `${sender}>${receiver}#${slot}`;
    if (!messages.has(key)) messages.set(key, { sender, receiver, slot, sent: null, received: null });
    return messages.get(key);
  };
  for (const lane of w.lanes || []) {
    for (const [t, receiver, slot] of lane.sends || []) message(lane.rank, receiver, slot).sent = t;
    for (const [t, sender, slot] of lane.receives || []) message(sender, lane.rank, slot).received = t;
  }
  const collectives = new Map();  // "communicator#number" -> its members' calls
  for (const lane of lanes) {
    for (const [enter, leave, communicator, number] of lane.collectives) {
      const key = `${communicator}#${number}`;
      if (!collectives.has(key)) collectives.set(key, { communicator, number, members: [] });
      collectives.get(key).members.push({ rank: lane.rank, enter, leave });
    }
  }
  for (const c of collectives.values()) c.members.sort((a, b) => laneOf.get(a.rank) - laneOf.get(b.rank));
  return { window: w, lanes, laneOf, messages: [...messages.values()], collectives: [...collectives.values()] };
}

// A lane's label: its rank, or its worker thread below the rank's lane.
function laneName(lane) { return lane.thread ? `thread ${lane.thread}` : `rank ${lane.rank}`; }

// The canvas with its time axis, lane labels and tooltip; wheel zooms
// around the pointer, dragging pans, a click on a bar selects its call path.
class TimelineCanvas {
  constructor(data) {
    this.data = data;
    this.paths = data.paths || {};
    this.colours = new Map();  // call path -> its colour
    this.lines = [];           // the messages as drawn (messageLines)
    this.canvas = el("canvas", "timeline-canvas");
    this.canvas.id = "timeline-canvas";
    this.tip = el("div", "timeline-tip");
    this.tip.id = "timeline-tip";
    this.tip.hidden = true;
    this.axis = el("div", "timeline-axis");
    this.axis.id = "timeline-axis";
    this.labels = el("div", "timeline-lanes");
    this.labels.id = "timeline-lanes";
    const box = el("div", "timeline-canvas-box");
    box.append(this.canvas, this.tip);
    this.frame = el("div", "timeline-frame");
    this.frame.append(el("span", "timeline-corner"), this.axis, this.labels, box);
    this.bind();
  }

  pathInfo(p) { return this.paths[String(p)] || { name: `call path ${p}`, path: `call path ${p}`, mpi: false }; }

  colour(p) {
    if (!this.colours.has(p)) this.colours.set(p, regionColour(this.pathInfo(p)));
    return this.colours.get(p);
  }

  // Shows the window `prepared` (prepareWindow) whole.
  open(prepared) {
    this.shown = prepared;
    this.reset();
  }

  reset() {
    if (!this.shown) return;
    this.t0 = this.shown.window.from;
    // A window of no length (a wait of none, no margin) still gets a scale.
    this.t1 = Math.max(this.shown.window.to, this.t0 + 1e-9);
    this.draw();
  }

  x(t) { return (t - this.t0) / (this.t1 - this.t0) * this.width; }
  time(x) { return this.t0 + x / this.width * (this.t1 - this.t0); }

  // Keeps the view inside the window, at least a nanosecond wide.
  setView(t0, span) {
    const w = this.shown.window, full = Math.max(w.to - w.from, 1e-9);
    span = Math.min(Math.max(span, Math.min(1e-9, full)), full);
    t0 = Math.min(Math.max(t0, w.from), w.to - span);
    this.t0 = t0;
    this.t1 = t0 + span;
    this.draw();
  }

  draw() {
    if (!this.shown) return;
    const { lanes } = this.shown;
    const ratio = window.devicePixelRatio || 1;
    this.width = this.canvas.clientWidth;
    const height = lanes.length * LANE_HEIGHT;
    this.canvas.style.height = `${height}px`;
    this.labels.style.height = `${height}px`;
    this.labels.replaceChildren(...lanes.map((lane) => el("span", "", laneName(lane))));
    if (!this.width) return;  // not on the screen: drawn when shown
    const started = performance.now();
    this.canvas.width = Math.round(this.width * ratio);
    this.canvas.height = Math.round(height * ratio);
    const c = this.canvas.getContext("2d");
    c.setTransform(ratio, 0, 0, ratio, 0, 0);
    c.clearRect(0, 0, this.width, height);
    const notKept = hatch(c, COLOURS.notKeptLines, COLOURS.notKept), waiting = hatch(c, COLOURS.wait, null);
    const left = (t) => Math.max(-1, this.x(t)), right = (t) => Math.min(this.width + 1, this.x(t));
    const span = (from, to, top, h, fill) => {
      if (to < this.t0 || from > this.t1) return;
      const a = left(from), b = right(to);
      c.fillStyle = fill;
      c.fillRect(a, top, Math.max(1, b - a), h);
    };
    const w = this.shown.window;
    lanes.forEach((lane, i) => {
      const top = i * LANE_HEIGHT;
      if (lane.from > w.from) span(w.from, lane.from, top, LANE_HEIGHT, notKept);
      if (lane.to < w.to) span(lane.to, w.to, top, LANE_HEIGHT, notKept);
      this.drawBars(c, lane.bars, top);
      for (const [start, end] of lane.critical) span(start, end, top + CRITICAL_TOP, CRITICAL_HEIGHT, COLOURS.critical);
      for (const [start, end] of lane.waits) {
        span(start, end, top + BAR_TOP, BAR_HEIGHT, waiting);
        this.outline(c, start, end, top, COLOURS.message, 1);
      }
      c.fillStyle = "#d5d9e0";
      c.fillRect(0, top + LANE_HEIGHT - 1, this.width, 1);
    });
    // The wait the window is about, outlined strongly.
    const instance = w.instance, at = this.shown.laneOf.get(instance.rank);
    if (at !== undefined) this.outline(c, instance.start, instance.start + instance.waiting, at * LANE_HEIGHT, COLOURS.selected, 3);
    this.drawCollectives(c);
    this.lines = this.messageLines();  // also what the pointer is tested against
    this.drawMessages(c);
    this.drawAxis();
    this.canvas.dataset.drawMs = String(performance.now() - started);
  }

  // The bars of a lane, shallower first. Of bars that fall within a pixel
  // already drawn at their depth only the first is drawn: at the scale of
  // a whole window most are narrower than a pixel, and a lane of thousands
  // then costs about as many rectangles as it has pixels.
  drawBars(c, bars, top) {
    let depth = -1, drawn = -Infinity, fill = null;
    for (const [start, end, d, p] of bars) {
      if (end < this.t0 || start > this.t1) continue;
      if (d !== depth) { depth = d; drawn = -Infinity; }
      const a = Math.max(-1, this.x(start)), b = Math.min(this.width + 1, this.x(end));
      if (Math.floor(b) <= drawn) continue;
      const colour = this.colour(p);
      if (colour !== fill) c.fillStyle = fill = colour;
      c.fillRect(a, top + BAR_TOP, Math.max(1, b - a), BAR_HEIGHT);
      drawn = Math.floor(Math.max(b, a + 1));
    }
  }

  outline(c, start, end, top, colour, width) {
    if (end < this.t0 || start > this.t1) return;
    const a = Math.max(-2, this.x(start)), b = Math.min(this.width + 2, this.x(end));
    c.strokeStyle = colour;
    c.lineWidth = width;
    c.strokeRect(a, top + BAR_TOP - width / 2 + 0.5, Math.max(1, b - a), BAR_HEIGHT + width - 1);
  }

  middle(rank) { return this.shown.laneOf.get(rank) * LANE_HEIGHT + BAR_TOP + BAR_HEIGHT / 2; }

  // Each message as a line from its send to its receive, with a head at the
  // receive; a message with one side in the window as a short stub there.
  drawMessages(c) {
    c.strokeStyle = c.fillStyle = COLOURS.message;
    c.lineWidth = 1.2;
    // A path of some lines each: a stroke per line costs more than the bars,
    // one path of all of them far more (its stroke grows faster than its length).
    const seen = (m) => Math.max(m.x0, m.x1) >= 0 && Math.min(m.x0, m.x1) <= this.width;
    let n = 0;
    c.beginPath();
    for (const m of this.lines) {
      if (!seen(m)) continue;
      c.moveTo(m.x0, m.y0);
      c.lineTo(m.x1, m.y1);
      if (++n % MESSAGES_PER_PATH === 0) { c.stroke(); c.beginPath(); }
    }
    c.stroke();
    // A head where the line is long enough to show one.
    c.beginPath();
    n = 0;
    for (const m of this.lines) {
      if (m.received === null || !seen(m) || Math.hypot(m.x1 - m.x0, m.y1 - m.y0) < 12) continue;
      const angle = Math.atan2(m.y1 - m.y0, m.x1 - m.x0);
      c.moveTo(m.x1, m.y1);
      c.lineTo(m.x1 - 7 * Math.cos(angle - 0.4), m.y1 - 7 * Math.sin(angle - 0.4));
      c.lineTo(m.x1 - 7 * Math.cos(angle + 0.4), m.y1 - 7 * Math.sin(angle + 0.4));
      c.closePath();
      if (++n % MESSAGES_PER_PATH === 0) { c.fill(); c.beginPath(); }
    }
    c.fill();
  }

  // The messages as segments in CSS pixels (a stub points towards the other lane).
  messageLines() {
    const { laneOf } = this.shown;
    const lines = [];
    for (const m of this.shown.messages) {
      const hasSender = laneOf.has(m.sender) && m.sent !== null, hasReceiver = laneOf.has(m.receiver) && m.received !== null;
      if (hasSender && hasReceiver) {
        lines.push({ ...m, x0: this.x(m.sent), y0: this.middle(m.sender), x1: this.x(m.received), y1: this.middle(m.receiver) });
      } else if (hasSender) {
        const down = !laneOf.has(m.receiver) || laneOf.get(m.receiver) > laneOf.get(m.sender) ? 1 : -1;
        const x = this.x(m.sent), y = this.middle(m.sender);
        lines.push({ ...m, received: null, x0: x, y0: y, x1: x + STUB, y1: y + down * STUB });
      } else if (hasReceiver) {
        const down = !laneOf.has(m.sender) || laneOf.get(m.sender) < laneOf.get(m.receiver) ? 1 : -1;
        const x = this.x(m.received), y = this.middle(m.receiver);
        lines.push({ ...m, sent: null, x0: x - STUB, y0: y - down * STUB, x1: x, y1: y });
      }
    }
    return lines;
  }

  // Each collective operation as Vampir draws it: a line through its
  // members' entries and one through their exits, lane by lane.
  drawCollectives(c) {
    c.strokeStyle = COLOURS.collective;
    c.lineWidth = 1.5;
    for (const op of this.shown.collectives) {
      for (const key of ["enter", "leave"]) {
        c.beginPath();
        op.members.forEach((m, i) => {
          const x = this.x(m[key]), y = this.middle(m.rank);
          if (i) c.lineTo(x, y); else c.moveTo(x, y);
        });
        if (op.members.length === 1) c.lineTo(this.x(op.members[0][key]), this.middle(op.members[0].rank) + BAR_HEIGHT / 2);
        c.stroke();
      }
    }
  }

  drawAxis() {
    this.axis.replaceChildren(...timeTicks(this.t0, this.t1, this.width).map(({ t, text }) => {
      const label = el("span", "", text), x = this.x(t);
      label.style.left = `${x}px`;
      // Whole at the ends: a label near an end stands on its side of the tick.
      if (x < TICK_SPACING / 2) label.classList.add("start");
      else if (x > this.width - TICK_SPACING / 2) label.classList.add("end");
      return label;
    }));
  }

  // What is at (x, y) in CSS pixels of the canvas, as lines of text, and the
  // bar there (for a click); nothing outside the lanes.
  describe(x, y) {
    const { lanes, window: w } = this.shown;
    const i = Math.floor(y / LANE_HEIGHT);
    if (i < 0 || i >= lanes.length || x < 0 || x > this.width) return null;
    const lane = lanes[i], t = this.time(x);
    const lines = [lane.thread ? `rank ${lane.rank}, thread ${lane.thread}` : laneName(lane)];
    // Near a message line: the message.
    for (const m of this.lines) {
      const dx = m.x1 - m.x0, dy = m.y1 - m.y0, length = dx * dx + dy * dy;
      const f = length ? Math.min(1, Math.max(0, ((x - m.x0) * dx + (y - m.y0) * dy) / length)) : 0;
      if (Math.hypot(x - m.x0 - f * dx, y - m.y0 - f * dy) > MESSAGE_REACH) continue;
      const sent = m.sent === null ? "sent before the window or not kept" : `sent at ${formatTime(m.sent)}`;
      const received = m.received === null ? "received after the window or not kept" : `received at ${formatTime(m.received)}`;
      return { lines: [`message rank ${m.sender} → rank ${m.receiver}`, `${sent}, ${received}`], bar: null, rank: lane.rank };
    }
    if (t < lane.from || t > lane.to) {
      lines.push("events not kept here (the window keeps those nearest the wait)");
      return { lines, bar: null, rank: lane.rank };
    }
    let bar = null;
    for (const b of lane.bars) if (b[0] <= t && t <= b[1] && (!bar || b[2] >= bar[2])) bar = b;
    if (bar) {
      const info = this.pathInfo(bar[3]);
      lines.push(info.name, info.path, `start ${formatTime(bar[0])}, duration ${formatValue(bar[1] - bar[0], "sec")}`);
    } else if (lane.thread) {
      lines.push("idle: outside the parallel regions");
    }
    const patterns = this.data.patterns || {}, communicators = this.data.communicators || {};
    for (const [start, end, pattern] of lane.waits)
      if (start <= t && t <= end)
        lines.push(`${patterns[pattern] || pattern}: waiting ${formatValue(end - start, "sec")} from ${formatTime(start)}` +
                   (lane.rank === w.instance.rank && start === w.instance.start ? " (the wait of this window)" : ""));
    for (const [enter, leave, communicator, number] of lane.collectives)
      if (enter <= t && t <= leave) {
        const op = this.shown.collectives.find((o) => o.communicator === communicator && o.number === number);
        lines.push(`collective operation ${number} on ${communicators[String(communicator)] || `communicator ${communicator}`}: ` +
                   `${formatTime(enter)} to ${formatTime(leave)}, ${op.members.length} rank(s) in the window`);
      }
    if (lane.critical.some(([start, end]) => start <= t && t <= end)) lines.push("on the critical path");
    return { lines, bar, rank: lane.rank };
  }

  // Canvas CSS pixels of a mouse event.
  at(e) {
    const box = this.canvas.getBoundingClientRect();
    return [e.clientX - box.left, e.clientY - box.top];
  }

  hover(x, y) {
    const what = this.shown ? this.describe(x, y) : null;
    this.tip.hidden = !what;
    if (!what) return;
    this.tip.textContent = what.lines.join("\n");
    this.tip.style.left = `${Math.min(x + 14, Math.max(0, this.width - 320))}px`;
    this.tip.style.top = `${y + 14}px`;
  }

  bind() {
    this.canvas.addEventListener("wheel", (e) => {
      if (!this.shown) return;
      e.preventDefault();
      const [x] = this.at(e), t = this.time(x);
      const span = (this.t1 - this.t0) * Math.exp(e.deltaY * 0.0015);
      this.setView(t - x / this.width * span, span);
    }, { passive: false });
    this.canvas.addEventListener("pointerdown", (down) => {
      if (!this.shown || down.button !== 0) return;
      this.canvas.setPointerCapture(down.pointerId);
      const t0 = this.t0, span = this.t1 - this.t0, [x0] = this.at(down);
      let moved = false;
      this.canvas.onpointermove = (move) => {
        const [x] = this.at(move);
        if (Math.abs(x - x0) > 3) moved = true;
        if (moved) this.setView(t0 - (x - x0) / this.width * span, span);
      };
      this.canvas.onpointerup = (up) => {
        this.canvas.onpointermove = this.canvas.onpointerup = null;
        if (!moved) this.click(...this.at(up));
      };
    });
    this.canvas.addEventListener("mousemove", (e) => this.hover(...this.at(e)));
    this.canvas.addEventListener("mouseleave", () => { this.tip.hidden = true; });
    window.addEventListener("resize", () => this.draw());
  }

  // A click on a bar selects its call path (and rank) in the panes, where
  // the report has that call path.
  click(x, y) {
    const what = this.describe(x, y), browser = window.hindsightReport;
    if (!what || !what.bar || !browser) return;
    const d = browser.model.data, cnode = what.bar[3];
    if (!Number.isInteger(cnode) || cnode < 0 || cnode >= d.cnodes.length) return;
    browser.show(browser.selectedMetric, cnode, d.groups.findIndex((g) => g[1] === what.rank));
    this.onSelect(`${browser.model.pathOf(cnode).join(" > ")} on rank ${what.rank} is selected in the call tree.`);
  }
}

// What the legend explains: a swatch's class and the words.
const TIMELINE_LEGEND = [
  ["mpi", "MPI call"], ["region", "other regions (a colour per name)"], ["message", "message (send → receive)"],
  ["collective", "collective operation"], ["wait", "wait state"], ["selected", "the wait of this window"],
  ["critical", "critical path"], ["not-kept", "events not kept"],
];

// The view: the kept waits as a list grouped by pattern (the pattern of the
// metric selected in the panes first), and the timeline of the one opened.
class TimelineView {
  constructor(data) {
    this.data = data;
    this.windows = (data.windows || []).filter((w) => w && w.instance);
    this.canvas = new TimelineCanvas(data);
    this.canvas.onSelect = (text) => { this.status.textContent = text; };
    this.list = el("div", "timeline-waits");
    this.list.id = "timeline-waits";
    this.title = el("span", "timeline-title");
    this.title.id = "timeline-title";
    this.status = el("p", "timeline-status");
    this.status.id = "timeline-status";
    const reset = el("button", "", "Reset zoom");
    reset.id = "timeline-reset";
    reset.type = "button";
    reset.addEventListener("click", () => this.canvas.reset());
    const controls = el("div", "timeline-controls");
    controls.append(this.title, reset, el("span", "timeline-hint", "wheel: zoom · drag: pan · click a bar: select its call path"));
    const legend = el("div", "timeline-legend");
    legend.id = "timeline-legend";
    for (const [kind, words] of TIMELINE_LEGEND) {
      const item = el("span");
      item.append(el("span", `swatch ${kind}`), words);
      legend.append(item);
    }
    const body = el("div", "timeline-body");
    body.append(controls, this.canvas.frame, legend, this.status);
    this.section = el("section", "timeline");
    this.section.id = "timeline";
    this.section.setAttribute("aria-label", "Timeline");
    this.section.append(el("h2", "", "Timeline of the longest waits"), this.list, body);
    this.opened = -1;
    this.first = null;  // the pattern listed first
    this.renderList();
  }

  patternName(id) { return (this.data.patterns || {})[id] || id; }

  // "rank 1 at 1.48 s: 26 ms in main/exchange/MPI_Recv", as the summary lists the waits.
  instanceText(w) {
    const i = w.instance, path = this.canvas.pathInfo(i.path).path;
    return `rank ${i.rank} at ${formatTime(i.start)}: ${formatValue(i.waiting, "sec")} in ${path}`;
  }

  // The windows by pattern, in the order the file has them, `this.first`'s first.
  groups() {
    const groups = new Map();
    this.windows.forEach((w, index) => {
      const p = w.instance.pattern;
      if (!groups.has(p)) groups.set(p, []);
      groups.get(p).push(index);
    });
    return [...groups].sort(([a], [b]) => (b === this.first) - (a === this.first));
  }

  link(index, text) {
    const a = el("a", "", text);
    a.href = "#";
    a.dataset.window = String(index);
    a.addEventListener("click", (e) => { e.preventDefault(); this.open(index); showView("timeline"); this.canvas.draw(); });
    return a;
  }

  renderList() {
    const parts = [el("h3", "", "Longest waits")];
    if (!this.windows.length) parts.push(el("p", "", "The analysis kept no waits."));
    for (const [pattern, indices] of this.groups()) {
      const group = el("div", "timeline-pattern");
      group.dataset.pattern = pattern;
      const list = el("ol");
      for (const index of indices) {
        const li = el("li", index === this.opened ? "selected" : "");
        li.append(this.link(index, this.instanceText(this.windows[index])));
        list.append(li);
      }
      group.append(el("h4", "", this.patternName(pattern)), list);
      parts.push(group);
    }
    this.list.replaceChildren(...parts);
  }

  open(index) {
    const w = this.windows[index];
    if (!w) return;
    this.opened = index;
    this.title.textContent = `${this.patternName(w.instance.pattern)}: ${this.instanceText(w)}`;
    this.status.textContent = "";
    this.canvas.open(prepareWindow(this.data, w));
    this.renderList();
  }

  // Offers the waits of the pattern selected in the metric tree first.
  follow(browser) {
    const id = browser.model.data.metrics[browser.selectedMetric].id;
    const pattern = this.windows.some((w) => w.instance.pattern === id) ? id : this.first;
    if (pattern === this.first) return;
    this.first = pattern;
    this.renderList();
  }

  // The links of the findings' wait state `id` to its longest waits, or null.
  findingLinks(id) {
    const indices = this.windows.map((w, i) => (w.instance.pattern === id ? i : -1)).filter((i) => i >= 0);
    if (!indices.length) return null;
    const part = el("span", "timeline-links");
    part.append("longest waits: ");
    indices.forEach((index, k) => {
      if (k) part.append("; ");
      const i = this.windows[index].instance;
      part.append(this.link(index, `rank ${i.rank} at ${formatTime(i.start)} (${formatValue(i.waiting, "sec")})`));
    });
    return part;
  }
}

// Builds the view beside the panes; nothing when the page has no data.
async function showTimeline() {
  const data = await decodeEmbeddedJson("timeline-data");
  if (!data) return null;
  const view = new TimelineView(data);
  document.querySelector("main").after(view.section);
  const button = addViewButton("timeline", "Timeline");
  button.addEventListener("click", () => view.canvas.draw());
  if (view.windows.length) view.open(view.groups()[0][1][0]);
  window.hindsightTimeline = view;  // for tests and the console
  return view;
}

const timelineShown = showTimeline();
pageViews.loading.push(timelineShown);
timelineShown.then(
  (view) => {
    if (view) {
      pageViews.waitLinks.push((id) => view.findingLinks(id));
      pageViews.onUpdate.push((browser) => view.follow(browser));
      if (window.hindsightReport) view.follow(window.hindsightReport);
    }
    document.body.dataset.timeline = String(performance.now());
  },
  (e) => {
    document.body.dataset.timeline = "failed";
    document.getElementById("status").append(` The timeline could not be shown: ${e.message}`);
    throw e;
  });
