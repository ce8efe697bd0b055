// The site's behaviours in the browser, from the JSON API beside the pages
// (api/v1/, read with fetch on first use): the search (api/v1/players.json, loaded
// when the box is first used), the ranking of a list with its filters in the URL
// (api/v1/lists/<id>.json, loaded when a filter or a page is asked for: the first
// page is in the HTML), a player's history, chart and events, an event's players and
// games. Text is set with textContent, never as HTML: names are shown as written.
"use strict";

const root = () => document.body.dataset.root;
const lang = () => document.body.dataset.lang;
const format = (text, values) => text.replace(/%\((\w+)\)s/g, (m, k) => values[k]);
const fold = (text) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
const number = (v) => v === null || v === undefined ? "" : v.toLocaleString(lang());
const signed = (v) => v === null || v === undefined ? "" : (v > 0 ? "+" : "") + v;
const day = (iso) => new Date(iso + "T00:00:00Z").toLocaleDateString(lang(), {timeZone: "UTC", year: "numeric",
                                                                              month: "short", day: "numeric"});
const cache = {};

function json(path) {
  if (!cache[path]) {
    cache[path] = fetch(path).then((r) => { if (!r.ok) throw new Error(`${path}: ${r.status}`); return r.json(); });
  }
  return cache[path];
}

function rows(table) { return table.rows.map((r) => Object.fromEntries(table.columns.map((c, k) => [c, r[k]]))); }

// The rule set's own columns of a JSON table (a Go grade, Glicko-2's RD): those after its
// shared `last` one, each drawn with its heading from LABELS (ruleset's SiteFace).
const own = (columns, last) => columns.slice(columns.indexOf(last) + 1);
const value = (v) => typeof v === "number" ? number(v) : v;
const gain = (v) => v === null || v === undefined ? "" : (v > 0 ? "+" : "") + number(v);  // a key ending in "change"

function link(href, text) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  return a;
}

function row(cells) {  // cells: [value or Node, class]
  const tr = document.createElement("tr");
  for (const [value, cls] of cells) {
    const td = document.createElement("td");
    if (cls) td.className = cls;
    if (value instanceof Node) td.append(value); else td.textContent = value === null ? "" : value;
    tr.append(td);
  }
  return tr;
}

function offline(box) {
  const p = document.createElement("p");
  p.className = "note";
  p.textContent = window.LABELS.offline;
  box.append(p);
}

// --- search -----------------------------------------------------------------------
function searchBox(box) {  // drawn here: without the script there is no search
  const form = document.createElement("form"), input = document.createElement("input");
  const results = document.createElement("div");
  form.setAttribute("role", "search");
  form.addEventListener("submit", (e) => e.preventDefault());
  Object.assign(input, {id: "search", type: "search", autocomplete: "off", placeholder: window.LABELS.search});
  input.setAttribute("aria-label", window.LABELS.search_label);
  results.id = "results";
  results.setAttribute("role", "listbox");
  results.setAttribute("aria-label", window.LABELS.found);
  form.append(input, results);
  box.append(form);
  input.addEventListener("input", searchPlayers);
}

const SHOWN = 20;  // results shown; how many more there are is said

// The players of the index (api/v1/players.json's rows: [id, name, club]) a query finds:
// every word of it, in any order, accents and case ignored, the start of a word of the
// name ("smet franc" finds François De Smet), or digits the start of the id ("1282"
// finds 12820); the id typed whole first. {found: the first `shown` rows, more: how
// many others}.
function findPlayers(rows, text, shown = SHOWN) {
  const words = fold(text).split(/[^\p{L}\p{N}]+/u).filter((w) => w);
  if (!words.length) return {found: [], more: 0};
  const exact = words.length === 1 && /^[0-9]+$/.test(words[0]) ? words[0] : null;
  const found = [];
  let first = null;
  for (const r of rows) {
    const id = String(r[0]);
    if (id === exact) { first = r; continue; }
    const names = fold(r[1] || "").split(/[^\p{L}\p{N}]+/u);
    if (words.every((w) => (/^[0-9]+$/.test(w) && id.startsWith(w)) || names.some((n) => n.startsWith(w)))) {
      found.push(r);
    }
  }
  if (first) found.unshift(first);
  return {found: found.slice(0, shown), more: Math.max(0, found.length - shown)};
}

