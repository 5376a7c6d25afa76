// The playground page: the editor, its debounced updates, the forms and the permalink.
// The server does the reading (/api/analyze, /api/respond); this file only draws.

import { ActionsPanel } from "./actions.js";
import { decodeState, encodeState } from "./permalink.js";
import { drawDiagnostics, drawList, drawSegments, drawSelfCheck, unitIndex } from "./view.js";

const $ = (id) => document.getElementById(id);
const OTHER_VALUE = "__questionnaire_other__"; // replykit.OTHER_VALUE (§7)
const MESSAGE_ID = "message";
const DEBOUNCE_MS = 150;

const page = {
  seq: 0,
  pending: 0,
  waiters: [],
  timers: new Map(),
  last: null,
  activeDiagnostic: null,
  activeForm: null,
  lastUpdateMs: null,
  updates: 0,
};

function busy(delta) {
  page.pending += delta;
  if (page.pending === 0 && page.timers.size === 0) {
    for (const resolve of page.waiters.splice(0)) resolve();
  }
}

// Run fn after the user stopped typing for `ms`; counted as pending meanwhile.
function debounce(key, fn, ms = DEBOUNCE_MS) {
  if (page.timers.has(key)) clearTimeout(page.timers.get(key));
  else busy(0);
  page.timers.set(key, setTimeout(async () => {
    page.timers.delete(key);
    busy(1);
    try { await fn(); } finally { busy(-1); }
  }, ms));
}

async function post(path, body) {
  const reply = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { ok: reply.ok, value: await reply.json() };
}

function options() {
  const profile = $("profile").value === "product" ? `product:${$("product").value}` : $("profile").value;
  return {
    text: $("editor").value,
    message_id: MESSAGE_ID,
    profile,
    compat: $("compat").value,
    locale: $("locale").value,
  };
}

function showError(message) {
  $("request-error").hidden = message === null;
  $("request-error").textContent = message || "";
}

function pickDiagnostic(d) {
  page.activeDiagnostic = d;
  const result = page.last;
  const text = result.decoded ?? $("editor").value;
  drawSegments($("segments"), text, result.segments, d);
  for (const li of $("diagnostics").children) {
    li.classList.toggle("active", li.dataset.start === String(d.start) && li.dataset.code === d.code);
  }
  if (result.decoded === null) {
    const units = unitIndex(text);
    $("editor").setSelectionRange(units[d.start], units[d.end]);
  }
}

// The whole update for the editor's current text; returns the time it took in ms.
async function update() {
  const started = performance.now();
  const seq = ++page.seq;
  const request = { ...options(), readonly: $("readonly").checked };
  const reply = await post("/api/analyze", request);
  if (seq !== page.seq) return null;
  if (!reply.ok) {
    showError(reply.value.error);
    return null;
  }
  showError(null);
  const result = reply.value;
  page.last = result;
  page.activeDiagnostic = null;
  $("decoded-note").hidden = result.decoded === null;
  drawSegments($("segments"), result.decoded ?? request.text, result.segments, null);
  drawDiagnostics($("diagnostics"), result.diagnostics, pickDiagnostic);
  $("rendered").innerHTML = result.html;
  drawSelfCheck($("selfcheck-verdict"), $("selfcheck-diagnostics"), $("repair-prompt"), result.self_check);
  wireForms();
  page.lastUpdateMs = performance.now() - started;
  page.updates += 1;
  $("timing").textContent = `updated in ${page.lastUpdateMs.toFixed(0)} ms`;
  debounce("link", writeLink, 0);
  return page.lastUpdateMs;
}

// The answers a form holds, in the shapes build_response takes (§7). Inputs are found
// by kind inside each question's fieldset: a choice, the "other" text, a textarea.
export function formAnswers(form) {
  const answers = {};
  for (const fieldset of form.querySelectorAll("fieldset[data-question-id]")) {
    const id = fieldset.dataset.questionId;
    const type = fieldset.dataset.questionType;
    if (type === "free_text") {
      const area = fieldset.querySelector("textarea");
      answers[id] = area ? area.value : "";
      continue;
    }
    const boxes = [...fieldset.querySelectorAll("input[type=radio], input[type=checkbox]")];
    const other = fieldset.querySelector("input[type=text]");
    const chosen = boxes.filter((f) => f.checked).map((f) => f.value);
    const value = type === "multi_choice" ? chosen : chosen[0] ?? "";
    answers[id] = chosen.includes(OTHER_VALUE) ? { value, other_text: other ? other.value : "" } : value;
  }
  return answers;
}

