"""A comparison as text, leading with the answer.

A designer who changed a card asks first what the change did. So the text
says, in this order: what was compared (the packs, every changed value as
``meeple diff`` lists it, a value that follows another marked as derived, the
games); the answer (the differences significant after the correction, then
the suggestive ones, labelled and not counted); the direct effects of every
changed card (how often it reached play, by seat, and how its holders did,
before and after); then the other figures, clearest first. The JSON output
has the same sections in the same order, and so has the HTML report
(``meeple.workbench.report``).

Numbers read the same everywhere: a rate is a percentage with one decimal, a
difference of rates is in percentage points ("pp") and so is its interval;
points and rounds have two decimals, their intervals the same. A figure's
name is never cut: the columns are as wide as the longest name shown.
"""
from __future__ import annotations

from typing import Any, Optional

RATE = "win share"          # the unit of a rate, as compare's metrics name it
RATES = (RATE, "share")     # and of the other fractions (forced decisions, decided at): percentages too
SHORT = 10                  # other figures shown without --full
SUGGESTIVE = 3              # suggestive ones shown without --full (the clearest): the direct effects stay near the top


def rate(x: Optional[float]) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def value(x: float, unit: str) -> str:
    """A figure in its unit: a rate as a percentage, anything else to 2 decimals."""
    return rate(x) if unit in RATES else f"{x:.2f}"


def difference(x: float, unit: str) -> str:
    """A difference, without its unit: its interval, which follows it, names it."""
    return f"{100 * x:+.1f}" if unit in RATES else f"{x:+.2f}"


def unit_of_difference(unit: str) -> str:
    """What a difference is counted in: percentage points for rates, else the unit."""
    return "pp" if unit in RATES else unit


def interval(ci: list, unit: str) -> str:
    """An interval in its estimate's unit: percentage points for rates."""
    text = f"[{difference(ci[0], unit)}, {difference(ci[1], unit)}]"
    named = unit_of_difference(unit)
    return f"{text} {named}" if named else text


def _pack(side: dict) -> str:
    name = side.get("id") or side["pack"]
    version = f" {side['version']}" if side.get("version") else ""
    sets = "".join(f" --set {s}" for s in side.get("sets", ()))
    where = f" ({side['pack']})" if side.get("id") and side["pack"] != side["id"] else ""
    return f"{name}{version}{where}{sets}"


def header(c: dict) -> list[str]:
    lines = []
    if c.get("interrupted"):
        lines.append(f"interrupted: {c['games']} of {c['games_requested']} pairs of games finished (partial figures)")
    lines.append(f"compared: {_pack(c['base'])} -> {_pack(c['variant'])}")
    seconds = f", {c['seconds']:.1f} s" if c.get("seconds") is not None else ""
    lines.append(f"{c['games']} paired games, {c['players']} players, bots {c['bots']}, seed {c['seed']} "
                 f"(game i starts alike on both sides){seconds}")
    return lines


def changes(c: dict) -> list[str]:
    """Every changed value, one line each; cards added or removed, one line per verb."""
    found = c.get("changes")
    if found is None:
        return []
    if not found:
        return ["changed: nothing (the two packs' cards and rules are the same)"]
    lines = ["changed (as meeple diff lists them):"]
    whole: dict[str, list[str]] = {}
    for ch in found:
        if ch["what"] == "card" and ch["key"] is None:
            whole.setdefault(f"cards {ch['change']}", []).append(f"{ch['kind']} {ch['id']}")
        elif ch["what"] == "card":
            derived = f" (derived: follows {ch['derived_from']})" if ch.get("derived_from") else ""
            lines.append(f"  {ch['kind']} {ch['id']}: {ch['key']} {_short(ch['from'])} -> {_short(ch['to'])}{derived}")
        elif ch["key"] is None and ch["from"] is None:
            whole.setdefault(f"rules {ch['change']}", []).append(ch["id"])
        else:
            lines.append(f"  {ch['id']}: {_short(ch['from'])} -> {_short(ch['to'])}")
    for verb, names in whole.items():
        lines.append(f"  {verb}: " + ", ".join(names))
    return lines


def _short(x: Any, width: int = 40) -> str:
    text = " ".join(str(x).split())
    return text if len(text) <= width else text[:width - 3] + "..."


def _row(m: dict, width: int) -> str:
    unit = m.get("unit", "")
    return (f"  {m['metric']:<{width}}  {value(m['base'], unit):>8} -> {value(m['variant'], unit):<8}"
            f"  {difference(m['difference'], unit):>9} {interval(m['ci'], unit)}")


