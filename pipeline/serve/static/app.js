"use strict";
// The workbench page: a findings queue, a finding view and a record view over the JSON API; no build step.

const params = new URLSearchParams(location.search);
if (params.get("token")) {
  sessionStorage.setItem("litaudit-token", params.get("token"));
  window.history.replaceState(null, "", location.pathname + location.hash);  // keep the token out of the address bar
}
const TOKEN = sessionStorage.getItem("litaudit-token") || "";
const AUTH = { "X-Litaudit-Token": TOKEN };  // every /api/ request carries the run's token
const view = document.getElementById("view");
const reviewer = document.getElementById("reviewer");
reviewer.value = localStorage.getItem("litaudit-reviewer") || "";
reviewer.addEventListener("change", () => localStorage.setItem("litaudit-reviewer", reviewer.value.trim()));

const state = { findings: [], current: 0, filters: { status: "open" }, pending: null, target: null };
const undoStack = JSON.parse(sessionStorage.getItem("litaudit-undo") || "[]");  // this tab's decisions, latest last

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== null && value !== undefined) node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

function flash(text, bad) {
  const box = document.getElementById("flash");
  box.textContent = text;
  box.className = bad ? "bad" : "";
}

async function getJSON(path) {
  if (!TOKEN) throw new Error("Open the address litaudit serve printed (it ends in ?token=...): the API needs it.");
  const response = await fetch(path, { headers: AUTH });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

const sev = (s) => el("span", { class: "sev " + s }, s);
function fmt(x) {
  if (x === null || x === undefined || x === "") return "–";
  if (typeof x === "number") return String(Math.round(x * 1000) / 1000);
  if (typeof x !== "object") return String(x);
  const said = [x.computation, x.printed, x.interval && `interval ${x.interval}`].filter(Boolean);
  return said.length ? said.join(" · ") : JSON.stringify(x);
}
const q = (obj) => new URLSearchParams(obj).toString();

async function postJSON(path, body) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json", ...AUTH }, body: JSON.stringify(body),
  });
  const result = await response.json();
  if (!response.ok) throw new Error(result.error || response.statusText);
  return result;
}

function showProgress(all) {
  const decided = all.filter((f) => f.status !== "open").length;
  document.getElementById("progress").textContent = `${decided} of ${all.length} decided`;
}
const refreshProgress = async () => showProgress((await getJSON("/api/findings")).findings);

// The queue in order under the current filters, the status filter aside: where "next open" is looked for.
async function queueOrder() {
  const all = (await getJSON("/api/findings")).findings;
  showProgress(all);
  const active = Object.fromEntries(Object.entries(state.filters).filter(([k, v]) => v && k !== "status"));
  return { all, ordered: (await getJSON("/api/findings?" + q(active))).findings };
}

// ---- the queue ---------------------------------------------------------------------------------------------
async function showQueue() {
  state.target = null;
  const all = (await getJSON("/api/findings")).findings;
  showProgress(all);
  const options = (key) => [...new Set(all.map((f) => f[key]))].filter((x) => x !== null).sort();
  const active = Object.fromEntries(Object.entries(state.filters).filter(([, v]) => v));
  state.findings = (await getJSON("/api/findings?" + q(active))).findings;
  state.current = Math.min(state.current, Math.max(state.findings.length - 1, 0));
  const filter = (key, label) =>
    el("label", {}, label + " ",
      el("select", { "data-filter": key, onchange: (e) => { state.filters[key] = e.target.value; state.current = 0; showQueue(); } },
        el("option", { value: "" }, "all"),
        (key === "status" ? ["open", "accepted", "dismissed"] : options(key)).map((v) =>
          el("option", { value: v, selected: state.filters[key] === v ? "" : null }, v))));
  const rows = state.findings.map((f, i) =>
    el("tr", { class: i === state.current ? "current" : "", "data-id": f.id, onclick: () => { state.current = i; openCurrent(); } },
      el("td", {}, sev(f.severity)), el("td", {}, fmt(f.confidence)), el("td", {}, f.source),
      el("td", {}, f.check), el("td", {}, f.table_label || "whole paper"), el("td", { class: "msg" }, f.message),
      el("td", { class: "status" }, f.status)));
  view.replaceChildren(
    el("h1", {}, `${state.findings.length} finding(s)`),
    el("div", { class: "filters" }, filter("source", "source"), filter("check", "check"), filter("severity", "severity"), filter("status", "status")),
    rows.length
      ? el("table", { class: "queue" },
          el("thead", {}, el("tr", {}, ["severity", "confidence", "source", "check", "table", "message", "status"].map((h) => el("th", {}, h)))),
          el("tbody", {}, rows))
      : el("p", { class: "empty" }, "Nothing left in this queue."));
  scrollToCurrent();
}

