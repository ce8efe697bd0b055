// The site's two behaviours, in the browser, from files beside the pages (no server,
// no network): the search (data/search.js: [id, name, club] of every rated player)
// and the ranking of a list with its filters (data/lists/<list>.js). Text is set with
// textContent, never as HTML: names and clubs are shown as written.
"use strict";

function rootPath() { return document.body.dataset.root; }
function lang() { return document.body.dataset.lang; }
function format(text, values) { return text.replace(/%\((\w+)\)s/g, (m, k) => values[k]); }
function fold(text) { return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase(); }

function link(href, text) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  return a;
}

function searchPlayers() {
  const box = document.getElementById("search"), results = document.getElementById("results");
  const query = fold(box.value.trim());
  results.replaceChildren();
  if (query.length < 2) return;
  const found = [];
  for (const [id, name, club] of window.SEARCH || []) {
    if (String(id) === query || fold(name).includes(query)) found.push([id, name, club]);
    if (found.length === 20) break;
  }
  if (!found.length) { results.textContent = window.LABELS.none; return; }
  for (const [id, name, club] of found) {
    results.append(link(`${rootPath()}${lang()}/players/${id}.html`, `${name} (${id})${club ? " · " + club : ""}`));
  }
}

function showRanking() {
  const data = window.LIST_ROWS, body = document.querySelector("#ranking tbody");
  const rows = data.rows.map((r) => Object.fromEntries(data.columns.map((c, k) => [c, r[k]])));
  const signed = (v) => v === null ? "" : (v > 0 ? "+" : "") + v;
  const draw = () => {
    const category = document.getElementById("category").value, sex = document.getElementById("sex").value;
    const region = document.getElementById("region").value, club = document.getElementById("club").value;
    const activeOnly = document.getElementById("active").checked;
    const shown = rows.filter((r) => (!activeOnly || r.active)
      && (!sex || r.sex === sex) && (!region || r.region === region) && (!club || r.club === club)
      && (!category || (category[0] === "u" ? r.under !== null && r.under <= +category.slice(1)
                                              : category === "s50" ? r.s50 : r.s65)));
    body.replaceChildren();
    let rank = 0, previous = null;
    shown.forEach((r, i) => {
      if (r.rating !== previous) { rank = i + 1; previous = r.rating; }  // ties share a rank
      const tr = document.createElement("tr");
      if (!r.active) tr.className = "inactive";
      const cells = [rank, r.id, null, r.club || "", r.rating, signed(r.change), r.games];
      cells.forEach((value, k) => {
        const td = document.createElement("td");
        if (k === 2 || k === 3) td.className = "text";
        if (k === 2) td.append(link(`../players/${r.id}.html`, r.name));
        else if (k === 3 && r.slug) td.append(link(`../clubs/${r.slug}.html`, r.club));
        else td.textContent = value;
        tr.append(td);
      });
      body.append(tr);
    });
    document.getElementById("shown").textContent = format(window.LABELS.shown,
      {shown: shown.length.toLocaleString(lang()), total: rows.length.toLocaleString(lang())});
  };
  document.getElementById("filters").addEventListener("change", draw);
  draw();
}

function showCards() {
  const box = document.getElementById("cards");
  (window.CARDS || []).forEach(([list, text], i) => {
    const details = document.createElement("details"), summary = document.createElement("summary");
    const pre = document.createElement("pre");
    details.className = "card";
    details.open = i === 0;
    summary.textContent = `${box.dataset.label} ${list}`;
    pre.textContent = text;
    details.append(summary, pre);
    box.append(details);
  });
}

document.addEventListener("DOMContentLoaded", () => {
  const box = document.getElementById("search");
  if (box) box.addEventListener("input", searchPlayers);
});
