// A tiny SVG chart kit for the dashboard: columns, lines, horizontal bars and the retry timeline.
// No dependencies and nothing loaded from elsewhere, so the page works offline and under a strict CSP.
// Every chart draws into an <svg> whose viewBox is the element's real width in pixels, so text keeps its
// size in wide and narrow panels; redraw after a resize.

const NS = 'http://www.w3.org/2000/svg';
let WIDTH = 760;

export function el(name, attrs = {}, parent = null, text = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) node.setAttribute(k, v);
  }
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

function reset(svg, height) {
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  // a hidden svg (empty state) has no width yet: take its panel's content width
  const measured = svg.getBoundingClientRect().width || (svg.parentNode.clientWidth - 32);
  WIDTH = Math.max(320, Math.round(measured || 760));
  svg.setAttribute('viewBox', `0 0 ${WIDTH} ${height}`);
  svg.setAttribute('preserveAspectRatio', 'xMinYMin meet');
}

/** A rounded maximum and its tick step: 0, step, 2 step ... >= max. */
export function niceScale(max, ticks = 4) {
  if (!(max > 0)) return { max: 1, step: 0.25 };
  const raw = max / ticks;
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 2.5, 5, 10].map(m => m * mag).find(s => s >= raw);
  return { max: step * Math.ceil(max / step), step };
}

export function fmt(n) {
  if (n === null || n === undefined) return '–';
  if (Math.abs(n) >= 1000) return (n / 1000).toFixed(n >= 10000 ? 0 : 1) + 'k';
  return Number.isInteger(n) ? String(n) : n.toFixed(n < 10 ? 1 : 0);
}

function clock(date) {
  return date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false });
}

/** Plot area with a y axis and time labels; returns scale helpers. */
function timeFrame(svg, times, yMax, unit, height) {
  const m = { left: 52, right: 12, top: 24, bottom: 24 };
  const plot = { x: m.left, y: m.top, w: WIDTH - m.left - m.right, h: height - m.top - m.bottom };
  const scale = niceScale(yMax);
  const y = v => plot.y + plot.h - (v / scale.max) * plot.h;
  const axis = el('g', { class: 'axis' }, svg);
  for (let v = 0; v <= scale.max + 1e-9; v += scale.step) {
    el('line', { x1: plot.x, x2: plot.x + plot.w, y1: y(v), y2: y(v), class: v === 0 ? 'baseline' : 'grid' }, axis);
    el('text', { x: plot.x - 6, y: y(v) + 4, 'text-anchor': 'end' }, axis, fmt(v) + (v === 0 ? '' : unit));
  }
  const n = Math.max(1, times.length);
  const band = plot.w / n;
  const every = Math.max(1, Math.ceil(n / 7));
  times.forEach((t, i) => {
    if (i % every === 0) {
      el('text', { x: plot.x + band * i + band / 2, y: height - 6, 'text-anchor': 'middle' }, axis, clock(t));
    }
  });
  return { plot, y, band, x: i => plot.x + band * i };
}

/** Stacked columns per time bucket: series [{name, cls, values}]. Returns the number of non-empty columns. */
export function columns(svg, { times, series, unit = '', height = 220 }) {
  reset(svg, height);
  const totals = times.map((_, i) => series.reduce((s, ser) => s + (ser.values[i] || 0), 0));
  const f = timeFrame(svg, times, Math.max(...totals, 0), unit, height);
  const g = el('g', { class: 'columns' }, svg);
  let filled = 0;
  times.forEach((t, i) => {
    let base = 0;
    if (totals[i] > 0) filled++;
    for (const ser of series) {
      const v = ser.values[i] || 0;
      if (v <= 0) continue;
      const top = f.y(base + v);
      const r = el('rect', { class: `bar ${ser.cls}`, x: f.x(i) + f.band * 0.12, width: Math.max(1, f.band * 0.76),
        y: top, height: Math.max(1, f.y(base) - top) }, g);
      el('title', {}, r, `${clock(t)} ${ser.name}: ${v}`);
      base += v;
    }
  });
  legend(svg, series);
  return filled;
}

