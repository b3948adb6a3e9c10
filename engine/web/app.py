"""The web application of ``meeple serve`` (Starlette): a seat's token in every address.

What a browser may ask (nothing else is answered):

    GET  /s/TOKEN?at=K          the seat's page at step K (default: now)
         ...?lang=ja            any page in another language meeple speaks (kept for the pages after)
    GET  /s/TOKEN/view.json?at=K  the same as data: the seat's view and what it was told
    POST /s/TOKEN/choose        the seat's choice (form: option, at)
    POST /s/TOKEN/undo          the seat's choices since its last action taken back (form: at)
    GET  /s/TOKEN/wait?after=V  answers when the game has moved past version V (a page reloads)
    GET  /s/TOKEN/help?option=I | ?rules=1 | ?card=ID   the '?' of the terminal
    GET  /s/TOKEN/cards         the card drawer: every card's text, rules text and figures
    GET  /s/TOKEN/log           the game's log (holds the seed: the table view, or after the end)
    GET  /s/TOKEN/scenario?at=K a scenario reaching step K (table view only)
    POST /s/TOKEN/fork          a new game from step K (form: at, bots; table view only)
    GET  /h/TOKEN               the host page: every seat's link
    GET  /static/meeple.js, /static/meeple.css

A token is one seat of one table; a page of a seat shows only that seat's view
(``meeple.web.pages``). A request's body and query are bounded (``MAX_BODY``,
``MAX_QUERY``), as are the tables (``meeple.web.server.MAX_TABLES``) and the
pages waiting at once (``MAX_WAITING``); no request names a file.
"""
from __future__ import annotations

import asyncio
import functools
import json
from importlib import resources
from typing import Any, Awaitable, Callable, Optional

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from meeple.core.catalogue import LANGUAGES, say
from meeple.web import pages
from meeple.web.server import BadBots, Server, TooManyTables, log_of, scenario_of
from meeple.web.table import Seat, Table

MAX_BODY = 4096          # bytes of a request's body: a choice is a few
MAX_QUERY = 512          # length of a query (letters)
MAX_WAITING = 64         # pages waiting for the game to move, at once
WAIT_SECONDS = 20.0      # a wait answers 'unchanged' after this, and the page asks again
SETTLE_SECONDS = 0.04    # after a move, while bots go on moving, a wait answers within this
STATIC = {"meeple.js": "text/javascript", "meeple.css": "text/css"}
HEADERS = {"Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'", "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"}


