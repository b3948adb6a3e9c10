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

from meeple.core.catalogue import LANGUAGES, OWN_NAMES, say
from meeple.runtime.scoring import breakdown, player_text
from meeple.web.server import MAX_BOTS_TEXT
from meeple.web.table import Seat, Table

LOG_SHOWN = 60          # the log pane's last choices (older ones: step back)


def _page(title: str, body: str, attrs: str = "", lang: str = "en") -> str:
    return (f"<!doctype html>\n<html lang=\"{escape(lang)}\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{escape(title)}</title><link rel=\"stylesheet\" href=\"/static/meeple.css\"></head>\n"
            f"<body{attrs}>\n{body}\n<script src=\"/static/meeple.js\"></script></body></html>\n")


def seat_page(table: Table, seat: Seat, step: Optional[int] = None, note: str = "", lang: Optional[str] = None) -> str:
    """The page of ``seat`` at ``step`` (None: now) in ``lang`` (None: the server's):
    board, choice, narration, scores, log, time."""
    viewer, view = seat.viewer, table.view_in(lang)
    lang = view.lang
    with table.lock:        # the state and the version it is at, together (a bot may move meanwhile)
        version, over = table.version, table.st.over
        step = table.steps if step is None else step
        st = table.state_at(step)
        live = step == table.steps
    game = table.game
    parts = [_header(table, seat, st, step, live, lang)]
    if table.error:
        stopped, why = table.error
        said = say("P{n}'s bot stopped: {reason}", lang, n=stopped + 1, reason=why)
        parts.append(f"<p class=\"error\" role=\"alert\">{escape(said)}</p>")
    if note:
        parts.append(f"<p class=\"note\" role=\"status\">{escape(note)}</p>")
    parts.append(_scrubber(table, seat, step, lang))
    parts.append(_decision(table, seat, st, step, live, lang))
    board = _table_board(table, st, lang) if seat.table else view.board(st, viewer)
    parts.append(f"<section id=\"board\" aria-label=\"{say('board', lang)}\"><h2>{say('Board', lang)}</h2>"
                 f"<pre>{linked(table, seat, board, lang)}</pre></section>")
    parts.append(_narration(table, viewer, step, lang))
    if st.over:
        parts.append(_scores(table, st, lang))
    parts.append(_log(table, viewer, step, lang))
    parts.append(_links(table, seat, over, step, lang))
    attrs = (f" data-version=\"{version}\" data-live=\"{int(live)}\" data-step=\"{step}\" data-steps=\"{table.steps}\""
             f" data-token=\"{escape(seat.token)}\"")
    return _page(f"{game.pack.info.name.get(lang)} · {seat.name(lang)}", "\n".join(parts), attrs, lang)


def _header(table: Table, seat: Seat, st: Any, step: int, live: bool, lang: str) -> str:
    name = escape(table.game.pack.info.name.get(lang))
    where = say("the end", lang) if st.over else say("round {n}", lang, n=st.round)
    mode = "" if live else say(" (looking back)", lang)
    banner = (f"<p class=\"banner\" role=\"note\"><strong>{say('Table view', lang)}</strong>"
              + escape(say(": every card and the seed are shown here, for designers; no player should see this page.", lang))
              + "</p>") if seat.table else ""
    seed = " · " + say("seed {seed}", lang, seed=table.line.seed) if seat.table else ""
    at = say("step {step} of {steps}", lang, step=step, steps=table.steps)
    who = say("You are {who}", lang, who=f"<strong>{escape(seat.name(lang))}</strong>")
    return (f"<header><h1>{name}</h1>{banner}<p class=\"who\">{who} · "
            f"{escape(at)} · {escape(where)}{escape(mode)}{escape(seed)}</p>{_languages(seat, step, lang)}</header>")


def _languages(seat: Seat, step: int, lang: str) -> str:
    """Links to this page in each other language meeple speaks (``?lang=``), each named
    in its own language."""
    others = [other for other in LANGUAGES if other != lang]
    links = [f"<a href=\"/s/{seat.token}?at={step}&amp;lang={other}\" hreflang=\"{other}\" lang=\"{other}\">"
             f"{escape(OWN_NAMES[other])}</a>" for other in others]
    return f"<nav class=\"lang\" aria-label=\"{escape(say('language', lang))}\">{' · '.join(links)}</nav>"


