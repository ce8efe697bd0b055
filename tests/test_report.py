"""The HTML report of each list: content, determinism, and rendering in a real
headless browser (Debian's Chromium, installed by .ci/run)."""
from __future__ import annotations

import shutil
import subprocess

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture
def reports(published):
    return published[1]


def test_each_list_has_a_self_contained_page(reports):
    page = (reports / "2027-01" / "index.html").read_text()
    assert "<h1>Rating list 2027-01</h1>" in page and "revision 1" in page
    assert page.count("<svg") == 3  # histogram, convergence, top players over time: inline, no CDN
    assert "<script" not in page and "<link" not in page and 'src="http' not in page and "url(http" not in page
    # Biggest gain: the junior 5 (1400 → 1450, +50); biggest loss: 2 (1700 → 1660, −40).
    gains = page.split("Biggest gains")[1].split("Biggest losses")[0]
    assert "Eva Junior" in gains and "+50" in gains
    assert "Bert Rated" in page.split("Biggest losses")[1].split("New players")[0]
    assert "games.csv" in page.split("Rejected input rows")[1]
    assert (reports / "2027-05" / "index.html").exists()


def test_each_page_shows_the_drift_and_how_the_list_predicted(reports):
    page = (reports / "2027-01" / "index.html").read_text()
    drift = page.split('id="drift"')[1].split("</section>")[0]
    # 2027-01: the five rated all played: changes -20, -40, +20, 0, +50, mean +2.0; nobody
    # idle; the first list has no list before it (its previous ratings are the initial ones).
    assert "<td>+2.0</td>\n    <td></td><td>+2.0</td>\n    <td></td>" in drift
    # Played under 2027-01: 1 (1780) v 3 (1620) drawn, 2027-01-09. D = 160, E = 1 / (1 + 10^-0.4)
    # = 0.715253; log-loss -(ln 0.715253 + ln 0.284747) / 2 = 0.795636; Brier (0.5 - 0.715253)^2 = 0.046334.
    assert "On the 1 game played while this list was in force" in " ".join(drift.split())
    assert "mean log-loss 0.7956, Brier score 0.0463" in " ".join(drift.split())
    # No game yet under the latest list.
    assert "No game played while this list was in force" in (reports / "2027-05" / "index.html").read_text()


def test_the_pages_read_the_views_figures(published):
    """The pages' tables come from the lists' rows publication read
    (sql/50_published_lists.sql), not from the views (which would compute
    rating_history again): they must stay the views' figures (sql/views.sql)."""
    import duckdb

    from pipeline.publish.report import ReportTables
    from pipeline.rate.series import series_in
    from pipeline.warehouse import stage

    con = duckdb.connect(str(published[0]))
    series = series_in(con, scenarios=False)[0]
    con.execute("set variable series = ?", [series.name])
    tables = ReportTables(con, series, stage(con, "50_published_lists").to_arrow_table(), accuracy={})

    def rows(sql: str) -> list[dict]:
        result = con.execute(sql, [series.name])
        return [dict(zip([d[0] for d in result.description], r)) for r in result.fetchall()]

    # The view's figures and the rule set's own (its `lists` extension), under their names.
    for row in rows("select * from list_summary left join performance_lists using (series, list_id) where series = ?"):
        assert tables.summary[row["list_id"]] == {k: row[k] for k in tables.summary[row["list_id"]]}
    columns = "list_id, player_id, name, rating, previous_rating, change, games, status"
    for got, where, order, n in [(tables.gains, "change > 0", "change desc", 10),
                                 (tables.losses, "change < 0", "change", 10),
                                 (tables.new, "status = 'new'", "rating desc", 20),
                                 (tables.top, "true", "rating desc", 8)]:
        assert [r for lists in got.values() for r in lists] == rows(f"""
            select {columns} from rating_history where series = ? and {where}
            qualify row_number() over (partition by list_id order by {order}, player_id) <= {n}
            order by list_id, {order}, player_id""")
    assert tables.gains and tables.losses and tables.top


def test_pages_are_not_rewritten_when_nothing_changed(cli, reports, tmp_path):
    before = (reports / "2027-01" / "index.html").read_bytes()
    result = cli("publish", "--warehouse", tmp_path / "w.duckdb", "--out", reports)
    assert "reports written" not in result.output
    assert (reports / "2027-01" / "index.html").read_bytes() == before


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (.ci/run installs Debian's package)")
def test_the_page_renders_in_a_headless_browser(reports, tmp_path):
    url = (reports / "2027-01" / "index.html").as_uri()
    profile = ["--user-data-dir=" + str(tmp_path / "profile")]
    dom = subprocess.run([CHROMIUM, *FLAGS, *profile, "--dump-dom", url], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    assert "Rating list 2027-01" in dom and dom.count("<svg") == 3
    shot = tmp_path / "report.png"
    subprocess.run([CHROMIUM, *FLAGS, *profile, "--window-size=1200,1600", f"--screenshot={shot}", url],
                   capture_output=True, timeout=120, check=True)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 20_000


def test_chart_text_is_written_as_given_and_escaped():
    from pipeline.pages.svg import histogram, line_chart, nice_ticks

    # A name is text in the chart: "$\\foo$" stays as written (no mathtext), markup is escaped.
    names = ["$\\foo$ (1)", "a_b^c$x$ (2)", "<b>Bold</b> (3)"]
    svg = line_chart({name: [(0, 1500 + k), (1, 1510 + k)] for k, name in enumerate(names)}, {0: "2027-01"})
    assert "$\\foo$ (1)" in svg and "a_b^c$x$ (2)" in svg
    assert "&lt;b&gt;Bold&lt;/b&gt; (3)" in svg and "<b>" not in svg
    # Ticks on round values covering 1500 ... 1512: the raw step 12 / 4 = 3, and the first of
    # 1, 2, 5 × 10^k at least 3 is 5: 1500, 1505, 1510, 1515.
    assert nice_ticks(1500, 1512) == [1500, 1505, 1510, 1515]
    # Bins of 50 from 800: 1499 falls in 1450-1500, 1500 and 1549 in 1500-1550; 3000 is past the last bin.
    bars = histogram([1499, 1500, 1549, 3000], 800, 3000, 50)
    assert bars.count("<rect") == 2 and "1450–1500: 1" in bars and "1500–1550: 2" in bars