def _html(text: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(text, status, headers=HEADERS)


class NoSuchLanguage(Exception):
    """A page asked for in a language meeple does not speak (``?lang=``)."""


def _lang(request: Request) -> str:
    """The language a page is made in: ``?lang=`` (one of ``LANGUAGES``, kept in a
    cookie for the pages after), else the one kept, else the server's ``--lang``."""
    asked = request.query_params.get("lang")
    if asked is not None:
        if asked not in LANGUAGES:
            raise NoSuchLanguage(asked)
        return asked
    kept = request.cookies.get("lang")
    return kept if kept in LANGUAGES else _server(request).lang


async def _no_such_language(request: Request, err: Exception) -> Response:
    lang = _server(request).lang
    return _html(pages.message_page(say("no such language", lang), say("no language '{asked}': give one of {known}", lang,
                                    asked=str(err)[:20], known=", ".join(LANGUAGES)), lang=lang), 400)


def _not_found(lang: str = "en") -> Response:
    return _html(pages.message_page(say("not found", lang), say("no such page: a seat's link is the one meeple serve printed",
                                                                    lang), lang=lang), 404)


def _step(request: Request, table: Table) -> Optional[int]:
    """The step asked for (``at``), the table's last when not given; None if not a step of it."""
    at = request.query_params.get("at")
    if at is None:
        return table.steps
    if not (at.isascii() and at.isdigit()) or int(at) > table.steps:
        return None
    return int(at)


def make_app(server: Server) -> Any:
    """The application serving ``server``'s tables, its requests bounded."""
    routes = [Route("/", index), Route("/s/{token}", page), Route("/s/{token}/view.json", view_json),
              Route("/s/{token}/choose", choose, methods=["POST"]), Route("/s/{token}/undo", undo, methods=["POST"]),
              Route("/s/{token}/wait", wait),
              Route("/s/{token}/help", help_), Route("/s/{token}/cards", cards), Route("/s/{token}/log", log),
              Route("/s/{token}/scenario", scenario), Route("/s/{token}/fork", fork, methods=["POST"]),
              Route("/h/{token}", host), Route("/static/{name}", static)]
    app = Starlette(routes=routes, exception_handlers={NoSuchLanguage: _no_such_language})
    app.state.server = server
    return _Bounded(app)


def serve(server: Server, host: str, port: int) -> Optional[int]:
    """Serve ``server``'s tables with uvicorn until stopped; the signal that stopped it
    (Ctrl-C's SIGINT, a SIGTERM), once the server has shut down, else None."""
    import uvicorn
    web = uvicorn.Server(uvicorn.Config(make_app(server), host=host, port=port, log_level="warning"))
    stopped_by: list[int] = []
    handle = web.handle_exit

    def handle_exit(sig: int, frame: Any) -> None:
        stopped_by.append(sig)
        handle(sig, frame)
    web.handle_exit = handle_exit           # type: ignore[method-assign]
    web.run()
    return stopped_by[0] if stopped_by else None


_WAITING = [0]          # pages waiting for a move now (bounded by MAX_WAITING)

def _server(request: Request) -> Server:
    return request.app.state.server



def seat(request: Request) -> Optional[tuple[Table, Seat]]:
    """The table and seat of the token the address names, or None."""
    return _server(request).find(request.path_params["token"])


def _seated(handler: Callable[[Request, Table, Seat, str], Awaitable[Response]]) -> Callable[[Request], Awaitable[Response]]:
    """A page of one seat's token: the handler is given the token's table and seat and the
    page's language; a token no table knows is 'not found' before the handler runs."""
    @functools.wraps(handler)
    async def route(request: Request) -> Response:
        lang = _lang(request)
        found = seat(request)
        if found is None:
            return _not_found(lang)
        return await handler(request, found[0], found[1], lang)
    return route


@_seated
async def page(request: Request, table: Table, s: Seat, lang: str) -> Response:
    step = _step(request, table)
    if step is None:
        return _html(pages.message_page(say("no such step", lang), say("this game has steps 0-{n}", lang, n=table.steps),
                                        f"/s/{s.token}", lang), 400)
    if "at" not in request.query_params:
        step = None         # now, as it is when the page is made
    note = table.notes.pop(s.viewer, "")
    response = _html(await asyncio.to_thread(pages.seat_page, table, s, step, note, lang))
    if "lang" in request.query_params:      # the language asked for, kept for the pages after
        response.set_cookie("lang", lang, httponly=True, samesite="strict")
    return response


async def view_json(request: Request) -> Response:
    found = seat(request)
    if found is None:
        return JSONResponse({"error": "no such seat"}, 404)
    table, s = found
    step = _step(request, table)
    if step is None:
        return JSONResponse({"error": f"steps are 0-{table.steps}"}, 400)
    data = await asyncio.to_thread(_view_data, table, s, step, _lang(request))
    return JSONResponse(data, headers=HEADERS)


@_seated
async def choose(request: Request, table: Table, s: Seat, lang: str) -> Response:
    form = await _form(request)
    option, at = form.get("option", ""), form.get("at", "")
    if s.seat is None or s.table or not (option.isdigit() and at.isdigit()):
        return _html(pages.message_page(say("not a choice", lang), say("choose with one of your options", lang),
                                        f"/s/{s.token}", lang), 400)
    refused = await asyncio.to_thread(table.choose, s.seat, int(option), int(at), lang)
    if refused:
        table.notes[s.viewer] = refused
    elif _server(request).background:
        table.advance_in_background()
    else:
        await asyncio.to_thread(table.advance)
    return RedirectResponse(f"/s/{s.token}", 303)


@_seated
async def undo(request: Request, table: Table, s: Seat, lang: str) -> Response:
    at = (await _form(request)).get("at", "")
    if s.seat is None or s.table or not at.isdigit():
        return _html(pages.message_page(say("not a choice", lang), say("choose with one of your options", lang),
                                        f"/s/{s.token}", lang), 400)
    refused = await asyncio.to_thread(table.undo, s.seat, int(at), lang)
    if refused:
        table.notes[s.viewer] = refused
    return RedirectResponse(f"/s/{s.token}", 303)


async def wait(request: Request) -> Response:
    found = seat(request)
    after = request.query_params.get("after", "")
    if found is None or not after.isdigit():
        return JSONResponse({"error": "no such seat"}, 404)
    table = found[0]
    if _WAITING[0] >= MAX_WAITING:
        return JSONResponse({"changed": False, "busy": True}, 503)
    _WAITING[0] += 1
    try:
        loop = asyncio.get_running_loop()
        until = loop.time() + WAIT_SECONDS
        while table.version == int(after) and loop.time() < until:
            await asyncio.sleep(0.01)
        settle = loop.time() + SETTLE_SECONDS     # bots moving one after another: shown together
        while table.busy() and loop.time() < settle:
            await asyncio.sleep(0.005)
    finally:
        _WAITING[0] -= 1
    return JSONResponse({"changed": table.version != int(after), "version": table.version})


@_seated
async def help_(request: Request, table: Table, s: Seat, lang: str) -> Response:
    title, text = await asyncio.to_thread(_help, table, s, request.query_params, lang)
    return _html(pages.help_page(s, title, text, lang), 200 if text else 404)


@_seated
async def cards(request: Request, table: Table, s: Seat, lang: str) -> Response:
    from meeple.web.drawer import drawer_page
    return _html(await asyncio.to_thread(drawer_page, table, s, _server(request).figures, lang))


@_seated
async def log(request: Request, table: Table, s: Seat, lang: str) -> Response:
    if not (s.table or table.st.over):
        return _html(pages.message_page(say("not yet", lang), say("the log holds the seed, which tells every hidden card: "
                                        "it is given once the game is over", lang), f"/s/{s.token}", lang), 403)
    body = json.dumps(log_of(table), indent=1, ensure_ascii=False) + "\n"
    return Response(body, media_type="application/json",
                    headers={**HEADERS, "Content-Disposition": "attachment; filename=\"game.meeple-log.json\""})


@_seated
async def scenario(request: Request, table: Table, s: Seat, lang: str) -> Response:
    step = _step(request, table)
    if not s.table or step is None:
        return _html(pages.message_page(say("table view only", lang), say("a scenario holds the seed", lang),
                                        f"/s/{s.token}", lang), 403)
    return PlainTextResponse(scenario_of(table, step), headers={
        **HEADERS, "Content-Disposition": "attachment; filename=\"step.scenario.yaml\""})


@_seated
async def fork(request: Request, table: Table, s: Seat, lang: str) -> Response:
    form = await _form(request)
    at = form.get("at", "")
    if not s.table or not at.isdigit() or int(at) > table.steps:
        return _html(pages.message_page(say("table view only", lang), say("fork from the table view", lang),
                                        f"/s/{s.token}", lang), 403)
    bots = form.get("bots", "").strip() or None
    try:
        new = await asyncio.to_thread(_server(request).fork, table, int(at), bots)
    except TooManyTables as err:
        return _html(pages.message_page(say("too many games", lang), err.message, f"/s/{s.token}", lang), 429)
    except BadBots as err:
        return _html(pages.message_page(say("not these bots", lang), say("bots: {reason}", lang, reason=err.message),
                                        f"/s/{s.token}?at={at}", lang), 400)
    return RedirectResponse(f"/h/{new.host}", 303)


async def host(request: Request) -> Response:
    lang = _lang(request)
    table = _server(request).hosted(request.path_params["token"])
    if table is None:
        return _not_found(lang)
    return _html(pages.host_page(table, "", lang))


async def static(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in STATIC:
        return _not_found(_lang(request))
    body = resources.files("meeple.web").joinpath("static", name).read_text(encoding="utf-8")
    return Response(body, media_type=STATIC[name], headers={"X-Content-Type-Options": "nosniff"})


async def index(request: Request) -> Response:
    lang = _lang(request)
    return _html(pages.message_page("meeple", say("open the link of your seat that meeple serve printed", lang), lang=lang))


class _Bounded:
    """Refuses a request whose query or body is too long before the app reads it."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = dict(scope.get("headers") or [])
            length = headers.get(b"content-length", b"0")
            too_long = len(scope.get("query_string", b"")) > MAX_QUERY or len(scope.get("path", "")) > MAX_QUERY
            if too_long or not length.isdigit() or int(length) > MAX_BODY or b"transfer-encoding" in headers:
                await PlainTextResponse("request too large", 413)(scope, receive, send)
                return
        await self.app(scope, receive, send)


async def _form(request: Request) -> dict[str, str]:
    """A posted form's fields (application/x-www-form-urlencoded, as a page's forms
    send them; the body is bounded by ``_Bounded``), the first value of each."""
    from urllib.parse import parse_qs
    body = (await request.body())[:MAX_BODY].decode("utf-8", "replace")
    return {k: v[0] for k, v in parse_qs(body, max_num_fields=16).items()}


def _view_data(table: Table, s: Seat, step: int, lang: Optional[str] = None) -> dict:
    """What the seat's page shows, as data: its view (``game.view``), the choices as
    told to it, what the rules did as it saw them. The table view adds nothing here."""
    st = table.state_at(step)
    viewer = None if s.table else s.seat
    return {"step": step, "steps": table.steps, "version": table.version, "seat": s.name(),
            "view": table.game.view(st, viewer),
            "told": [table.told(k, s.viewer, lang) for k in range(max(0, step - pages.LOG_SHOWN), step)],
            "narration": [ln for k in range(max(0, step - 1), step) for ln in table.narration(k, s.viewer, lang)]}


def _help(table: Table, s: Seat, query: Any, lang: Optional[str] = None) -> tuple[str, str]:
    """The terminal's '?' answers: an option of the seat's own pending choice, a card, the rules."""
    view = table.view_in(lang)
    if query.get("rules"):
        from meeple.play.choicehelp import rules_help
        return view.word("how to play"), rules_help(view)
    card = query.get("card")
    if card is not None:
        c = view.find_card(card[:80])
        return (view.name(c), view.card_text(c)) if c is not None else (view.word("no such card"), "")
    option = query.get("option", "")
    with table.lock:
        st = table.st
        if st.pending is None or s.seat != st.pending.player or s.table or not option.isdigit():
            return view.word("no option"), view.word("help on an option is for the seat choosing, at its choice")
        options = view.options(st, s.seat)
        return view.word("option {n}", n=int(option) + 1), view.help(f"? {int(option) + 1}", options, st)
