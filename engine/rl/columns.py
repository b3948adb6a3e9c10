"""The variables of a seat's observation vector: the players' rows (resources and the
variables the seat's sight names) and the game's variables, read from a state's lists as
``Layout.encode`` writes them from a view (``meeple.rl.reading`` reads the cards).

``Scalars.write`` writes every column and ``Scalars.patch`` only those whose values differ
from the lists last read (what a seat's reader keeps, ``SeatReader.read``);
``Scalars.segments`` reads them by stretches, as the first reader did (``read_old``).
"""
from __future__ import annotations

from itertools import compress
from operator import itemgetter, ne
from typing import Any, Callable, Optional

import numpy as np

from meeple.dsl.typesys import PLAYER, Card

from meeple.rl.observe import SOFT, Layout, soft


class Scalars:
    """The players' rows (resources and the variables a sight names) and the game's
    variables of a vector, as ``Layout.encode`` writes them from a view: the same for
    every seat with the same sight of variables. Each player's row and the game's
    variables are kept with the values they were read from and read again only when
    those differ (``==``: the language's values are whole numbers, flags, texts, seats,
    cards and none, and two equal ones are written alike, True as 1)."""

    def __init__(self, layout: Layout, player_vars: tuple, game_vars: tuple):
        v = layout.game.vocab
        shown_p, shown_g = dict(player_vars), dict(game_vars)
        self.nres, self.npvars, self.per_player = v.nres, v.npvars, layout.per_player
        self.rows: list[Stretch] = []
        columns: list = []          # every column (place, width, how, table, source, index, type)
        for p in range(layout.players):
            row: list = []            # (offset, width, how, table, source, index, type) in the player's row
            at = 0
            for i, (lo, hi) in enumerate(layout.bounds):
                name = layout.res_names[i]
                how = "bounded" if lo is not None and hi is not None and hi > lo else "int"
                src = ("res", p * v.nres + i, None) if name not in shown_p else ("pvars", p * v.npvars + shown_p[name], v.pvar_types[shown_p[name]])
                row.append((at, 1, how, (lo, hi), *src))
                at += 1
            for name, (width, (how, table)) in layout.pvars:
                col = shown_p.get(name)
                src = ("pvars", p * v.npvars + col, v.pvar_types[col]) if col is not None else \
                    ("res", p * v.nres + layout.res_names.index(name), None) if name in layout.res_names else \
                    ("const", f"P{p + 1}" if name == "seat" else None, None)
                row.append((at, width, how, table, *src))
                at += width
            self.rows.append(Stretch(layout, layout.per_player, row))
            start = layout.players_at + p * layout.per_player
            columns += [(start + c[0], *c[1:]) for c in row]
        gcols: list = []
        at = 0
        for name, (width, (how, table)) in layout.gvars:
            col = shown_g.get(name)
            gcols.append((at, width, how, table, *(("gvars", col, v.gvar_types[col]) if col is not None else ("const", None, None))))
            at += width
        self.players_span = (layout.players_at, layout.players_at + layout.per_player * layout.players)
        self.gvars_span = (layout.gvars_at, at + layout.gvars_at)
        self.show = layout.game.observer.show
        self.variables = Stretch(layout, at, gcols)
        columns += [(layout.gvars_at + c[0], *c[1:]) for c in gcols]
        self._by_value(layout, columns)
        self.players = np.zeros(self.players_span[1] - self.players_span[0], dtype=np.float32)
        self.row_read: list = [None] * layout.players      # each row's resources and variables as read
        self.read_from: tuple = (None, None, None)     # the res, pvars and gvars last read
        self.game_row: Optional[np.ndarray] = None

    def _by_value(self, layout: Layout, columns: list) -> None:
        """The columns by the value they read (``by_source``: source -> index -> columns as
        (place, how, table)), and those that read none (``constants``), for ``write``/``patch``."""
        self.constants = Stretch(layout, layout.size, [c for c in columns if c[4] == "const"]).template
        self.by_source: dict[str, dict[int, list]] = {"res": {}, "pvars": {}, "gvars": {}}
        for at, width, how, table, src, i, t in columns:
            if src == "const" or how == "none":
                continue
            if how == "onehot":
                col = (at, "onehot", (one_hot_table(layout, table, t), width - 1))
            elif t is not None and (t == PLAYER or isinstance(t, Card)):
                col = (at, "shown", (how, table, t))
            else:
                col = (at, how, table)
            self.by_source[src].setdefault(i, []).append(col)
        self.sources = [(src, by_index) for src, by_index in self.by_source.items() if by_index]
        # each source's columns by index up to the last read, None where none reads it
        # (``patch`` zips them along the values)
        self.aligned = [(src, [by_index.get(i) for i in range(max(by_index) + 1)]) for src, by_index in self.sources]

    def _value(self, how: str, table: Any, x: Any) -> float:
        """A column's value of ``x`` as ``Stretch.read`` writes it (not one-hot)."""
        if how == "shown":
            kind, table, t = table
            return written(kind, table, self.show(x, t))
        if how == "bounded":
            return min(1.0, max(-1.0, (x - table[0]) / (table[1] - table[0])))
        if how == "int":
            return x / (abs(x) + SOFT) if x.__class__ is int else soft(x)
        return 1.0 if x else 0.0

    def write(self, st, read: dict, out: np.ndarray) -> None:
        """Write every column of ``st`` into ``out``, keeping the lists read in ``read``."""
        nonzero = np.flatnonzero(self.constants)
        out[nonzero] = self.constants[nonzero]
        for src, by_index in self.sources:
            values = getattr(st, src)
            for i, cols in by_index.items():
                self._put(out, cols, values[i], False, None)
            read[src] = values[:]

    def patch(self, st, read: dict, out: np.ndarray) -> None:
        """Write into ``out`` (written by ``write`` from the lists in ``read``) the columns
        of the values of ``st`` that differ from those read."""
        for src, aligned in self.aligned:
            values, last = getattr(st, src), read[src]
            if values == last:      # equal values are written alike (True as 1)
                continue
            # the values that differ, found without a Python step a value (most are as read)
            for j in compress(range(len(aligned)), map(ne, values, last)):
                cols = aligned[j]
                if cols is not None:
                    x, y = values[j], last[j]
                    for at, how, table in cols:        # _put's, written out: the loop of many players' turns
                        if how == "int":
                            out[at] = x / (abs(x) + SOFT) if x.__class__ is int else soft(x)
                        elif how == "onehot":
                            places, none = table
                            out[at + places.get(y, none)] = 0.0
                            out[at + places.get(x, none)] = 1.0
                        else:
                            out[at] = self._value(how, table, x)
            read[src] = values[:]

    def _put(self, out: np.ndarray, cols: list, x: Any, clear: bool, was: Any) -> None:
        """Write the columns ``cols`` of the value ``x`` (``clear``: a one-hot's place of
        the value ``was`` cleared first)."""
        for at, how, table in cols:
            if how == "onehot":
                places, last = table
                if clear:
                    out[at + places.get(was, last)] = 0.0
                out[at + places.get(x, last)] = 1.0
            else:
                out[at] = self._value(how, table, x)

    def segments(self, st) -> tuple:
        """(start, end, values) of the players' stretch, then of the game's variables'."""
        res, pvars, gvars = st.res, st.pvars, st.gvars
        r0, p0, g0 = self.read_from
        if res != r0 or pvars != p0:
            nres, npv, per = self.nres, self.npvars, self.per_player
            for p, row in enumerate(self.rows):
                seen = (res[p * nres:(p + 1) * nres], pvars[p * npv:(p + 1) * npv])
                if seen != self.row_read[p]:
                    self.players[p * per:(p + 1) * per] = row.read(st)
                    self.row_read[p] = seen
            r0, p0 = res[:], pvars[:]
        if self.game_row is None or gvars != g0:
            self.game_row = self.variables.read(st)
            g0 = gvars[:]
        self.read_from = (r0, p0, g0)
        return (*self.players_span, self.players, *self.gvars_span, self.game_row)