function searchPlayers() {
  const box = document.getElementById("search"), results = document.getElementById("results");
  const query = box.value.trim();
  if (fold(query).length < 2) { results.replaceChildren(); return; }
  json(`${root()}api/v1/players.json`).then((index) => {
    if (box.value.trim() !== query) return;  // typed on meanwhile
    const {found, more} = findPlayers(index.rows, query);
    results.replaceChildren();
    if (!found.length) { results.textContent = window.LABELS.none; return; }
    for (const [id, name, club] of found) {
      const a = link(`${root()}${lang()}/players/${id}.html`, `${name} (${id})${club ? " · " + club : ""}`);
      a.setAttribute("role", "option");
      results.append(a);
    }
    if (more) {
      const p = document.createElement("p");
      p.className = "more";
      p.setAttribute("role", "option");  // the list box's only kind of child
      p.setAttribute("aria-disabled", "true");
      p.textContent = format(window.LABELS.more, {n: number(more)});
      results.append(p);
    }
  }, () => { results.textContent = window.LABELS.offline; });
}

// --- a list's ranking -------------------------------------------------------------
function listRows(data, index) {  // the compact list (api/v1/lists/<id>.json) with names and clubs
  const names = new Map(index.rows.map(([id, name]) => [id, name]));
  return rows(data).map((r) => ({...r, name: names.get(r.player_id) || String(r.player_id),
                                 club_slug: r.club === null ? null : data.club_slugs[r.club],
                                 club: r.club === null ? null : data.clubs[r.club]}));
}

const FILTERS = ["category", "sex", "region", "club"];

function showRanking(table) {
  const form = document.getElementById("filters"), body = table.querySelector("tbody");
  const pager = document.getElementById("pager"), size = +table.dataset.rows;
  const params = new URLSearchParams(location.search);
  for (const name of FILTERS) {
    const select = document.getElementById(name), value = params.get(name);
    if (value !== null && [...select.options].some((o) => o.value === value)) select.value = value;
  }
  document.getElementById("all").checked = params.get("all") === "1";
  let page = Math.max(1, parseInt(params.get("page") || "1", 10) || 1);
  const state = () => {
    const p = new URLSearchParams();
    for (const name of FILTERS) { const v = document.getElementById(name).value; if (v) p.set(name, v); }
    if (document.getElementById("all").checked) p.set("all", "1");
    if (page > 1) p.set("page", String(page));
    return p;
  };
  const ranked = (table.dataset.rankedBy || "").split(" ").filter((k) => k);
  const draw = (list, more) => {
    const wanted = Object.fromEntries(FILTERS.map((n) => [n, document.getElementById(n).value]));
    const all = document.getElementById("all").checked, c = wanted.category;
    const shown = list.filter((r) => (all || r.active) && (!wanted.sex || r.sex === wanted.sex)
      && (!wanted.region || r.region === wanted.region) && (!wanted.club || r.club === wanted.club)
      && (!c || (c[0] === "u" ? r.under !== null && r.under <= +c.slice(1) : c === "s50" ? r.senior_50 : r.senior_65)));
    const pages = Math.max(1, Math.ceil(shown.length / size));
    page = Math.min(page, pages);
    let rank = 0, previous = null;
    const standing = (r) => JSON.stringify([...ranked.map((k) => r[k]), r.rating]);  // as the ranking orders
    const ranks = shown.map((r, i) => { const s = standing(r); if (s !== previous) { rank = i + 1; previous = s; } return rank; });
    body.replaceChildren(...shown.slice((page - 1) * size, page * size).map((r, k) => {
      const name = link(`../players/${r.player_id}.html`, r.name), cell = document.createDocumentFragment();
      cell.append(name);
      if (r.club) { const s = document.createElement("span"); s.className = "club"; s.textContent = r.club; cell.append(s); }
      const tr = row([[ranks[(page - 1) * size + k]], [r.player_id, "wide"], [cell, "text"],
                      [r.club_slug ? link(`../clubs/${r.club_slug}.html`, r.club) : "", "text wide"], [r.rating],
                      ...more.map((k) => [value(r[k])]), [signed(r.change)], [r.games, "wide"]]);
      if (!r.active) tr.className = "inactive";
      return tr;
    }));
    document.getElementById("shown").textContent = format(window.LABELS.shown,
      {shown: number(shown.length), total: number(list.length)});
    pager.replaceChildren();
    if (pages > 1) {
      const go = (to, text) => {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = text;
        b.disabled = to < 1 || to > pages || to === page;
        b.addEventListener("click", () => { page = to; update(); table.scrollIntoView(); });
        return b;
      };
      const where = document.createElement("span");
      where.textContent = format(window.LABELS.page, {page: number(page), pages: number(pages)});
      pager.append(go(1, "«"), go(page - 1, "‹"), where, go(page + 1, "›"), go(pages, "»"));
    }
  };
  const update = () => {
    const p = state().toString();
    history.replaceState(null, "", p ? `?${p}` : location.pathname);
    Promise.all([json(`${root()}api/v1/lists/${table.dataset.list}.json`), json(`${root()}api/v1/players.json`)])
      .then(([data, index]) => draw(listRows(data, index), own(data.columns, "active")), () => offline(pager));
  };
  form.addEventListener("change", () => { page = 1; update(); });
  form.addEventListener("submit", (e) => { e.preventDefault(); page = 1; update(); });
  if ([...params.keys()].length) { update(); return; }  // a linked filter or page: drawn from the list's data
  // Else the first page is the HTML's; its pager leads to the others through the data.
  if (body.children.length >= size) {
    const more = document.createElement("button");
    more.type = "button";
    more.textContent = "›";
    more.setAttribute("aria-label", format(window.LABELS.page, {page: 2, pages: "…"}));
    more.addEventListener("click", () => { page = 2; update(); });
    pager.replaceChildren(more);
  }
}

