"""A self-contained HTML report of a simulation, or of a comparison of two.

Plots are drawn with matplotlib (the optional extra ``meeple[report]``) and
embedded as inline SVG, with the numbers beside them in tables, so the file
reads offline and can be mailed around. Nothing here runs a game: it takes
the dictionaries ``Summary.to_dict`` and ``compare`` produce.
"""
from __future__ import annotations

import html
import io
from typing import Any, Optional


def _svg(fig) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    import matplotlib.pyplot as plt
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def plots(d: dict) -> list[tuple[str, str]]:
    """(title, svg) for one simulation summary."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    out = []
    # score distributions per seat
    fig, ax = plt.subplots(figsize=(6, 3))
    for s in d["seats"]:
        dist = {int(k): v for k, v in s["score_distribution"].items()}
        xs = sorted(dist)
        ax.plot(xs, [dist[x] / s["games"] for x in xs], marker=".", label=s["seat"])
    ax.set_xlabel("final score")
    ax.set_ylabel("share of games")
    ax.legend(fontsize="small")
    out.append(("Score distribution per seat", _svg(fig)))
    # win rate per seat with intervals
    fig, ax = plt.subplots(figsize=(6, 2.6))
    seats = d["seats"]
    rates = [s["win_rate"] for s in seats]
    errs = [[r - s["win_ci"][0] for r, s in zip(rates, seats)], [s["win_ci"][1] - r for r, s in zip(rates, seats)]]
    ax.bar([s["seat"] for s in seats], rates, yerr=errs, capsize=4, color="#6a8caf")
    ax.axhline(1 / d["players"], color="grey", linestyle="--", linewidth=1)
    ax.set_ylabel("win rate (95% interval)")
    out.append(("Win rate per seat", _svg(fig)))
    # the game-shape metrics' lengths: how many games took each number of rounds, of decisions
    for key, label in (("rounds", "rounds played"), ("decisions", "decisions made")):
        if "shape" in d:
            hist = {int(k): v for k, v in d["shape"][key]["histogram"].items()}
            fig, ax = plt.subplots(figsize=(6, 2.4))
            ax.bar(list(hist), [v / d["games"] for v in hist.values()], width=1.0,
                   color="#6a8caf")
            ax.set_xlabel(label)
            ax.set_ylabel("share of games")
            out.append((f"Game length: {label}", _svg(fig)))
    # win rate per card in each shown zone (cards played, cards placed...)
    for kind in d.get("shown", ()):
        rows = sorted(d["cards"][kind], key=lambda r: r["win_rate"])
        if not rows:
            continue
        fig, ax = plt.subplots(figsize=(6, 0.25 * len(rows) + 0.8))
        rates = [r["win_rate"] for r in rows]
        errs = [[r["win_rate"] - r["win_ci"][0] for r in rows], [r["win_ci"][1] - r["win_rate"] for r in rows]]
        ax.barh([r["card"] for r in rows], rates, xerr=errs, capsize=2, color="#8fb36a")
        ax.axvline(1 / d["players"], color="grey", linestyle="--", linewidth=1)
        ax.set_xlabel("win rate of the players who had it (95% interval)")
        ax.tick_params(axis="y", labelsize=7)
        out.append((f"Win rate per {kind}", _svg(fig)))
    # the cards with the largest effect on winning, over all shown zones: a card's win
    # rate against the average of the cards in its zone (having built anything wins more),
    # the rows' ``effect`` with its interval (``meeple.workbench.tally.effect_on_winning``)
    effects = []
    for kind in d.get("shown", ()):
        effects += [(r["effect"], kind, r) for r in d["cards"][kind] if r["games"] >= 10]
    effects.sort(key=lambda e: -abs(e[0]))
    top = effects[:15][::-1]
    if top:
        fig, ax = plt.subplots(figsize=(6, 0.28 * len(top) + 0.8))
        errs = [[e - r["effect_ci"][0] for e, _, r in top], [r["effect_ci"][1] - e for e, _, r in top]]
        ax.barh([f"{r['card']} ({kind.split(' in ')[1]})" for _, kind, r in top], [e for e, _, _ in top], xerr=errs, capsize=2,
                color=["#c0504d" if e < 0 else "#4f81bd" for e, _, _ in top])
        ax.axvline(0, color="grey", linewidth=1)
        ax.set_xlabel("win rate minus the average of its zone (95% interval)")
        ax.tick_params(axis="y", labelsize=7)
        out.append(("Top cards by effect on winning", _svg(fig)))
    return out


UNITS = {"win share": "win rate, variant minus base", "points": "points, variant minus base",
         "rounds": "rounds, variant minus base", "decisions": "decisions, variant minus base",
         "options": "options, variant minus base", "share": "share, variant minus base",
         "lead changes": "lead changes, variant minus base", "evaluation": "evaluation points, variant minus base"}


def forest(c: dict) -> str:
    """The differences of a comparison as a forest plot: one row per metric, in
    the table's order (top first), the difference as a dot and its 95%
    interval as a bar, a zero line; significant rows in colour. Metrics of
    different units (win share, points, rounds) get a panel each, with its own
    axis. Labels are SVG text (searchable, selectable)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    groups: dict[str, list[dict]] = {}
    for m in c["metrics"]:
        groups.setdefault(m.get("unit", "win share"), []).append(m)
    units = [u for u in UNITS if u in groups] + [u for u in groups if u not in UNITS]
    sizes = [len(groups[u]) for u in units]
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        fig, axes = plt.subplots(len(units), 1, figsize=(7, 0.24 * sum(sizes) + 0.9 * len(units)), squeeze=False,
                                 gridspec_kw={"height_ratios": sizes})
        for ax, unit in zip(axes[:, 0], units):
            rows = groups[unit]
            ys = list(range(len(rows)))[::-1]
            for y, m in zip(ys, rows):
                colour = "#c0504d" if m["significant"] else "#7f7f7f"
                ax.errorbar([m["difference"]], [y], xerr=[[m["difference"] - m["ci"][0]], [m["ci"][1] - m["difference"]]],
                            fmt="o", markersize=3, capsize=2, color=colour, gid=f"forest-row-{m['metric']}")
            ax.axvline(0, color="black", linewidth=0.8, gid="forest-zero")
            ax.set_yticks(ys)
            ax.set_yticklabels([m["metric"] + (" *" if m["significant"] else "") for m in rows], fontsize=7)
            ax.set_ylim(-0.7, len(rows) - 0.3)
            ax.set_xlabel(UNITS.get(unit, unit) + " (95% interval)", fontsize=8)
            ax.tick_params(axis="x", labelsize=7)
        fig.tight_layout()
        return _svg(fig)


