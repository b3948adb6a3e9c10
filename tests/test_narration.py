"""What each rule did, as meeple play tells it (engine/play/narration.py, the rules
followed by engine/runtime/causes.py): the named steps of the three games, the cards
shown only for a moment, and never a card or value the seat cannot see."""
from __future__ import annotations

import random
import re

import pytest

from golden_games import game_of
from meeple.core.errors import Refusal
from meeple.loading.folders import shipped_packs
from meeple.play.narration import Narrator
from meeple.play.terminal import TerminalView
from meeple.runtime.causes import RuleCauses


def narrate(pack: str, players: int, seed: int, until, viewers=(0,), lang: str = "en") -> tuple:
    """A seeded random game told to ``viewers`` until ``until(st)``: (narrator, state)."""
    g = game_of(pack)
    nar = Narrator(TerminalView(g, width=100, lang=lang), list(viewers))
    st = g.new_state(players, seed)
    rng = random.Random(seed)
    while not st.over and not until(st):
        i = rng.randrange(len(st.pending.options))
        nar.apply(st, lambda: g.apply(st, i))
    return nar, st


@pytest.mark.parametrize("pack", shipped_packs())
def test_every_generated_statement_belongs_to_a_rule(pack):
    # a line of the generated rules whose statement maps to no code unit would be told under the wrong name
    causes = RuleCauses(game_of(pack))
    assert causes.lines and None not in causes.line_units


def test_troyes_tells_the_round_phases_each_under_its_name():
    nar, _ = narrate("troyes", 2, 1, lambda st: st.round == 2)
    lines = nar.take(0)
    titles = [line.split(":")[0].strip() for line in lines if not line.startswith("      ")]
    start = titles.index("Activity cards revealed", titles.index("End of the round"))
    assert titles[start:start + 8] == ["Activity cards revealed", "Income", "Wages", "Workforce", "Events",
                                       "Black dice", "Plague", "Tithe"]
    assert "  Income: P1 deniers +10; P2 deniers +10" in lines
    assert "  Wages: P1 deniers -7; P2 deniers -6" in lines
    assert "  Plague: P1 deniers -3; P2 deniers -3" in lines
    assert nar.take(0) == []        # told once


def test_japanese_titles_come_from_the_packs_names():
    nar, _ = narrate("troyes", 2, 1, lambda st: st.round == 1, lang="ja")
    lines = nar.take(0)
    assert "  収入: P1 ドゥニエ +10; P2 ドゥニエ +10" in lines and any(line.startswith("  準備: ") for line in lines)


def test_citadels_shows_each_character_as_it_is_called_and_the_murdered_ones_holder_at_the_round_end():
    shown = 0
    for seed in range(1, 30):
        nar, st = narrate("citadels", 4, seed, lambda st: st.round == 4, viewers=(0,))
        text = "\n".join(nar.take(0))
        # every character revealed in a round was told as it was called
        assert text.count("A character is called: ") >= 4 * 3
        shown += text.count("The murdered character is shown: ")
    assert shown >= 3
    # P2 learns who held the murdered King (P1), and no more: P1's pick was hidden until then
    nar, st = narrate("citadels", 4, 3, lambda st: st.round == 3, viewers=(1,))
    lines = nar.take(1)
    murdered = [line for line in lines if line.startswith("  The murdered character is shown: ")]
    assert murdered == ["  The murdered character is shown: P1 chosen character -1 hidden, characters revealed +King (rank 4)"]


def test_a_refused_choice_tells_nothing():
    g = game_of("citadels")
    nar = Narrator(TerminalView(g), [0])
    st = g.new_state(4, 1)

    def refused():
        g.apply(st, 0)
        raise Refusal("no")
    with pytest.raises(Refusal):
        nar.apply(st, refused)
    assert nar.take(0) == [] and nar.pending[0] == []