function scrollToCurrent() {
  const rows = view.querySelectorAll("table.queue tbody tr");
  rows.forEach((row, i) => row.classList.toggle("current", i === state.current));
  if (rows[state.current]) rows[state.current].scrollIntoView({ block: "nearest" });
}

function currentFinding() {
  if (state.target) return state.target;
  const f = state.findings[state.current];
  return f ? { kind: "finding", source: f.source, id: f.id } : null;
}

function openCurrent() {
  const f = state.findings[state.current];
  if (f) location.hash = `#/finding/${encodeURIComponent(f.source)}/${encodeURIComponent(f.id)}`;
}

// ---- the finding view ----------------------------------------------------------------------------------------
function decisionList(entries) {
  if (!entries.length) return el("p", { class: "empty" }, "No decisions yet.");
  return el("ul", { class: "history" }, entries.map((e) =>
    el("li", {}, `${e.date} ${e.reviewer}: ${e.decision}${e.value !== null ? " → " + e.value : ""} on ${e.record_id || e.finding_id}`,
      e.note ? ` — “${e.note}”` : "")));
}

function grid(rows) {
  return el("div", { class: "grid-wrap" }, el("table", { class: "grid" }, rows.map((row) =>
    el("tr", {}, row.map((c) => el("td", {
      class: c.kind + (c.flagged ? " flagged" : ""), rowspan: c.row_span > 1 ? c.row_span : null,
      colspan: c.col_span > 1 ? c.col_span : null, title: `r${c.row}c${c.col}`,
    }, c.text))))));
}

function cellList(cells) {
  if (cells.length <= 4) return cells.join("; ") || "–";
  return el("details", {}, el("summary", {}, `${cells.slice(0, 2).join("; ")} and ${cells.length - 2} more`), cells.join("; "));
}

function recordLink(source, r) {
  return el("a", { href: `#/record/${encodeURIComponent(source)}/${encodeURIComponent(r.id)}` }, r.locator_readable || r.id);
}

