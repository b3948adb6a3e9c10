"""``meeple serve`` without a browser (Starlette's test client): no page or answer tells
a seat anything hidden from it, at any step of logged games of every shipped pack; a
step looked at again is the step replayed; a seat's token reads that seat only; a game
played by clicking ends with a log that ``meeple replay`` calls identical.

The sweep renders every step for every seat and the spectator through the functions
the routes call (``pages.seat_page``, ``app._view_data``) and asks the routes
themselves for every tenth step (the same text), so it stays a few seconds.
"""
from __future__ import annotations

import asyncio
import json
import random
import re
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="meeple serve needs the extra meeple[web] (pip install 'meeple[web]')")
pytest.importorskip("httpx", reason="Starlette's test client needs httpx")

with warnings.catch_warnings():        # Starlette asks for httpx2 in time; httpx is what it takes now
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")   # a UserWarning
    from starlette.testclient import TestClient  # noqa: E402

from meeple.play.session import make_log, replay  # noqa: E402
from meeple.runtime.game import load_game  # noqa: E402
from meeple.web import app as web_app, pages  # noqa: E402
from meeple.web.server import Server, log_of, scenario_of  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ROOT = Path(__file__).resolve().parent
PACKS = ["citadels", "citadels-2016", "citadels-dark-city", "signorie", "troyes"]


def golden_log(pack: str, key: str = "2p") -> dict:
    """A recorded golden game as a log (``meeple replay`` reads it)."""
    g = json.loads((ROOT / "golden" / f"{pack}.json").read_text())["games"][key]
    game = load_game(pack)
    st = game.new_state(g["players"], g["seed"], options=g["options"])
    for _, index, _ in g["log"]:
        game.apply(st, index)
    return make_log(game, st, g["seed"], pack, g["options"])


# every step of a golden game of each pack; the kept log (written before keys were stable)
# its first 20 steps: troyes is swept whole above, this shows such a log is served too
LOGS = [(pack, "2p", 10 ** 6) for pack in PACKS] + [("troyes", "logs/troyes-positional-keys.json", 20)]


def log_of_case(pack: str, which: str) -> dict:
    """A golden game ('2p') or a kept log (a path under tests/)."""
    return golden_log(pack, which) if not which.endswith(".json") else json.loads((ROOT / which).read_text())


def served(pack: str, log: dict, table_view: bool = False):
    server = Server(load_game(pack), pack, table_view=table_view)
    server.background = False
    table = server.replay(log, same_pack=False)
    return server, table, TestClient(web_app.make_app(server))


class Secrets:
    """What a viewer may not read at a step: the cards it has not been shown (by its
    views so far, the choices as told to it, and at the end the zones the pack
    reveals), and the hidden variables' names."""

    def __init__(self, game, viewer):
        self.game, self.viewer = game, viewer
        self.names = {}
        for d in game.vocab.card_defs:
            for n in {d.id, d.names.get("en")}:
                self.names.setdefault(n, set()).add(d.id)
        words = sorted(self.names, key=len, reverse=True)
        self.pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(w) for w in words) + r")(?![\w-])")
        self.known: set[str] = set()
        self.hidden_vars = sorted(game.observer.hidden_vars)
        self.revealed = {n for n, _ in game.defn.view.reveal}

    def saw(self, st, told: str) -> None:
        g = self.game
        seen = json.dumps(g.view(st, self.viewer)) + "\n" + told
        self.known.update(d for m in self.pattern.findall(seen) for d in self.names[m])
        if st.over:         # the zones a pack shows at the end (view: reveal)
            for zi, z in enumerate(g.vocab.zone_defs):
                if z.name in self.revealed:
                    for slot in range(g.vocab.zone_base[zi], g.vocab.zone_base[zi] + (st.players if z.per_player else 1)):
                        self.known.update(g.vocab.card_def_ids[c] for c in st.zones[slot])

    def leaks(self, text: str) -> set[str]:
        named = {m for m in self.pattern.findall(text) if not self.names[m] & self.known}
        return named | {v for v in self.hidden_vars if re.search(rf"\b{re.escape(v)}\b", text)}


