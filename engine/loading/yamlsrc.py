"""Safe YAML loading that keeps every value's file, line and column.

PyYAML's safe composer gives nodes with marks; we build plain Python values
from them and keep, beside them, a map from each value's path (a tuple of keys
and indices, like a JSON pointer) to its span. Duplicate keys are errors
(PyYAML would silently keep the last). For block scalars (``|``) we also keep
the indentation so DSL positions inside the text map back to the file.

Whatever the text, loading ends in a document or a located ContentError:
files over the size limit are refused before they are read, nesting and
aliases are bounded before values are built (meeple.loading.limits), a scalar PyYAML
cannot build (``2024-02-30``, ``!!float x``) names its text, and numbers lie
within +-MAX_INT and are finite.
"""
from __future__ import annotations

import datetime
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

import yaml

from meeple.dsl.source import TextOrigin  # noqa: F401  (re-export: the language maps DSL positions with it)

from meeple.core.errors import ContentError, Span, remember_source
from meeple.loading.limits import MAX_ALIAS_COPIES, MAX_FILE_BYTES, MAX_INT, MAX_YAML_DEPTH
from meeple.core.outputs import open_regular

Path_ = tuple


@dataclass
class Document:
    """A loaded YAML file: its data plus the span of every value and key."""

    file: str
    data: Any
    spans: dict[Path_, Span] = field(default_factory=dict)
    key_spans: dict[Path_, Span] = field(default_factory=dict)
    origins: dict[Path_, TextOrigin] = field(default_factory=dict)

    def span(self, path: Path_) -> Span:
        """The span of the value at ``path`` or of its nearest parent."""
        path = tuple(path)
        while path not in self.spans and path:
            path = path[:-1]
        return self.spans.get(path, Span(self.file, 1, 1))

    def key_span(self, path: Path_) -> Span:
        return self.key_spans.get(tuple(path)) or self.span(path)


def _span(file: str, node: yaml.Node) -> Span:
    sm, em = node.start_mark, node.end_mark
    length = em.index - sm.index if em.line == sm.line else max(1, len(_first_line(node)))
    return Span(file, sm.line + 1, sm.column + 1, max(1, length))


def _first_line(node: yaml.Node) -> str:
    buf = node.start_mark.buffer or ""
    start = node.start_mark.index
    end = buf.find("\n", start)
    return buf[start:end if end >= 0 else len(buf)]


_STR_TAG = "tag:yaml.org,2002:str"
_INT_TAG = "tag:yaml.org,2002:int"
_TAG_WORDS = {_INT_TAG: "a whole number", "tag:yaml.org,2002:float": "a number", "tag:yaml.org,2002:bool": "true or false",
              "tag:yaml.org,2002:timestamp": "a date", "tag:yaml.org,2002:binary": "base64 data",
              "tag:yaml.org,2002:null": "nothing"}
# An integer written with more chars than this is out of range whatever it says
# (MAX_INT has 16 digits, 50 in binary); its text is refused before int() reads it.
_MAX_NUMBER_TEXT = 100
# What a plain value (not a list or a mapping) may build to.
_PLAIN = (str, int, float, bool, type(None), bytes, datetime.date)


def _children(node: yaml.Node) -> list:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return []


def _shown(text: str) -> str:
    """A scalar's text for a message: quoted, and cut short when long."""
    return repr(text) if len(text) <= 40 else repr(text[:20]) + f"... ({len(text)} chars)"


def _out_of_range(text: str, span: Span) -> ContentError:
    return ContentError(f"the number {_shown(text)} is out of range: pack files hold numbers from -{MAX_INT} to {MAX_INT}", span)


def _too_deep(span: Span) -> ContentError:
    return ContentError(f"YAML nesting is deeper than {MAX_YAML_DEPTH} levels", span, "flatten the data")
_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


class _GiveWay(Exception):
    """The fast (libyaml) path met something it may read differently from PyYAML: the pure path decides."""