/** Lines over time buckets (null = no data, the line breaks). Optional dashed guide {value, label}. */
export function lines(svg, { times, series, unit = '', guide = null, height = 220 }) {
  reset(svg, height);
  const values = series.flatMap(s => s.values.filter(v => v !== null && v !== undefined));
  const yMax = Math.max(...values, 0);
  const f = timeFrame(svg, times, yMax, unit, height);
  if (guide && guide.value <= niceScale(yMax).max) {
    el('line', { class: 'guide', x1: f.plot.x, x2: f.plot.x + f.plot.w, y1: f.y(guide.value), y2: f.y(guide.value) }, svg);
    el('text', { class: 'guide-label', x: f.plot.x + f.plot.w - 4, y: f.y(guide.value) - 4, 'text-anchor': 'end' }, svg, guide.label);
  }
  let points = 0;
  for (const ser of series) {
    let d = '';
    let pen = false;
    ser.values.forEach((v, i) => {
      if (v === null || v === undefined) { pen = false; return; }
      const px = f.x(i) + f.band / 2;
      d += `${pen ? 'L' : 'M'}${px.toFixed(1)},${f.y(v).toFixed(1)} `;
      pen = true;
      points++;
      const dot = el('circle', { class: `point ${ser.cls}`, cx: px, cy: f.y(v), r: 2.5 }, svg);
      el('title', {}, dot, `${clock(times[i])} ${ser.name}: ${fmt(v)}${unit}`);
    });
    if (d) el('path', { class: `line ${ser.cls}`, d }, svg);
  }
  legend(svg, series);
  return points;
}

function legend(svg, series) {
  const g = el('g', { class: 'legend' }, svg);
  let x = WIDTH - 12;
  [...series].reverse().forEach(s => {
    const label = el('text', { x, y: 10, 'text-anchor': 'end' }, g, s.name);
    const width = label.getComputedTextLength ? label.getComputedTextLength() : 0;
    x -= (width || s.name.length * 6) + 4;
    el('rect', { class: `swatch ${s.cls}`, x: x - 10, y: 2, width: 9, height: 9 }, g);
    x -= 22;
  });
}

/** Horizontal stacked bars: rows [{label, note, segments: [{name, cls, value}]}]. */
export function hbars(svg, { rows, rowHeight = 26 }) {
  const height = Math.max(40, rows.length * rowHeight + 26);
  reset(svg, height);
  const left = 150, right = 130, w = WIDTH - left - right;
  const max = Math.max(1, ...rows.map(r => r.segments.reduce((s, x) => s + x.value, 0)));
  rows.forEach((r, i) => {
    const y = 8 + i * rowHeight;
    el('text', { class: 'row-label', x: left - 8, y: y + rowHeight / 2 + 2, 'text-anchor': 'end' }, svg, r.label);
    el('rect', { class: 'track', x: left, y: y + 4, width: w, height: rowHeight - 10 }, svg);
    let x = left;
    for (const s of r.segments) {
      if (s.value <= 0) continue;
      const width = Math.max(2, (s.value / max) * w);
      const bar = el('rect', { class: `bar ${s.cls}`, x, y: y + 4, width, height: rowHeight - 10 }, svg);
      el('title', {}, bar, `${r.label} ${s.name}: ${s.value}`);
      x += width;
    }
    el('text', { class: 'row-note', x: left + w + 6, y: y + rowHeight / 2 + 2 }, svg, r.note ?? '');
  });
  return rows.length;
}

// WeCom re-sends an unanswered callback about 5 s and 10 s after the first attempt, then once more
// 84-90 s after it. Deliveries inside these windows are WeCom's retries; anything else is unusual.
export const WECOM_RETRY_WINDOWS = [
  { from: 3.5, to: 7.5, label: '+5 s' },
  { from: 8.5, to: 13, label: '+10 s' },
  { from: 83, to: 92, label: '+84–90 s' },
];

