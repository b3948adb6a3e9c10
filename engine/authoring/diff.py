"""What one pack changes against another, card by card and rule by rule.

Works on any two loaded packs (a game and its expansion, a mod's folder and
the pack it copies, two versions of one pack): the comparison is of the
built model, so it shows the effect of ``extends`` changes and of edited
files alike. Where the second pack records how it changed a card (replace,
patch), the verb is that one.
"""
from __future__ import annotations

from typing import Any

from meeple.loading import model as M


def _card_view(c: M.CardDef) -> dict[str, Any]:
    view: dict[str, Any] = dict(c.fields)
    view["name"] = c.names.get()
    view["text"] = c.text.get()
    view["copies"] = c.copies
    if c.per_player:
        view["per_player"] = c.per_player
    for h, src in c.hooks:
        view[f"hooks.{h}"] = src.text.strip()
    for e, src in c.handlers:
        view[f"triggers.{e}"] = src.text.strip()
    for a in c.actions:
        view[f"actions.{a.id}"] = a.effect.text.strip()
    return view


def _rules_view(g: M.GameDef) -> dict[str, Any]:
    view: dict[str, Any] = {"players": (g.min_players, g.max_players)}
    for c in g.constants:
        view[f"constant {c.name}"] = dict(c.by_players).get(0, dict(c.by_players))
    for e, values in g.enums:
        view[f"enum {e}"] = list(values)
    for r in g.resources:
        view[f"resource {r.name}"] = (r.minimum, r.maximum, r.start)
    for v in g.variables:
        view[f"variable {v.name}"] = (v.type.name, v.default)
    for v in g.player_variables:
        view[f"player variable {v.name}"] = (v.type.name, v.default)
    for k in g.card_kinds:
        view[f"card kind {k.name}"] = ([f.name for f in k.fields], [v.name for v in k.variables], list(k.hooks))
    for z in g.zones:
        view[f"zone {z.name}"] = (z.per_player, z.visibility, z.holds, z.of_card)
    for e in g.events:
        view[f"event {e.name}"] = [p.name for p in e.params]
    for p in g.procedures:
        view[f"procedure {p.name}"] = p.body.text.strip()
    for f in g.functions:
        view[f"function {f.name}"] = f.body.text.strip()
    for a in g.actions:
        view[f"action {a.group}.{a.id}"] = ((a.when.text.strip() if a.when else ""), (a.with_.text.strip() if a.with_ else ""),
                                            a.effect.text.strip())
    for o in g.options:
        view[f"option {o.name}"] = o.default
    for step in ("setup", "round", "end_when"):
        view[f"flow {step}"] = getattr(g, step).text.strip()
    view["flow scoring"] = "\n".join(part.body.text.strip() if part.names is None and len(g.scoring) == 1
                                     else f"{part.id}: {part.body.text.strip()}" for part in g.scoring)
    view["flow max_rounds"] = g.max_rounds
    view["flow max_decisions"] = g.max_decisions
    view["score"] = (g.score, [t.text for t in g.tiebreak], g.evaluation.text if g.evaluation else None)
    return view


def diff_packs(a: M.Pack, b: M.Pack) -> dict[str, Any]:
    """{'cards': {added, removed, replaced, changed}, 'rules': {added, removed, changed}} from a to b."""
    ops = {(c.what, c.name): c.op for c in b.changes if c.what == "card"}
    # a card of no copies on either side (copies: 0, as new-pack's examples) is in no game:
    # left out, so it never reads as a change; one whose copies go to or from 0 is changed
    acards = {c.id: c for c in a.cards}
    bcards = {c.id: c for c in b.cards}
    idle = {cid for cid in set(acards) | set(bcards)
            if not any(_copies(cards[cid]) for cards in (acards, bcards) if cid in cards)}
    acards = {cid: c for cid, c in acards.items() if cid not in idle}
    bcards = {cid: c for cid, c in bcards.items() if cid not in idle}
    cards: dict[str, list] = {"added": [], "removed": [], "replaced": [], "changed": []}
    for cid, c in bcards.items():
        if cid not in acards:
            cards["added"].append({"id": cid, "kind": c.kind, "name": c.names.get()})
    for cid, c in acards.items():
        if cid not in bcards:
            cards["removed"].append({"id": cid, "kind": c.kind, "name": c.names.get()})
    for cid, c in bcards.items():
        if cid not in acards:
            continue
        old, new = _card_view(acards[cid]), _card_view(c)
        keys = [k for k in sorted(set(old) | set(new)) if old.get(k) != new.get(k)]
        if not keys and ops.get(("card", cid)) != "replace":
            continue
        derived = _derived(b, c)
        entry = {"id": cid, "kind": c.kind, "changes": [
            {"key": k, "from": old.get(k), "to": new.get(k),
             **({"derived_from": derived[k]} if derived.get(k) in keys else {})} for k in keys]}
        cards["replaced" if ops.get(("card", cid)) == "replace" else "changed"].append(entry)
    ra, rb = _rules_view(a.game), _rules_view(b.game)
    rules = {"added": sorted(k for k in rb if k not in ra), "removed": sorted(k for k in ra if k not in rb),
             "changed": [{"rule": k, "from": ra[k], "to": rb[k]} for k in sorted(ra) if k in rb and ra[k] != rb[k]]}
    return {"from": {"pack": a.info.id, "version": a.info.version}, "to": {"pack": b.info.id, "version": b.info.version},
            "load_order": [{"pack": i, "version": v} for i, v, _ in b.load_order], "cards": cards, "rules": rules}