@pytest.mark.parametrize("pack,which,last", LOGS, ids=[f"{p}-{w.rsplit('/', 1)[-1]}" for p, w, _ in LOGS])
def test_no_page_tells_a_seat_what_is_hidden_from_it(pack, which, last):
    """Every step (up to ``last``), every seat and the spectator."""
    server, table, client = served(pack, log_of_case(pack, which))
    game = table.game
    for seat in (s for s in table.seats.values() if not s.table):
        secrets = Secrets(game, seat.seat)
        for step in range(min(table.steps, last) + 1):
            st = table.state_at(step)
            secrets.saw(st, table.told(step - 1, seat.viewer) if step else "")
            page = pages.seat_page(table, seat, step)
            data = json.dumps(web_app._view_data(table, seat, step), ensure_ascii=False)
            leaked = secrets.leaks(page) | secrets.leaks(data)
            leaked |= {c for c in re.findall(r'/cards#card-([^"]+)"', page) if c not in secrets.known}    # the drawer's links
            assert not leaked, f"{pack} step {step}: {seat.name()}'s page names {sorted(leaked)}, hidden from it"
            if step % 10 == 0 or step == table.steps:       # the routes answer the same
                assert client.get(f"/s/{seat.token}?at={step}").text == page
                assert client.get(f"/s/{seat.token}/view.json?at={step}").json() == json.loads(data)
            assert "seed" not in page


def test_the_sweep_can_fail():
    """The check above sees a leak: the table view's page of a step names the hidden cards."""
    server, table, client = served("citadels", golden_log("citadels"), table_view=True)
    tv = next(s for s in table.seats.values() if s.table)
    secrets = Secrets(table.game, 0)
    secrets.saw(table.state_at(3), "")
    assert secrets.leaks(pages.seat_page(table, tv, 3))


def test_a_step_looked_at_again_is_the_step_replayed():
    """Every step, asked for in a random order (checkpoints, the last state asked for),
    gives each seat the view of the game replayed from its seed to that step."""
    pack, log = "signorie", golden_log("signorie", "3p")
    server, table, client = served(pack, log)
    game = table.game
    st = game.new_state(log["players"], log["seed"], options=log["options"])
    expected = []
    for _, index, _ in log["choices"]:
        expected.append([game.view(st, p) for p in range(log["players"])])
        game.apply(st, index)
    expected.append([game.view(st, p) for p in range(log["players"])])
    steps = list(range(len(expected)))
    random.Random(5).shuffle(steps)
    for k in steps:
        got = table.state_at(k)
        assert [game.view(got, p) for p in range(log["players"])] == expected[k], f"step {k}"
    p1 = next(s for s in table.seats.values() if s.seat == 0)
    for k in steps[:12]:
        assert client.get(f"/s/{p1.token}/view.json?at={k}").json()["view"] == json.loads(json.dumps(expected[k][0]))


def test_a_seat_token_reads_that_seat_only():
    server = Server(load_game("citadels"), "citadels", bots="human,human,random")
    server.background = False
    table = server.play(3, 11)
    client = TestClient(web_app.make_app(server))
    p1, p2 = (next(s for s in table.seats.values() if s.seat == p) for p in (0, 1))
    tokens = [s.token for s in table.seats.values()] + [table.host]
    assert len(set(tokens)) == len(tokens) and all(len(t) >= 22 for t in tokens)
    v1 = client.get(f"/s/{p1.token}/view.json").json()["view"]
    assert isinstance(v1["zones"]["hand/P1"], list) and v1["zones"]["hand/P2"] == {"hidden": 4}
    assert v1 == json.loads(json.dumps(table.game.view(table.st, 0)))
    # a token is a seat: no other seat's page, no state, no seed
    for forged in ("x", p1.token[:-1], p1.token + "a", p1.token.upper()):
        assert client.get(f"/s/{forged}/view.json").status_code == 404
        assert client.get(f"/s/{forged}").status_code == 404
    page = client.get(f"/s/{p1.token}").text
    assert p2.token not in page and table.host not in page and "seed" not in page
    # only the seat choosing chooses, once, at the step it saw
    chooser = table.st.pending.player
    other = p2 if chooser == 0 else p1
    before = table.steps
    client.post(f"/s/{other.token}/choose", data={"option": "0", "at": str(before)}, follow_redirects=False)
    assert table.steps == before and "not your turn" in client.get(f"/s/{other.token}").text
    # what holds the seed waits for the end, or the table view
    assert client.get(f"/s/{p1.token}/log").status_code == 403
    assert client.get(f"/s/{p1.token}/scenario?at=0").status_code == 403
    assert client.post(f"/s/{p1.token}/fork", data={"at": "0"}).status_code == 403
    # bounded requests; no file is ever named
    assert client.post(f"/s/{p1.token}/choose", content=b"option=0&at=0&" + b"x" * 5000,
                       headers={"content-type": "application/x-www-form-urlencoded"}).status_code == 413
    assert client.get(f"/s/{p1.token}?at=" + "1" * 600).status_code == 413
    assert client.get("/static/../pyproject.toml").status_code == 404
    assert client.get("/static/meeple.js").status_code == 200


