"""The text of a ``meeple tune`` report: the answer first (the setting the confirmation
supports, or that none is better than the pack as written), then the trials, the
objective against each parameter's values, and the confirmation table."""
from __future__ import annotations

import math

from meeple.workbench.answer import difference, unit_of_difference


def _num(x) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.4f}"


def _values(values: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in values.items())


def answer(d: dict) -> str:
    """One line: what the run found."""
    if d.get("interrupted"):
        return (f"interrupted: {len(d['trials'])} trial(s) finished, no confirmation; run the same command again "
                f"to resume (the study is kept in {d['storage']})")
    chosen = d["chosen"]
    if chosen:
        return (f"better: {_values(chosen['values'])}: objective {chosen['candidate']:.4f} against {chosen['as_written']:.4f} "
                f"as written, on {chosen['games']} fresh pairs of games (improvement {chosen['improvement']:+.4f}, "
                f"{100 * chosen['level']:.1f}% interval [{chosen['ci'][0]:+.4f}, {chosen['ci'][1]:+.4f}])")
    if not d["confirmations"]:
        return "no setting is better: no complete setting other than the pack as written was found to confirm"
    return (f"no setting is better than the pack as written: the confirmation supports none of the "
            f"{len(d['confirmations'])} best setting(s) on fresh games")


def format_text(d: dict) -> str:
    written = ", ".join(f"{p['name']}={p['as_written']}" for p in d["parameters"])
    lines = [answer(d), "",
             f"tune {d['pack']}, {d['players']} players ({d['bots']} bots), seed {d['seed']}: {d['search']} search, "
             f"blocks of {d['block']} games (at most {d['blocks']} per setting); as written: {written}; "
             f"{d['games_played']} games played in {d['seconds']:.1f} s",
             "objective (lower is better): " + " + ".join(d["objective"]), ""]
    names = [p["name"] for p in d["parameters"]]
    widths = [max(len(n), 8) for n in names]
    head = f"{'trial':>5}  " + "  ".join(f"{n:<{w}}" for n, w in zip(names, widths))
    lines.append(head + f"  {'objective':>9}  {'95% interval':<19}{'blocks':>6}  state")
    for r in d["trials"]:
        vals = "  ".join(f"{str(r['values'][n]):<{w}}" for n, w in zip(names, widths))
        interval = f"[{_num(r['ci'][0])}, {_num(r['ci'][1])}]"
        state = r["state"] + (f" ({r['cached_blocks']} block(s) stored)" if r["cached_blocks"] else "")
        state += " (as written)" if r["as_written"] else ""
        lines.append(f"{r['trial']:>5}  {vals}  {_num(r['objective']):>9}  {interval:<19}{r['blocks']:>6}  {state}")
    for name, rows in d["by_parameter"].items():
        lines += ["", f"objective by {name}: value, trials (complete/all), best, mean of the complete"]
        for row in rows:
            lines.append(f"  {str(row['value']):<12}{row['complete']:>3}/{row['trials']:<3}  {_num(row['best']):>9}  {_num(row['mean']):>9}")
    if d["confirmations"]:
        c0 = d["confirmations"][0]
        lines += ["", f"confirmation: each against the pack as written on {c0['games']} fresh pairs of games "
                      f"(improvement = objective as written minus the setting's; interval {100 * c0['level']:.1f}%, "
                      "Bonferroni over the settings confirmed)",
                  f"  {'setting':<30}{'as written':>10}{'setting':>10}{'improvement':>12}  {'interval':<21}supported"]
        for c in d["confirmations"]:
            interval = f"[{c['ci'][0]:+.4f}, {c['ci'][1]:+.4f}]"
            lines.append(f"  {_values(c['values']):<30}{c['as_written']:>10.4f}{c['candidate']:>10.4f}{c['improvement']:>+12.4f}  "
                         f"{interval:<21}{'yes' if c['supported'] else 'no'}")
        for c in d["confirmations"]:
            sig = [m for m in c["compare"]["metrics"] if m["significant"]]
            shown = "; ".join(f"{m['metric']} {difference(m['difference'], m.get('unit', ''))} {unit_of_difference(m.get('unit', ''))}"
                              .rstrip() for m in sig[:6]) or "none"
            more = f" and {len(sig) - 6} more" if len(sig) > 6 else ""
            lines.append(f"  {_values(c['values'])}: significant differences (compare, false discovery rate 5%): {shown}{more}")
    return "\n".join(lines)