def _scrubber(table: Table, seat: Seat, step: int, lang: str) -> str:
    """Step back and forth, jump to a step or a round's start."""
    n, base = table.steps, f"/s/{seat.token}"
    links = [f"<a href=\"{base}?at=0\" id=\"first\">{say('first', lang)}</a>",
             f"<a href=\"{base}?at={max(0, step - 1)}\" id=\"back\" aria-keyshortcuts=\"[\">{say('back', lang)}</a>",
             f"<a href=\"{base}?at={min(n, step + 1)}\" id=\"forward\" aria-keyshortcuts=\"]\">{say('forward', lang)}</a>",
             f"<a href=\"{base}\" id=\"now\">{say('now', lang)}</a>"]
    rounds = "".join(f"<option value=\"{k}\"{' selected' if k <= step else ''}>{escape(say('round {n}', lang, n=r))}</option>"
                     for r, k in sorted(table.line.round_starts().items()) if r > 0)
    return (f"<nav class=\"time\" aria-label=\"{say('time', lang)}\">{' '.join(links)}"
            f"<form method=\"get\" action=\"{base}\" class=\"inline\"><label for=\"scrub\">{say('step', lang)}</label> "
            f"<input type=\"range\" id=\"scrub\" name=\"at\" min=\"0\" max=\"{n}\" value=\"{step}\">"
            f"<button type=\"submit\">{say('go', lang)}</button></form>"
            + (f"<form method=\"get\" action=\"{base}\" class=\"inline\"><label for=\"round\">{say('jump to', lang)}</label> "
               f"<select id=\"round\" name=\"at\">{rounds}</select><button type=\"submit\">{say('jump', lang)}</button></form>"
               if rounds else "")
            + "</nav>")


def _decision(table: Table, seat: Seat, st: Any, step: int, live: bool, lang: str) -> str:
    """The seat's own options (priced), as buttons; else who is choosing."""
    dec = st.pending
    if dec is None:
        return ""
    view = table.view_in(lang)
    prompt = escape(view.prompt(dec.prompt))
    mine = seat.seat is not None and not seat.table and dec.player == seat.seat
    if not (mine and live and table.is_human(seat.seat)):
        who = table.who(dec.player, seat.viewer, lang)
        thinking = say("{who} is choosing…", lang, who=who) if live else say("{who} was to choose", lang, who=who)
        return (f"<section id=\"decision\" aria-live=\"polite\"><h2>{escape(thinking)}</h2>"
                f"<p>{prompt}</p>{_values(table, step, lang) if seat.table else ''}</section>")
    options = view.options(st, seat.seat)
    items = []
    for i, opt in enumerate(options):
        items.append(f"<li><button type=\"submit\" name=\"option\" value=\"{i}\" id=\"option-{i + 1}\">"
                     f"<span class=\"n\">{i + 1}.</span> {escape(str(opt[1]))}</button> "
                     f"<a href=\"/s/{seat.token}/help?option={i}\" aria-label=\"{escape(say('help on option {n}', lang, n=i + 1))}\">?</a>"
                     f"{_option_cards(table, seat, str(opt[1]), i, lang)}</li>")
    drawer = say("drawer\x04cards", lang)
    # back to the action menu, offered while the seat's action is under way and nothing random or hidden is out
    undo = "" if table.why_no_undo(seat.seat, lang) is not None else (
        f"<form method=\"post\" action=\"/s/{seat.token}/undo\" class=\"inline\"><input type=\"hidden\" name=\"at\" "
        f"value=\"{step}\"><button type=\"submit\" id=\"undo\">{escape(say('undo: back to the action menu', lang))}</button></form>")
    return (f"<section id=\"decision\"><h2>{escape(say('Your choice: {prompt}', lang, prompt=view.prompt(dec.prompt)))}</h2>"
            f"<form method=\"post\" action=\"/s/{seat.token}/choose\"><input type=\"hidden\" name=\"at\" value=\"{step}\">"
            f"<ol class=\"options\">{''.join(items)}</ol></form>{undo}"
            f"<p class=\"help\"><a href=\"/s/{seat.token}/help?rules=1\">{say('how to play', lang)}</a> · "
            f"<a href=\"/s/{seat.token}/cards\">{drawer}</a></p></section>")


def card_link(seat: Seat, card: str, name: str, label: str = "", lang: str = "en") -> str:
    """A link to ``card`` in the seat's card drawer, its text the card's name."""
    return (f"<a class=\"card\" href=\"/s/{seat.token}/cards#card-{escape(card)}\" "
            f"aria-label=\"{escape(say('{name}, in the card drawer', lang, name=label or name))}\">{escape(name)}</a>")