/** One row per event key, deliveries placed by seconds since the key's first delivery (sqrt scale). */
export function retryTimeline(svg, keys, { rowHeight = 34 } = {}) {
  const height = 40 + keys.length * rowHeight + 22;
  reset(svg, height);
  const left = Math.min(340, Math.round(WIDTH * 0.3)), right = 24, w = WIDTH - left - right, top = 32;
  const fit = (text, px) => { const max = Math.floor(px / 6.6); return text.length > max ? '…' + text.slice(-(max - 1)) : text; };
  const maxOffset = Math.max(120, ...keys.flatMap(k => k.deliveries.map(d => d.offsetSeconds)));
  const x = s => left + Math.sqrt(Math.max(0, s) / maxOffset) * w;
  const bottom = top + keys.length * rowHeight;

  for (const win of WECOM_RETRY_WINDOWS) {
    el('rect', { class: 'retry-window', x: x(win.from), y: top - 4, width: x(win.to) - x(win.from), height: bottom - top + 4 }, svg);
    el('text', { class: 'window-label', x: (x(win.from) + x(win.to)) / 2, y: top - 10, 'text-anchor': 'middle' }, svg, win.label);
  }
  el('text', { class: 'window-label', x: x(0), y: top - 10, 'text-anchor': 'middle' }, svg, 'first');
  for (const s of [0, 5, 10, 30, 60, 90, 120, 300, 600].filter(s => s <= maxOffset)) {
    el('line', { class: 'grid', x1: x(s), x2: x(s), y1: top - 2, y2: bottom }, svg);
    el('text', { class: 'tick', x: x(s), y: bottom + 14, 'text-anchor': 'middle' }, svg, `${s}s`);
  }

  let dots = 0;
  keys.forEach((k, i) => {
    const cy = top + i * rowHeight + rowHeight / 2;
    const label = el('g', { class: 'key-label' }, svg);
    el('text', { class: 'row-type', x: left - 12, y: cy - 2, 'text-anchor': 'end' }, label,
      fit(`${k.app} · ${k.eventType} · ${k.deliveries.length}×`, left - 16));
    el('text', { class: 'row-key', x: left - 12, y: cy + 11, 'text-anchor': 'end' }, label, fit(k.eventKey, (left - 16) * 1.1));
    el('title', {}, label, `${k.eventKey} (${k.app}, ${k.eventType})`);
    const offsets = k.deliveries.map(d => d.offsetSeconds);
    el('line', { class: 'key-span', x1: x(0), x2: x(Math.max(...offsets)), y1: cy, y2: cy }, svg);
    k.deliveries.forEach(d => {
      const kind = d.attempt === 1 ? 'first'
        : WECOM_RETRY_WINDOWS.some(win => d.offsetSeconds >= win.from && d.offsetSeconds <= win.to) ? 'wecom-retry' : 'odd-retry';
      const dot = el('circle', { class: `delivery ${kind}`, cx: x(d.offsetSeconds), cy, r: d.attempt === 1 ? 5 : 6 }, svg);
      el('title', {}, dot, `attempt ${d.attempt} at +${d.offsetSeconds.toFixed(1)} s`
        + (d.secondsSincePrevious != null ? ` (${d.secondsSincePrevious.toFixed(1)} s after the previous)` : '')
        + `\n${new Date(d.receivedAt).toLocaleTimeString()}`);
      if (d.attempt > 1) {
        el('text', { class: `gap ${kind}`, x: x(d.offsetSeconds), y: cy - 9, 'text-anchor': 'middle' }, svg,
          `+${d.offsetSeconds.toFixed(d.offsetSeconds < 20 ? 1 : 0)}s`);
      }
      dots++;
    });
  });
  return dots;
}