class _Builder:
    def __init__(self, file: str, text: str, fast: bool = False):
        self.file = file
        self.text = text
        self.lines = text.splitlines()
        self.doc = Document(file, None)
        self.constructor = yaml.SafeLoader("")
        self.active: set[int] = set()     # collections being built (an alias to one is a cycle)
        # libyaml's marks carry no buffer: spans are computed from line and column instead
        # (the same numbers: the fast path only takes text whose only line break is '\n'
        # and that holds no BOM, where PyYAML's index and column move together).
        self.fast = fast
        self.offsets: list[int] = []
        if fast:
            at = 0
            for line in text.split("\n"):
                self.offsets.append(at)
                at += len(line) + 1

    def _span(self, node: yaml.Node) -> Span:
        if not self.fast:
            return _span(self.file, node)
        sm, em = node.start_mark, node.end_mark
        if em.line == sm.line:
            length = em.column - sm.column
        else:
            start = self.offsets[sm.line] + sm.column
            end = self.text.find("\n", start)
            length = max(1, end - start)    # a node spanning lines has a '\n' after its start
        return Span(self.file, sm.line + 1, sm.column + 1, max(1, length))

    def document(self, node: Optional[yaml.Node]) -> Document:
        """The document of a composed file (``None``: an empty file)."""
        if node is not None:
            if "&" in self.text:          # no anchor, no alias: nothing to count
                self._count_copies(node)
            self.doc.data = self.build(node, ())
        return self.doc

    def _count_copies(self, root: yaml.Node) -> None:
        """Refuse aliases that repeat more than MAX_ALIAS_COPIES values, before any is built.

        One pass over the distinct nodes gives each the number of values it
        stands for; a second, in document order, adds that number at every
        repeat (an alias) and stops at the first repeat past the limit."""
        size: dict[int, int] = {}
        stack: list[tuple[yaml.Node, bool]] = [(root, False)]
        open_: set[int] = set()
        while stack:
            node, done = stack.pop()
            ident = id(node)
            if done:
                size[ident] = 1 + sum(size.get(id(k), 1) for k in _children(node))
                open_.discard(ident)
                continue
            if ident in size or ident in open_:
                continue                  # counted, or an alias to a value that contains it (reported when built)
            if isinstance(node, yaml.ScalarNode):
                size[ident] = 1
                continue
            open_.add(ident)
            stack.append((node, True))
            stack.extend((k, False) for k in _children(node))
        seen: set[int] = {id(root)}
        copies = 0
        walk = [root]
        while walk:
            node = walk.pop()
            for kid in reversed(_children(node)):
                if id(kid) in seen:
                    copies += size.get(id(kid), 1)
                    if copies > MAX_ALIAS_COPIES:
                        raise ContentError(f"aliases (*name) repeat more than {MAX_ALIAS_COPIES} values in this file",
                                           self._span(kid), "write the values out, or share less")
                    continue
                seen.add(id(kid))
                walk.append(kid)

    def build(self, node: yaml.Node, path: Path_) -> Any:
        self.doc.spans[path] = self._span(node)
        if len(path) >= MAX_YAML_DEPTH:
            if self.fast:
                raise _GiveWay()
            raise _too_deep(self._span(node))
        ident = id(node)
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
            if ident in self.active:
                raise ContentError("an alias (*name) refers to a value that contains it; YAML values cannot be recursive",
                                   self._span(node))
            if self.fast and node.flow_style and _flow_differs(node):
                raise _GiveWay()
            self.active.add(ident)
            try:
                return self._collection(node, path)
            finally:
                self.active.discard(ident)
        # a text is its node's value (what SafeConstructor.construct_yaml_str gives, without the bookkeeping)
        value = node.value if node.tag == _STR_TAG else self._scalar(node)
        if isinstance(value, str):
            self.doc.origins[path] = self._origin(node)
        return value

    def _scalar(self, node: yaml.ScalarNode) -> Any:
        """A value other than a text, refused (located, naming the text) if PyYAML cannot build it
        or if it is a number out of range."""
        tag, text = node.tag, node.value
        if tag == _INT_TAG and len(text) > _MAX_NUMBER_TEXT:
            raise _out_of_range(text, self._span(node))    # int() would refuse 4,301 digits, or take long
        try:
            value = self.constructor.construct_object(node)
        except yaml.constructor.ConstructorError as exc:
            mark = exc.problem_mark
            span = Span(self.file, mark.line + 1, mark.column + 1) if mark else self._span(node)
            problem = exc.problem or "invalid value"
            hint = "remove the tag: pack files hold plain values only" if "constructor for the tag" in problem else None
            raise ContentError(f"YAML: {problem}", span, hint) from None
        except Exception as exc:        # noqa: BLE001 - whatever a constructor raises (ValueError, KeyError, ...)
            raise self._unreadable(node, exc) from None
        if not isinstance(value, _PLAIN):     # a collection's tag on a plain value: '!!set x' builds an empty set
            short = node.tag.replace("tag:yaml.org,2002:", "!!")
            raise ContentError(f"YAML: the tag {short} does not go with a plain value such as {_shown(text)}",
                               self._span(node), "remove the tag: pack files hold plain values only")
        if type(value) is int:
            if not -MAX_INT <= value <= MAX_INT:
                raise _out_of_range(text, self._span(node))
        elif type(value) is float:
            if not math.isfinite(value):
                raise ContentError(f"YAML reads {_shown(text)} as a number that is not finite; pack files hold numbers "
                                   f"from -{MAX_INT} to {MAX_INT}", self._span(node), "put it in quotes to keep it as text")
            if not -MAX_INT <= value <= MAX_INT:
                raise _out_of_range(text, self._span(node))
        return value

    def _unreadable(self, node: yaml.ScalarNode, exc: Exception) -> ContentError:
        what = _TAG_WORDS.get(node.tag, f"a value of the tag '{node.tag}'")
        why = str(exc) if isinstance(exc, (ValueError, OverflowError)) and 0 < len(str(exc)) <= 80 else ""
        implicit = not node.style and self.constructor.resolve(yaml.ScalarNode, node.value, (True, False)) == node.tag
        if implicit:
            return ContentError(f"YAML reads {_shown(node.value)} as {what}, but it is not one" + (f" ({why})" if why else ""),
                                self._span(node), "put it in quotes to keep it as text")
        short = node.tag.replace("tag:yaml.org,2002:", "!!")
        return ContentError(f"YAML: {_shown(node.value)} is not {what}, as its tag {short} says",
                            self._span(node), "remove the tag: pack files hold plain values only")

    def _collection(self, node: yaml.Node, path: Path_) -> Any:
        if isinstance(node, yaml.MappingNode):
            out: dict[Any, Any] = {}
            for knode, vnode in node.value:
                if not isinstance(knode, yaml.ScalarNode):
                    raise ContentError("mapping keys must be plain values", self._span(knode))
                if knode.tag == "tag:yaml.org,2002:merge":
                    raise ContentError("YAML merge keys ('<<') are not supported", self._span(knode),
                                       "write the keys out")
                key = knode.value if knode.tag == _STR_TAG else self._scalar(knode)
                if key in out:
                    first = self.doc.key_spans.get(path + (key,))
                    where = f" (first at line {first.line})" if first else ""
                    raise ContentError(f"duplicate key '{key}'{where}", self._span(knode))
                self.doc.key_spans[path + (key,)] = self._span(knode)
                out[key] = self.build(vnode, path + (key,))
            return out
        return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]

    def _origin(self, node: yaml.ScalarNode) -> TextOrigin:
        sm = node.start_mark
        if node.style in ("|", ">"):
            # The text's first line is the line after the indicator (blank lines before the
            # text are lines of it); its indentation is that of the first non-blank line.
            first = sm.line + 1
            line = first
            while line < len(self.lines) and not self.lines[line].strip():
                line += 1
            indent = len(self.lines[line]) - len(self.lines[line].lstrip(" ")) if line < len(self.lines) else 0
            if node.style == "|":
                return TextOrigin(self.file, first + 1, indent + 1, True)
            # '>' folds lines: meeple.dsl.source reads its source again when an error needs a place
            em = node.end_mark
            if self.fast:
                start = self.offsets[first] if first < len(self.offsets) else len(self.text)
                raw = self.text[start:self.offsets[em.line] + em.column] if em.line < len(self.offsets) else self.text[start:]
            else:
                brk = _LINE_BREAK.search(self.text, sm.index)
                start = brk.end() if brk else len(self.text)
                raw = self.text[start:em.index]
            return TextOrigin(self.file, first + 1, indent + 1, True, raw=raw, style=">", text=node.value)
        quote = 1 if node.style in ("'", '"') else 0
        em = node.end_mark
        if em.line == sm.line and em.column - sm.column - 2 * quote == len(node.value):
            return TextOrigin(self.file, sm.line + 1, sm.column + 1 + quote, False)
        # escapes or folded lines: the text is not the source as written; keep the source
        # (meeple.dsl.source reads it again, only when an error needs a place in it)
        if self.fast:
            raw = self.text[self.offsets[sm.line] + sm.column:self.offsets[em.line] + em.column]
        else:
            raw = self.text[sm.index:em.index]
        return TextOrigin(self.file, sm.line + 1, sm.column + 1 + quote, False, raw=raw, style=node.style or "",
                          text=node.value)


