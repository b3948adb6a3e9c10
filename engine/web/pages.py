"""The pages of the browser table, made on the server from what a seat may know.

Everything a page shows comes from the table's answers for one viewer (``Table``):
the board as ``meeple play`` prints it for that seat (``TerminalView.board``, the
pack's ``view:`` declarations), the seat's own options with their prices, what each
rule did as that seat saw it, each choice as that seat was told it, and at the end the
score explained. The state itself, and the seed, are never written into a seat's page;
the table view, which the person starting the server turns on, shows every zone.

Every text is escaped; the pages need no script (forms and links), and a small one of
ours (``static/meeple.js``) reloads a page when the game moves on and adds keys.
"""
from __future__ import annotations

from html import escape
from typing import Any, Optional

from meeple.runtime.scoring import breakdown, player_text
from meeple.web.server import MAX_BOTS_TEXT
from meeple.web.table import Seat, Table

LOG_SHOWN = 60          # the log pane's last choices (older ones: step back)


def _page(title: str, body: str, attrs: str = "") -> str:
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{escape(title)}</title><link rel=\"stylesheet\" href=\"/static/meeple.css\"></head>\n"
            f"<body{attrs}>\n{body}\n<script src=\"/static/meeple.js\"></script></body></html>\n")


def seat_page(table: Table, seat: Seat, step: Optional[int] = None, note: str = "") -> str:
    """The page of ``seat`` at ``step`` (None: now): board, choice, narration, scores, log, time."""
    viewer = seat.viewer
    with table.lock:        # the state and the version it is at, together (a bot may move meanwhile)
        version, over = table.version, table.st.over
        step = table.steps if step is None else step
        st = table.state_at(step)
        live = step == table.steps
    game = table.game
    parts = [_header(table, seat, st, step, live)]
    if table.error:
        parts.append(f"<p class=\"error\" role=\"alert\">{escape(table.error)}</p>")
    if note:
        parts.append(f"<p class=\"note\" role=\"status\">{escape(note)}</p>")
    parts.append(_scrubber(table, seat, step))
    parts.append(_decision(table, seat, st, step, live))
    board = _table_board(table, st) if seat.table else table.view.board(st, viewer)
    parts.append(f"<section id=\"board\" aria-label=\"board\"><h2>Board</h2><pre>{linked(table, seat, board)}</pre></section>")
    parts.append(_narration(table, viewer, step))
    if st.over:
        parts.append(_scores(table, st))
    parts.append(_log(table, viewer, step))
    parts.append(_links(table, seat, over, step))
    attrs = (f" data-version=\"{version}\" data-live=\"{int(live)}\" data-step=\"{step}\" data-steps=\"{table.steps}\""
             f" data-token=\"{escape(seat.token)}\"")
    return _page(f"{game.pack.info.name.get()} · {seat.name()}", "\n".join(parts), attrs)


def _header(table: Table, seat: Seat, st: Any, step: int, live: bool) -> str:
    name = escape(table.game.pack.info.name.get())
    where = "the end" if st.over else f"round {st.round}"
    mode = "" if live else " (looking back)"
    banner = ("<p class=\"banner\" role=\"note\"><strong>Table view</strong>: every card and the seed are shown "
              "here, for designers; no player should see this page.</p>") if seat.table else ""
    seed = f" · seed {table.line.seed}" if seat.table else ""
    return (f"<header><h1>{name}</h1>{banner}<p class=\"who\">You are <strong>{escape(seat.name())}</strong> · "
            f"step {step} of {table.steps} · {where}{mode}{seed}</p></header>")


def _scrubber(table: Table, seat: Seat, step: int) -> str:
    """Step back and forth, jump to a step or a round's start."""
    n, base = table.steps, f"/s/{seat.token}"
    links = [f"<a href=\"{base}?at=0\" id=\"first\">first</a>",
             f"<a href=\"{base}?at={max(0, step - 1)}\" id=\"back\" aria-keyshortcuts=\"[\">back</a>",
             f"<a href=\"{base}?at={min(n, step + 1)}\" id=\"forward\" aria-keyshortcuts=\"]\">forward</a>",
             f"<a href=\"{base}\" id=\"now\">now</a>"]
    rounds = "".join(f"<option value=\"{k}\"{' selected' if k <= step else ''}>round {r}</option>"
                     for r, k in sorted(table.line.round_starts().items()) if r > 0)
    return (f"<nav class=\"time\" aria-label=\"time\">{' '.join(links)}"
            f"<form method=\"get\" action=\"{base}\" class=\"inline\"><label for=\"scrub\">step</label> "
            f"<input type=\"range\" id=\"scrub\" name=\"at\" min=\"0\" max=\"{n}\" value=\"{step}\">"
            f"<button type=\"submit\">go</button></form>"
            + (f"<form method=\"get\" action=\"{base}\" class=\"inline\"><label for=\"round\">jump to</label> "
               f"<select id=\"round\" name=\"at\">{rounds}</select><button type=\"submit\">jump</button></form>" if rounds else "")
            + "</nav>")