def headline(c: dict, full: bool = True) -> list[str]:
    """The significant differences, then the suggestive ones (without ``full``, only the
    clearest few of those, saying how many more there are)."""
    h = c["headline"]
    by_name = {m["metric"]: m for m in c["metrics"]}
    rows = [by_name[n] for n in h["significant"] + h["suggestive"]]
    width = max((len(m["metric"]) for m in rows), default=0)
    how = (f"95% intervals, Benjamini-Hochberg over {h['figures']} figures, false discovery rate 5%")
    n = len(h["significant"])
    if n:
        lines = [f"answer: {n} difference{'s are' if n > 1 else ' is'} significant ({how}):"]
        lines += [_row(by_name[name], width) for name in h["significant"]]
    else:
        lines = [f"answer: no difference is significant ({how})"]
    k = len(h["suggestive"])
    if k:
        shown = h["suggestive"] if full else h["suggestive"][:SUGGESTIVE]
        which = "" if len(shown) == k else f" (the {len(shown)} clearest; --full lists all)"
        lines.append(f"suggestive, not counted: {k} more interval{'s leave' if k > 1 else ' leaves'} out 0 before the "
                     f"correction; among {h['figures']} figures about {h['by_chance']:g} would by chance{which}:")
        lines += [_row(by_name[name], width) for name in shown]
    return lines


def _seats(by_seat: dict) -> str:
    return "/".join(str(v) for v in by_seat.values()) if by_seat else "0"


def direct(c: dict) -> list[str]:
    """A card's lines: per zone it reached, how many player-games held it and by which
    seat, and how its holders did; then how often it was used. The cards whose values
    changed come first, then those added or removed; a card in play in neither run
    is one line."""
    effects = sorted(c.get("direct") or [], key=lambda e: not e.get("changed", True))
    if not effects:
        return []
    lines = ["direct effects of the changed cards (before -> after):"]
    seats = "/".join(f"P{p + 1}" for p in range(c["players"]))
    for e in effects:
        name = f"{e['card']} ({e['kind']})"
        zones = [z for z in e["zones"] if z["base"]["players"] or z["variant"]["players"]]
        if not zones and not e["used"]:
            lines.append(f"  {name}: in play in neither run")
            continue
        for z in zones:
            a, b = z["base"], z["variant"]
            na, nb = z["player_games"]
            lines.append(f"  {name} in {z['zone'].split(' in ', 1)[1]}: {a['players']} of {na} player-games "
                         f"({rate(a['players'] / na if na else 0)}) -> {b['players']} of {nb} ({rate(b['players'] / nb if nb else 0)})")
            d = z.get("win_rate_difference")
            tail = (f", {difference(d['difference'], RATE)} {interval(d['ci'], RATE)}" + (" (significant)" if d["significant"] else "")
                    if d else " (no interval: fewer than 5 holders on a side)")
            lines.append(f"    by seat {seats} {_seats(a['by_seat'])} -> {_seats(b['by_seat'])}; "
                         f"its holders win {rate(a['win_rate'])} -> {rate(b['win_rate'])}{tail}")
        u = e["used"]
        if u:
            a, b = u["base"], u["variant"]
            lines.append(f"  {name} used: {a['times']} times -> {b['times']}, by seat {_seats(a['by_seat'])} -> "
                         f"{_seats(b['by_seat'])}; its users win {rate(a['win_rate'])} -> {rate(b['win_rate'])}")
    return lines


def others(c: dict, full: bool) -> list[str]:
    h = c["headline"]
    told = set(h["significant"]) | set(h["suggestive"])
    for e in c.get("direct") or ():                  # a changed card's win rate is told with its direct effects
        told |= {z["win_rate_difference"]["metric"] for z in e["zones"] if z.get("win_rate_difference")}
    rest = [m for m in c["metrics"] if m["metric"] not in told]
    if not rest:
        return []
    shown = rest if full else rest[:SHORT]
    width = max(len(m["metric"]) for m in shown)
    more = "" if full or len(rest) <= SHORT else f"; --full lists all {len(rest)}"
    lines = [f"other figures, clearest first ({len(shown)} of {len(rest)}{more}):"]
    lines += [_row(m, width) for m in shown]
    return lines


def format_text(c: dict, full: bool = False) -> str:
    """The comparison as text: header, changes, answer, direct effects, then the other
    figures (the first few; all of them with ``full``)."""
    sections = [header(c) + changes(c), headline(c, full), direct(c), others(c, full)]
    return "\n\n".join("\n".join(s) for s in sections if s)
