// Trends: pick tags and a range; the chart shows GET /api/v1/history (stored rows merged with the
// historian's live tail) and, for the "last ..." ranges, keeps appending the values of the "tags"
// event, sliding the window along. Ranges over an hour ask for one average per interval.
import { api } from "../api.js";
import { h, clear, loading, empty, failure } from "../dom.js";
import { subscribe } from "../events.js";
import { loadUPlot, PALETTE } from "../chart.js";
import { localInput } from "../format.js";

const RANGES = [["15m", "last 15 min", 900], ["1h", "last hour", 3600], ["8h", "last 8 hours", 28800], ["custom", "custom", 0]];
const RAW_LIMIT_SECONDS = 3600;
const POINTS_WANTED = 600;
const REDRAW_MS = 1000;

/** The choice survives leaving and reopening the page. */
const remembered = { tags: [], range: "15m" };

export async function render(root, _params, ctx) {
  const picker = h("fieldset", { id: "trend-tags", class: "picker" }, h("legend", {}, "Tags"), loading());
  const range = h("select", { id: "trend-range" }, RANGES.map(([key, label]) => h("option", { value: key }, label)));
  range.value = remembered.range;
  const now = new Date();
  const from = h("input", { type: "datetime-local", id: "trend-from", value: localInput(new Date(now - 3600e3)) });
  const to = h("input", { type: "datetime-local", id: "trend-to", value: localInput(now) });
  const custom = h("span", { class: "custom", hidden: range.value !== "custom" },
      h("label", { class: "inline", for: "trend-from" }, "From ", from), h("label", { class: "inline", for: "trend-to" }, "to ", to));
  const other = h("input", { id: "trend-other", placeholder: "plant/line1/temp, …", size: 30 });
  const show = h("button", { type: "submit", class: "primary", id: "trend-show" }, "Show");
  const chartBox = h("div", { id: "trend-chart", class: "chart", "data-test": "trend-chart" },
      empty("Pick one or more tags and a range, then Show."));
  const form = h("form", { class: "toolbar wrap", id: "trend-form" },
      h("label", { class: "inline", for: "trend-range" }, "Range ", range), custom,
      h("label", { class: "inline", for: "trend-other" }, "Other tags ", other), show);
  clear(root, h("h2", {}, "Trends"), h("div", { class: "trends" }, picker, h("div", { class: "trend-main" }, form, chartBox)));

  range.addEventListener("change", () => {
    custom.hidden = range.value !== "custom";
  });

  if (ctx.can("view_tags")) {
    api.get("/api/v1/tags").then((tags) => fillPicker(picker, tags), (e) => clear(picker, h("legend", {}, "Tags"), failure(e)));
  } else {
    clear(picker, h("legend", {}, "Tags"), h("p", { class: "hint" }, "Type tag paths under Other tags."));
  }

  let live = null;
  const stop = () => {
    if (live) live();
    live = null;
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    stop();
    const chosen = [...picker.querySelectorAll("input:checked")].map((box) => box.value)
        .concat(other.value.split(",").map((s) => s.trim()).filter(Boolean));
    const tags = [...new Set(chosen)];
    remembered.tags = tags;
    remembered.range = range.value;
    if (tags.length === 0) {
      clear(chartBox, empty("Pick at least one tag."));
      return;
    }
    const span = range.value === "custom"
        ? { from: new Date(from.value), to: new Date(to.value), live: false }
        : { seconds: RANGES.find(([key]) => key === range.value)[2], live: true };
    live = await draw(chartBox, tags, span);
  });

  if (remembered.tags.length > 0) {
    other.value = "";
    queueMicrotask(() => {
      for (const box of picker.querySelectorAll("input")) box.checked = remembered.tags.includes(box.value);
    });
  }
  return stop;
}

function fillPicker(picker, tags) {
  const numeric = tags.filter((t) => typeof t.value === "number" || typeof t.value === "boolean")
      .sort((a, b) => a.path.localeCompare(b.path));
  if (numeric.length === 0) {
    clear(picker, h("legend", {}, "Tags"), empty("No numeric tag has a value yet."));
    return;
  }
  clear(picker, h("legend", {}, "Tags"), h("div", { class: "choices" }, numeric.map((t, i) =>
      h("label", { class: "choice" }, h("input", { type: "checkbox", value: t.path, id: "trend-tag-" + i,
        "data-test": "trend-tag", checked: remembered.tags.includes(t.path) }), " ", t.path))));
}