def linked(table: Table, seat: Seat, text: str, lang: Optional[str] = None) -> str:
    """``text`` escaped, each card name in it a link to that card in the drawer
    (``Table.card_words``: made from the name shown, so a link tells nothing more)."""
    lang = table.view_in(lang).lang
    pattern, first = table.card_words(lang)
    if pattern is None:
        return escape(text)
    out, at = [], 0
    for m in pattern.finditer(text):
        out += [escape(text[at:m.start()]), card_link(seat, first[m.group(1)], m.group(1), lang=lang)]
        at = m.end()
    return "".join(out) + escape(text[at:])


def _option_cards(table: Table, seat: Seat, label: str, i: int, lang: str) -> str:
    """Beside an option, a link to each card its label names (a button holds no link)."""
    pattern, first = table.card_words(lang)
    names = list(dict.fromkeys(pattern.findall(label))) if pattern is not None else []
    return "".join(f" {card_link(seat, first[n], n, say('{name} (option {n})', lang, name=n, n=i + 1), lang)}" for n in names)


def _values(table: Table, step: int, lang: str) -> str:
    values = table.bot_values.get(step)
    if not values:
        return ""
    view = table.view_in(lang)
    rows = "".join(f"<tr><td>{escape(view.pack_word(str(label)))}</td><td>{v:.3f}</td><td>{'' if n is None else n}</td></tr>"
                   for label, v, n in sorted(values, key=lambda x: -x[1]))
    caption = say("what the bot's search gave each option", lang)
    return (f"<table class=\"values\" id=\"bot-values\"><caption>{escape(caption)}</caption>"
            f"<thead><tr><th>{say('option', lang)}</th><th>{say('value', lang)}</th><th>{say('visits', lang)}</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>")


def _narration(table: Table, viewer: Any, step: int, lang: str) -> str:
    """What the choices since the viewer's own last one did, as the viewer saw them."""
    first = step - 1
    me = viewer if isinstance(viewer, int) else None
    while first > 0 and step - first < 30 and table.line.choices[first - 1][0] != me:
        first -= 1
    lines = []
    for k in range(max(0, first), step):
        lines += table.narration(k, viewer, lang)
    if not lines:
        return ""
    return (f"<section id=\"narration\" aria-label=\"{say('what happened', lang)}\"><h2>{say('What happened', lang)}</h2>"
            f"<pre>{escape(chr(10).join(lines))}</pre></section>")


def _scores(table: Table, st: Any, lang: str) -> str:
    """The final scores in ranking order, the winners marked, each explained."""
    game = table.game
    winners = game.winners(st)
    lines = breakdown(game, st)
    rows = []
    for place, p in enumerate(st.ranking, 1):
        why = player_text(lines, p, lang) if lines is not None else ""
        rows.append(f"<tr><td>{place}</td><td>P{p + 1}</td><td>{st.scores[p]}</td>"
                    f"<td>{say('winner', lang) if p in winners else ''}</td><td>{escape(why)}</td></tr>")
    heads = "".join(f"<th>{h}</th>" for h in (say("place", lang), say("player", lang), say("score", lang), "",
                                                 say("made of", lang)))
    return (f"<section id=\"scores\"><h2>{say('Final scores', lang)}</h2><table><thead><tr>{heads}"
            f"</tr></thead><tbody>{''.join(rows)}</tbody></table></section>")


def _log(table: Table, viewer: Any, step: int, lang: str) -> str:
    first = max(0, step - LOG_SHOWN)
    items = "".join(f"<li value=\"{k + 1}\">{escape(table.told(k, viewer, lang))}</li>" for k in range(first, step))
    more = f"<p>{escape(say('{n} earlier choices: step back to see them.', lang, n=first))}</p>" if first else ""
    return f"<section id=\"log\" aria-label=\"{say('log', lang)}\"><h2>{say('Choices', lang)}</h2>{more}<ol>{items}</ol></section>"