def load_yaml(path: Path | str, display: str | None = None) -> Document:
    """Load one YAML file safely, keeping positions. Raises ContentError.

    A file over MAX_FILE_BYTES is refused before it is read (at most one byte
    more is read); the text of a file read is kept for error excerpts."""
    file = display or str(path)
    try:
        with open_regular(path) as f:      # a pipe or a device is refused, not waited on
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise ContentError(f"cannot read the file ({exc.strerror or exc})", Span(file, 0, 0)) from None
    if len(data) > MAX_FILE_BYTES:
        raise ContentError(f"the file is larger than {MAX_FILE_BYTES // 1024} KB, the limit for one pack file; it is not read",
                           Span(file, 0, 0), "split it into several files")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = data[:exc.start]
        line = before.count(b"\n") + 1
        col = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
        raise ContentError(f"file is not UTF-8 text (byte 0x{data[exc.start]:02X} here)", Span(file, line, col),
                           "save the file as UTF-8") from None
    remember_source(file, text)
    return load_yaml_text(text, file)


def load_value(text: str, file: str) -> Any:
    """One value written as YAML in a short text (a command line's ``VALUE``), with the
    checks of a pack file: the text itself when it is not YAML at all; a ContentError
    when it is YAML the loader refuses (a date that is no date, a number out of range)."""
    try:
        node = yaml.compose(text, Loader=_BoundedLoader)
    except _DeepNode as exc:
        raise _too_deep(Span(file, exc.mark.line + 1, exc.mark.column + 1)) from None
    except (yaml.YAMLError, RecursionError):
        return text
    return _Builder(file, text).document(node).data