def _summary_tables(d: dict) -> str:
    rows = "".join(f"<tr><td>{s['seat']}</td><td>{_pct(s['win_rate'])}</td><td>[{_pct(s['win_ci'][0])}, {_pct(s['win_ci'][1])}]</td>"
                   f"<td>{s['mean_score']:.2f}</td><td>[{s['score_ci'][0]:.2f}, {s['score_ci'][1]:.2f}]</td></tr>" for s in d["seats"])
    fp = d["first_player"]
    head = (f"<p>{d['games']} games of <b>{html.escape(d['pack'])}</b>, {d['players']} players, bots {html.escape(d['bots'])}, "
            f"seed {d['seed']}; mean rounds {d['mean_rounds']:.2f}; score spread {d['score_spread']:.1f}; "
            f"first player wins {_pct(fp['win_rate'])} [{_pct(fp['win_ci'][0])}, {_pct(fp['win_ci'][1])}] (fair {_pct(fp['fair'])})</p>")
    table = ("<table><tr><th>seat</th><th>win rate</th><th>95% interval</th><th>mean score</th><th>95% interval</th></tr>"
             + rows + "</table>")
    return head + table + (_shape_table(d["shape"]) if "shape" in d else "")


def _shape_table(shape: dict) -> str:
    """The game-shape metrics (docs/workbench.md defines each), one row each."""
    def entry(e: dict, pct: bool = False) -> tuple[str, str]:
        f = _pct if pct else (lambda x: f"{x:.2f}")
        return f(e["mean"]), f"[{f(e['ci'][0])}, {f(e['ci'][1])}]"
    fs = shape["first_seat"]
    rows = [("rounds", *entry(shape["rounds"]), f"sd {shape['rounds']['sd']:.2f}, {shape['rounds']['min']}-{shape['rounds']['max']}"),
            ("decisions", *entry(shape["decisions"]),
             f"sd {shape['decisions']['sd']:.1f}, {shape['decisions']['min']}-{shape['decisions']['max']}"),
            ("options a decision (branching)", *entry(shape["branching"]), ""),
            ("largest menu", *entry(shape["largest_menu"]), f"{shape['largest_menu']['max']} at most"),
            ("forced decisions (one option)", *entry(shape["forced_share"], True), ""),
            ("first seat's advantage", f"{100 * fs['advantage']:+.1f} points",
             f"[{100 * fs['ci'][0]:+.1f}, {100 * fs['ci'][1]:+.1f}]", f"wins {_pct(fs['win_rate'])}, fair {_pct(fs['fair'])}"),
            ("balance", f"{shape['balance']:.3f}", "", "1 - the largest gap between seats' win rates"),
            ("lead changes a game", *entry(shape["lead_changes"]), ""),
            ("drama (winner's mean gap)", *entry(shape["drama"]), "evaluation points"),
            ("drama (winner's largest gap)", *entry(shape["drama_max"]), "evaluation points"),
            ("decided at", *entry(shape["decided_at"], True), "share of the game"),
            ("winning margin", *entry(shape["margin"]), "points")]
    body = "".join(f"<tr><td>{html.escape(a)}</td><td>{b}</td><td>{c}</td><td>{html.escape(e)}</td></tr>" for a, b, c, e in rows)
    return (f"<h3>Game shape</h3><p>Positions judged by {html.escape(shape['evaluation'])}, {html.escape(shape['sampling'])}.</p>"
            "<table class=\"cards\"><tr><th>metric</th><th>mean</th><th>95% interval</th><th></th></tr>" + body + "</table>")