def _copies(card: M.CardDef) -> int:
    """How many of ``card`` a game of the most players holds (its copies and per-seat pieces)."""
    return card.copies + card.per_player


def _derived(pack: M.Pack, card: M.CardDef) -> dict[str, str]:
    """The fields of ``card`` that its file leaves out and its kind declares as a copy of
    another (``default: "=cost"``): field -> the field it follows. A change of one of
    these is the other's change carried over, which a designer did not make by hand."""
    kind = next((k for k in pack.game.card_kinds if k.name == card.kind), None)
    if kind is None:
        return {}
    given = {name for name, _ in card.field_spans}
    out = {}
    for f in kind.fields:
        default = f.default
        if isinstance(default, str) and default.startswith("=") and f.name not in given:
            out[f.name] = default[1:]
    return out


def changed_values(d: dict[str, Any]) -> list[dict[str, Any]]:
    """Every changed value of a diff, one entry each, in the order ``render`` lists them:
    {'what': 'card' or 'rule', 'id', 'kind', 'key', 'from', 'to', 'derived_from'}
    (a card added or removed is one entry with key None). For reports that lead with
    what changed (``meeple compare``)."""
    out: list[dict[str, Any]] = []
    c = d["cards"]
    for verb in ("added", "removed"):
        for x in c[verb]:
            out.append({"what": "card", "change": verb, "id": x["id"], "kind": x["kind"], "key": None,
                        "from": None, "to": None, "derived_from": None})
    for verb in ("replaced", "changed"):
        for x in c[verb]:
            for ch in x["changes"]:
                out.append({"what": "card", "change": verb, "id": x["id"], "kind": x["kind"], "key": ch["key"],
                            "from": ch["from"], "to": ch["to"], "derived_from": ch.get("derived_from")})
    r = d["rules"]
    for verb in ("added", "removed"):
        for k in r[verb]:
            out.append({"what": "rule", "change": verb, "id": k, "kind": None, "key": None, "from": None, "to": None,
                        "derived_from": None})
    for x in r["changed"]:
        out.append({"what": "rule", "change": "changed", "id": x["rule"], "kind": None, "key": None,
                    "from": x["from"], "to": x["to"], "derived_from": None})
    return out


def _short(value: Any, width: int = 60) -> str:
    text = " ".join(str(value).split())
    return text if len(text) <= width else text[:width - 3] + "..."


def render(d: dict[str, Any]) -> str:
    """The diff as text for the terminal."""
    lines = [f"{d['from']['pack']} {d['from']['version']} -> {d['to']['pack']} {d['to']['version']}"]
    if len(d["load_order"]) > 1:
        lines.append("load order: " + " -> ".join(f"{x['pack']} {x['version']}" for x in d["load_order"]))
    c = d["cards"]
    for what in ("added", "removed"):
        if c[what]:
            lines.append(f"cards {what} ({len(c[what])}):")
            for x in c[what]:
                lines.append(f"  {x['kind']:<12} {x['id']:<22} {x['name']}")
    for what in ("replaced", "changed"):
        if c[what]:
            lines.append(f"cards {what} ({len(c[what])}):")
            for x in c[what]:
                lines.append(f"  {x['kind']:<12} {x['id']}")
                for ch in x["changes"]:
                    follows = f" (derived: follows {ch['derived_from']})" if ch.get("derived_from") else ""
                    lines.append(f"      {ch['key']}: {_short(ch['from'], 30)} -> {_short(ch['to'], 30)}{follows}")
    r = d["rules"]
    if r["added"]:
        lines.append(f"rules added ({len(r['added'])}): " + ", ".join(r["added"]))
    if r["removed"]:
        lines.append(f"rules removed ({len(r['removed'])}): " + ", ".join(r["removed"]))
    if r["changed"]:
        lines.append(f"rules changed ({len(r['changed'])}):")
        for x in r["changed"]:
            lines.append(f"  {x['rule']}: {_short(x['from'], 30)} -> {_short(x['to'], 30)}")
    if len(lines) == 1 + (len(d["load_order"]) > 1):
        lines.append("no differences")
    return "\n".join(lines)