def load_yaml_text(text: str, file: str) -> Document:
    if _CSafeLoader is not None and _fast_ok(text):
        doc = _load_fast(text, file)
        if doc is not None:
            return doc
    return _load_pure(text, file)


# libyaml (PyYAML's C extension) composes nodes several times faster than the pure-Python
# composer. It is used for text it reads exactly as PyYAML does (the same values, the same
# line and column on every node: tests/test_yamlsrc_libyaml.py checks every shipped file and
# many broken ones); anything else, and every file libyaml or the builder finds a problem in,
# goes through the pure-Python path, so every message and location is the pure path's own.
_CSafeLoader = getattr(yaml, "CSafeLoader", None) if getattr(yaml, "__with_libyaml__", False) else None

# Line breaks other than '\n', tabs (libyaml takes them in more places) and BOMs (PyYAML's
# column skips them, its index does not): the pure path only.
_SLOW_CHARS = ("\r", "\t", "\x85", "\u2028", "\u2029", "\ufeff")

# A tag (!!str, !x) where a value starts: libyaml ends a tag at a flow indicator (',', ']'),
# PyYAML does not. The DSL's '!=' (always with a space after) is no tag.
_TAG = re.compile(r"(?:^|[\s\[\]{},])!(?!= )")

# libyaml's composer recurses in C without Python's recursion limit: a file nested deeper
# than the C stack takes would crash the process. Every level of nesting needs one of
# '[' or '{' (a single-pair mapping inside '[...]' adds one more per '['), '- ', ': ' or
# '? ' (or the same before a line break or at the end): text where these are few cannot
# nest deep. Text with more (any big file) is first read by libyaml's parser, which keeps
# its own stack: the composer gets it only if it nests no deeper than MAX_YAML_DEPTH.
_FAST_MAX_INDICATORS = 5000


