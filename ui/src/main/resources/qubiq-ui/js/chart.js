// The chart library, uPlot, served by the gateway from its webjar; loaded on first use so that
// pages without a chart do not wait for it.

const SCRIPT = "/vendor/uplot/uPlot.iife.min.js";
const STYLE = "/vendor/uplot/uPlot.min.css";

let loader = null;

export function loadUPlot() {
  if (window.uPlot) return Promise.resolve(window.uPlot);
  if (!loader) {
    loader = new Promise((resolve, reject) => {
      const css = document.createElement("link");
      css.rel = "stylesheet";
      css.href = STYLE;
      document.head.append(css);
      const script = document.createElement("script");
      script.src = SCRIPT;
      script.onload = () => resolve(window.uPlot);
      script.onerror = () => {
        loader = null;
        script.remove();
        reject(new Error(`The chart library did not load from ${SCRIPT}.`));
      };
      document.head.append(script);
    });
  }
  return loader;
}

export const PALETTE = ["#1f6fd1", "#c2410c", "#15803d", "#7e22ce", "#b91c1c", "#0e7490", "#a16207", "#be185d"];
