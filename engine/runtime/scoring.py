"""The final score explained: what each part of the final scoring gave each player.

A pack's ``flow.scoring`` is one text or a list of parts (``- part: ID, name:
{en, ja}, effect: TEXT``), run in order. The rules take each player's score as the
scoring begins and as each part ends (``State.breakdown``, kept by
``meeple.runtime.flow``), so a line of the breakdown is what that part's own rules
did, never a second copy of them: the score before the scoring, told rule by rule
(each change of the score a rule made during play is noted with the rule, ``State.scored``:
an action 12, a card's hook -2; what no rule gave is "during play"), then each part's
change; together they are the final score.

The breakdown is kept with the state that played the game (and made again by a
replay); a state read back from JSON has none, and ``breakdown`` is then None.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from meeple.core.catalogue import names as message_names

# what the score was before the final scoring, in the view's languages (meeple.core.catalogue)
DURING_PLAY = message_names("during play")


@dataclass(frozen=True)
class ScoreLine:
    """One line of the breakdown: a part (``during_play`` for what was scored before the
    final scoring) and what it gave each player, by seat."""

    part: str
    names: dict
    points: tuple[int, ...]

    def name(self, lang: str = "en") -> str:
        return self.names.get(lang) or self.names.get("en") or self.part


def breakdown(game, st) -> Optional[list[ScoreLine]]:
    """Each part of the final scoring and what it gave each player, the score before it
    first; None before the end or when the state does not hold it (read from JSON)."""
    parts = game.defn.scoring
    snaps = st.breakdown
    if not st.over or len(snaps) != len(parts) + 1:
        return None
    lines = during_play(game, st, snaps[0])
    for k, part in enumerate(parts):
        names = dict(part.names.by_locale) if part.names is not None else message_names("final scoring")
        lines.append(ScoreLine(part.id, names, tuple(b - a for a, b in zip(snaps[k], snaps[k + 1]))))
    return lines


def during_play(game, st, before: tuple[int, ...]) -> list[ScoreLine]:
    """What made the score before the final scoring, rule by rule (``State.scored``: each rule's
    changes of it, in the order made), a rule's lines merged; what no rule gave (a starting
    score) is 'during play'. The lines add up to ``before``, each player's score then."""
    made: dict[str, list[int]] = {}
    for (rule, p), change in (st.played if st.played is not None else st.scored).items():
        made.setdefault(rule, [0] * st.players)[p] += change
    lines = [ScoreLine(rule, _rule_names(game, rule), tuple(points)) for rule, points in made.items() if any(points)]
    rest = tuple(b - sum(ln.points[p] for ln in lines) for p, b in enumerate(before))
    if any(rest) or not lines:
        lines.insert(0, ScoreLine("during_play", DURING_PLAY, rest))
    return lines


def _rule_names(game, rule: str) -> dict:
    """A rule as players know it, by language: an action's or a procedure's name (a procedure
    with none: its id as words, or the pack's ``view: words`` for them), a card's name for its
    hook or handler ('plague.effect': Plague), else the rule as the generator named it."""
    g = game.pack.game
    kind, _, rest = rule.partition(" ")
    if kind == "action":
        for a in g.actions:
            if a.id == rest:
                return dict(a.names.by_locale)
    if kind == "procedure":
        for proc in g.procedures:
            if proc.name == rest and proc.names is not None:
                return dict(proc.names.by_locale)
        words = rest.replace("_", " ")
        for text, names, _ in g.view.words:
            if text in (rest, words):
                return {"en": words, **dict(names.by_locale)}
        return {"en": words}
    card, dot, _ = rule.partition(".")
    if dot and " " not in rule:
        for c in game.pack.cards:
            if c.id == card:
                return dict(c.names.by_locale)
    return {"en": rule}


def view_data(game, st) -> Optional[list[dict]]:
    """The breakdown as a view gives it (all public at the end): [{part, name, points: {P1: n}}]."""
    lines = breakdown(game, st)
    if lines is None:
        return None
    return [{"part": ln.part, "name": ln.names, "points": {f"P{p + 1}": n for p, n in enumerate(ln.points)}} for ln in lines]


def player_text(lines: list[ScoreLine], p: int, lang: str = "en") -> str:
    """'buildings 27 + first to finish 4': the parts that gave player ``p`` something, in
    order, a loss after the first as '- unfinished 4'; '' when nothing did."""
    text = ""
    for ln in lines:
        n = ln.points[p]
        if not n:
            continue
        if not text:
            text = f"{ln.name(lang)} {n}"
        else:
            text += f" + {ln.name(lang)} {n}" if n > 0 else f" - {ln.name(lang)} {-n}"
    return text