async function showFinding(source, id) {
  const data = await getJSON("/api/finding?" + q({ source, id }));
  const f = data.finding;
  state.target = { kind: "finding", source, id, records: data.records };
  refreshProgress();
  const computations = ((f.details || {}).computations || []).map((c) => el("li", {}, `r${c.cell[0]}c${c.cell[1]}: ${c.computation}`));
  const crop = el("div", { class: "crop" });
  if (data.table) {
    const img = el("img", { alt: `page crop of ${data.table.title}` });
    img.addEventListener("load", () => { img.style.width = img.naturalWidth / 2 + "px"; });  // rendered at 2x: 144 dpi
    fetch("/api/crop?" + q({ source, id }), { headers: AUTH })  // an <img src> cannot send the token: fetch, then show
      .then((r) => (r.ok ? r.blob() : Promise.reject(new Error("no crop"))))
      .then((blob) => { img.src = URL.createObjectURL(blob); })
      .catch(() => crop.replaceChildren(el("p", { class: "empty" }, "The page crop could not be made.")));
    img.addEventListener("click", () => {
      crop.classList.toggle("zoomed");
      img.style.width = img.naturalWidth / (crop.classList.contains("zoomed") ? 1 : 2) + "px";
    });
    crop.append(img);
  } else crop.append(el("p", { class: "empty" }, "This finding is about the whole paper: no table to crop."));
  view.replaceChildren(
    el("p", {}, el("a", { href: "#/" }, "← queue")),
    el("h1", {}, sev(f.severity), " ", f.check, " — ", f.table_label || "whole paper", " ", el("span", { class: "status" }, f.status)),
    el("p", { class: "message" }, f.message),
    el("p", { class: "actions" },
      el("button", { onclick: () => ask("accept") }, "Accept (a)"), " ",
      el("button", { onclick: () => ask("dismiss") }, "Dismiss (d)"), " ",
      el("button", { onclick: () => ask("correct") }, "Correct the value (c)")),
    el("div", { class: "detail" },
      el("div", {}, el("div", { class: "panel" }, el("h2", {}, "Page (click to zoom)"), crop),
        data.table ? el("div", { class: "panel" }, el("h2", {}, `Extracted grid: ${data.table.title}, page ${data.table.page}`), grid(data.table.grid)) : null),
      el("div", {},
        el("div", { class: "panel" }, el("h2", {}, "Computation"),
          el("dl", { class: "facts" },
            el("dt", {}, "expected"), el("dd", {}, fmt(f.expected)), el("dt", {}, "found"), el("dd", {}, fmt(f.found)),
            el("dt", {}, "tolerance"), el("dd", {}, fmt(f.tolerance)), el("dt", {}, "certainty"), el("dd", {}, f.certainty || "–"),
            el("dt", {}, "why not surer"), el("dd", {}, f.reason || "–"),
            el("dt", {}, "extraction confidence"), el("dd", {}, fmt(f.confidence)),
            el("dt", {}, "cells"), el("dd", {}, cellList(f.locators_readable || []))),
          computations.length ? el("ul", {}, computations) : null),
        el("div", { class: "panel" }, el("h2", {}, "Records it touches"),
          data.records.length ? el("ul", {}, data.records.map((r) => el("li", {}, recordLink(source, r), ` printed ${r.printed} · ${r.status}`)))
            : el("p", { class: "empty" }, "none")),
        el("div", { class: "panel" }, el("h2", {}, "Earlier decisions"), decisionList(data.history)))));
}

// ---- the record view -----------------------------------------------------------------------------------------
async function showRecord(source, id) {
  const data = await getJSON("/api/record?" + q({ source, id }));
  const r = data.record;
  state.target = { kind: "record", source, id };
  const facts = ["printed", "value", "metric", "dataset", "configuration", "locator_readable", "status"].map((k) =>
    [el("dt", {}, k), el("dd", {}, typeof r[k] === "object" && r[k] !== null ? JSON.stringify(r[k]) : fmt(r[k]))]);
  view.replaceChildren(
    el("p", {}, el("a", { href: "#/records" }, "← records")),
    el("h1", {}, "Record ", el("code", {}, r.id)),
    el("p", { class: "actions" },
      el("button", { onclick: () => ask("accept") }, "Accept (a)"), " ",
      el("button", { onclick: () => ask("reject") }, "Reject (r)"), " ",
      el("button", { onclick: () => ask("correct") }, "Correct the value (c)")),
    el("div", { class: "panel" }, el("dl", { class: "facts" }, facts.flat())),
    el("div", { class: "panel" }, el("h2", {}, "Reproduction"),
      data.reproduction ? el("p", { class: "reproduction" }, data.reproduction)
        : el("p", { class: "empty" }, "not reproduced (litaudit probe reproduce)")),
    el("div", { class: "panel" }, el("h2", {}, "Findings on it"),
      data.findings.length ? el("ul", {}, data.findings.map((f) => el("li", {},
        el("a", { href: `#/finding/${encodeURIComponent(source)}/${encodeURIComponent(f.id)}` }, f.check), " ", sev(f.severity), " ", f.message)))
        : el("p", { class: "empty" }, "none")),
    el("div", { class: "panel" }, el("h2", {}, "Earlier decisions"), decisionList(data.history)));
}

