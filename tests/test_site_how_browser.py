"""The "How ratings are computed" page in a real browser (Chromium through Selenium, as
tests/test_site_browser.py drives it): the national Elo's page of a built site, and the
Belgian Go page made from its rule set alone (pipeline.site.how.how_page) put in a copy
of that site: no console error, axe-core finds no serious or critical violation, the
page fits a 390 px phone (its wide tables scroll in their box), in each language. With
SITE_SCREENSHOTS=1 the manual's screenshots are written to docs/screenshots/."""
from __future__ import annotations

import os
import shutil

import pytest

from pipeline import systems
from pipeline.site.build import _Language
from pipeline.site.how import how_page
from tests.conftest import PROJECT_DIR
from tests.test_site_browser import (CHROMEDRIVER, CHROMIUM, DESKTOP, LANGS, PHONE, _chrome,  # noqa: F401
                                     _known_false_positive, _open, _severe, built, driver, needs_browser, served,
                                     serving, site)


@pytest.fixture(scope="module")
def go_served(built):
    """A copy of the site whose how.html is the Belgian Go rule set's page, in each language."""
    folder = built / "go-site"
    shutil.copytree(built / "site", folder)
    template, path, depth, values = how_page(systems.rule_set("go-belgium"))
    for lang in LANGS:
        (folder / lang / path).write_text(_Language(lang, LANGS, systems.rule_set("go-belgium")).page(template, path, depth, values),
                                          encoding="utf-8")
    with serving(folder) as url:
        yield url


@needs_browser
def test_the_pages_without_console_error_nor_accessibility_violation(driver, served, go_served):
    from axe_selenium_python import Axe

    found = []
    for base in (served, go_served):
        for lang in LANGS:
            url = f"{base}{lang}/how.html"
            _open(driver, url)
            assert _severe(driver) == [], url
            axe = Axe(driver)
            axe.inject()
            results = axe.run()
            assert results["passes"], url
            found += [f"{url}: {v['id']} ({v['impact']}) {v['help']}" for v in results["violations"]
                      if v["impact"] in ("serious", "critical")
                      and [n for n in v["nodes"] if not _known_false_positive(v["id"], n)]]
    assert found == [], "\n".join(found)


@needs_browser
def test_the_pages_fit_a_phone(served, go_served):
    # At 390 px the page does not scroll sideways: a table wider than the screen (D(P)'s eleven
    # columns, the points gained) scrolls in its own box.
    phone = _chrome(size=PHONE)
    try:
        for base in (served, go_served):
            for lang in LANGS:
                _open(phone, f"{base}{lang}/how.html")
                assert phone.execute_script("return document.documentElement.scrollWidth <= window.innerWidth"), \
                    (base, lang)
    finally:
        phone.quit()


def test_screenshots(served, go_served, tmp_path):
    """docs/site.md's screenshots of the page (the national Elo's in English and French, the Belgian
    Go rule set's in French and Dutch), desktop and phone, with SITE_SCREENSHOTS=1 (else to this
    test's folder)."""
    if CHROMEDRIVER is None or CHROMIUM is None:
        pytest.skip("Chromium and its driver are not installed (.ci/run installs Debian's packages)")
    folder = PROJECT_DIR / "docs" / "screenshots" if os.environ.get("SITE_SCREENSHOTS") == "1" else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    driver = _chrome()
    written = []
    try:
        for width, size in (("desktop", DESKTOP), ("phone", PHONE)):
            driver.set_window_size(*size)
            for name, base, lang in (("how", served, "en"), ("how", served, "fr"),
                                     ("how-go", go_served, "fr"), ("how-go", go_served, "nl")):
                _open(driver, f"{base}{lang}/how.html")
                if name == "how-go":  # the table of points gained, the seed's own
                    driver.execute_script("document.querySelectorAll('table.how')[2].scrollIntoView()")
                target = folder / f"{lang}-{name}-{width}.png"
                assert driver.save_screenshot(str(target)), target
                written.append(target)
    finally:
        driver.quit()
    assert len(written) == 8
    assert [p.name for p in written if p.stat().st_size <= 5_000] == []  # a blank page is a few hundred bytes
