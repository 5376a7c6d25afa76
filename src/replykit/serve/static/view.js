// Drawing the segments, the diagnostics and the Self-check verdict. Every string from
// the message or the server goes into the page as text (textContent), never as HTML;
// the one exception is the rendered message, which the server escaped (§1).

// Code-point offset -> UTF-16 index, for a text (the server counts code points).
export function unitIndex(text) {
  const units = [];
  let at = 0;
  for (const ch of text) {
    units.push(at);
    at += ch.length;
  }
  units.push(at);
  return units;
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function segmentClass(seg) {
  if (seg.kind === "markdown") return "seg seg-markdown";
  if (seg.valid) return "seg seg-valid";
  return seg.registered ? "seg seg-invalid" : "seg seg-unregistered";
}

function segmentBadge(seg) {
  const state = seg.kind === "markdown" ? "" : seg.valid ? " valid" : seg.registered ? " invalid" : " unregistered";
  const id = seg.id ? ` ${seg.id}` : "";
  const badge = el("span", "badge", `${seg.kind}${id} ${seg.start}–${seg.end}${state}`);
  badge.dataset.kind = seg.kind;
  badge.dataset.start = String(seg.start);
  badge.dataset.end = String(seg.end);
  if (seg.id) badge.dataset.block = seg.id;
  badge.dataset.valid = String(Boolean(seg.valid));
  return badge;
}

// The text with each segment shaded and labelled by kind and offsets; the range of the
// active diagnostic (code points, or null) marked.
export function drawSegments(target, text, segments, active) {
  const units = unitIndex(text);
  const slice = (a, b) => text.slice(units[a], units[b]);
  const pieces = document.createDocumentFragment();
  for (const seg of segments) {
    const span = el("span", segmentClass(seg));
    span.append(segmentBadge(seg));
    const marked = active && (active.start === active.end
      ? seg.start <= active.start && (active.start < seg.end || seg.end === text.length)
      : active.start < seg.end && active.end > seg.start);
    const cuts = [seg.start, seg.end];
    if (marked) cuts.splice(1, 0, Math.max(seg.start, active.start), Math.min(seg.end, active.end));
    for (let i = 0; i + 1 < cuts.length; i++) {
      const part = slice(cuts[i], cuts[i + 1]);
      if (i === 1 && marked) {
        span.append(el("mark", "diag", part || "\u200b"));
      } else if (part) {
        span.append(document.createTextNode(part));
      }
    }
    pieces.append(span);
  }
  target.replaceChildren(pieces);
  const mark = target.querySelector("mark.diag");
  if (mark) mark.scrollIntoView({ block: "nearest" });
}

function diagnosticText(d) {
  const where = d.path ? ` at ${d.path}` : "";
  return `${d.line}:${d.column} ${d.severity} ${d.code} ${d.message}${where}`;
}

// One <li> per diagnostic; onPick(d, index) when one is clicked.
export function drawDiagnostics(target, diagnostics, onPick) {
  const items = diagnostics.map((d, i) => {
    const li = el("li", `sev-${d.severity}`, diagnosticText(d));
    li.dataset.code = d.code;
    li.dataset.start = String(d.start);
    li.dataset.end = String(d.end);
    li.tabIndex = 0;
    li.addEventListener("click", () => onPick(d, i));
    li.addEventListener("keydown", (event) => {
      if (event.key === "Enter") onPick(d, i);
    });
    return li;
  });
  target.replaceChildren(...items);
}

export function drawList(target, diagnostics) {
  target.replaceChildren(...diagnostics.map((d) => el("li", `sev-${d.severity || "error"}`,
    d.line ? diagnosticText(d) : `${d.code} ${d.path || ""} ${d.message}`)));
}

export function drawSelfCheck(verdict, list, repair, result) {
  verdict.textContent = result.passed ? "passed" : "failed";
  verdict.className = result.passed ? "verdict-pass" : "verdict-fail";
  drawList(list, result.diagnostics);
  repair.hidden = result.repair_prompt === null;
  repair.textContent = result.repair_prompt || "";
}