async function showRecords() {
  state.target = null;
  const rows = (await getJSON("/api/records")).records;
  view.replaceChildren(el("h1", {}, `${rows.length} record(s)`),
    rows.length ? el("table", { class: "queue" },
      el("thead", {}, el("tr", {}, ["record", "source", "printed", "status"].map((h) => el("th", {}, h)))),
      el("tbody", {}, rows.map((r) => el("tr", {}, el("td", {}, recordLink(r.source, r)), el("td", {}, r.source),
        el("td", {}, r.printed), el("td", { class: "status" }, r.status)))))
      : el("p", { class: "empty" }, "No records in this workspace."));
}

// ---- deciding ----------------------------------------------------------------------------------------------
const form = document.getElementById("decide");
const reason = document.getElementById("decide-reason");
const valueInput = document.getElementById("decide-value");

function ask(decision) {
  let target = currentFinding();
  if (!target) return;
  if (decision === "correct" || decision === "reject") {  // a value belongs to a record: the finding's first one
    if (target.kind === "finding") {
      const f = state.findings.find((x) => x.id === target.id);
      const records = target.records || (f && f.records) || null;
      if (!records) return loadRecordsThenAsk(target, decision);
      if (!records.length) return flash("this finding touches no record to correct", true);
      target = { kind: "record", source: target.source, id: records[0].id };
    }
  }
  state.pending = { ...target, decision };
  document.getElementById("decide-what").textContent = decision;
  document.getElementById("decide-target").textContent = `${target.kind} ${target.id}`;
  form.querySelector(".value-row").hidden = decision !== "correct";
  reason.value = valueInput.value = "";
  form.hidden = false;
  (decision === "correct" ? valueInput : reason).focus();
}

async function loadRecordsThenAsk(target, decision) {
  const data = await getJSON("/api/finding?" + q({ source: target.source, id: target.id }));
  const f = state.findings.find((x) => x.id === target.id);
  if (f) f.records = data.records;
  ask(decision);
}

function closeForm() {
  form.hidden = true;
  state.pending = null;
  document.activeElement.blur();
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const p = state.pending;
  if (!p) return;
  if (!reviewer.value.trim()) { flash("type your name in 'reviewer' first", true); reviewer.focus(); return; }
  localStorage.setItem("litaudit-reviewer", reviewer.value.trim());
  const body = { source: p.source, target: p.id, decision: p.decision, reason: reason.value, reviewer: reviewer.value.trim(),
    value: p.decision === "correct" ? valueInput.value : null };
  let result;
  try { result = await postJSON("/api/reviews", body); } catch (err) { flash(err.message, true); return; }
  closeForm();
  if (result.recorded) remember({ source: p.source, kind: result.kind, target: p.id, sha256: result.entry.sha256 });
  if (result.kind === "finding") await advance(p.id);
  else await route();  // a record's decision: the view shows it before the flash says it is done
  flash(`${p.id}: ${result.status}${result.recorded ? "" : " (already recorded)"}`);
});

function remember(decision) {
  undoStack.push(decision);
  sessionStorage.setItem("litaudit-undo", JSON.stringify(undoStack.slice(-200)));
}

// After a finding is decided: the next open finding in queue order after it (wrapping round), in the view the
// reviewer is in; the queue when none is left.
async function advance(decidedId) {
  const { ordered } = await queueOrder();
  const at = ordered.findIndex((f) => f.id === decidedId);
  const after = [...ordered.slice(at + 1), ...ordered.slice(0, Math.max(at, 0))];
  const next = after.find((f) => f.status === "open");
  if (location.hash.startsWith("#/finding") && next) { openFinding(next); return; }
  if (location.hash.startsWith("#/finding")) { location.hash = "#/"; return; }
  await showQueue();
  const index = next ? state.findings.findIndex((f) => f.id === next.id) : -1;
  if (index >= 0) { state.current = index; scrollToCurrent(); }
}