async function respond(form) {
  // A form replaced by a newer update (its focused field fires "change" as it goes).
  if (!form.isConnected) return;
  page.activeForm = form.dataset.replykitBlock;
  for (const f of $("rendered").querySelectorAll("form.replykit-form")) {
    f.classList.toggle("active", f === form);
  }
  const body = { ...options(), block_id: form.dataset.replykitBlock, answers: formAnswers(form) };
  const reply = await post("/api/respond", body);
  if (!form.isConnected) return;
  $("response-block").textContent = form.dataset.replykitBlock;
  const value = reply.ok ? reply.value : { diagnostics: [{ code: "request", message: reply.value.error }] };
  $("agent-text").textContent = value.agent_text ?? "";
  $("display-text").textContent = value.display_text ?? "";
  drawList($("response-diagnostics"), value.diagnostics || []);
}

function wireForms() {
  // A read-only form is locked (docs/html.md section 3): it sends no answer.
  const forms = [...$("rendered").querySelectorAll("form.replykit-form:not([data-replykit-readonly])")];
  for (const form of forms) {
    const again = () => debounce("respond", () => respond(form), 50);
    form.addEventListener("input", again);
    form.addEventListener("change", again);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      again();
    });
  }
  const keep = forms.find((f) => f.dataset.replykitBlock === page.activeForm) || forms[0];
  if (keep) {
    debounce("respond", () => respond(keep), 0);
  } else {
    page.activeForm = null;
    for (const id of ["agent-text", "display-text", "response-block"]) $(id).textContent = "";
    $("response-diagnostics").replaceChildren();
  }
}

async function writeLink() {
  const encoded = await encodeState(options());
  if (encoded.tooLong) {
    $("link-status").textContent = `too long for a link (${encoded.tooLong})`;
    history.replaceState(null, "", location.pathname);
    return;
  }
  $("link-status").textContent = "link up to date";
  history.replaceState(null, "", `${location.pathname}#${encoded.fragment}`);
}

function setSelect(id, value) {
  const select = $(id);
  if ([...select.options].some((o) => o.value === value)) select.value = value;
}

function applyState(state) {
  $("editor").value = state.text;
  if (state.profile.startsWith("product:")) {
    setSelect("profile", "product");
    $("product").value = state.profile.slice("product:".length);
  } else {
    setSelect("profile", state.profile);
  }
  $("product").hidden = $("profile").value !== "product";
  setSelect("compat", state.compat);
  setSelect("locale", state.locale);
}

function loadExample(example, actions) {
  $("editor").value = example.text;
  if (example.answer !== undefined) {
    $("answer").value = example.answer;
    $("context").value = example.context ?? "{}";
    debounce("actions", () => actions.reset(), 0);
  }
  debounce("update", update, 0);
}

async function start() {
  const examples = (await (await fetch("/api/examples")).json());
  const picker = $("example");
  picker.replaceChildren(...examples.map((e) => new Option(e.title, e.name)));
  const actions = new ActionsPanel((promise) => {
    busy(1);
    return promise.finally(() => busy(-1));
  });
  const withActions = examples.find((e) => e.answer !== undefined);
  if (withActions) {
    $("answer").value = withActions.answer;
    $("context").value = withActions.context ?? "{}";
  }
  picker.addEventListener("change", () => loadExample(examples.find((e) => e.name === picker.value), actions));
  $("editor").addEventListener("input", () => debounce("update", update));
  for (const id of ["profile", "product", "compat", "locale", "readonly"]) {
    $(id).addEventListener("change", () => {
      $("product").hidden = $("profile").value !== "product";
      debounce("update", update, 0);
    });
  }
  for (const id of ["answer", "context"]) {
    $(id).addEventListener("input", () => debounce("actions", () => actions.reset()));
  }
  $("copy-link").addEventListener("click", () => navigator.clipboard?.writeText(location.href));
  const linked = await decodeState(location.hash);
  if (linked && linked.text !== undefined) {
    applyState(linked);
    picker.value = "";
  } else {
    if (linked && linked.error) $("link-status").textContent = `the link holds no readable message: ${linked.error}`;
    $("editor").value = examples[0].text;
  }
  window.addEventListener("hashchange", async () => {
    const state = await decodeState(location.hash);
    if (state && state.text !== undefined && state.text !== $("editor").value) {
      applyState(state);
      debounce("update", update, 0);
    }
  });
  debounce("actions", () => actions.reset(), 0);
  await update();
}

// What tests and benchmarks drive: run an update now, wait until nothing is pending.
window.replykitPlayground = {
  update,
  idle: () => new Promise((resolve) => {
    if (page.pending === 0 && page.timers.size === 0) resolve();
    else page.waiters.push(resolve);
  }),
  get lastUpdateMs() { return page.lastUpdateMs; },
  get updates() { return page.updates; },
  ready: start(),
};
