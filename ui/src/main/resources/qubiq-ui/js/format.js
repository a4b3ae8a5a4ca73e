// How numbers, sizes, durations and instants read on the console.

export function bytes(n) {
  if (n === null || n === undefined || !Number.isFinite(Number(n))) return "–";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let value = Number(n);
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return (unit === 0 ? value.toFixed(0) : value.toFixed(value < 10 ? 1 : 0)) + " " + units[unit];
}

export function rate(bytesPerSecond) {
  return bytes(bytesPerSecond) + "/s";
}

export function count(n) {
  return Number.isFinite(Number(n)) ? Number(n).toLocaleString("en") : "–";
}

/** Seconds from a JSON duration: a number of seconds, an ISO-8601 "PT1M2.5S", or null. */
export function seconds(duration) {
  if (duration === null || duration === undefined) return null;
  if (typeof duration === "number") return duration;
  const match = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?)?$/.exec(String(duration));
  if (!match) return Number.isFinite(Number(duration)) ? Number(duration) : null;
  const [, d, hh, mm, ss] = match.map((part) => Number(part || 0));
  return d * 86400 + hh * 3600 + mm * 60 + ss;
}

/** "3 s", "4 min 10 s", "2 h 5 min", "3 d 4 h". */
export function duration(totalSeconds) {
  if (totalSeconds === null || totalSeconds === undefined || !Number.isFinite(totalSeconds)) return "–";
  const s = Math.max(0, Math.round(totalSeconds));
  if (s < 60) return s + " s";
  if (s < 3600) return Math.floor(s / 60) + " min " + (s % 60) + " s";
  if (s < 86400) return Math.floor(s / 3600) + " h " + Math.floor((s % 3600) / 60) + " min";
  return Math.floor(s / 86400) + " d " + Math.floor((s % 86400) / 3600) + " h";
}

export function time(iso) {
  if (!iso) return "–";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : date.toLocaleString();
}

export function timeOfDay(iso) {
  if (!iso) return "–";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : date.toLocaleTimeString();
}

export function value(v) {
  if (v === null || v === undefined) return "–";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : v.toLocaleString("en", { maximumFractionDigits: 6 });
  return String(v);
}

/** A value for an <input type="datetime-local"> from a Date, in local time. */
export function localInput(date) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