// u: the tab's latest decision is reversed by appending its reversal; the log keeps both.
async function undo() {
  const last = undoStack[undoStack.length - 1];
  if (!last) { flash("nothing to undo in this tab", true); return; }
  if (!reviewer.value.trim()) { flash("type your name in 'reviewer' first", true); reviewer.focus(); return; }
  let result;
  try {
    result = await postJSON("/api/reviews/undo", { source: last.source, entry: last.sha256, reviewer: reviewer.value.trim() });
  } catch (err) { flash(err.message, true); return; }
  undoStack.pop();
  sessionStorage.setItem("litaudit-undo", JSON.stringify(undoStack));
  if (last.kind === "finding") {
    if (location.hash.startsWith("#/finding")) openFinding({ source: last.source, id: last.target });
    else {
      await showQueue();
      const index = state.findings.findIndex((f) => f.id === last.target);
      if (index >= 0) { state.current = index; scrollToCurrent(); }
    }
  } else await route();
  flash(`undone: ${last.target} is ${result.status} again`);
}

function openFinding(f) {
  const hash = `#/finding/${encodeURIComponent(f.source)}/${encodeURIComponent(f.id)}`;
  if (location.hash === hash) route(); else location.hash = hash;
}

// j/k in the finding view: the neighbouring finding of the queue (as filtered)
async function step(delta) {
  if (!state.findings.length) {
    const active = Object.fromEntries(Object.entries(state.filters).filter(([, v]) => v));
    state.findings = (await getJSON("/api/findings?" + q(active))).findings;
  }
  const here = state.findings.findIndex((f) => f.id === state.target?.id);
  const index = here < 0 ? 0 : Math.min(Math.max(here + delta, 0), state.findings.length - 1);
  if (!state.findings[index]) return;
  state.current = index;
  openFinding(state.findings[index]);
}
document.getElementById("decide-cancel").addEventListener("click", closeForm);
reason.addEventListener("keydown", (e) => { if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); form.requestSubmit(); } });
valueInput.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); reason.focus(); } });

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && !form.hidden) { closeForm(); return; }
  if (e.target.closest("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
  const inQueue = !location.hash.startsWith("#/finding") && !location.hash.startsWith("#/record");
  const inFinding = location.hash.startsWith("#/finding");
  if (e.key === "j" && inQueue) { state.current = Math.min(state.current + 1, state.findings.length - 1); scrollToCurrent(); }
  else if (e.key === "k" && inQueue) { state.current = Math.max(state.current - 1, 0); scrollToCurrent(); }
  else if ((e.key === "j" || e.key === "k") && inFinding) step(e.key === "j" ? 1 : -1);
  else if ((e.key === "o" || e.key === "Enter") && inQueue) openCurrent();
  else if (e.key === "u") undo();
  else if (e.key === "q") location.hash = "#/";
  else if (e.key === "a") ask("accept");
  else if (e.key === "d" && state.target?.kind !== "record") ask("dismiss");
  else if (e.key === "c") ask("correct");
  else if (e.key === "r" && state.target?.kind === "record") ask("reject");
  else return;
  e.preventDefault();
});

async function route() {
  const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  try {
    if (parts[0] === "finding" && parts.length === 3) await showFinding(parts[1], parts[2]);
    else if (parts[0] === "record" && parts.length === 3) await showRecord(parts[1], parts[2]);
    else if (parts[0] === "records") await showRecords();
    else await showQueue();
  } catch (err) {
    view.replaceChildren(el("p", { class: "empty" }, String(err.message || err)));
  }
}
window.addEventListener("hashchange", route);
route();