def test_a_game_played_by_clicking_replays_identical(tmp_path):
    """A human plays Citadels to the end against bots, always the first option (the
    buttons are labelled and numbered, reachable in order); the log downloaded
    then replays identical, and a scenario copied at a step reaches it."""
    server = Server(load_game("citadels"), "citadels", bots="human,random,greedy", table_view=True)
    server.background = False
    table = server.play(3, 21)
    client = TestClient(web_app.make_app(server))
    me = next(s for s in table.seats.values() if s.seat == 0)
    table.advance()
    for _ in range(400):
        if table.st.over:
            break
        page = client.get(f"/s/{me.token}").text
        buttons = re.findall(r'<button type="submit" name="option" value="(\d+)" id="option-(\d+)">(.*?)</button>', page)
        assert buttons and all(int(v) + 1 == int(n) and label.strip() for v, n, label in buttons)
        at = re.search(r'name="at" value="(\d+)"', page).group(1)
        assert client.post(f"/s/{me.token}/choose", data={"option": buttons[0][0], "at": at},
                           follow_redirects=False).status_code == 303
    assert table.st.over
    final = client.get(f"/s/{me.token}").text
    assert "Final scores" in final and "download the log" in final
    log = client.get(f"/s/{me.token}/log").json()
    replayed = replay(load_game("citadels"), log, same_pack=True)
    assert replayed.scores == table.st.scores and log == log_of(table)
    # the table view shows what the greedy bot's search gave each option; a seat's page does not
    weighed = min(table.bot_values)
    assert table.line.choices[weighed][0] == 2 and len(table.bot_values[weighed]) > 1
    tv = next(s for s in table.seats.values() if s.table)
    assert 'id="bot-values"' in client.get(f"/s/{tv.token}?at={weighed}").text
    assert "bot-values" not in client.get(f"/s/{me.token}?at={weighed}").text
    # a scenario copied at step 40 runs green with meeple test
    from meeple.authoring.scenario import run_file
    path = tmp_path / "step.scenario.yaml"
    for step in (0, 40, table.steps):
        path.write_text(scenario_of(table, step))
        results = run_file(path)
        assert results and all(r.ok for r in results), (step, [r.message for r in results])
    path.write_text(scenario_of(table, 40).replace("game_over: false", "game_over: true"))
    assert not any(r.ok for r in run_file(path))