/** Seconds as a person reads them: 8 s, 4 min 21 s, 15 min, 2 h. */
export function duration(seconds) {
  if (seconds === null || seconds === undefined) return '–';
  if (seconds < 9.95) return `${seconds.toFixed(Number.isInteger(seconds) ? 0 : 1)} s`;
  const whole = Math.round(seconds); // round first: 179.6 s is 3 min, not 2 min 60 s
  if (whole < 60) return `${whole} s`;
  if (whole < 3600) {
    const m = Math.floor(whole / 60), s = whole % 60;
    return s ? `${m} min ${s} s` : `${m} min`;
  }
  const minutes = Math.round(whole / 60), h = Math.floor(minutes / 60), m = minutes % 60;
  return m ? `${h} h ${m} min` : `${h} h`;
}

/**
 * Each handler's hot window as a bar on a log time axis, against the window the measured retry span implies:
 * the band from lower to upper (2-3 × P99) is shaded and the P99 span is a line. rows: [{label, seconds, cls,
 * verdict, note}]; a row with seconds 0 has no hot tier and shows its note only.
 */
export function windowCompare(svg, { rows, p99, lower, upper, rowHeight = 30 }) {
  const top = 34, height = top + rows.length * rowHeight + 26;
  reset(svg, height);
  const left = 96, right = 200, w = WIDTH - left - right;
  const hi = Math.max(120, upper, ...rows.map(r => r.seconds)) * 1.5;
  const x = s => left + Math.log10(Math.max(1, s)) / Math.log10(hi) * w;
  const bottom = top + rows.length * rowHeight;
  for (const [s, label] of [[1, '1 s'], [10, '10 s'], [60, '1 min'], [600, '10 min'], [3600, '1 h'], [36000, '10 h'], [86400, '1 d']]) {
    if (s > hi) continue;
    el('line', { class: 'grid', x1: x(s), x2: x(s), y1: top - 4, y2: bottom }, svg);
    el('text', { class: 'tick', x: x(s), y: bottom + 14, 'text-anchor': 'middle' }, svg, label);
  }
  el('rect', { class: 'implied-window', x: x(lower), y: top - 4, width: Math.max(2, x(upper) - x(lower)), height: bottom - top + 4 }, svg);
  el('text', { class: 'implied-label', x: x(lower) + 3, y: top - 10 }, svg, `implied ${duration(lower)} – ${duration(upper)}`);
  el('line', { class: 'p99-line', x1: x(p99), x2: x(p99), y1: top - 4, y2: bottom }, svg);
  el('text', { class: 'p99-label', x: x(p99) - 3, y: top - 10, 'text-anchor': 'end' }, svg, `P99 span ${duration(p99)}`);
  rows.forEach((r, i) => {
    const y = top + i * rowHeight;
    const g = el('g', { class: 'handler-row', 'data-handler': r.label, 'data-verdict': r.verdict }, svg);
    el('text', { class: 'row-label', x: left - 8, y: y + rowHeight / 2 + 4, 'text-anchor': 'end' }, g, r.label);
    if (r.seconds > 0) {
      const bar = el('rect', { class: `window-bar ${r.cls}`, x: left, y: y + 6, width: Math.max(2, x(r.seconds) - left), height: rowHeight - 12 }, g);
      el('title', {}, bar, `${r.label}: hot window ${duration(r.seconds)}`);
    }
    el('text', { class: `row-note ${r.cls}`, x: left + w + 8, y: y + rowHeight / 2 + 4 }, g, r.note);
  });
  return rows.length;
}

/** A small bar of a latency against a limit (the welcome code's 20 s), for a table cell. */
export function latencyBar(ms, limitMs, { width = 90, height = 10 } = {}) {
  const svg = el('svg', { width, height, viewBox: `0 0 ${width} ${height}`, class: 'latency-bar', role: 'img' });
  el('rect', { class: 'track', x: 0, y: 0, width, height }, svg);
  if (ms !== null && ms !== undefined) {
    const share = Math.min(1, Math.max(0, ms / limitMs));
    el('rect', { class: `bar ${ms < limitMs ? 'processed' : 'failed-d'}`, x: 0, y: 0, width: Math.max(1, share * width), height }, svg);
  }
  el('title', {}, svg, ms === null || ms === undefined ? 'not sent' : `${ms} ms of ${limitMs / 1000} s`);
  return svg;
}
