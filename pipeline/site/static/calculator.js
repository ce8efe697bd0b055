// The rating calculator (seed 003): a player's rating and games, the new rating with
// every step of the formula in their own numbers, the results of one game before it is
// played, the performance over a tournament, the expected score for each rating gap.
//
// One file, two uses: the page's script (it draws the calculator into #calculator from
// window.CALCULATOR, the rule set's parameters and tables that `ratings site` writes into
// calculator-data.js) and a module Node loads (tests/test_calculator.py compares its
// arithmetic with the rule sets' own Python functions). The arithmetic is written in the
// order of the Python's operations, so that both give the same doubles; the tables come
// from the data, never from this file.
(function (root, factory) {
  const api = factory();
  if (typeof module === "object" && module.exports) module.exports = api;
  else {
    root.Calculator = api;
    if (typeof document !== "undefined") document.addEventListener("DOMContentLoaded", () => api.start(document));
  }
}(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  // numpy's round(x, d): the value scaled, rounded half to even, scaled back.
  function rint(x) {
    const f = Math.floor(x), rest = x - f;
    if (rest > 0.5) return f + 1;
    if (rest < 0.5) return f;
    return f % 2 === 0 ? f : f + 1;
  }
  const roundTo = (x, d) => rint(x * 10 ** d) / 10 ** d;

  // How the page prints a number: d decimals, half away from zero on the double's exact value.
  function fixed(x, d) {
    const text = x.toFixed(d);
    return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
  }

  const sum = (values) => values.reduce((total, v) => total + v, 0);  // in order, as numpy's bincount

  // numpy.interp: linear between the points, flat beyond them.
  function interp(x, xs, ys) {
    const last = xs.length - 1;
    if (x <= xs[0]) return ys[0];
    if (x >= xs[last]) return ys[last];
    let j = 0;
    while (xs[j + 1] <= x) j += 1;
    const slope = (ys[j + 1] - ys[j]) / (xs[j + 1] - xs[j]);
    return slope * (x - xs[j]) + ys[j];
  }

  // --- FIDE (pipeline/systems/fide/rules.py) -------------------------------------------
  function halfAway(x) {  // FIDE's rounding, 6 decimals first (rules.half_away)
    const y = roundTo(x, 6);
    return Math.sign(y) * Math.floor(Math.abs(y) + 0.5);
  }

  // The 400-point rule; X4: 2650 and more use the real gap in an event that starts on or after
  // the exception's date (`exempt`).
  function fideDifference(own, opponent, p, exempt) {
    const d = own - opponent;
    if (p.cap_exempt_from !== null && exempt && own >= p.cap_exempt_from) return d;
    return Math.min(Math.max(d, -p.difference_cap), p.difference_cap);
  }

  function fideExpected(d, data) {  // table 8.1.2 at |D| rounded to a whole point
    if (data.parameters.logistic) return 1 / (1 + 10 ** (-d / 400));
    const table = data.tables.expected, gap = Math.floor(Math.abs(d) + 0.5);
    let row = 0;
    while (row + 1 < table.length && table[row + 1][0] <= gap) row += 1;
    return d >= 0 ? table[row][1] : table[row][2];
  }

  function fideK(rating, gamesTotal, peak, junior, games, p) {  // ruling X5, then K × n ≤ 700
    let k, rule;
    if (peak >= p.master_from) [k, rule] = [p.k_master, "master"];
    else if (gamesTotal < p.established_games) [k, rule] = [p.k_new, "new"];
    else if (junior && !(Math.max(peak, rating) >= p.junior_below)) [k, rule] = [p.k_junior, "junior"];
    else [k, rule] = [p.k_standard, "standard"];
    const limit = Math.floor(p.max_k_times_games / Math.max(games, 1));
    return limit < k ? {k: limit, rule: "limit", base: k} : {k, rule, base: k};
  }

  function fide(input, data) {
    const p = data.parameters, own = input.rating;
    // X4: the event the page computes starts today, unless the case says when (the tests).
    const exempt = input.exempt ?? new Date().toISOString().slice(0, 10) >= p.cap_exempt_since;
    const games = input.games.map((g) => {
      const d = fideDifference(own, g.rating, p, exempt);
      return {rating: g.rating, score: g.score, d, e: fideExpected(d, data)};
    });
    const peak = Math.max(input.peak ?? own, own);
    const k = input.k ? {k: input.k, rule: "given", base: input.k}
      : fideK(own, input.gamesTotal, peak, input.junior, games.length, p);
    const gain = sum(games.map((g) => k.k * (g.score - g.e)));
    const change = halfAway(gain);
    const score = sum(games.map((g) => g.score)), expected = sum(games.map((g) => g.e));
    const wins = games.filter((g) => g.score === 1).length, losses = games.filter((g) => g.score === 0).length;
    const mean = sum(games.map((g) => g.rating)) / games.length;
    return {games, k, score, expected, gain, change, rating: own + change, floor: p.floor, mean, wins, losses,
            performance: mean + 400 * (wins - losses) / games.length};
  }

  // --- the national performance Elo (pipeline/systems/performance/rules.py) ------------
  function bonus(x, data) {  // D(P), interpolated (R5), bounded to ±470
    const bound = data.parameters.bonus_bound, rows = data.tables.dp.filter((r) => Math.abs(r[1]) <= bound);
    return interp(x, rows.map((r) => r[0]), rows.map((r) => r[1]));
  }

  function compatibleGame(score, own, opponent, gap) {  // the 350 rule, compared at 6 decimals (R13)
    if (score === 1) return roundTo(own - opponent, 6) < gap;
    if (score === 0) return roundTo(opponent - own, 6) < gap;
    return true;
  }

  function published(x, step) {  // R3: the nearest ten, 5 going up, after 3 decimals
    return Math.floor(roundTo(x, 3) / step + 0.5) * step;
  }

  function performanceElo(input, data) {
    const p = data.parameters, ei = input.rating;
    const games = input.games.map((g) => ({rating: g.rating, score: g.score,
      compatible: compatibleGame(g.score, ei, g.rating, p.compatibility_gap)}));
    const counted = games.filter((g) => g.compatible), nj = counted.length;
    const quota = input.junior ? p.junior_quota : p.senior_quota, w = p.brake_weight;
    const out = {games, nj, quota, w, rating: ei, rule: "none"};
    if (nj === 0) return Object.assign(out, {published: published(ei, p.rounding_step)});
    const sc = sum(counted.map((g) => g.score)), ea = sum(counted.map((g) => g.rating)) / nj, pc = sc / nj;
    const dp = bonus(pc, data), raw = ea + dp, pj = Math.max(raw, p.performance_floor);
    let rating, rule;
    if (pj < ei) [rating, rule] = [(w * ei + nj * pj) / (w + nj), "brake"];
    else if (nj >= quota) [rating, rule] = [pj, "quota"];
    else [rating, rule] = [(pj * nj + (w - nj) * ei) / w, "barycentre"];
    return Object.assign(out, {sc, ea, p: pc, dp, raw, pj, rating, rule, published: published(rating, p.rounding_step)});
  }

  // --- Belgian Go (pipeline/systems/go_belgium/rules.py) -------------------------------
  function conAndA(rating, data) {  // table I, interpolated; extrapolated below its first row; flat above (G5)
    const t = data.tables.table_one;
    const line = (c) => {
      if (rating < t[0][0]) return t[0][c] + (rating - t[0][0]) * ((t[1][c] - t[0][c]) / (t[1][0] - t[0][0]));
      return interp(rating, t.map((r) => r[0]), t.map((r) => r[c]));
    };
    return [line(1), line(2)];
  }

  function goExpected(d, a, p) {  // the weaker (d ≤ 0), the stronger with its 0.986
    if (d <= 0) return 1 / (Math.exp(-d / a) + 1);
    return (p.symmetric_expectation ? 1 : p.asymmetry) - 1 / (Math.exp(d / a) + 1);
  }

  function handicapTerms(h, receives, p) {  // (h − 0.5) × 100 and the factors, h = 1 included (G3)
    const stones = h >= 1 ? h - p.handicap_offset : 0;
    const receiver = Math.max(p.factor_minimum, 1 - stones / p.factor_step);
    const giver = p.giver_factor_squared ? receiver ** 2 : receiver;
    return {stones, adjustment: (receives ? 1 : -1) * stones * p.stone_value,
            factor: h >= 1 ? (receives ? receiver : giver) : 1};
  }

  function levelOfPoints(r) {  // ruling G4: 237 is 3 dan (level 3), −1075 is 11 kyu (level −10)
    return r >= 0 ? Math.floor(r / 100) + 1 : -Math.floor(-r / 100);
  }

  function nextLevel(level, r) {  // promoted above the grade, demoted 100 below it
    if (r > 100 * level) return levelOfPoints(r);
    if (r < 100 * (level - 2)) return levelOfPoints(r + 100);
    return level;
  }

  const gradeText = (level) => level >= 1 ? `${level}d` : `${1 - level}k`;

  function goBelgium(input, data) {
    const p = data.parameters, own = input.rating;
    const weights = Object.fromEntries(p.class_weights), boards = Object.fromEntries(p.board_weights);
    const [con, a] = conAndA(own, data);
    const games = input.games.map((g) => {
      const terms = handicapTerms(g.handicap, g.receives, p);
      const weight = g.weight ?? weights[g.eventClass] * boards[g.board];
      const difference = own - g.rating + terms.adjustment;
      const expected = goExpected(difference, a, p);
      return {...g, ...terms, weight, difference, expected, change: con * weight * terms.factor * (g.result - expected)};
    });
    const counted = games.filter((g) => g.weight > 0);  // G7: a game of weight 0 changes nothing
    const change = sum(counted.map((g) => g.change));
    const after = Math.max(own + change, p.floor);
    const level = input.level ?? levelOfPoints(own);
    const newLevel = nextLevel(level, after);
    return {games, con, a, change, rating: after, floor: p.floor, level, newLevel,
            grade: gradeText(level), newGrade: gradeText(newLevel)};
  }

  // --- the French rules of 1984 (pipeline/systems/go_ffg1984/rules.py) ----------------
  function ffgChanges(nc, np, winnerStones, loserStones, p) {  // the winner's gain, the loser's change, the case
    const nfc = nc + p.stone_value * winnerStones, nfp = np + p.stone_value * loserStones;
    const gap = nfp - nfc, upset = nfc < nfp;
    const kase = upset && nc > np ? "1.1" : upset ? "1.2" : nfc - nfp > p.ignored_beyond ? "2.1" : "2.2";
    const tUpset = (gap + p.step) / (kase === "1.1" ? p.stronger_divisor : p.weaker_divisor);
    const tExpected = (p.base - (nfc - nfp)) / p.divisor;
    const gain = upset ? tUpset : kase === "2.1" ? 0 : tExpected;
    const loss = upset ? -p.loser_loses : kase === "2.1" ? 0 : -tExpected;
    return {nfc, nfp, kase, gain, loss, t: upset ? tUpset : tExpected};
  }

  function goFfg1984(input, data) {  // game by game: each from the points after the one before (F2)
    const p = data.parameters;
    let points = input.rating;
    const games = input.games.map((g) => {
      const before = points, stones = g.handicap >= 1 ? g.handicap : 0;
      if (g.result === 0.5) return {...g, before, kase: "jigo", change: 0, after: points};
      const won = g.result === 1;
      // The receiver of the stones plays at points + 100 H: the winner's or the loser's.
      const mine = g.receives ? stones : 0, theirs = g.receives ? 0 : stones;
      const c = won ? ffgChanges(before, g.rating, mine, theirs, p) : ffgChanges(g.rating, before, theirs, mine, p);
      const change = won ? c.gain : c.loss;
      points = before + change;
      return {...g, ...c, before, change, after: points, won};
    });
    const level = levelOfPoints(input.rating), newLevel = levelOfPoints(points);  // F3: no hysteresis
    return {games, rating: points, change: points - input.rating, level, newLevel, grade: gradeText(level),
            newGrade: gradeText(newLevel)};
  }

  // --- Glicko-2 (pipeline/systems/glicko2/rules.py, Glickman 2013) ---------------------
  const SCALE = 173.7178, CENTRE = 1500, MAX_ITERATIONS = 200;
  const gOf = (phi) => 1 / Math.sqrt(1 + 3 * phi ** 2 / Math.PI ** 2);

  function volatility(sigma, phi, v, delta, tau, epsilon) {  // step 5, the Illinois algorithm
    const a = Math.log(sigma ** 2), phi2 = phi ** 2, delta2 = delta ** 2, tau2 = tau ** 2;
    const f = (x) => {
      const ex = Math.exp(x);
      return ex * (delta2 - phi2 - v - ex) / (2 * (phi2 + v + ex) ** 2) - (x - a) / tau2;
    };
    let A = a, B, k = 1;
    if (delta2 > phi2 + v) B = Math.log(delta2 - phi2 - v);
    else {
      let n = 0;
      while (f(a - k * tau) < 0) {
        k += 1;
        if (++n > MAX_ITERATIONS) throw new Error("Glicko-2 step 5.2: no k");
      }
      B = a - k * tau;
    }
    let fA = f(A), fB = f(B), n = 0;
    while (Math.abs(B - A) > epsilon) {
      if (++n > MAX_ITERATIONS) throw new Error("Glicko-2 step 5.4 did not converge");
      const C = A + (A - B) * fA / (fB - fA), fC = f(C);
      if (fC * fB <= 0) [A, fA] = [B, fB];
      else fA = fA / 2;
      [B, fB] = [C, fC];
    }
    return Math.exp(A / 2);
  }

  function glicko2(input, data) {
    const p = data.parameters;
    const mu = (input.rating - CENTRE) / SCALE, phi = input.deviation / SCALE;
    const games = input.games.map((o) => {
      const muj = (o.rating - CENTRE) / SCALE, phij = o.deviation / SCALE, g = gOf(phij);
      return {...o, muj, phij, g, e: 1 / (1 + Math.exp(-gOf(phij) * (mu - muj)))};
    });
    const information = sum(games.map((o) => o.g ** 2 * o.e * (1 - o.e)));
    const surprise = sum(games.map((o) => o.g * (o.score - o.e)));
    const v = 1 / information, delta = v * surprise;
    const sigma = volatility(input.volatility, phi, v, delta, p.tau, p.epsilon);
    let phiStar = Math.sqrt(phi ** 2 + sigma ** 2);
    if (p.max_deviation !== null) phiStar = Math.min(phiStar, p.max_deviation / SCALE);
    const phiNew = 1 / Math.sqrt(1 / phiStar ** 2 + 1 / v);
    const muNew = mu + phiNew ** 2 * surprise;
    const rating = SCALE * muNew + CENTRE;
    return {games, mu, phi, v, delta, sigma, phiStar, phiNew, muNew, rating, deviation: SCALE * phiNew,
            published: Math.sign(rating) * Math.floor(Math.abs(rating) + 0.5),
            score: sum(games.map((o) => o.score)), expected: sum(games.map((o) => o.e))};
  }

  const SYSTEMS = {"fide": fide, "performance": performanceElo, "go-belgium": goBelgium, "go-ffg1984": goFfg1984,
                   "glicko2": glicko2};

  function compute(system, input, data) { return SYSTEMS[system](input, data); }

  // How many decimals the page prints each value with: the test compares to them.
  const DECIMALS = {
    "fide": {d: 0, e: 2, score: 1, expected: 2, gain: 2, change: 0, rating: 0, mean: 1, performance: 1},
    "performance": {ea: 2, p: 4, dp: 2, pj: 2, rating: 2, published: 0},
    "go-belgium": {con: 2, a: 2, difference: 1, expected: 3, factor: 4, weight: 2, side: 2, change: 2, rating: 2},
    "go-ffg1984": {points: 2, t: 2, change: 2, rating: 2},
    "glicko2": {mu: 4, phi: 4, g: 4, e: 3, v: 4, delta: 4, sigma: 6, phiStar: 4, phiNew: 4, muNew: 4, rating: 2,
                deviation: 2, published: 0},
  };


  // --- the page --------------------------------------------------------------------------
  // Values a page opens with, so that it shows a calculation at once: the worked examples
  // of the rules (performance-elo.md's, seed 000's first, Glickman's) and one FIDE game.
  const EXAMPLES = {
    "fide": {you: {rating: 1800, gamesTotal: 40}, games: [{opponent: 1900, result: 1}]},
    "performance": {you: {rating: 1650}, games: [[1500, 1], [1720, 1], [1600, 1], [1250, 1], [1690, 0.5], [1800, 0],
                                                 [2100, 0]].map(([opponent, result]) => ({opponent, result}))},
    "go-belgium": {you: {rating: 50}, games: [{opponent: 150, result: 1}]},
    "go-ffg1984": {you: {rating: -50}, games: [[50, 0, 1, 1], [-450, 4, 0, 1], [-250, 0, 0, 0]].map(
      ([opponent, handicap, receives, result]) => ({opponent, handicap, receives, result}))},
    "glicko2": {you: {rating: 1500, deviation: 200, volatility: 0.06},
                games: [[1400, 30, 1], [1550, 100, 0], [1700, 300, 0]].map(([opponent, opponentDeviation, result]) => (
                  {opponent, opponentDeviation, result}))},
  };

  function page(doc, form, data) {
    const system = data.system, p = data.parameters, dec = DECIMALS[system], go = system.startsWith("go-");
    const labels = JSON.parse(doc.getElementById("calculator-labels").textContent);
    const comma = doc.body.dataset.lang !== "en";
    // Numbers as the page prints them (fixed), in the page's language: a decimal comma, a real minus.
    const n = (x, d) => { const t = fixed(x, d).replace("-", "\u2212"); return comma ? t.replace(".", ",") : t; };
    const signed = (x, d) => (x > 0 ? "+" : "") + n(x, d);
    const fill = (key, values) => labels[key].replace(/\{(\w+)\}/g, (m, k) => values[k]);
    const list = doc.getElementById("games"), template = doc.getElementById("game-row");
    const el = (tag, text, cls) => {
      const e = doc.createElement(tag);
      if (text !== undefined) e.textContent = text;
      if (cls) e.className = cls;
      return e;
    };
    const table = (heads, rows) => {
      const t = el("table"), head = el("tr"), body = el("tbody");
      for (const h of heads) head.append(el("th", h));
      t.append(el("thead"), body);
      t.tHead.append(head);
      for (const r of rows) {
        const tr = el("tr");
        for (const c of r) tr.append(el("td", c));
        body.append(tr);
      }
      return t;
    };

    function addGame(values) {
      const row = template.content.firstElementChild.cloneNode(true);
      for (const [name, value] of Object.entries(values || {})) {
        const field = row.querySelector(`[name="${name}"]`);
        if (field) field.value = String(value);
      }
      row.querySelector(".remove").addEventListener("click", () => {
        if (list.children.length > 1) { row.remove(); number(); update(); }
      });
      list.append(row);
      number();
    }
    function number() {  // each game's fields named with its number, for the screen readers
      [...list.children].forEach((row, k) => row.setAttribute("aria-label", fill("game", {n: k + 1})));
    }

    const you = (name) => form.elements.namedItem(name);
    function read() {  // the form as the arithmetic's input; the fields not filled in, named
      const bad = [];
      const value = (field, optional) => {
        const ok = field.value === "" ? optional : field.checkValidity() && Number.isFinite(+field.value);
        field.setAttribute("aria-invalid", ok ? "false" : "true");
        if (!ok) bad.push(field.closest("label").firstChild.textContent.trim());
        return field.value === "" ? null : +field.value;
      };
      const input = {rating: value(you("rating"))};
      if (system === "fide") {
        input.gamesTotal = value(you("gamesTotal"), true) ?? 0;
        input.peak = value(you("peak"), true);
        input.junior = you("junior").checked;
        input.k = value(you("k"), true);
      } else if (system === "performance") input.junior = you("junior").checked;
      else if (system === "glicko2") {
        input.deviation = value(you("deviation"));
        input.volatility = value(you("volatility"));
      } else if (system === "go-belgium" && you("level").value !== "") input.level = +you("level").value;
      input.games = [...list.children].map((row) => {
        const f = (name) => row.querySelector(`[name="${name}"]`);
        const g = {rating: value(f("opponent"))};
        if (go) {
          Object.assign(g, {handicap: +f("handicap").value, receives: f("receives").value === "1",
                            result: +f("result").value});
          if (system === "go-belgium") Object.assign(g, {eventClass: f("eventClass").value, board: +f("board").value});
        } else g.score = +f("result").value;
        if (system === "glicko2") g.deviation = value(f("opponentDeviation"));
        return g;
      });
      return {input, bad: [...new Set(bad)]};
    }

    const resultText = (x) => labels[{1: "win", 0.5: go ? "jigo" : "draw", 0: "loss"}[x]];
    const results = go ? [1, 0] : [1, 0.5, 0];

    function answer(r, input) {  // the headline: the new rating and the change
      if (system === "glicko2") {
        return fill("gl_answer", {rating: n(r.published, 0), rd: n(r.deviation, dec.deviation),
                                  change: signed(r.rating - input.rating, dec.rating)});
      }
      if (system === "performance") {
        return fill("answer", {rating: n(r.published, 0), change: signed(r.published - input.rating, 0)});
      }
      if (system === "fide") return fill("answer", {rating: n(r.rating, 0), change: signed(r.change, 0)});
      return fill("answer", {rating: n(r.rating, dec.rating), change: signed(r.rating - input.rating, dec.change)})
        + ` · ${r.grade} \u2192 ${r.newGrade}`;
    }

    function steps(r, input) {  // every step of the formula, with the player's numbers
      const out = [];
      if (system === "fide") {
        r.games.forEach((g, k) => {
          const raw = input.rating - g.rating;
          let text = fill("fide_d", {n: k + 1, own: n(input.rating, 0), opponent: n(g.rating, 0), raw: n(raw, 0)});
          if (raw !== g.d) text += ", " + fill("fide_capped", {d: n(g.d, 0), cap: n(p.difference_cap, 0)});
          out.push(text, fill(p.logistic ? "fide_logistic" : "fide_e", {d: n(g.d, dec.d), e: n(g.e, dec.e)}));
        });
        const k = r.k;
        const why = {given: "k_given", master: "k_master", new: "k_new", junior: "k_junior", standard: "k_standard",
                     limit: "k_limit"}[k.rule];
        out.push(fill(why, {k: k.k, base: k.base, n: k.rule === "limit" ? r.games.length : p.established_games,
                            from: n(p.master_from, 0), age: p.junior_age, below: n(p.junior_below, 0),
                            max: p.max_k_times_games}));
        const diff = r.score - r.expected;
        out.push(fill("fide_sum", {score: n(r.score, dec.score), expected: n(r.expected, dec.expected),
                                   diff: n(diff, dec.gain)}));
        out.push(fill("fide_gain", {k: k.k, diff: n(diff, dec.gain), gain: n(r.gain, dec.gain), change: n(r.change, 0)}));
        out.push(fill("fide_new", {own: n(input.rating, 0), sign: r.change < 0 ? "\u2212" : "+",
                                   abs: n(Math.abs(r.change), 0), new: n(r.rating, 0)}));
        if (r.rating < r.floor) out.push(fill("fide_floor", {floor: n(r.floor, 0)}));
      } else if (system === "performance") {
        if (r.nj === 0) return [fill("perf_none", {ei: n(input.rating, 0)})];
        out.push(fill("perf_games", {nj: r.nj, sc: n(r.sc, 1), p: n(r.p, dec.p)}));
        out.push(fill("perf_ea", {ea: n(r.ea, dec.ea)}));
        out.push(fill("perf_dp", {dp: n(r.dp, dec.dp)}));
        let pj = fill("perf_pj", {ea: n(r.ea, dec.ea), dp: n(r.dp, dec.dp), pj: n(r.raw, dec.pj)});
        if (r.pj !== r.raw) pj += ", " + fill("perf_floor", {floor: n(p.performance_floor, 0)});
        out.push(pj);
        out.push(fill(`perf_${r.rule}`, {w: r.w, ei: n(input.rating, 0), nj: r.nj, pj: n(r.pj, dec.pj),
                                         ej: n(r.rating, dec.rating), quota: r.quota}));
        out.push(fill("perf_published", {step: p.rounding_step, published: n(r.published, 0)}));
      } else if (system === "go-belgium") {
        out.push(fill("go_con", {con: n(r.con, dec.con), a: n(r.a, dec.a), own: n(input.rating, dec.rating)}));
        r.games.forEach((g, k) => {
          const adj = g.adjustment === 0 ? "" : (g.adjustment > 0 ? "+ " : "\u2212 ") + n(Math.abs(g.adjustment), 0);
          out.push(fill("go_game", {n: k + 1, own: n(input.rating, dec.rating), opponent: n(g.rating, dec.rating), adj,
                                    d: n(g.difference, dec.difference), e: n(g.expected, dec.expected),
                                    con: n(r.con, dec.con), w: n(g.weight, dec.weight), f: n(g.factor, dec.factor),
                                    r: n(g.result, 0), c: n(g.change, dec.side)}));
        });
        let total = fill("go_total", {own: n(input.rating, dec.rating), sign: r.change < 0 ? "\u2212" : "+",
                                      abs: n(Math.abs(r.change), dec.change), new: n(r.rating, dec.rating)});
        if (r.rating !== input.rating + r.change) total += ", " + fill("go_floor", {floor: n(r.floor, 0)});
        out.push(total);
        out.push(fill("go_grade", {grade: r.grade, new: r.newGrade}));
      } else if (system === "go-ffg1984") {
        const pts = (x) => n(x, dec.points);
        r.games.forEach((g, k) => {
          if (g.kase === "jigo") { out.push(fill("ffg_jigo", {n: k + 1})); return; }
          const mine = g.won ? g.nfc : g.nfp, theirs = g.won ? g.nfp : g.nfc;
          const head = fill("ffg_game", {n: k + 1, own: pts(g.before), nf: pts(mine), opponent: pts(g.rating),
                                         nfo: pts(theirs)});
          const rule = fill(`ffg_${g.kase}`, {nfp: pts(g.nfp), nfc: pts(g.nfc), step: n(p.step, 0), t: n(g.t, dec.t),
            div: n(g.kase === "1.1" ? p.stronger_divisor : g.kase === "1.2" ? p.weaker_divisor : p.divisor, 0),
            loss: n(p.loser_loses, 0), beyond: n(p.ignored_beyond, 0), base: n(p.base, 0)});
          out.push(head, rule, fill("ffg_after", {before: pts(g.before), sign: g.change < 0 ? "\u2212" : "+",
                                                  abs: n(Math.abs(g.change), dec.change), after: pts(g.after)}));
        });
        out.push(fill("go_grade", {grade: r.grade, new: r.newGrade}));
      } else {
        out.push(fill("gl_step2", {r: n(input.rating, 2), rd: n(input.deviation, 2), mu: n(r.mu, dec.mu),
                                   phi: n(r.phi, dec.phi)}));
        out.push(fill("gl_step3", {v: n(r.v, dec.v)}));
        out.push(fill("gl_step4", {delta: n(r.delta, dec.delta)}));
        out.push(fill("gl_step5", {sigma: n(r.sigma, dec.sigma)}));
        out.push(fill("gl_step6", {phistar: n(r.phiStar, dec.phiStar)}));
        out.push(fill("gl_step7", {phinew: n(r.phiNew, dec.phiNew), munew: n(r.muNew, dec.muNew)}));
        out.push(fill("gl_step8", {r: n(r.rating, dec.rating), rd: n(r.deviation, dec.deviation)}));
      }
      return out;
    }

    function gamesTable(r) {  // the games' own terms, where the steps leave them out
      if (system === "performance") {
        return table([labels.opponent, labels.result_h, labels.compatible], r.games.map((g) => [
          n(g.rating, 0), resultText(g.score), g.compatible ? labels.compatible
            : fill(g.score === 1 ? "not_win" : "not_loss", {gap: n(p.compatibility_gap, 0)})]));
      }
      if (system === "glicko2") {
        return table([labels.opponent, labels.result_h, labels.g, labels.expected], r.games.map((g) => [
          `${n(g.rating, 2)} (RD ${n(g.deviation, 2)})`, resultText(g.score), n(g.g, dec.g), n(g.e, dec.e)]));
      }
      return null;
    }

    function threeResults(input) {  // the last game's results, before it is played
      const rows = results.map((x) => {
        const games = input.games.map((g, k) => k === input.games.length - 1
          ? Object.assign({}, g, go ? {result: x} : {score: x}) : g);
        const r = compute(system, Object.assign({}, input, {games}), data);
        return [resultText(x), answer(r, input)];
      });
      return table([labels.result_h, labels.new], rows);
    }

    function performanceText(r) {
      if (system === "fide") {
        return fill("fide_performance", {mean: n(r.mean, dec.mean), wins: r.wins, losses: r.losses,
                                         n: r.games.length, performance: n(r.performance, dec.performance)});
      }
      return r.nj ? fill("perf_p", {pj: n(r.pj, dec.pj)}) : labels.perf_no_p;
    }

    function gaps(input) {  // the expected score for each rating gap (the performance: for each score)
      if (system === "fide") {
        if (p.logistic) {
          return table([labels.gap, labels.higher, labels.lower], [0, 50, 100, 150, 200, 250, 300, 350, 400].map(
            (d) => [n(d, 0), n(fideExpected(d, data), 2), n(fideExpected(-d, data), 2)]));
        }
        const t = data.tables.expected;
        return table([labels.gap, labels.higher, labels.lower], t.map((row, k) => [
          k + 1 < t.length ? `${n(row[0], 0)}\u2013${n(t[k + 1][0] - 1, 0)}` : `${n(row[0], 0)}+`,
          n(row[1], 2), n(row[2], 2)]));
      }
      if (system === "performance") {
        const scores = Array.from({length: 21}, (_, k) => k / 20);
        return table([labels.score, labels.dp], scores.map((x) => [`${n(100 * x, 0)}\u00a0%`, n(bonus(x, data), 0)]));
      }
      if (system === "go-belgium") {
        const a = conAndA(Number.isFinite(input.rating) ? input.rating : 0, data)[1];
        const wrap = el("div");
        wrap.append(el("p", fill("at_a", {a: n(a, dec.a)}), "note"), table(
          [labels.difference, labels.weaker, labels.stronger], Array.from({length: 11}, (_, k) => 50 * k).map(
            (d) => [n(d, 0), n(goExpected(-d, a, p), dec.expected), n(goExpected(d, a, p), dec.expected)])));
        return wrap;
      }
      if (system === "go-ffg1984") {  // seed 000's table: the points against opponents 200 weaker to 200 stronger
        const own = Number.isFinite(input.rating) ? input.rating : 0;
        return table([labels.opponent_minus_you, labels.win, labels.loss], [-200, -150, -100, -50, 0, 50, 100, 150,
          200].map((d) => [signed(d, 0), signed(ffgChanges(own, own + d, 0, 0, p).gain, dec.change),
                           signed(ffgChanges(own + d, own, 0, 0, p).loss, dec.change)]));
      }
      const deviations = [50, 150, 350];
      return table([labels.gap, ...deviations.map((rd) => fill("rd_of", {rd}))], [0, 50, 100, 150, 200, 250, 300, 350,
        400].map((d) => [n(d, 0), ...deviations.map((rd) => n(1 / (1 + Math.exp(-gOf(rd / SCALE) * d / SCALE)),
                                                               dec.e))]));
    }

    const put = (id, node) => { const box = doc.getElementById(id); box.replaceChildren(); if (node) box.append(node); };
    function update() {
      const {input, bad} = read();
      const steps_ = doc.getElementById("steps"), result = doc.getElementById("result");
      steps_.replaceChildren();
      for (const id of ["games-out", "three"]) put(id, null);
      if (bad.length || !input.games.length) {
        result.textContent = bad.length ? fill("check", {fields: bad.join(", ")}) : labels.nothing;
        return;
      }
      const r = compute(system, input, data);
      result.textContent = answer(r, input);
      for (const s of steps(r, input)) steps_.append(el("li", s));
      put("games-out", gamesTable(r));
      put("three", threeResults(input));
      const perf = doc.getElementById("performance");
      if (perf) perf.textContent = performanceText(r);
      put("gaps", gaps(input));
    }

    const example = EXAMPLES[system];
    for (const [name, value] of Object.entries(example.you)) you(name).value = String(value);
    for (const g of example.games) addGame(g);
    doc.getElementById("add-game").addEventListener("click", () => {
      addGame();
      list.lastElementChild.querySelector("input, select").focus();
    });
    form.addEventListener("input", update);
    form.addEventListener("change", update);
    form.addEventListener("submit", (e) => e.preventDefault());
    update();
  }

  function start(doc) {
    const box = doc.getElementById("calculator"), data = globalThis.CALCULATOR;
    if (box && data) page(doc, box, data);
  }

  const api = {compute, fixed, roundTo, interp, fide, fideExpected, fideDifference, fideK, halfAway,
               performanceElo, bonus, compatibleGame, published, goBelgium, conAndA, goExpected,
               handicapTerms, levelOfPoints, nextLevel, gradeText, goFfg1984, ffgChanges, glicko2, gOf, start, SYSTEMS, DECIMALS};
  return api;
}));