def test_a_change_said_at_once_is_not_told_again():
    nar, st = narrate("citadels", 4, 7, lambda st: st.gvars[st.game.vocab.gvar_index["murdered"]] is not None,
                      viewers=(0,))
    text = "\n".join(nar.take(0))
    assert "the murdered character" in text     # set by the Assassin's choice, told under it
    nar, st = narrate("citadels", 4, 7, lambda st: st.gvars[st.game.vocab.gvar_index["murdered"]] is not None,
                      viewers=(0,))
    nar.said({(None, "murdered")})
    assert "the murdered character" not in "\n".join(nar.take(0))


def _visible_labels(view, st, seat: int) -> set:
    """Every label a card the seat sees (the observer's own test) may be told by."""
    g = view.game
    return {view.card(c, st, seat=s) for c in range(g.ncards) if g.observer.sees_card(st, c, seat) for s in (True, False)}


@pytest.mark.parametrize("pack", shipped_packs())
def test_narration_never_names_a_card_or_value_hidden_from_the_seat(pack):
    g = game_of(pack)
    players = min(g.defn.max_players, g.defn.min_players + 1)
    view = TerminalView(g)
    nar = Narrator(view, list(range(players)))
    seen: dict = {}
    checked = {"cards": 0, "titles": 0}

    def probe(st, seat, cause, items):
        now = _visible_labels(view, st, seat) if items else set()
        allowed = seen.get(seat, set()) | now
        for key, kind, what in items:
            assert key[1] not in g.observer.hidden_vars, (pack, key)
            if kind == "cards":
                for label in (*what[0], *what[1]):
                    checked["cards"] += 1
                    assert label in allowed, f"{pack}: P{seat + 1} was told of {label}, which they never saw"
        if items and cause is not None and cause.kind == "card":
            checked["titles"] += 1
            title = nar.title(st, cause, seat, False)
            named = cause.names.get("en")
            if title == named:
                assert any(g.vocab.card_def_ids[c] == cause.id and (g.observer.sees_card(st, c, seat) or nar.shown_at_end(st, c))
                           for c in range(g.ncards)), \
                    f"{pack}: P{seat + 1} was told the name of {cause.id}, which they cannot see"
        if items:
            seen[seat] = now
    nar.probe = probe
    st = g.new_state(players, 1)
    rng = random.Random(1)
    while not st.over:
        i = rng.randrange(len(st.pending.options))
        nar.apply(st, lambda: g.apply(st, i))
    assert checked["cards"] > 50


def test_the_final_scoring_names_the_cards_the_end_reveals_and_no_other():
    """Troyes shows every seat's characters on the final board (view: reveal): the
    scoring of P2's characters, hidden from P1 until then, is told under their names;
    a card still out of P1's sight at the end is never named."""
    nar, st = narrate("troyes", 2, 11, lambda s: False)
    g = nar.game
    zi = g.vocab.zone_index["characters"]
    defs = {d.id: d for d in g.vocab.card_defs}
    theirs = {defs[g.vocab.card_def_ids[c]].names.get("en") for c in st.zones[g.vocab.zone_base[zi] + 1]}
    told = [line.strip().split(":")[0] for line in nar.take(0)]
    assert theirs & set(told[-len(theirs) - 6:]), f"P2's characters {theirs} not named at the end: {told[-8:]}"
    assert "a hidden card" not in told[-8:]
    unseen = {d.names.get("en") for d in g.vocab.card_defs
              if d.names is not None and not nar.sees_def(st, d.id, 0)}
    assert not unseen & set(told), f"named though P1 never saw them: {unseen & set(told)}"


def test_a_fault_of_the_narration_never_reaches_the_rules():
    # the choice is played out whole, as without narration; the fault is raised afterwards
    from meeple.runtime.logs import state_sha256
    g = game_of("troyes")
    plain, told = g.new_state(2, 1), g.new_state(2, 1)
    nar = Narrator(TerminalView(g), [0])

    def broken(*_):
        raise ValueError("the narrator's own fault")
    nar.probe = broken
    for _ in range(30):
        g.apply(plain, 0)
        with pytest.raises(ValueError):
            nar.apply(told, lambda: g.apply(told, 0))
        assert state_sha256(told) == state_sha256(plain)