def _decision(table: Table, seat: Seat, st: Any, step: int, live: bool) -> str:
    """The seat's own options (priced), as buttons; else who is choosing."""
    dec = st.pending
    if dec is None:
        return ""
    view = table.view
    prompt = escape(view.prompt(dec.prompt))
    mine = seat.seat is not None and not seat.table and dec.player == seat.seat
    if not (mine and live and table.is_human(seat.seat)):
        thinking = " is choosing…" if live else " was to choose"
        return (f"<section id=\"decision\" aria-live=\"polite\"><h2>{escape(table.who(dec.player, seat.viewer))}"
                f"{thinking}</h2><p>{prompt}</p>{_values(table, step) if seat.table else ''}</section>")
    options = view.options(st, seat.seat)
    items = []
    for i, opt in enumerate(options):
        items.append(f"<li><button type=\"submit\" name=\"option\" value=\"{i}\" id=\"option-{i + 1}\">"
                     f"<span class=\"n\">{i + 1}.</span> {escape(str(opt[1]))}</button> "
                     f"<a href=\"/s/{seat.token}/help?option={i}\" aria-label=\"help on option {i + 1}\">?</a>"
                     f"{_option_cards(table, seat, str(opt[1]), i)}</li>")
    return (f"<section id=\"decision\"><h2>Your choice: {prompt}</h2>"
            f"<form method=\"post\" action=\"/s/{seat.token}/choose\"><input type=\"hidden\" name=\"at\" value=\"{step}\">"
            f"<ol class=\"options\">{''.join(items)}</ol></form>"
            f"<p class=\"help\"><a href=\"/s/{seat.token}/help?rules=1\">how to play</a> · "
            f"<a href=\"/s/{seat.token}/cards\">cards</a></p></section>")


def card_link(seat: Seat, card: str, name: str, label: str = "") -> str:
    """A link to ``card`` in the seat's card drawer, its text the card's name."""
    return (f"<a class=\"card\" href=\"/s/{seat.token}/cards#card-{escape(card)}\" "
            f"aria-label=\"{escape(label or name)}, in the card drawer\">{escape(name)}</a>")


def linked(table: Table, seat: Seat, text: str) -> str:
    """``text`` escaped, each card name in it a link to that card in the drawer
    (``Table.card_words``: made from the name shown, so a link tells nothing more)."""
    pattern, first = table.card_words()
    if pattern is None:
        return escape(text)
    out, at = [], 0
    for m in pattern.finditer(text):
        out += [escape(text[at:m.start()]), card_link(seat, first[m.group(1)], m.group(1))]
        at = m.end()
    return "".join(out) + escape(text[at:])


def _option_cards(table: Table, seat: Seat, label: str, i: int) -> str:
    """Beside an option, a link to each card its label names (a button holds no link)."""
    pattern, first = table.card_words()
    names = list(dict.fromkeys(pattern.findall(label))) if pattern is not None else []
    return "".join(f" {card_link(seat, first[n], n, f'{n} (option {i + 1})')}" for n in names)


def _values(table: Table, step: int) -> str:
    values = table.bot_values.get(step)
    if not values:
        return ""
    rows = "".join(f"<tr><td>{escape(str(label))}</td><td>{v:.3f}</td><td>{'' if n is None else n}</td></tr>"
                   for label, v, n in sorted(values, key=lambda x: -x[1]))
    return ("<table class=\"values\" id=\"bot-values\"><caption>what the bot's search gave each option</caption>"
            f"<thead><tr><th>option</th><th>value</th><th>visits</th></tr></thead><tbody>{rows}</tbody></table>")


def _narration(table: Table, viewer: Any, step: int) -> str:
    """What the choices since the viewer's own last one did, as the viewer saw them."""
    first = step - 1
    me = viewer if isinstance(viewer, int) else None
    while first > 0 and step - first < 30 and table.line.choices[first - 1][0] != me:
        first -= 1
    lines = []
    for k in range(max(0, first), step):
        lines += table.narration(k, viewer)
    if not lines:
        return ""
    return ("<section id=\"narration\" aria-label=\"what happened\"><h2>What happened</h2>"
            f"<pre>{escape(chr(10).join(lines))}</pre></section>")


def _scores(table: Table, st: Any) -> str:
    """The final scores in ranking order, the winners marked, each explained."""
    game = table.game
    winners = game.winners(st)
    lines = breakdown(game, st)
    rows = []
    for place, p in enumerate(st.ranking, 1):
        why = player_text(lines, p, table.view.lang) if lines is not None else ""
        rows.append(f"<tr><td>{place}</td><td>P{p + 1}</td><td>{st.scores[p]}</td>"
                    f"<td>{'winner' if p in winners else ''}</td><td>{escape(why)}</td></tr>")
    return ("<section id=\"scores\"><h2>Final scores</h2><table><thead><tr><th>place</th><th>player</th><th>score</th>"
            f"<th></th><th>made of</th></tr></thead><tbody>{''.join(rows)}</tbody></table></section>")