def _flow_differs(node: yaml.Node) -> bool:
    """Whether a flow collection ([...], {...}) holds what libyaml reads unlike PyYAML: an empty
    value (libyaml places it at the next ',' or '}', PyYAML just after the ':') or a plain
    value with '?' inside (libyaml reads `{faces?: 6}`, PyYAML refuses it)."""
    items = node.value if isinstance(node, yaml.SequenceNode) else [n for pair in node.value for n in pair]
    for item in items:
        if isinstance(item, yaml.ScalarNode) and not item.style and (not item.value or "?" in item.value):
            return True
    return False


def _fast_ok(text: str) -> bool:
    if text and not text.endswith("\n"):
        return False            # libyaml ends the last values on a line after the text, PyYAML on its last line
    for ch in _SLOW_CHARS:
        if ch in text:
            return False
    if "!" in text and _TAG.search(text):
        return False
    count = text.count
    bound = 2 * (count("[") + count("{"))
    if bound > _FAST_MAX_INDICATORS:
        return False
    bound += count("- ") + count("-\n") + count(": ") + count(":\n") + count("? ") + count("?\n") + 3
    return bound <= _FAST_MAX_INDICATORS or _shallow(text)


_OPEN = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
_CLOSE = (yaml.MappingEndEvent, yaml.SequenceEndEvent)


def _shallow(text: str) -> bool:
    """Whether libyaml's parser finds the text well formed and nested no deeper than MAX_YAML_DEPTH."""
    depth = 0
    try:
        for event in yaml.parse(text, Loader=_CSafeLoader):
            if isinstance(event, _OPEN):
                depth += 1
                if depth >= MAX_YAML_DEPTH:
                    return False
            elif isinstance(event, _CLOSE):
                depth -= 1
    except Exception:       # noqa: BLE001 - the pure path reports it
        return False
    return True


def _load_fast(text: str, file: str) -> Document | None:
    """The document through libyaml, or None to take the pure path (for any problem at all)."""
    try:
        node = yaml.compose(text, Loader=_CSafeLoader)
        return _Builder(file, text, fast=True).document(node)
    except Exception:       # noqa: BLE001 - the pure path reports it, in its own words
        return None


class _DeepNode(Exception):
    def __init__(self, mark: Any):
        super().__init__()
        self.mark = mark


