"""Validated YAML documents to model objects (``meeple.loading.model``), every
reference checked and every problem collected with its place.
"""
from __future__ import annotations

from typing import Any, Optional

from meeple.dsl.source import TextOrigin

from meeple.loading import model as M
from meeple.core.errors import ContentError, Problem, Problems, Span, printable, suggest
from meeple.loading.citations import line_number, references_named
from meeple.loading.gamecheck import GAME_CHECKS, player_count, yaml_words
from meeple.loading.salvage import file_names
from meeple.loading.yamlsrc import Document


CARD_SOURCE_KEYS = ("name", "text", "copies", "per_player")   # what a citation may name beside a card's fields


class Reader:
    """Turns validated documents into model objects, collecting reference errors."""

    def __init__(self, problems: Problems, references: Optional[dict[str, Span]] = None):
        self.problems = problems
        # the reference ids citations may name (pack.yaml references:, with the extended packs'); None: not checked
        self.references = references

    def check_citation(self, citation: Any, span: Span, what: str) -> None:
        """Every reference a citation names is declared (did-you-mean on a typo); a line
        number as its place gets a warning (meeple.loading.citations)."""
        if self.references is None:
            return
        for ref in references_named(citation):
            if ref not in self.references:
                known = sorted(self.references)
                self.problems.add(ContentError(
                    f"{what}: the citation {printable(str(citation))!r} names no reference '{printable(ref)}'", span,
                    suggest(ref, known) or (f"references: {', '.join(known)}" if known else
                                            "declare the document under references: in pack.yaml (docs/citations.md)")))
        where = line_number(citation)
        if where is not None:
            self.problems.warnings.append(Problem(
                f"{what}: the citation {printable(str(citation))!r} gives a line number ('{printable(where)}'), which points "
                'into a copy the reader does not have: give the section and a few words quoted, ID "SECTION": "QUOTE" '
                "(docs/citations.md)", span))

    def game_sources(self, doc: Document) -> tuple:
        """The game's sources: {constant or resource.bound: citation}, checked."""
        d = doc.data
        sources = d.get("sources") or {}
        if not sources:
            return ()
        marked = d.get("provisional") or {}
        names = {*(d.get("constants") or {}), *(d.get("resources") or {}), "players"}
        out = []
        for what, cite in sources.items():
            span = doc.key_span(("sources", what))
            head = str(what).split(".")[0]
            if head not in names:
                self.error(f"sources: '{printable(str(what))}' is not a constant, a resource nor 'players' of this game", span,
                           suggest(head, sorted(map(str, names))))
            elif what in marked:
                self.error(f"sources: '{what}' is cited and also marked provisional; a value is one or the other", span,
                           "drop the citation, or the provisional note if the source confirms it")
            self.check_citation(cite, doc.span(("sources", what)), f"sources: {what}")
            out.append((str(what), str(cite), span))
        return tuple(out)

    def card_sources(self, doc: Document, path: tuple, c: dict, kind: Optional[M.CardKindDef], file_sources: dict) -> tuple:
        """A card's sources: its file's (for every card in it), then its own over them. A file's
        citation yields to the card's provisional note; the card's own may not sit beside one."""
        own = c.get("sources") or {}
        marked = c.get("provisional") or {}
        out = []
        for what, cite in file_sources.items():
            if what not in own and what not in marked:
                out.append((what, str(cite), doc.key_span(("sources", what))))
        for what, cite in own.items():
            span = doc.key_span(path + ("sources", what))
            self.check_source_key(what, kind, span, f"card '{c['id']}'")
            if what in marked:
                self.error(f"card '{c['id']}': '{what}' is cited and also marked provisional; a value is one or the other", span,
                           "drop the citation, or the provisional note if the source confirms it")
            self.check_citation(cite, doc.span(path + ("sources", what)), f"card '{c['id']}': sources: {what}")
            out.append((str(what), str(cite), span))
        return tuple(out)

    def check_source_key(self, what: Any, kind: Optional[M.CardKindDef], span: Span, who: str) -> None:
        if kind is None:
            return
        names = [*(f.name for f in kind.fields), *CARD_SOURCE_KEYS]
        head = str(what).split(".")[0]
        if head not in names:
            self.error(f"{who}: sources: '{printable(str(what))}' is not a field of {kind.name}", span, suggest(head, names))

    def names(self, value: Any) -> M.Names:
        if isinstance(value, str):
            return M.Names((("en", value),))
        if isinstance(value, dict):
            return M.Names(tuple((k, str(v)) for k, v in value.items()))
        return M.Names(())

    def source(self, doc: Document, path: tuple, text: Any, span: Optional[Span] = None) -> Optional[M.Source]:
        if text is None:
            return None
        text = str(text)
        origin = doc.origins.get(path) or TextOrigin(doc.file, doc.span(path).line, doc.span(path).col, False)
        return M.Source(text, origin, span or doc.span(path))

    def text_sources(self, doc: Document, path: tuple, text: Any) -> tuple[tuple[str, M.Source], ...]:
        """A card's ``text:`` per locale with where it is written (a plain text is English)."""
        if isinstance(text, str):
            return (("en", self.source(doc, path + ("text",), text)),)
        if isinstance(text, dict):
            return tuple((str(k), self.source(doc, path + ("text", k), v)) for k, v in text.items() if isinstance(v, str))
        return ()

    def typeref(self, doc: Document, path: tuple, value: Any) -> M.TypeRef:
        if isinstance(value, dict):
            value = value.get("type", "int")
        text = str(value)
        return M.TypeRef(text.rstrip("?"), text.endswith("?"), doc.span(path))

    def var(self, doc: Document, path: tuple, name: str, value: Any) -> M.VarDef:
        t = self.typeref(doc, path, value)
        default = value.get("default") if isinstance(value, dict) else None
        if default is None and not t.nullable:
            default = {"int": 0, "bool": False}.get(t.name)
        visibility = value.get("visibility", "public") if isinstance(value, dict) else "public"
        names = self.names(value["name"]) if isinstance(value, dict) and "name" in value else None
        return M.VarDef(name, t, default, doc.key_span(path), visibility, names)

    def action(self, doc: Document, path: tuple, data: dict, group: str, card: Optional[str]) -> M.ActionDef:
        return M.ActionDef(
            id=data["id"], group=data.get("group", group), names=self.names(data.get("name", data["id"])),
            when=self.source(doc, path + ("when",), data.get("when")),
            with_=self.source(doc, path + ("with",), data.get("with")),
            effect=self.source(doc, path + ("effect",), data["effect"]),
            per_turn=data.get("per_turn"), refusal=data.get("refusal"), span=doc.span(path + ("id",)), card=card,
            price=tuple((res, self.source(doc, path + ("price", res), text), doc.key_span(path + ("price", res)))
                        for res, text in (data.get("price") or {}).items()),
            then_at_least=tuple((res, self.source(doc, path + ("then_at_least", res), text),
                                 doc.key_span(path + ("then_at_least", res)))
                                for res, text in (data.get("then_at_least") or {}).items()),
            about=self.source(doc, path + ("about",), data.get("about")),
            text=self.names(data.get("text")),
        )

    def params(self, doc: Document, path: tuple, data: dict) -> tuple[M.ParamDef, ...]:
        return tuple(M.ParamDef(k, self.typeref(doc, path + (k,), v)) for k, v in (data or {}).items())

    def game(self, doc: Document) -> M.GameDef:
        d = doc.data
        self.check_game(doc)
        flow = d["flow"]
        consts = []
        for name, value in (d.get("constants") or {}).items():
            table = ((0, value),) if isinstance(value, int) else tuple(
                (int(k), v) for k, v in value["by_players"].items() if player_count(k) is not None)
            consts.append(M.ConstantDef(name, table, doc.key_span(("constants", name))))
        kinds = []
        for kname, kd in d["card_kinds"].items():
            kp = ("card_kinds", kname)
            fields = []
            for fname, fv in (kd.get("fields") or {}).items():
                t = self.typeref(doc, kp + ("fields", fname), fv)
                default = fv.get("default") if isinstance(fv, dict) else None
                if default is None and not t.nullable and not isinstance(fv, dict):
                    default = None   # required field
                bounds = (fv.get("min"), fv.get("max")) if isinstance(fv, dict) else (None, None)
                fields.append(M.FieldDef(fname, t, default, doc.key_span(kp + ("fields", fname)), *bounds))
            variables = tuple(self.var(doc, kp + ("variables", k), k, v) for k, v in (kd.get("variables") or {}).items())
            kinds.append(M.CardKindDef(kname, tuple(fields), variables, tuple(kd.get("hooks") or ()), kd["starts_in"], doc.key_span(kp),
                                       self.names(kd["name"]) if "name" in kd else None))
        for z, zd in d["zones"].items():
            if (zd["per"] == "card") != ("of" in zd):
                self.problems.add(ContentError(f"zone '{z}': 'per: card' and 'of: KIND' go together", doc.key_span(("zones", z))))
        zones = tuple(
            M.ZoneDef(z, zd["per"] == "player", zd["visibility"], zd["holds"], bool(zd.get("in_play")),
                      bool(zd.get("hidden_order", zd["visibility"] == "nobody")), doc.key_span(("zones", z)),
                      zd.get("of") if zd["per"] == "card" else None, zd.get("board", True),
                      self.names(zd["name"]) if "name" in zd else None, zd.get("show_values", True))
            for z, zd in d["zones"].items())
        resources = tuple(
            M.ResourceDef(r, self.names(rd.get("name", r)), rd.get("min"), rd.get("max"), rd.get("start", 0), doc.key_span(("resources", r)))
            for r, rd in (d.get("resources") or {}).items())
        actions = []
        for group, items in (d.get("actions") or {}).items():
            for i, a in enumerate(items):
                actions.append(self.action(doc, ("actions", group, i), a, group, None))
        score = d["score"]
        return M.GameDef(
            min_players=d["players"]["min"], max_players=d["players"]["max"], constants=tuple(consts),
            enums=tuple((k, tuple(v)) for k, v in (d.get("enums") or {}).items()),
            resources=resources,
            variables=tuple(self.var(doc, ("variables", k), k, v) for k, v in (d.get("variables") or {}).items()),
            player_variables=tuple(self.var(doc, ("player_variables", k), k, v) for k, v in (d.get("player_variables") or {}).items()),
            card_kinds=tuple(kinds), zones=zones,
            events=tuple(M.EventDef(e, self.params(doc, ("events", e, "params"), (ed or {}).get("params")), doc.key_span(("events", e)))
                         for e, ed in (d.get("events") or {}).items()),
            procedures=tuple(M.ProcedureDef(p, self.params(doc, ("procedures", p, "params"), pd.get("params")),
                                            self.source(doc, ("procedures", p, "effect"), pd["effect"]), doc.key_span(("procedures", p)),
                                            self.names(pd["name"]) if "name" in pd else None)
                             for p, pd in (d.get("procedures") or {}).items()),
            actions=tuple(actions),
            setup=self.source(doc, ("flow", "setup"), flow["setup"]),
            round=self.source(doc, ("flow", "round"), flow["round"]),
            end_when=self.source(doc, ("flow", "end_when"), flow["end_when"]),
            max_rounds=flow.get("max_rounds", 100),
            max_decisions=flow.get("max_decisions", M.MAX_DECISIONS),
            scoring=self.scoring(doc, flow["scoring"]),
            score=score["resource"],
            tiebreak=tuple(self.source(doc, ("score", "tiebreak", i), t) for i, t in enumerate(score.get("tiebreak") or ())),
            evaluation=self.source(doc, ("score", "evaluation"), score.get("evaluation")),
            live=self.source(doc, ("score", "live"), score.get("live")),
            view=self.view(doc, d.get("view")),
            span=Span(doc.file, 1, 1),
            options=tuple(M.OptionDef(o, od["default"], od.get("description", ""), doc.key_span(("options", o)))
                          for o, od in (d.get("options") or {}).items()),
            provisional=tuple((what, reason, doc.key_span(("provisional", what)))
                              for what, reason in (d.get("provisional") or {}).items()),
            sources=self.game_sources(doc),
            functions=tuple(M.FunctionDef(f, self.params(doc, ("functions", f, "params"), fd.get("params")),
                                          self.source(doc, ("functions", f, "value"), fd["value"]), doc.key_span(("functions", f)),
                                          self.names(fd["text"]) if "text" in fd else None)
                            for f, fd in (d.get("functions") or {}).items()),
        )

    def scoring(self, doc: Document, value: Any) -> tuple[M.ScoringPart, ...]:
        """``flow.scoring``: one text (one part), or its parts in order (the schema has checked the shape)."""
        if not isinstance(value, list):
            return (M.ScoringPart("scoring", None, self.source(doc, ("flow", "scoring"), value)),)
        return tuple(M.ScoringPart(str(part["part"]), self.names(part["name"]) if "name" in part else None,
                                   self.source(doc, ("flow", "scoring", i, "effect"), part["effect"]))
                     for i, part in enumerate(value))

    def view(self, doc: Document, v: Optional[dict]) -> M.ViewDef:
        """The ``view:`` section (the schema has checked its shape), names with their spans."""
        if not v:
            return M.ViewDef()

        def names(key: str) -> tuple:
            return tuple((n, doc.span(("view", key, i))) for i, n in enumerate(v.get(key) or ()))
        facts = tuple((kind, doc.key_span(("view", "facts", kind)),
                       tuple((f, doc.span(("view", "facts", kind, i))) for i, f in enumerate(fs or ())))
                      for kind, fs in (v.get("facts") or {}).items())
        def texts(key: str) -> tuple:
            return tuple((str(k), self.names(t), doc.key_span(("view", key, k))) for k, t in (v.get(key) or {}).items())
        return M.ViewDef(facts, names("board"), names("player"), names("count"), span=doc.key_span(("view",)),
                         prompts=texts("prompts"), reveal=names("reveal"), working=names("working"), words=texts("words"),
                         totals=tuple((str(z), str(var["sum"] if isinstance(var, dict) else var), doc.key_span(("view", "totals", z)))
                                      for z, var in (v.get("totals") or {}).items()),
                         limits=tuple((str(z), self.source(doc, ("view", "totals", z, "at_most"), var["at_most"]),
                                       self.names(var["for"]) if "for" in var else None, doc.key_span(("view", "totals", z)))
                                      for z, var in (v.get("totals") or {}).items() if isinstance(var, dict) and "at_most" in var),
                         rounds=self.source(doc, ("view", "rounds"), v.get("rounds")))

    # ------------------------------------------------------------ checks
    def error(self, message: str, span: Span, hint: Optional[str] = None) -> None:
        self.problems.add(ContentError(message, span, hint))

    def error_breaking(self, message: str, span: Span, hint: Optional[str] = None) -> None:
        """An error in what the rules are compiled against (a type, a name, a zone's kind):
        compiling them would only echo it, so they are not compiled (if it is shown)."""
        before = len(self.problems.errors)
        self.error(message, span, hint)
        if len(self.problems.errors) > before:
            self.problems.declarations_broken = True

    def check_game(self, doc: Document) -> None:
        """What the schema cannot say about a game file (meeple.loading.gamecheck):
        types exist, defaults fit them, names are unique, numbers are consistent.
        Each error points at the YAML that has to change; they are told in the
        order of the file."""
        first = len(self.problems.errors)
        for check in GAME_CHECKS:
            check(self, doc)
        self.problems.errors[first:] = sorted(self.problems.errors[first:], key=lambda e: (e.span.line, e.span.col))

    RESERVED_CARD_KEYS = {"id", "name", "copies", "per_player", "starts_in", "text", "hooks", "triggers", "actions",
                          "provisional", "sources"}

    def cards(self, doc: Document, game: Optional[M.GameDef], list_key: str = "cards") -> list[M.CardDef]:
        """The cards listed under ``list_key`` ('cards', or 'replace' in a pack that extends another)."""
        d = doc.data
        kind_name = d["card_kind"]
        kind = next((k for k in game.card_kinds if k.name == kind_name), None) if game else None
        if game and kind is None:
            if list_key == "cards":      # reported once per file
                self.problems.add(ContentError(f"unknown card kind '{kind_name}'", doc.span(("card_kind",)),
                                               suggest(kind_name, [k.name for k in game.card_kinds])))
                self.problems.left_out |= file_names("cards", d)      # its cards are left out
            return []
        out = []
        file_sources = {str(k): v for k, v in (d.get("sources") or {}).items()}
        if list_key == "cards":      # checked once per file
            for what, cite in file_sources.items():
                self.check_source_key(what, kind, doc.key_span(("sources", what)), f"cards of {doc.file}")
                self.check_citation(cite, doc.span(("sources", what)), f"sources: {what}")
        for i, c in enumerate(d.get(list_key) or ()):
            path = (list_key, i)
            fields: dict[str, Any] = {}
            spans = []
            declared = {f.name: f for f in kind.fields} if kind else {}
            for key, value in c.items():
                if key in self.RESERVED_CARD_KEYS:
                    continue
                if not isinstance(key, str):
                    self.problems.add(ContentError(f"card '{c['id']}': a key must be a field name, not {yaml_words(key)}", doc.key_span(path + (key,))))
                    continue
                if kind and key not in declared:
                    self.problems.add(ContentError(f"card '{c['id']}': '{key}' is not a field of {kind_name}",
                                                   doc.key_span(path + (key,)),
                                                   suggest(str(key), list(declared) + sorted(self.RESERVED_CARD_KEYS))))
                    continue
                fields[key] = value
                spans.append((key, doc.span(path + (key,))))
            if kind:
                for f in kind.fields:
                    if f.name not in fields:
                        if f.default is None and not f.type.nullable:
                            self.problems.add(ContentError(f"card '{c['id']}' lacks the field '{f.name}'", doc.span(path + ("id",))))
                            fields[f.name] = 0
                        elif isinstance(f.default, str) and f.default.startswith("="):
                            fields[f.name] = ("copy", f.default[1:])
                        else:
                            fields[f.name] = f.default
                for name, value in list(fields.items()):
                    if isinstance(value, tuple) and value[0] == "copy":
                        fields[name] = fields.get(value[1])
                hooks = c.get("hooks") or {}
                for h in hooks:
                    if h not in kind.hooks:
                        self.problems.add(ContentError(f"'{h}' is not a hook of {kind_name} (declared: {', '.join(kind.hooks) or 'none'})",
                                                       doc.key_span(path + ("hooks", h)), suggest(h, kind.hooks)))
            out.append(M.CardDef(
                id=c["id"], kind=kind_name, names=self.names(c["name"]),
                copies=c.get("copies", 0 if c.get("per_player") else 1), per_player=c.get("per_player", 0),
                starts_in=c.get("starts_in"),
                fields=tuple(fields.items()), text=self.names(c.get("text", "")), text_sources=self.text_sources(doc, path, c.get("text")),
                hooks=tuple((h, self.source(doc, path + ("hooks", h), s)) for h, s in (c.get("hooks") or {}).items()),
                # A handler's span is its event name, so "unknown event" points at the name.
                handlers=tuple((e, self.source(doc, path + ("triggers", e), s, doc.key_span(path + ("triggers", e))))
                               for e, s in (c.get("triggers") or {}).items()),
                actions=tuple(self.action(doc, path + ("actions", j), a, "", c["id"]) for j, a in enumerate(c.get("actions") or ())),
                provisional=tuple((c.get("provisional") or {}).items()),
                span=doc.span(path + ("id",)), field_spans=tuple(spans),
                sources=self.card_sources(doc, path, c, kind, file_sources),
            ))
        return out

