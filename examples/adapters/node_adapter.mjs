#!/usr/bin/env node
// A dependency-free Node.js adapter for `replykit fuzz` (docs/fuzzing.md).
//
// Run:   replykit fuzz --impl "node examples/adapters/node_adapter.mjs" --op segment
//
// It reads one JSON request per line on stdin and writes one JSON response per line
// on stdout. Client teams replace `splitMessage` below with a call to their own
// splitter (and may fill in `questionnaireAsync` / `sanitizeActions`); everything
// else is protocol plumbing and can stay as it is.
//
// Offsets: JavaScript strings index UTF-16 code units, the protocol counts Unicode
// code points. `splitMessage` returns UTF-16 offsets (what `String.prototype.slice`
// and regex `lastIndex` give you); the adapter converts them before answering.

import { createInterface } from "node:readline";

const FAMILY = /^(?:[a-z0-9]+-)?questionnaire$/;
const OPEN_TAG = /<((?:[a-z0-9]+-)?questionnaire(?:-response)?)>/g;
const FENCE_OPEN = /^ {0,3}(`{3,})([^`]*)$/;
const FENCE_CLOSE = /^ {0,3}(`{3,})[ \t]*$/;

// ---------------------------------------------------------------- replace me
//
// splitMessage(text, { messageId, profile }) -> [{ kind, start, end, ...fields }]
// with UTF-16 offsets. `kind` is "markdown", "questionnaire" or
// "questionnaire_response"; blocks may add `encoding`, `name`, `id`, `valid`,
// `registered`, `questionnaire`/`response`. Fields you leave out are not compared.
//
// The stand-in below knows top-level backtick fences and <name>...</name> tags; it
// does not know indented code, containers, code spans, comments or validity.
function splitMessage(text, { messageId }) {
  const blocks = [];
  const lines = [];
  const lineRe = /[^\r\n]*(\r\n|\r|\n|$)/g;
  for (let m; (m = lineRe.exec(text)) && m[0] !== ""; ) {
    lines.push({ start: m.index, content: m[0].replace(/(\r\n|\r|\n)$/, ""), end: m.index + m[0].length });
  }
  let i = 0;
  let resumeAt = 0;
  while (i < lines.length) {
    const line = lines[i];
    const bom = line.start === 0 && line.content.startsWith("\uFEFF") ? 1 : 0;
    const open = line.start >= resumeAt ? FENCE_OPEN.exec(line.content.slice(bom)) : null;
    if (open) {
      const info = open[2].trim();
      let j = i + 1;
      while (j < lines.length) {
        const close = FENCE_CLOSE.exec(lines[j].content);
        if (close && close[1].length >= open[1].length) break;
        j += 1;
      }
      const end = j < lines.length ? lines[j].end : text.length;
      if (FAMILY.test(info)) {
        blocks.push({ kind: "questionnaire", start: line.start, end, encoding: "fenced_yaml", name: info });
      }
      resumeAt = end;
      i = j + 1;
      continue;
    }
    OPEN_TAG.lastIndex = Math.max(line.start, resumeAt);
    const tag = OPEN_TAG.exec(text);
    if (tag && tag.index < line.end) {
      const closer = `</${tag[1]}>`;
      const at = text.indexOf(closer, OPEN_TAG.lastIndex);
      if (at >= 0) {
        const end = at + closer.length;
        const kind = tag[1].endsWith("-response") ? "questionnaire_response" : "questionnaire";
        blocks.push({ kind, start: tag.index, end, encoding: "xml_json", name: tag[1] });
        resumeAt = end;
        while (i < lines.length && lines[i].end <= end) i += 1;
        continue;
      }
      resumeAt = OPEN_TAG.lastIndex;
      continue;
    }
    i += 1;
  }
  const segments = [];
  let pos = 0;
  blocks.forEach((block, n) => {
    if (block.start > pos) segments.push({ kind: "markdown", start: pos, end: block.start });
    segments.push({ ...block, id: `${messageId}_q${n + 1}` });
    pos = block.end;
  });
  if (pos < text.length) segments.push({ kind: "markdown", start: pos, end: text.length });
  return segments;
}

// questionnaireAsync(arguments) -> result object, sanitizeActions(answer) ->
// { actions, diagnostics }; null means "not implemented" (answered as unsupported).
const questionnaireAsync = null;
const sanitizeActions = null;

// ---------------------------------------------------------------- protocol plumbing

// UTF-16 offset -> code-point offset, for every offset of one text.
function codePointIndex(text) {
  const map = new Uint32Array(text.length + 1);
  let cp = 0;
  for (let u = 0; u < text.length; u += 1) {
    map[u] = cp;
    const c = text.charCodeAt(u);
    const high = c >= 0xd800 && c <= 0xdbff;
    const next = u + 1 < text.length ? text.charCodeAt(u + 1) : 0;
    if (high && next >= 0xdc00 && next <= 0xdfff) {
      map[u + 1] = cp; // the low half belongs to the same code point
      u += 1;
    }
    cp += 1;
  }
  map[text.length] = cp;
  return (offset) => map[offset];
}

function answer(request) {
  const { id, op } = request;
  if (op === "segment") {
    const toCp = codePointIndex(request.text);
    const segments = splitMessage(request.text, {
      messageId: request.message_id ?? "message",
      profile: request.profile ?? "client",
    }).map((seg) => ({ ...seg, start: toCp(seg.start), end: toCp(seg.end) }));
    return { id, segments };
  }
  if (op === "questionnaire_async" && questionnaireAsync) {
    return { id, result: questionnaireAsync(request.arguments) };
  }
  if (op === "sanitize_actions" && sanitizeActions) {
    return { id, result: sanitizeActions(request.answer) };
  }
  return { id, unsupported: true };
}

// Non-ASCII characters are escaped so that every response is one line of ASCII
// (JSON.stringify already escapes lone surrogates).
function dumps(value) {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}

const input = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
input.on("line", (line) => {
  if (line.trim() === "") return;
  let response;
  try {
    response = answer(JSON.parse(line));
  } catch (error) {
    let id = null;
    try {
      id = JSON.parse(line).id ?? null;
    } catch {
      // the request itself was not JSON
    }
    response = { id, error: String(error && error.message ? error.message : error) };
  }
  process.stdout.write(dumps(response) + "\n");
});