def _links(table: Table, seat: Seat, over: bool, step: int, lang: str) -> str:
    """The other pages this one may open: the spectator's; every seat's from the table
    view; the log and a scenario once the game is over (they hold the seed), or in the
    table view."""
    out = []
    if seat.table:
        out += [f"<a href=\"/s/{s.token}?at={step}\">{escape(say('{who} here', lang, who=s.name(lang)))}</a>"
                for s in table.seats.values() if s is not seat]
    elif seat.seat is not None:
        spectator = next(s for s in table.seats.values() if s.seat is None and not s.table)
        out.append(f"<a href=\"/s/{spectator.token}\">{say('spectator', lang)}</a>")
    if seat.table or over:
        out.append(f"<a href=\"/s/{seat.token}/log\" download=\"game.meeple-log.json\" id=\"download-log\">"
                   f"{say('download the log', lang)}</a>")
    if seat.table:
        out.append(f"<a href=\"/s/{seat.token}/scenario?at={step}\" id=\"scenario\" download=\"step-{step}.scenario.yaml\">"
                   f"{say('copy as scenario', lang)}</a>")
        bots = ",".join(table.bot_names)        # a replay's: none, so the server's --bots
        placeholder = escape(say("the server's --bots", lang))
        out.append(f"<form method=\"post\" action=\"/s/{seat.token}/fork\" class=\"inline\"><input type=\"hidden\" "
                   f"name=\"at\" value=\"{step}\"><label for=\"fork-bots\">{say('with bots', lang)}</label> <input id=\"fork-bots\" "
                   f"name=\"bots\" value=\"{escape(bots)}\" maxlength=\"{MAX_BOTS_TEXT}\" placeholder=\"{placeholder}\"> "
                   f"<button type=\"submit\" id=\"fork\">{escape(say('fork from here (step {step})', lang, step=step))}</button></form>")
    return f"<nav class=\"seats\" aria-label=\"{say('pages', lang)}\">" + " · ".join(out) + "</nav>" if out else ""


def _table_board(table: Table, st: Any, lang: str) -> str:
    """Every zone's cards, hidden ones too, and every variable: the table view only."""
    g, view = table.game, table.view_in(lang)
    v = g.vocab
    lines = [view.board(st, None)]
    lines.append(say("── everything, hidden too ──", lang))
    for zi, z in enumerate(v.zone_defs):
        if z.of_card is not None:
            continue
        for p in (range(st.players) if z.per_player else [None]):
            cards = st.zones[v.zone_base[zi] + (p or 0)]
            if cards:
                who = "" if p is None else f"P{p + 1} "
                lines.append(view.wrap(f"  {who}{view.zone_name(z.name)} ({_visibility(z.visibility, lang)}): {view.cards(cards, st)}", 6))
    none = say("none", lang)
    hidden = [f"{view.var_name(name)} = {view.value(st.gvars[i], v.gvar_types[i]) or none}"
              for name, i in v.gvar_index.items() if name in g.observer.hidden_vars]
    hidden += [f"P{p + 1} {view.var_name(name)} = {view.value(st.pvars[p * v.npvars + i], v.pvar_types[i]) or none}"
               for p in range(st.players) for name, i in v.pvar_index.items() if name in g.observer.hidden_vars]
    if hidden:
        lines.append(say("  hidden variables: ", lang) + ", ".join(hidden))
    return "\n".join(lines)


def _visibility(visibility: str, lang: str) -> str:
    """A zone's visibility as the table view names it."""
    words = {"public": say("public", lang), "owner": say("owner", lang), "nobody": say("nobody", lang)}
    return words.get(visibility, visibility)


def host_page(table: Table, base: str, lang: Optional[str] = None) -> str:
    """The links to hand out, one per seat (the person starting the server sees them)."""
    view = table.view_in(lang)
    lang, name = view.lang, table.game.pack.info.name.get(view.lang)
    give = say("Give each player their own link: a link opens that seat's view only.", lang)
    rows = []
    for s in table.seats.values():
        bot = view.word(table.bot_names[s.seat]) if s.seat is not None and table.bot_names else say("replay", lang)
        who = s.name(lang) if s.seat is None else f"{s.name(lang)} ({bot})"
        rows.append(f"<li><a href=\"{base}/s/{s.token}\">{escape(who)}</a></li>")
    return _page(say("{name} · seats", lang, name=name),
                 f"<h1>{escape(say('{name}: the seats', lang, name=name))}</h1>"
                 f"<p>{escape(give)}</p>"
                 f"<ul>{''.join(rows)}</ul>", lang=lang)


def help_page(seat: Seat, title: str, text: str, lang: str = "en") -> str:
    return _page(title, f"<h1>{escape(title)}</h1><pre>{escape(text)}</pre>"
                 f"<p><a href=\"/s/{seat.token}\">{say('back to the table', lang)}</a></p>", lang=lang)


def message_page(title: str, text: str, back: Optional[str] = None, lang: str = "en") -> str:
    """A page saying one thing (a refusal, a page not found): ``title`` and ``text``
    already in ``lang``."""
    link = f"<p><a href=\"{escape(back)}\">{say('back', lang)}</a></p>" if back else ""
    return _page(title, f"<h1>{escape(title)}</h1><p>{escape(text)}</p>{link}", lang=lang)