async function draw(box, tags, span) {
  clear(box, loading("Loading history…"));
  const end = span.live ? new Date() : span.to;
  const start = span.live ? new Date(end - span.seconds * 1000) : span.from;
  if (!(start < end)) {
    clear(box, failure(new Error("The range must end after it starts.")));
    return null;
  }
  const spanSeconds = (end - start) / 1000;
  let query = `/api/v1/history?tags=${tags.map(encodeURIComponent).join(",")}`
      + `&from=${start.toISOString()}&to=${end.toISOString()}`;
  if (spanSeconds > RAW_LIMIT_SECONDS) query += `&interval=${Math.max(1, Math.round(spanSeconds / POINTS_WANTED))}s&agg=avg`;
  let uPlot;
  let history;
  try {
    [uPlot, history] = await Promise.all([loadUPlot(), api.get(query)]);
  } catch (e) {
    clear(box, failure(e));
    return null;
  }
  const series = new Map(tags.map((tag) => [tag, new Map()]));
  for (const s of history) {
    const points = series.get(s.tag);
    if (!points) continue;
    for (const p of s.points) {
      const v = numeric(p.value);
      if (v !== null) add(points, Date.parse(p.ts), v);
    }
  }
  if ([...series.values()].every((points) => points.size === 0) && !span.live) {
    clear(box, empty("No samples in this range."));
    return null;
  }
  clear(box);
  const initial = aligned(tags, series, start.getTime());
  box.dataset.points = String(initial[0].length);
  const chart = new uPlot({
    width: Math.max(400, box.clientWidth - 24),
    height: 380,
    scales: { x: { time: true } },
    series: [{}, ...tags.map((tag, i) => ({ label: tag, stroke: PALETTE[i % PALETTE.length], width: 1.5, spanGaps: true }))],
  }, initial, box);
  const resize = () => chart.setSize({ width: Math.max(400, box.clientWidth - 24), height: 380 });
  addEventListener("resize", resize);
  if (!span.live) {
    return () => {
      removeEventListener("resize", resize);
      chart.destroy();
    };
  }
  let dirty = false;
  const unsubscribe = subscribe("tags", (changed) => {
    for (const tag of changed) {
      const points = series.get(tag.path);
      const v = numeric(tag.value);
      if (points && v !== null && add(points, Date.parse(tag.sourceTime || tag.serverTime), v)) {
        dirty = true;
      }
    }
  });
  const timer = setInterval(() => {
    if (!dirty) return;
    dirty = false;
    const data = aligned(tags, series, Date.now() - span.seconds * 1000);
    box.dataset.points = String(data[0].length); // how many instants are drawn (read by the browser tests)
    chart.setData(data);
  }, REDRAW_MS);
  return () => {
    unsubscribe();
    clearInterval(timer);
    removeEventListener("resize", resize);
    chart.destroy();
  };
}

function numeric(value) {
  if (typeof value === "boolean") return value ? 1 : 0;
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/**
 * Adds a value at a timestamp (ms) to a tag's points, a map of timestamp to the distinct values at
 * it: two samples of one tag with the same timestamp and different values are both drawn. Returns
 * whether it was new.
 */
function add(points, ts, v) {
  const values = points.get(ts);
  if (!values) {
    points.set(ts, [v]);
    return true;
  }
  if (values.includes(v)) return false;
  values.push(v);
  return true;
}

/**
 * uPlot's data: one x array (seconds) over the union of all timestamps, one y array per tag. A
 * timestamp at which a tag has several values appears that many times in a row (uPlot draws them
 * as a vertical step); other tags have null there.
 */
function aligned(tags, series, fromMillis) {
  const stamps = new Set();
  for (const points of series.values()) {
    for (const ts of points.keys()) {
      if (ts < fromMillis) points.delete(ts);
      else stamps.add(ts);
    }
  }
  const xs = [];
  const ys = tags.map(() => []);
  for (const ts of [...stamps].sort((a, b) => a - b)) {
    const at = tags.map((tag) => series.get(tag).get(ts) ?? []);
    const rows = Math.max(1, ...at.map((values) => values.length));
    for (let row = 0; row < rows; row++) {
      xs.push(ts / 1000);
      at.forEach((values, i) => ys[i].push(values[row] ?? null));
    }
  }
  return [xs, ...ys];
}