def _log(table: Table, viewer: Any, step: int) -> str:
    first = max(0, step - LOG_SHOWN)
    items = "".join(f"<li value=\"{k + 1}\">{escape(table.told(k, viewer))}</li>" for k in range(first, step))
    more = f"<p>{first} earlier choices: step back to see them.</p>" if first else ""
    return f"<section id=\"log\" aria-label=\"log\"><h2>Choices</h2>{more}<ol>{items}</ol></section>"


def _links(table: Table, seat: Seat, over: bool, step: int) -> str:
    """The other pages this one may open: the spectator's; every seat's from the table
    view; the log and a scenario once the game is over (they hold the seed), or in the
    table view."""
    out = []
    if seat.table:
        out += [f"<a href=\"/s/{s.token}?at={step}\">{escape(s.name())} here</a>" for s in table.seats.values() if s is not seat]
    elif seat.seat is not None:
        spectator = next(s for s in table.seats.values() if s.seat is None and not s.table)
        out.append(f"<a href=\"/s/{spectator.token}\">spectator</a>")
    if seat.table or over:
        out.append(f"<a href=\"/s/{seat.token}/log\" download=\"game.meeple-log.json\" id=\"download-log\">download the log</a>")
    if seat.table:
        out.append(f"<a href=\"/s/{seat.token}/scenario?at={step}\" id=\"scenario\" download=\"step-{step}.scenario.yaml\">"
                   "copy as scenario</a>")
        bots = ",".join(table.bot_names)        # a replay's: none, so the server's --bots
        out.append(f"<form method=\"post\" action=\"/s/{seat.token}/fork\" class=\"inline\"><input type=\"hidden\" "
                   f"name=\"at\" value=\"{step}\"><label for=\"fork-bots\">with bots</label> <input id=\"fork-bots\" "
                   f"name=\"bots\" value=\"{escape(bots)}\" maxlength=\"{MAX_BOTS_TEXT}\" placeholder=\"the server's --bots\"> "
                   f"<button type=\"submit\" id=\"fork\">fork from here (step {step})</button></form>")
    return "<nav class=\"seats\" aria-label=\"pages\">" + " · ".join(out) + "</nav>" if out else ""


def _table_board(table: Table, st: Any) -> str:
    """Every zone's cards, hidden ones too, and every variable: the table view only."""
    g, view = table.game, table.view
    v = g.vocab
    lines = [view.board(st, None)]
    lines.append("── everything, hidden too ──")
    for zi, z in enumerate(v.zone_defs):
        if z.of_card is not None:
            continue
        for p in (range(st.players) if z.per_player else [None]):
            cards = st.zones[v.zone_base[zi] + (p or 0)]
            if cards:
                who = "" if p is None else f"P{p + 1} "
                lines.append(view.wrap(f"  {who}{view.zone_name(z.name)} ({z.visibility}): {view.cards(cards, st)}", 6))
    hidden = [f"{name} = {st.gvars[i]}" for name, i in v.gvar_index.items() if name in g.observer.hidden_vars]
    hidden += [f"P{p + 1} {name} = {st.pvars[p * v.npvars + i]}" for p in range(st.players)
               for name, i in v.pvar_index.items() if name in g.observer.hidden_vars]
    if hidden:
        lines.append("  hidden variables: " + ", ".join(hidden))
    return "\n".join(lines)


def host_page(table: Table, base: str) -> str:
    """The links to hand out, one per seat (the person starting the server sees them)."""
    rows = []
    for s in table.seats.values():
        who = s.name() if s.seat is None else f"{s.name()} ({table.bot_names[s.seat] if table.bot_names else 'replay'})"
        rows.append(f"<li><a href=\"{base}/s/{s.token}\">{escape(who)}</a></li>")
    return _page(f"{table.game.pack.info.name.get()} · seats",
                 f"<h1>{escape(table.game.pack.info.name.get())}: the seats</h1>"
                 "<p>Give each player their own link: a link opens that seat's view only.</p>"
                 f"<ul>{''.join(rows)}</ul>")


def help_page(seat: Seat, title: str, text: str) -> str:
    return _page(title, f"<h1>{escape(title)}</h1><pre>{escape(text)}</pre><p><a href=\"/s/{seat.token}\">back to the table</a></p>")


def message_page(title: str, text: str, back: Optional[str] = None) -> str:
    link = f"<p><a href=\"{escape(back)}\">back</a></p>" if back else ""
    return _page(title, f"<h1>{escape(title)}</h1><p>{escape(text)}</p>{link}")
