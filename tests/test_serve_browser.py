"""``meeple serve`` in a real browser: Playwright driving Debian's Chromium (the
``chromium`` package, given as ``executable_path``: no browser is downloaded).

A human plays a Citadels game to its end against bots, half the choices clicked and
half made with the keyboard only (a digit puts the focus on that option, Enter chooses
it), then scrubs back to step 10 with the step slider, turns the page to Japanese (its
language link; a step forward stays Japanese), downloads the log, and
``meeple replay`` calls it identical. A screenshot of each shipped pack's table is kept
in test-artifacts/serve/ for a person to look at. Skipped, saying why, where Playwright
or a Chromium is missing (``.ci/run`` installs the package with apt-get).
"""
from __future__ import annotations

import shutil
import socket
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="meeple serve needs the extra meeple[web] (pip install 'meeple[web]')")
uvicorn = pytest.importorskip("uvicorn", reason="meeple serve needs the extra meeple[web] (pip install 'meeple[web]')")
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser test needs Playwright (pip install playwright)")

from click.testing import CliRunner  # noqa: E402

from meeple.cli import main  # noqa: E402
from meeple.runtime.game import load_game  # noqa: E402
from meeple.web.app import make_app  # noqa: E402
from meeple.web.server import Server  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts" / "serve"
PACKS = ["citadels", "citadels-2016", "citadels-dark-city", "signorie", "troyes"]
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--no-first-run", "--disable-sync", "--disable-dev-shm-usage"]
WAIT_MS = 30_000        # only a hung page meets it


def chromium() -> str:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no Chromium on this machine (apt-get install chromium; .ci/run does): the browser test needs one")


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    path = chromium()
    with sync_api.sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=path, headless=True, args=FLAGS,
            accept_downloads=True, viewport={"width": 1200, "height": 1000})
        try:
            yield context
        finally:
            context.close()


@contextmanager
def serving(server: Server):
    """``server`` on 127.0.0.1 at a free port, in a thread, for the block."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    web = uvicorn.Server(uvicorn.Config(make_app(server), host="127.0.0.1", port=port, log_level="warning",
                                        timeout_graceful_shutdown=1))
    thread = threading.Thread(target=web.run, daemon=True)
    thread.start()
    for _ in range(500):
        if web.started:
            break
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        web.should_exit = web.force_exit = True      # a page's wait for the game is not waited for
        thread.join(10)


def test_a_citadels_game_played_in_the_browser(browser, tmp_path):
    server = Server(load_game("citadels"), "citadels", bots="human,random,random")
    table = server.play(3, 17)
    me = next(s for s in table.seats.values() if s.seat == 0)
    with serving(server) as base:
        table.advance_in_background()
        page = browser.new_page()
        page.goto(f"{base}/s/{me.token}")
        for turn in range(400):
            try:
                page.wait_for_selector("#option-1, #scores", timeout=WAIT_MS)
            except Exception:
                raise AssertionError(f"stuck at step {table.steps} ({table.error}, thinking {table.thinking}, "
                                     f"pending P{table.st.pending.player + 1}): {page.inner_text('body')[:1500]}")
            if page.locator("#scores").count():
                break
            labels = page.locator("ol.options button").all_inner_texts()
            assert labels and all(t.strip() for t in labels)        # every option labelled
            with page.expect_navigation(timeout=WAIT_MS):
                if turn % 2:
                    page.keyboard.press("1")         # keyboard only: the digit focuses, Enter chooses
                    page.keyboard.press("Enter")
                else:
                    page.click("#option-1")
        assert table.st.over and page.locator("#scores").count()
        # scrub back to step 10 with the slider
        with page.expect_navigation(timeout=WAIT_MS):
            page.locator("#scrub").evaluate("e => { e.value = 10; e.dispatchEvent(new Event('change')); }")
        assert "step 10 of" in page.inner_text("header")
        # the page's link to itself in Japanese; the browser keeps the language for the pages after
        with page.expect_navigation(timeout=WAIT_MS):
            page.click("nav.lang a[hreflang=ja]")
        assert "11手目" not in page.inner_text("header") and "10手目" in page.inner_text("header")
        with page.expect_navigation(timeout=WAIT_MS):
            page.keyboard.press("]")
        assert "11手目" in page.inner_text("header") and page.get_by_role("navigation", name="時間").count() == 1
        with page.expect_download(timeout=WAIT_MS) as got:
            page.click("#download-log")
        path = tmp_path / "game.json"
        got.value.save_as(path)
        page.close()
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 0 and "identical" in result.output, result.output


def test_a_screenshot_of_each_pack_at_the_table(browser):
    """For a person to look at (test-artifacts/serve/PACK.png): each pack's table some
    steps in, as the first seat sees it; and its board's first card, followed from the
    keyboard, opens that card in the drawer."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser.clear_cookies()       # the one profile kept another test's language (a cookie knows no port)
    for pack in PACKS:
        server = Server(load_game(pack), pack, bots="human,random,random")
        table = server.play(3, 3)
        me = next(s for s in table.seats.values() if s.seat == 0)
        table.advance()
        with serving(server) as base:
            page = browser.new_page()
            page.goto(f"{base}/s/{me.token}")
            page.wait_for_selector("#board")
            page.screenshot(path=str(ARTIFACTS / f"{pack}.png"), full_page=True)
            # a card on the board is a link to it in the drawer, reached and followed with the keyboard
            link = page.locator("#board a.card").first
            name = link.inner_text()
            link.focus()
            with page.expect_navigation(timeout=WAIT_MS):
                page.keyboard.press("Enter")
            opened = page.locator("details[open] summary")
            assert opened.count() == 1 and opened.inner_text().startswith(name), pack
            assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
            page.close()
        assert (ARTIFACTS / f"{pack}.png").stat().st_size > 1000