def _cell(key: str, value: Any, row: dict) -> str:
    """A value of a card row, whatever its field: rates and their intervals in
    %, other numbers to 2 decimals, lists and mappings spelled out."""
    rate = key.endswith("_rate") or key in ("effect", "effect_ci") or (key.endswith("_ci") and f"{key[:-3]}_rate" in row)
    if isinstance(value, bool) or value is None:
        return "" if value is None else ("yes" if value else "")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _pct(value) if rate else f"{value:.2f}"
    if isinstance(value, (list, tuple)) and len(value) == 2 and key.endswith("_ci"):
        return f"[{_cell(key, float(value[0]), row)}, {_cell(key, float(value[1]), row)}]"
    if isinstance(value, dict):
        return ", ".join(f"{html.escape(str(k))}: {_cell(str(k), v, {})}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_cell(key, v, row) for v in value)
    return html.escape(str(value))


def _header(key: str) -> str:
    return "95% interval" if key.endswith("_ci") else html.escape(key.replace("_", " "))


def card_tables(d: dict) -> str:
    """Every card table of a simulation summary, whatever fields its rows carry:
    the zones the text output shows (cards played, built) as tables, sorted as
    there (by win rate, highest first), the other zones folded under
    <details>; then the cards players used (an action's or a choice's card),
    most used first, as the text output shows them."""
    out = []
    cards = d.get("cards", {})
    shown = [k for k in d.get("shown", ()) if k in cards]
    for kind in shown + [k for k in sorted(cards) if k not in shown]:
        rows = cards[kind]
        if not rows:
            continue
        if any("win_rate" in r for r in rows):
            rows = sorted(rows, key=lambda r: -r.get("win_rate", 0.0))
        table = _rows_table(kind, rows)
        if kind in shown:
            out.append(f"<h3>Cards: {html.escape(kind)}</h3>{table}")
        else:
            out.append(f"<details><summary>Cards: {html.escape(kind)} ({len(rows)})</summary>{table}</details>")
    for kind, rows in sorted(d.get("used", {}).items()):
        if rows:
            rows = sorted(rows, key=lambda r: -r.get("times", 0))
            out.append(f"<h3>Cards used: {html.escape(kind)}</h3>{_rows_table(kind, rows)}")
    return "".join(out)


def _rows_table(kind: str, rows: list) -> str:
    keys: list[str] = []
    for r in rows:
        keys += [k for k in r if k not in keys]
    head = "".join(f"<th>{_header(k) if k != 'card' else html.escape(kind)}</th>" for k in keys)
    body = "".join("<tr>" + "".join(f"<td>{_cell(k, r[k], r) if k in r else ''}</td>" for k in keys) + "</tr>" for r in rows)
    return f"<table class=\"cards\"><tr>{head}</tr>{body}</table>"


def _diff_table(c: dict) -> str:
    """Every figure of a comparison, in its order, numbers as the text writes them."""
    from meeple.workbench.answer import difference, interval, value
    rows = "".join(
        f"<tr class=\"{'sig' if m['significant'] else ''}\"><td>{html.escape(m['metric'])}</td>"
        f"<td>{value(m['base'], m.get('unit', ''))}</td><td>{value(m['variant'], m.get('unit', ''))}</td>"
        f"<td>{difference(m['difference'], m.get('unit', ''))}</td><td>{html.escape(interval(m['ci'], m.get('unit', '')))}</td>"
        f"<td>{'yes' if m['significant'] else ('suggestive' if m.get('excludes_zero') else '')}</td></tr>"
        for m in c["metrics"])
    return ("<table><tr><th>figure</th><th>base</th><th>variant</th><th>difference</th><th>95% interval</th><th>significant</th></tr>"
            + rows + "</table>")


def _answer_sections(c: dict) -> str:
    """What was compared, the answer and the direct effects of the changed cards: the
    sections the text output leads with, in its order and words."""
    from meeple.workbench import answer
    sections = [("What was compared", answer.header(c) + answer.changes(c)), ("The answer", answer.headline(c)),
                ("Direct effects of the changed cards", answer.direct(c))]
    return "".join(f"<h2>{title}</h2><pre>{html.escape(chr(10).join(lines))}</pre>" for title, lines in sections if lines)


def render_html(summaries: list[dict], comparison: Optional[dict] = None) -> str:
    title = "meeple simulation" if comparison is None else "meeple comparison"
    parts = [f"<!doctype html><html><head><meta charset=\"utf-8\"><title>{title}</title><style>",
             "body{font-family:sans-serif;margin:2em;max-width:1400px} table{border-collapse:collapse;margin:1em 0}"
             "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right} th{background:#eee} table.cards td:first-child{text-align:left}"
             ".cols{display:flex;gap:2em} .col{flex:1;min-width:0} tr.sig td{background:#fff3c4} svg{max-width:100%;height:auto}",
             "</style></head><body>", f"<h1>{title}</h1>"]
    if comparison is not None:
        from meeple.workbench.compare import ORDER
        parts.append(_answer_sections(comparison))
        parts.append("<h2>Every figure: differences, variant minus base (paired games)</h2>")
        parts.append(f"<p>Order: {html.escape(ORDER)}.</p>")
        parts.append("<h3>Forest plot of the differences</h3>")
        parts.append("<p>Each row: the variant minus the base, with its 95% interval; the line is no difference; "
                     "significant rows (*) in red.</p>")
        parts.append(forest(comparison))
        parts.append(_diff_table(comparison))
    cols = []
    for label, d in zip(("base", "variant") if comparison is not None else ("",), summaries):
        col = [f"<div class=\"col\"><h2>{html.escape(label or d['pack'])}: {html.escape(d['pack'])}</h2>", _summary_tables(d)]
        for name, svg in plots(d):
            col.append(f"<h3>{html.escape(name)}</h3>{svg}")
        col.append(card_tables(d))
        col.append("</div>")
        cols.append("".join(col))
    parts.append("<div class=\"cols\">" + "".join(cols) + "</div>")
    parts.append("</body></html>")
    return "".join(parts)


def write_report(path: str, summaries: list[dict], comparison: Optional[dict] = None) -> None:
    from meeple.core.outputs import write_text
    write_text(path, render_html(summaries, comparison))     # whole, or the file as it was