def test_a_fork_plays_on_from_its_step():
    server, table, client = served("citadels", golden_log("citadels"), table_view=True)
    server.bots = "human,random"
    tv = next(s for s in table.seats.values() if s.table)
    assert 'id="fork"' in client.get(f"/s/{tv.token}?at=10").text
    r = client.post(f"/s/{tv.token}/fork", data={"at": "10"}, follow_redirects=False)
    assert r.status_code == 303
    fork = server.tables[-1]
    assert r.headers["location"] == f"/h/{fork.host}"
    assert fork.line.choices == table.line.choices[:10] and fork.steps == 10
    assert table.game.view(fork.st, 0) == table.game.view(table.state_at(10), 0)
    # the fork's seats, listed on its host page; a server keeps at most MAX_TABLES games
    host = client.get(r.headers["location"]).text
    assert all(f"/s/{s.token}" in host for s in fork.seats.values())
    # a fork names its bots, checked as meeple play --bots checks them and bounded
    r = client.post(f"/s/{tv.token}/fork", data={"at": "12", "bots": "greedy,mcts:20"}, follow_redirects=False)
    assert r.status_code == 303 and server.tables[-1].bot_names == ["greedy", "mcts:20"]
    assert "(greedy)" in client.get(r.headers["location"]).text and len(server.tables) == 3
    for bots, reason in [("greedy,mcst", "unknown agent &#x27;mcst&#x27;: did you mean &#x27;mcts&#x27;?"),
                         ("random,random,random", "3 agents named for 2 players"),
                         ("mcts:9999999", "at most 20000 iterations"), ("random," * 40, "at most 200 letters")]:
        r = client.post(f"/s/{tv.token}/fork", data={"at": "12", "bots": bots})
        assert r.status_code == 400 and "bots: " in r.text and reason in r.text, (bots, r.text)
    assert len(server.tables) == 3
    from meeple.web.server import MAX_TABLES
    while len(server.tables) < MAX_TABLES:
        server.fork(table, 5)
    assert client.post(f"/s/{tv.token}/fork", data={"at": "10"}).status_code == 429


def test_help_and_the_card_drawer(tmp_path):
    """'?' on an option answers its chooser only; the drawer shows each card's texts and,
    given a simulation's JSON, its figures."""
    from meeple.web.drawer import read_figures
    sim = {"players": 4, "used": {"character": [{"card": "king", "times": 40, "users": 30, "win_rate": 0.3,
                                                 "win_ci": [0.2, 0.4]}]},
           "cards": {"district in city": [{"card": "temple", "games": 50, "win_rate": 0.35, "win_ci": [0.25, 0.47],
                                           "effect": 0.031, "effect_ci": [-0.07, 0.142]},
                                          {"card": "tavern", "games": 9, "win_rate": 0.3, "win_ci": [0.1, 0.6]}]}}
    (tmp_path / "sim.json").write_text(json.dumps(sim))
    server = Server(load_game("citadels"), "citadels", bots="human,human,random",
                    figures=read_figures(tmp_path / "sim.json"))
    server.background = False
    table = server.play(3, 11)
    client = TestClient(web_app.make_app(server))
    chooser = next(s for s in table.seats.values() if s.seat == table.st.pending.player)
    other = next(s for s in table.seats.values() if s.seat is not None and s is not chooser)
    assert "Once in your turn" in client.get(f"/s/{chooser.token}/help?option=0").text      # the Magician: seed 11
    assert "for the seat choosing" in client.get(f"/s/{other.token}/help?option=0").text
    assert "how to play" in client.get(f"/s/{other.token}/help?rules=1").text
    drawer = client.get(f"/s/{other.token}/cards").text
    # the cards on the board and in the options link to the drawer, labelled
    page = client.get(f"/s/{chooser.token}").text
    linked = re.findall(r'<a class="card" href="/s/' + chooser.token + r'/cards#card-([^"]+)" aria-label="([^"]+)">([^<]+)</a>', page)
    board = page[page.index('<section id="board"'):]
    assert re.search(r'class="card"[^>]*>[^<]+</a>', board[:board.index("</section>")])
    assert any(label.endswith("(option 1), in the card drawer") for _, label, _ in linked)
    assert linked and all(f'id="card-{cid}"' in drawer and label.startswith(name) for cid, label, name in linked)
    assert 'id="card-king"' in drawer and "used 40 times by 30 players; their win rate 30% (95% interval 20%-40%" in drawer
    assert ("district in city: in 50 games, win rate 35% (25%-47%); effect on winning +3.1 pp against the average of its zone "
            "(95% interval -7.0 pp to +14.2 pp)") in drawer
    assert "win rate 30% (10%-60%); no effect on winning in this file" in drawer      # an older file: not made up here