// --- a player's page --------------------------------------------------------------
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attributes, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function chart(box, name, history) {  // history: newest first
  const points = history.slice().reverse();
  if (!points.length) return;
  const width = Math.max(280, box.clientWidth || 600), height = 220, left = 44, right = 12, top = 10, bottom = 28;
  const values = points.map((p) => p.rating), low = Math.min(...values), high = Math.max(...values);
  const step = [10, 20, 25, 50, 100, 200, 250, 500].find((s) => (high - low) / s <= 5) || 1000;
  const y0 = Math.floor(low / step) * step, y1 = Math.max(y0 + step, Math.ceil(high / step) * step);
  const x = (i) => left + (points.length === 1 ? 0.5 : i / (points.length - 1)) * (width - left - right);
  const y = (v) => top + (1 - (v - y0) / (y1 - y0)) * (height - top - bottom);
  const first = points[0].list_id, last = points[points.length - 1].list_id;
  const title = format(window.LABELS.chart, {name, first, last, from: points[0].rating,
                                             to: points[points.length - 1].rating});
  const s = svg("svg", {viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-label": title});
  s.append(svg("title", {}, title));
  for (let v = y0; v <= y1; v += step) {
    s.append(svg("line", {x1: left, x2: width - right, y1: y(v), y2: y(v), class: "grid"}));
    s.append(svg("text", {x: left - 6, y: y(v) + 4, "text-anchor": "end"}, String(v)));
  }
  const labels = points.length === 1 ? [0] : [0, points.length - 1];
  for (const i of labels) {
    s.append(svg("text", {x: x(i), y: height - 8, "text-anchor": i === 0 ? "start" : "end"}, points[i].list_id));
  }
  s.append(svg("polyline", {points: points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" "),
                            class: "line"}));
  points.forEach((p, i) => {  // a point a list, its id and rating in its tooltip
    const dot = svg("circle", {cx: x(i), cy: y(p.rating), r: points.length > 60 ? 1.5 : 3, class: "dot"});
    dot.append(svg("title", {}, `${p.list_id}: ${p.rating}`));
    s.append(dot);
  });
  box.replaceChildren(s);
}

function table(box, id, headings, body) {  // headings: [label key, class]; body: rows of cells
  const t = document.createElement("table"), head = document.createElement("tr"), wrap = document.createElement("div");
  t.id = id;
  for (const [key, cls] of headings) {
    const th = document.createElement("th");
    th.textContent = window.LABELS[key];
    if (cls) th.className = cls;
    head.append(th);
  }
  const thead = document.createElement("thead"), tbody = document.createElement("tbody");
  thead.append(head);
  tbody.append(...body);
  t.append(thead, tbody);
  wrap.className = "scroll";
  wrap.append(t);
  box.append(wrap);
  return t;
}

function showPlayer(section) {  // the history and the newest events are in the HTML; the chart is drawn from
  json(section.dataset.api).then((data) => {  // the JSON, and the events the HTML leaves out
    chart(document.getElementById("chart"), data.name, rows(data.history));
    const body = document.querySelector("#events tbody"), events = rows(data.events);
    if (body && events.length > body.rows.length) {
      body.replaceChildren(...events.map((e) => row([
        [link(`../events/${e.event_id}.html`, e.name)],
        [e.first_day === e.last_day ? day(e.first_day) : `${day(e.first_day)} – ${day(e.last_day)}`],
        [e.games], [number(e.score)]])));
      document.getElementById("events-more").hidden = true;
    }
  }, () => offline(document.getElementById("chart")));
}

// --- an event's page --------------------------------------------------------------
function showEvent(box) {
  Promise.all([json(box.dataset.api), json(`${root()}api/v1/players.json`)]).then(([data, index]) => {
    // Every player named (the registry's name, in the event's file); linked when they have a
    // page (players.json: a player never rated has none).
    const players = rows(data.players), names = new Map(players.map((p) => [p.player_id, p.name]));
    const paged = new Set(index.rows.map(([id]) => id));
    const who = (id) => {
      const name = names.get(id) || String(id);
      return paged.has(id) ? link(`../players/${id}.html`, name) : document.createTextNode(name);
    };
    const note = document.createElement("p");
    note.className = "note";
    note.textContent = window.LABELS.event_note;
    document.getElementById("players-box").append(note);
    // The rule set's own numbers of its event (a Go event's points and grades before and after),
    // else the list that rated the event's last game, its rating and change.
    const more = own(data.players.columns, "name"), moreGames = own(data.games.columns, "result");
    const wide = new Set((box.dataset.wide || "").split(" ")), cls = (k) => wide.has(k) ? "wide" : undefined;
    const shared = more.length ? [] : [["list", "text wide"], ["rating"], ["change"]];
    table(document.getElementById("players-box"), "event-players",
          [["player", "text"], ["games"], ["score"], ...shared, ...more.map((k) => [k, cls(k)])],
          players.map((p) => row([[who(p.player_id), "text"], [p.games], [number(p.score)],
                                  ...(more.length ? [] : [
                                    [p.list_id ? link(`../lists/${p.list_id}.html`, p.list_id) : "", "text wide"],
                                    [p.rating], [signed(p.change)]]),
                                  ...more.map((k) => [k.endsWith("change") ? gain(p[k]) : value(p[k]), cls(k)])])));
    table(document.getElementById("games-box"), "event-games",
          [["date", "text wide"], ["round", "wide"], ["white", "text"], ["black", "text"], ["result"],
           ...moreGames.map((k) => [k, cls(k)])],
          rows(data.games).map((g) => row([[day(g.date), "text wide"], [g.round, "wide"], [who(g.white_id), "text"],
                                           [who(g.black_id), "text"], [g.result], ...moreGames.map((k) => [value(g[k]), cls(k)])])));
  }, () => offline(box));
}

document.addEventListener("DOMContentLoaded", () => {
  const box = document.getElementById("search-box");
  if (box) searchBox(box);
  const ranking = document.getElementById("ranking");
  if (ranking && document.getElementById("filters")) showRanking(ranking);
  const player = document.getElementById("player");
  if (player) showPlayer(player);
  const event = document.getElementById("event");
  if (event) showEvent(event);
});