def _titles(nar: Narrator, st, i: int, seat: int, hidden: bool) -> set[str]:
    """The steps' names told to ``seat`` were option ``i`` taken (on a copy)."""
    copy = st.clone()
    try:
        nar.apply(copy, lambda: nar.game.apply(copy, i), frozenset([seat]) if hidden else frozenset())
    except Refusal:
        return set()
    return {e.title for e in nar.last[seat]}


@pytest.mark.parametrize("pack", ["citadels", "citadels-2016", "citadels-dark-city"])    # Troyes, Signorie: none hidden
def test_a_hidden_choice_is_told_under_no_name_that_tells_it(pack):
    """A seat that cannot read another's choice is told what it did under the names of
    the steps every option would have run, and '(hidden)' for the others: a step only
    some options run (an action's, a procedure's) would tell which option was taken."""
    from meeple.runtime.views import HIDDEN_CHOICE
    g = game_of(pack)
    players = min(g.defn.max_players, g.defn.min_players + 1)
    view = TerminalView(g)
    st = g.new_state(players, 2)
    rng = random.Random(2)
    checked = told_apart = 0
    while not st.over and checked < 12:
        dec = st.pending
        seat = (dec.player + 1) % players
        if len(dec.options) > 1 and g.observer.told(st, 0, [seat]) == HIDDEN_CHOICE:
            checked += 1
            nar = Narrator(view, [seat])
            ran = [_titles(nar, st, i, seat, False) for i in range(len(dec.options))]
            common = set.intersection(*[t for t in ran if t] or [set()])
            told_apart += len(set(map(frozenset, ran))) > 1
            for i in range(len(dec.options)):
                leaked = _titles(nar, st, i, seat, True) - common - {"(hidden)"}
                assert not leaked, f"{pack}: P{seat + 1} was told {leaked} of P{dec.player + 1}'s hidden '{dec.prompt}'"
        g.apply(st, rng.randrange(len(dec.options)))
    assert checked


def _changes_of_a_troyes_game(view: TerminalView, seed: int) -> list[str]:
    """Every change line seat P1 would be told over a random 2-player Troyes game, choice by choice."""
    g = view.game
    st, rng = g.new_state(2, seed), random.Random(seed)
    seen, told = view.snapshot(st, 0), []
    while not st.over:
        g.apply(st, rng.randrange(st.pending.count()))
        now = view.snapshot(st, 0)
        told += view.changes(seen, now)
        seen = now
    return told


def test_a_working_value_is_told_when_set_and_its_reset_is_not():
    """Troyes' interception values are working values (view: working): the black die's
    value and the dice against it are told as they are set ('black die intercepted 5'),
    never their return to 0 at the end of the combat."""
    told = [line for seed in (1, 2, 3) for line in _changes_of_a_troyes_game(TerminalView(game_of("troyes"), width=400), seed)]
    parts = [p for line in told for p in line.split(": ", 1)[1].split("; ")]
    set_to = [p for p in parts if p.startswith(("black die intercepted", "dice against it (red counts double)"))]
    assert any(re.fullmatch(r"black die intercepted [1-6]", p) for p in set_to), set_to
    assert not [p for p in set_to if p.endswith(" -> 0") or " -> " in p and p.startswith("black die intercepted none")], set_to


def test_without_working_the_reset_is_told(monkeypatch):
    """The test above can fail: with no working values the combat's end is told as
    'black die intercepted 5 -> 0'."""
    import dataclasses
    g = game_of("troyes")
    view = TerminalView(g, width=400)
    view.own = [dataclasses.replace(line, working=False) for line in view.own]
    told = [line for seed in (1, 2, 3) for line in _changes_of_a_troyes_game(view, seed)]
    assert any(re.search(r"black die intercepted [1-6] -> 0", line) for line in told), told[:20]


def test_a_working_name_that_is_no_listed_variable_is_an_error_at_its_line(tmp_path):
    from small_packs import validated_with
    code, output, line, _ = validated_with(tmp_path, "troyes", "  working: [to_beat, strength]", "  working: [to_beat, strenght]")
    assert code == 1, output
    assert (f"game.yaml:{line}:22: error: view: working: 'strenght' is not a variable listed in view: board or "
            "view: player; did you mean 'strength'?") in output, output
