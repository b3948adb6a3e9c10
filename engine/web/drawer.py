"""The card drawer: every card of the pack with its printed text, the rules text made
from its rules (``meeple.authoring.cardtext``, as ``meeple cards`` shows it), and,
given the JSON of a ``meeple simulate --format json`` run, its figures: how often it
was used, its users' win rate with its interval, and in each zone the run followed its
holders' win rate and its effect on winning with their intervals (the figures of the
JSON, ``meeple.workbench.tally.effect_on_winning``; nothing is estimated here). A
card's text is public (the pack's card list); no state is read.
"""
from __future__ import annotations

import json
from html import escape
from pathlib import Path


from meeple.core.catalogue import say
from meeple.web.table import Seat, Table

Figure = tuple[str, dict[str, str]]      # what a line says ('used', 'zone', 'effect') and its values, written out


def read_figures(path: str | Path) -> dict[str, list[Figure]]:
    """Each card's figures from a simulate JSON file, as lines to show (``figure_text``
    says them in a language): {card id: lines}."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    fair = 1 / max(1, int(data.get("players") or 1))
    out: dict[str, list[Figure]] = {}
    for kind, rows in (data.get("used") or {}).items():
        for r in rows:
            lo, hi = r.get("win_ci") or (0, 0)
            out.setdefault(r["card"], []).append(("used", {
                "times": str(r["times"]), "users": str(r["users"]), "rate": f"{r['win_rate']:.0%}",
                "lo": f"{lo:.0%}", "hi": f"{hi:.0%}", "fair": f"{fair:.0%}"}))
    for where, rows in (data.get("cards") or {}).items():
        for r in rows:
            lo, hi = r.get("win_ci") or (0, 0)
            values = {"where": where, "games": str(r["games"]), "rate": f"{r['win_rate']:.0%}", "lo": f"{lo:.0%}", "hi": f"{hi:.0%}"}
            if "effect" in r:       # its effect on winning (meeple.workbench.tally.effect_on_winning)
                elo, ehi = r["effect_ci"]
                out.setdefault(r["card"], []).append(("effect", {**values, "effect": _points(r["effect"]),
                                                                 "elo": _points(elo), "ehi": _points(ehi)}))
            else:
                out.setdefault(r["card"], []).append(("zone", values))
    return out


def figure_text(figure: Figure, lang: str = "en") -> str:
    """A line of a card's figures in ``lang``."""
    kind, v = figure
    if kind == "used":
        return say("used {times} times by {users} players; their win rate {rate} (95% interval {lo}-{hi}; fair share {fair})",
                   lang, **v)
    line = say("{where}: in {games} games, win rate {rate} ({lo}-{hi})", lang, **v)
    if kind == "effect":
        return line + say("; effect on winning {effect} against the average of its zone (95% interval {elo} to {ehi})",
                          lang, **v)
    return line + say("; no effect on winning in this file (made before simulate gave it: run it again)", lang)


def _points(x: float) -> str:
    """A difference of win rates in percentage points, signed: '+3.1 pp'."""
    return f"{100 * x:+.1f} pp"


def drawer_page(table: Table, seat: Seat, figures: dict[str, list[Figure]], lang: str | None = None) -> str:
    """Every card once (by its definition), in the pack's order, with its texts and
    figures, in ``lang`` (None: the server's)."""
    from meeple.authoring.cardtext import card_lines, lexicon
    from meeple.web.pages import _page
    pack, view = table.game.pack, table.view_in(lang)
    lang = view.lang
    lex = lexicon(pack)
    entries = []
    for card in pack.cards:
        text = card.text.get(lang) if card.text is not None and card.text.by_locale else ""
        if text and lang not in dict(card.text.by_locale):        # the pack has it in English only: said so
            text = view.word("(this text is in English only)") + " " + text
        try:
            rules = card_lines(table.game, card, view.lang, lex)
        except Exception:       # a phrase the renderer lacks: the drawer shows the rest
            rules = []
        shown = "".join(f"<li>{escape(figure_text(x, lang))}</li>" for x in figures.get(card.id, []))
        entries.append(f"<details><summary id=\"card-{escape(card.id)}\">{escape(card.names.get(lang))} "
                       f"<small>[{escape(card.id)}, {escape(view.pack_word(card.kind))}]</small></summary>"
                       + (f"<p>{escape(text)}</p>" if text else "")
                       + (f"<pre class=\"rules\">{escape(chr(10).join(rules))}</pre>" if rules else "")
                       + (f"<ul class=\"figures\">{shown}</ul>" if shown else "") + "</details>")
    note = "" if figures else "<p>" + escape(say("Start the server with --figures SIM.json (meeple simulate --format json) "
                                                  "to see each card's figures.", lang)) + "</p>"
    name = pack.info.name.get(lang)
    body = (f"<h1>{escape(say('{name}: the cards', lang, name=name))}</h1>{note}" + "\n".join(entries)
            + f"<p><a href=\"/s/{seat.token}\">{say('back to the table', lang)}</a></p>")
    return _page(say("{name} · cards", lang, name=name), body, lang=lang)


