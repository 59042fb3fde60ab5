"use strict";
// The workbench page: a findings queue, a finding view and a record view over the JSON API; no build step.

const params = new URLSearchParams(location.search);
if (params.get("token")) {
  sessionStorage.setItem("litaudit-token", params.get("token"));
  window.history.replaceState(null, "", location.pathname + location.hash);  // keep the token out of the address bar
}
const TOKEN = sessionStorage.getItem("litaudit-token") || "";
const view = document.getElementById("view");
const reviewer = document.getElementById("reviewer");
reviewer.value = localStorage.getItem("litaudit-reviewer") || "";
reviewer.addEventListener("change", () => localStorage.setItem("litaudit-reviewer", reviewer.value.trim()));

const state = { findings: [], current: 0, filters: { status: "open" }, pending: null, target: null };

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
  const response = await fetch(path);
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

// ---- the queue ---------------------------------------------------------------------------------------------
async function showQueue() {
  state.target = null;
  const all = (await getJSON("/api/findings")).findings;
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
  const computations = ((f.details || {}).computations || []).map((c) => el("li", {}, `r${c.cell[0]}c${c.cell[1]}: ${c.computation}`));
  const crop = el("div", { class: "crop" });
  if (data.table) {
    const img = el("img", { alt: `page crop of ${data.table.title}`, src: "/api/crop?" + q({ source, id }) });
    img.addEventListener("load", () => { img.style.width = img.naturalWidth / 2 + "px"; });  // rendered at 2x: 144 dpi
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
  const response = await fetch("/api/reviews", {
    method: "POST", headers: { "Content-Type": "application/json", "X-Litaudit-Token": TOKEN }, body: JSON.stringify(body),
  });
  const result = await response.json();
  if (!response.ok) { flash(result.error, true); return; }
  closeForm();
  await route();  // the view shows the decision before the flash says it is done
  flash(`${p.id}: ${result.status}${result.recorded ? "" : " (already recorded)"}`);
});
document.getElementById("decide-cancel").addEventListener("click", closeForm);
reason.addEventListener("keydown", (e) => { if (e.key === "Enter" && !e.shiftKey) { e.preventDefault(); form.requestSubmit(); } });
valueInput.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); reason.focus(); } });

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && !form.hidden) { closeForm(); return; }
  if (e.target.closest("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
  const inQueue = !location.hash.startsWith("#/finding") && !location.hash.startsWith("#/record");
  if (e.key === "j" && inQueue) { state.current = Math.min(state.current + 1, state.findings.length - 1); scrollToCurrent(); }
  else if (e.key === "k" && inQueue) { state.current = Math.max(state.current - 1, 0); scrollToCurrent(); }
  else if ((e.key === "o" || e.key === "Enter") && inQueue) openCurrent();
  else if (e.key === "u") location.hash = "#/";
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
