// A small SVG chart of each side's card points over the tricks of a hand.

const NS = "http://www.w3.org/2000/svg";

function el(tag, attrs) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** `series[side]` is that side's points after each trick (cumulative); `names[side]` its
 * label. Each side's line has its own dash and marker, so colour is not needed. */
export function pointsChart(series, names, label) {
  const w = 320;
  const hgt = 140;
  const pad = 24;
  const n = Math.max(1, ...series.map((s) => s.length));
  const top = Math.max(60, ...series.map((s) => (s.length ? s[s.length - 1] : 0)));
  const svg = el("svg", { viewBox: `0 0 ${w} ${hgt + 30}`, role: "img", class: "chart" });
  svg.setAttribute("aria-label", label);
  const x = (i) => pad + ((w - 2 * pad) * i) / n;
  const y = (v) => hgt - pad / 2 - ((hgt - pad) * v) / top;
  svg.append(el("line", { x1: pad, y1: y(0), x2: w - pad, y2: y(0), class: "axis" }));
  svg.append(el("line", { x1: pad, y1: y(60), x2: w - pad, y2: y(60), class: "grid" }));
  const mark = el("text", { x: 2, y: y(60) + 4, class: "tick" });
  mark.textContent = "60";
  svg.append(mark);
  const dashes = ["", "6 4", "2 3", "8 3 2 3"];
  series.forEach((points, side) => {
    const coords = [[x(0), y(0)], ...points.map((v, i) => [x(i + 1), y(v)])];
    svg.append(
      el("polyline", {
        points: coords.map((c) => c.join(",")).join(" "),
        class: `line side${side}`,
        "stroke-dasharray": dashes[side % dashes.length],
      }),
    );
    const ly = hgt + 8 + side * 11;
    svg.append(
      el("line", {
        x1: pad, y1: ly, x2: pad + 24, y2: ly, class: `line side${side}`,
        "stroke-dasharray": dashes[side % dashes.length],
      }),
    );
    const txt = el("text", { x: pad + 30, y: ly + 4, class: "legend" });
    txt.textContent = `${names[side]}: ${points.length ? points[points.length - 1] : 0}`;
    svg.append(txt);
  });
  svg.setAttribute("viewBox", `0 0 ${w} ${hgt + 14 + series.length * 11}`);
  return svg;
}