def test_a_refused_choice_leaves_the_line_as_the_game():
    """A rule's refusal (require) may undo the turn's choices: the table's line of play
    follows the game, and what was told of undone steps is forgotten."""
    game = load_game(str(ROOT / "packs" / "usage"))
    server = Server(game, "usage", bots="human,human")
    table = server.play(2, 1)
    refused = 0
    for _ in range(200):
        st = table.st
        if st.over:
            break
        labels = [str(o[1]) for o in st.pending.options]
        for i in range(len(labels)):        # the first option the rules take, after every one they refuse
            said = table.choose(st.pending.player, i, table.steps)
            refused += bool(said and said.startswith("refused"))
            assert table.line.choices == [list(c) for c in table.st.log]
            if said is None:
                break
        seat = next(s for s in table.seats.values() if s.seat == 0)
        pages.seat_page(table, seat)
    assert refused and table.st.over
    replayed = replay(game, log_of(table))
    assert replayed.scores == table.st.scores


def test_the_line_follows_a_game_whose_last_choices_were_undone():
    """``Timeline.follow``: a game whose last choices were undone and made otherwise (as a
    refusal may do) is followed from where the two part; every step then shows the new
    game, and what was told of the undone steps is forgotten."""
    game = load_game("citadels")
    server = Server(game, "citadels", bots="human,human,human")
    table = server.play(3, 8)
    st = table.st
    for _ in range(40):
        game.apply(st, 0)
    table._moved()
    seat = next(s for s in table.seats.values() if s.seat == 0)
    before = [table.told(k, 0) for k in range(40)]
    other = table.state_at(30)                      # from step 30, the last option each time
    for _ in range(12):
        game.apply(other, other.pending.count() - 1)
    table.st = other
    table._moved()
    assert table.steps == 42 and table.line.choices == [list(c) for c in other.log]
    fresh = game.new_state(3, 8)
    for k, (_, index, _) in enumerate(other.log):
        assert game.view(table.state_at(k), 0) == game.view(fresh, 0), f"step {k}"
        game.apply(fresh, index)
    assert [table.told(k, 0) for k in range(30)] == before[:30]
    assert [table.told(k, 0) for k in range(30, 40)] != before[30:]
    pages.seat_page(table, seat, 35)


def test_bots_choose_in_the_background_and_a_waiting_page_hears_of_it():
    """As served: a human's choice is answered at once while the bots choose in a thread,
    and a page waiting for the game (``/wait``) is told when a bot moved."""
    import threading
    server = Server(load_game("citadels"), "citadels", bots="human,random,random")
    table = server.play(3, 13)
    table.advance()                 # to the human's first choice
    client = TestClient(web_app.make_app(server))
    me = next(s for s in table.seats.values() if s.seat == 0)
    release = threading.Event()

    class Held:
        """A bot that chooses its first option when the test lets it."""
        name, needs_view, needs_labels = "held", True, True

        def choose(self, view, options):
            assert release.wait(30)
            return 0
    table.agents[1] = table.agents[2] = Held()
    for _ in range(20):             # the human chooses until a bot is to move
        at = table.steps
        assert client.post(f"/s/{me.token}/choose", data={"option": "0", "at": str(at)},
                           follow_redirects=False).status_code == 303      # answered while the bot waits
        assert table.line.choices[at][0] == 0
        with table.lock:
            version, bot = table.version, table.bot_to_move()
        if bot is not None:
            break
    assert bot is not None and table.busy() and table.steps == at + 1
    threading.Timer(0.05, release.set).start()
    answer = client.get(f"/s/{me.token}/wait", params={"after": version}).json()
    assert answer["changed"] and answer["version"] > version
    for _ in range(3000):           # the bots go on to the human's turn (10 ms each: only a hung bot meets it)
        if not table.busy():
            break
        threading.Event().wait(0.01)
    assert not table.busy() and (table.st.over or table.st.pending.player == 0)