class _BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader whose composer stops at MAX_YAML_DEPTH (its parser keeps its own
    stack), and whose scanner stops at a '[' or '{' that many brackets deep: it looks ahead
    for keys across every open bracket, which takes long where they are many."""

    depth = 0

    def fetch_flow_collection_start(self, token_class: Any) -> None:
        if self.flow_level >= MAX_YAML_DEPTH:
            raise _DeepNode(self.get_mark())
        super().fetch_flow_collection_start(token_class)

    def compose_node(self, parent: Any, index: Any) -> Any:
        self.depth += 1
        try:
            if self.depth > MAX_YAML_DEPTH:
                raise _DeepNode(self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


def _load_pure(text: str, file: str) -> Document:
    try:
        node = yaml.compose(text, Loader=_BoundedLoader)
    except _DeepNode as exc:
        raise _too_deep(Span(file, exc.mark.line + 1, exc.mark.column + 1)) from None
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(exc, file) from None
    except yaml.reader.ReaderError as exc:
        line, col = _line_col(text, exc.position)
        char = exc.character if isinstance(exc.character, str) else chr(exc.character)
        raise ContentError(f"YAML syntax: the code point U+{ord(char):04X} is not allowed in YAML text",
                           Span(file, line, col)) from None
    except yaml.YAMLError as exc:
        raise ContentError(f"YAML syntax: {exc}", Span(file, 1, 1)) from None
    except RecursionError:      # not expected with the bound above; never a traceback
        raise ContentError(f"YAML nesting is deeper than {MAX_YAML_DEPTH} levels", Span(file, 1, 1)) from None
    return _Builder(file, text).document(node)


# What PyYAML's contexts ("while parsing a flow mapping") are, for people.
_CONTEXTS = {
    "a flow mapping": "the {...} mapping", "a flow sequence": "the [...] list",
    "a block mapping": "the mapping", "a block collection": "the list", "a block node": "the value",
    "a flow node": "the value", "a node": "the value", "a quoted scalar": "the quoted text",
    "a simple key": "the key", "a block scalar": "the block text", "a plain scalar": "the value",
    "an anchor": "the anchor", "an alias": "the alias", "a tag": "the tag", "a directive": "the directive",
}
_FOUND = {"'?'": "a key", "'-'": "a list item", "'<scalar>'": "a value", "'<block mapping start>'": "an indented mapping",
          "'<block sequence start>'": "a list", "'<stream end>'": "the end of the file",
          "'{'": "'{'", "'['": "'['", "'}'": "'}'", "']'": "']'", "','": "','", "':'": "':'",
          "'<block end>'": "the end of the block", "'<alias>'": "an alias", "'<anchor>'": "an anchor"}


def _line_col(text: str, position: int) -> tuple[int, int]:
    before = text[:position]
    return before.count("\n") + 1, position - (before.rfind("\n") + 1) + 1


def _syntax_error(exc: yaml.MarkedYAMLError, file: str) -> ContentError:
    """PyYAML's message, in words a designer knows, at the place it noticed."""
    mark = exc.problem_mark or exc.context_mark
    span = Span(file, mark.line + 1, mark.column + 1) if mark else Span(file, 1, 1)
    problem = (exc.problem or exc.context or "invalid YAML").strip()
    context = (exc.context or "").strip()
    hint = None
    where = ""
    block = "the block"
    cm = exc.context_mark
    for prefix in ("while parsing ", "while scanning "):
        if context.startswith(prefix):
            what = _CONTEXTS.get(context[len(prefix):])
            if what and cm is not None:
                block = f"{what} that starts at line {cm.line + 1}, column {cm.column + 1}"
                where = f" (in {block})"
    if problem.startswith("found character '\\t'"):
        return ContentError("YAML syntax: a tab; YAML indents with spaces only", span, "replace tabs by spaces")
    if problem.startswith("found character") and "cannot start any token" in problem:
        char = problem.split("'")[1] if "'" in problem else "?"
        return ContentError(f"YAML syntax: a value cannot start with '{char}'", span, "put the value in quotes")
    if problem == "mapping values are not allowed here":
        return ContentError("YAML syntax: unexpected ':' here", span,
                            "quote a value that contains ': ', and check the indentation")
    if problem == "could not find expected ':'":
        if context == "while scanning a simple key" and cm is not None:
            # The scanner gives up lines later; the line to fix is where the would-be key starts.
            return ContentError("YAML syntax: this line is not 'key: value', nor inside the text above it",
                                Span(file, cm.line + 1, cm.column + 1),
                                "check the indentation: the lines of a '|' text are indented at least as far as its first line")
        return ContentError(f"YAML syntax: expected 'key: value'{where}", span, "check the indentation and the quotes")
    if problem.startswith("expected <block end>, but found "):
        found = problem[len("expected <block end>, but found "):]
        if found in ("']'", "'}'"):
            return ContentError(f"YAML syntax: unexpected {found}", span, f"is there one {found} too many?")
        return ContentError(f"YAML syntax: found {_FOUND.get(found, found)} where {block} should end", span,
                            "check the indentation and the quotes")
    if problem == "but found another document":
        return ContentError("YAML syntax: a second document ('---') in one file", span, "one file holds one document")
    if problem == "found unexpected end of stream" and "quoted" in context:
        if cm is not None:
            span = Span(file, cm.line + 1, cm.column + 1)
        return ContentError("YAML syntax: these quotes are never closed", span, "close them on the same value")
    if context.startswith("while parsing a flow") and problem.endswith("but got '?'"):
        hint = "put a value with '?' in quotes, e.g. \"colour?\""
    elif context.endswith("a flow mapping") and problem.startswith("expected ',' or '}'"):
        hint = f"is the '}}' of {block} missing?"
    elif context.endswith("a flow sequence") and problem.startswith("expected ',' or ']'"):
        hint = f"is the ']' of {block} missing?"
    elif where:
        hint = where.strip(" ()")
    return ContentError(f"YAML syntax: {problem}", span, hint)
