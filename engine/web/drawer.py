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


from meeple.web.table import Seat, Table


def read_figures(path: str | Path) -> dict[str, list[str]]:
    """Each card's figures from a simulate JSON file, as lines to show: {card id: lines}."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    fair = 1 / max(1, int(data.get("players") or 1))
    out: dict[str, list[str]] = {}
    for kind, rows in (data.get("used") or {}).items():
        for r in rows:
            lo, hi = r.get("win_ci") or (0, 0)
            out.setdefault(r["card"], []).append(
                f"used {r['times']} times by {r['users']} players; their win rate {r['win_rate']:.0%} "
                f"(95% interval {lo:.0%}-{hi:.0%}; fair share {fair:.0%})")
    for where, rows in (data.get("cards") or {}).items():
        for r in rows:
            lo, hi = r.get("win_ci") or (0, 0)
            line = f"{where}: in {r['games']} games, win rate {r['win_rate']:.0%} ({lo:.0%}-{hi:.0%})"
            if "effect" in r:       # its effect on winning (meeple.workbench.tally.effect_on_winning)
                elo, ehi = r["effect_ci"]
                line += (f"; effect on winning {_points(r['effect'])} against the average of its zone "
                         f"(95% interval {_points(elo)} to {_points(ehi)})")
            else:
                line += "; no effect on winning in this file (made before simulate gave it: run it again)"
            out.setdefault(r["card"], []).append(line)
    return out


def _points(x: float) -> str:
    """A difference of win rates in percentage points, signed: '+3.1 pp'."""
    return f"{100 * x:+.1f} pp"


def drawer_page(table: Table, seat: Seat, figures: dict[str, list[str]]) -> str:
    """Every card once (by its definition), in the pack's order, with its texts and figures."""
    from meeple.authoring.cardtext import card_lines, lexicon
    from meeple.web.pages import _page
    pack, view = table.game.pack, table.view
    lex = lexicon(pack)
    entries = []
    for card in pack.cards:
        text = card.text.get(view.lang) if card.text is not None and card.text.by_locale else ""
        try:
            rules = card_lines(pack, card, view.lang, lex)
        except Exception:       # a phrase the renderer lacks: the drawer shows the rest
            rules = []
        shown = "".join(f"<li>{escape(x)}</li>" for x in figures.get(card.id, []))
        entries.append(f"<details><summary id=\"card-{escape(card.id)}\">{escape(card.names.get(view.lang))} "
                       f"<small>[{escape(card.id)}, {escape(card.kind)}]</small></summary>"
                       + (f"<p>{escape(text)}</p>" if text else "")
                       + (f"<pre class=\"rules\">{escape(chr(10).join(rules))}</pre>" if rules else "")
                       + (f"<ul class=\"figures\">{shown}</ul>" if shown else "") + "</details>")
    note = "" if figures else "<p>Start the server with --figures SIM.json (meeple simulate --format json) to see each card's figures.</p>"
    body = (f"<h1>{escape(pack.info.name.get())}: the cards</h1>{note}" + "\n".join(entries)
            + f"<p><a href=\"/s/{seat.token}\">back to the table</a></p>")
    return _page(f"{pack.info.name.get()} · cards", body)