def test_the_safety_bar(monkeypatch):
    """What a browser may ask, bounded, each part checked once: no route takes a file's
    path; the pages waiting at once and a request's size are bounded; a token reads its
    own seat's help, drawer and log only; the table view exists only when the server's
    starter turned it on (``table_view``), forks included."""
    from starlette.convertors import StringConvertor
    server = Server(load_game("citadels"), "citadels", bots="human,human,random")
    server.background = False
    table = server.play(3, 11)
    fork = server.fork(table, 0)
    app = web_app.make_app(server)
    client = TestClient(app)
    # no route's address holds a path: a token, or a static file's name from a fixed list
    for route in app.app.routes:
        assert all(isinstance(c, StringConvertor) for c in route.param_convertors.values()), route.path
        assert set(route.param_convertors) <= {"token", "name"}, route.path
    seats = [s for t in (table, fork) for s in t.seats.values()]
    p1 = next(s for s in table.seats.values() if s.seat == 0)
    for probe in ("/static/..%2Fapp.py", "/static/meeple.js%2F..", f"/s/{p1.token}/help?card=../../pyproject.toml"):
        assert client.get(probe).status_code == 404, probe
    # bounded: the pages waiting at once, a request's body however it is sent
    monkeypatch.setattr(web_app, "_WAITING", [web_app.MAX_WAITING])
    assert client.get(f"/s/{p1.token}/wait?after=0").status_code == 503
    sent = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request", "body": b"option=0&at=0", "more_body": False}
    chunked = {"type": "http", "method": "POST", "path": f"/s/{p1.token}/choose", "query_string": b"",
               "headers": [(b"transfer-encoding", b"chunked")]}
    asyncio.run(app(chunked, receive, send))
    assert sent[0]["status"] == 413
    # a token is its seat's: its pages link no other seat, its help and log are its own
    for s in seats:
        mine = client.get(f"/s/{s.token}").text + client.get(f"/s/{s.token}/cards").text \
            + client.get(f"/s/{s.token}/help?rules=1").text
        others = [o for o in seats if o is not s and o.seat is not None]      # the spectator's page is public: linked
        assert not any(o.token in mine for o in others), s.name()
        assert client.get(f"/s/{s.token}/log").status_code == 403             # the seed: after the end
        if s.seat != table.st.pending.player:          # the fork is at the same choice
            assert "for the seat choosing" in client.get(f"/s/{s.token}/help?option=0").text
        assert client.get(f"/h/{s.token}").status_code == 404                 # a seat is no host
    assert client.get(f"/s/{table.host}").status_code == 404                   # a host page is no seat
    # no table view unless the starter turned it on: no seat sees all, scenarios and forks refused
    assert not any(s.table for s in seats)
    for s in seats:
        page = client.get(f"/s/{s.token}").text
        assert "Table view" not in page and "everything, hidden too" not in page and 'id="fork"' not in page
        assert client.get(f"/s/{s.token}/scenario?at=0").status_code == 403
        assert client.post(f"/s/{s.token}/fork", data={"at": "0"}).status_code == 403
    assert len(server.tables) == 2


def test_undo_takes_a_seat_back_to_its_action_menu():
    """A human at Troyes (the first option each time) finds the undo button once an action
    is under way; pressing it brings back the action menu as it was (the same buttons,
    the line cut back to that step) and no choice of the action is in the log. A page
    made before the game moved on cannot undo, and the button is not offered at an action
    menu."""
    server = Server(load_game("troyes"), "troyes", bots="human,random")
    server.background = False
    table = server.play(2, 1)
    client = TestClient(web_app.make_app(server))
    me = next(s for s in table.seats.values() if s.seat == 0)
    table.advance()
    menu, undone = None, False
    for _ in range(300):
        page = client.get(f"/s/{me.token}").text
        buttons = re.findall(r'<button type="submit" name="option" value="(\d+)" id="option-\d+">(.*?)</button>', page)
        at = int(re.search(r'name="at" value="(\d+)"', page).group(1))
        if table.st.pending.kind == "action":
            assert 'id="undo"' not in page
            menu = (at, buttons)
        elif 'id="undo"' in page:
            assert client.post(f"/s/{me.token}/undo", data={"at": str(at - 1)}, follow_redirects=False).status_code == 303
            assert "the game moved on since this page was made" in client.get(f"/s/{me.token}").text
            client.post(f"/s/{me.token}/undo", data={"at": str(at)})
            back = client.get(f"/s/{me.token}").text
            assert table.steps == menu[0] and table.st.pending.kind == "action" and len(table.st.log) == menu[0]
            assert re.findall(r'<button type="submit" name="option" value="(\d+)" id="option-\d+">(.*?)</button>', back) == menu[1]
            undone = True
            break
        client.post(f"/s/{me.token}/choose", data={"option": buttons[0][0], "at": str(at)})
    assert undone