def one_hot_table(layout: Layout, table: dict, t) -> dict:
    """A one-hot column's table keyed by the values a state holds: ``Observer.show`` writes
    a seat as P1.. and a card as its id before the layout's table is read."""
    if t == PLAYER:
        return {p: table[f"P{p + 1}"] for p in range(layout.players) if f"P{p + 1}" in table}
    if isinstance(t, Card):
        ids = layout.game.vocab.card_def_ids
        return {c: table[ids[c]] for c in range(-len(ids), len(ids)) if ids[c] in table}
    return table


def getter(indices: list[int]) -> Callable[[list], tuple]:
    """The values at ``indices`` of a list, as a tuple (``itemgetter`` of one index gives the value)."""
    if len(indices) == 1:
        i = indices[0]
        return lambda xs: (xs[i],)
    return itemgetter(*indices)


def written(how: str, table: Any, x: Any) -> float:
    """A number or a flag as ``Layout.encode`` writes it (bounded: ``table`` is (min, max))."""
    if how == "bounded":
        return min(1.0, max(-1.0, (x - table[0]) / (table[1] - table[0])))
    return soft(x) if how == "int" else 1.0 if x else 0.0


class Stretch:
    """Columns of a vector's stretch read from a state's lists, gathered by list and by how
    each is written (``Layout.encode``'s ways: a bounded resource, a number, a flag, one-hot)."""

    def __init__(self, layout: Layout, length: int, columns: list):
        self.template = np.zeros(length, dtype=np.float32)      # the columns that read no state
        gathered: dict[tuple[str, str], list] = {}
        for at, width, how, table, src, i, t in columns:
            if src == "const":
                self._write_constant(at, width, how, table, i)
            elif how != "none":
                shown = how != "onehot" and t is not None and (t == PLAYER or isinstance(t, Card))
                gathered.setdefault((src, "shown" if shown else how), []).append((at, width, table, i, t, how))
        self.groups = []
        self.show = layout.game.observer.show
        for (src, how), cols in gathered.items():
            ats = [c[0] for c in cols]
            if how == "shown":        # a seat or a card read as a number or a flag: as the view shows it
                extra = [(c[5], c[2], c[4]) for c in cols]
            elif how == "bounded":
                extra: Any = ([c[2][0] for c in cols], [c[2][1] - c[2][0] for c in cols])
            elif how == "onehot":
                extra = ([one_hot_table(layout, c[2], c[4]) for c in cols], [c[1] - 1 for c in cols])
            else:
                extra = None
            self.groups.append((src, how, getter([c[3] for c in cols]), ats, extra))

    def _write_constant(self, at: int, width: int, how: str, table: Any, x: Any) -> None:
        if how == "bool":
            self.template[at] = 1.0 if x else 0.0
        elif how == "int":
            self.template[at] = soft(x)
        elif how == "onehot":
            self.template[at + table.get(x, width - 1) if x is not None else at + width - 1] = 1.0

    def read(self, st) -> np.ndarray:
        out = self.template.copy()
        places: list[int] = []
        values: list[float] = []
        for src, how, get, ats, extra in self.groups:
            xs = get(getattr(st, src))
            if how == "onehot":
                tables, last = extra
                places += [at + t.get(x, w) for at, t, w, x in zip(ats, tables, last, xs)]
                values += [1.0] * len(ats)
                continue
            places += ats
            if how == "shown":
                values += [written(kind, table, self.show(x, t)) for (kind, table, t), x in zip(extra, xs)]
            elif how == "bounded":       # the only values that may leave [-1, 1] (the layout clips them)
                values += [min(1.0, max(-1.0, (x - lo) / span)) for x, lo, span in zip(xs, *extra)]
            elif how == "int":
                values += [x / (abs(x) + SOFT) if x.__class__ is int else soft(x) for x in xs]
            else:
                values += [1.0 if x else 0.0 for x in xs]
        out[places] = values
        return out
