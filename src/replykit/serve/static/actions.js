// The answer-actions panel: the sanitized buttons, the confirmation area and the state
// machine of replykit.actions, one /api/actions call per event (§12). The page keeps
// the state; the server is stateless.

import { drawList } from "./view.js";

const $ = (id) => document.getElementById(id);

async function post(body) {
  const reply = await fetch("/api/actions", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { ok: reply.ok, value: await reply.json() };
}

export class ActionsPanel {
  // track(promise): the page counts the request as pending until it settles.
  constructor(track) {
    this.track = track;
    this.state = {};
    this.lastEffect = null;
    const on = (id, kind, target) =>
      $(id).addEventListener("click", () => this.track(this.send(this[target], kind)));
    on("confirm-ok", "confirm", "pending");
    on("confirm-cancel", "cancel", "pending");
    on("host-success", "host_success", "running");
    on("host-error", "host_error", "running");
  }

  request(event) {
    let context = {};
    const raw = $("context").value.trim();
    if (raw) context = JSON.parse(raw);
    const body = { answer: $("answer").value, context, state: this.state };
    if (event) body.event = event;
    return body;
  }

  // Start over: a new answer or context clears the state and the log.
  async reset() {
    this.state = {};
    $("effects").replaceChildren();
    $("confirmation").hidden = true;
    $("host").hidden = true;
    return this.send(null, null);
  }

  async send(actionId, kind) {
    let reply;
    try {
      reply = await post(this.request(actionId ? { action_id: actionId, kind } : null));
    } catch (error) {
      reply = { ok: false, value: { error: String(error) } };
    }
    if (!reply.ok) {
      drawList($("action-diagnostics"), [{ code: "request", message: reply.value.error }]);
      return;
    }
    this.show(reply.value, kind);
  }

  show(result, kind) {
    this.state = result.state;
    $("action-state").textContent = JSON.stringify(result.state, null, 2);
    drawList($("action-diagnostics"), result.diagnostics);
    this.drawButtons(result.buttons);
    const effect = result.effect;
    if (!effect) return;
    this.lastEffect = effect;
    const li = document.createElement("li");
    li.textContent = `${kind} ${effect.actionId}: ${JSON.stringify(effect)}`;
    li.dataset.kind = effect.kind;
    $("effects").append(li);
    if (effect.kind === "ignored") return; // the state did not change
    this.drawConfirmation(effect);
    this.drawHost(effect, result.buttons);
  }

  drawButtons(buttons) {
    const row = buttons.map((b) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = b.action.label;
      button.className = `style-${b.action.style || "default"}${b.added ? " added" : ""}`;
      button.dataset.actionId = b.action.id;
      button.dataset.confirm = String(b.confirm);
      button.dataset.status = b.status;
      button.title = `${b.action.type}${b.confirm ? " (asks for confirmation)" : ""}`;
      button.addEventListener("click", () => this.track(this.send(b.action.id, "click")));
      const status = document.createElement("span");
      status.className = "status";
      status.textContent = b.status;
      const wrap = document.createElement("span");
      wrap.append(button, status);
      return wrap;
    });
    $("action-buttons").replaceChildren(...row);
  }

  drawConfirmation(effect) {
    const box = $("confirmation");
    if (effect.kind !== "show_confirmation") {
      box.hidden = true;
      return;
    }
    const view = effect.view;
    this.pending = effect.actionId;
    $("confirm-title").textContent = view.title;
    $("confirm-description").textContent = view.description;
    $("confirm-prompt").textContent = view.prompt || "";
    $("confirm-cancel").textContent = view.cancelLabel;
    $("confirm-ok").textContent = view.confirmLabel;
    box.hidden = false;
  }

  drawHost(effect, buttons) {
    const running = buttons.find((b) => b.status === "running");
    $("host").hidden = !running;
    if (!running) return;
    this.running = running.action.id;
    if (effect.kind === "chat_send") $("host-prompt").textContent = `chat.send: ${effect.prompt}`;
  }
}
