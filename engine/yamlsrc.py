"""Safe YAML loading that keeps every value's file, line and column.

PyYAML's safe composer gives nodes with marks; we build plain Python values
from them and keep, beside them, a map from each value's path (a tuple of keys
and indices, like a JSON pointer) to its span. Duplicate keys are errors
(PyYAML would silently keep the last). For block scalars (``|``) we also keep
the indentation so DSL positions inside the text map back to the file.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .errors import ContentError, Span

Path_ = tuple


@dataclass(frozen=True, slots=True)
class TextOrigin:
    """Where a scalar's text starts, to map offsets inside it to the file."""

    file: str
    line: int      # 1-based line of the first character of the text
    col: int       # 1-based column of the first character of the text
    block: bool    # literal/folded block: every line shares ``col``


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


class _Builder:
    def __init__(self, file: str, text: str):
        self.file = file
        self.lines = text.splitlines()
        self.doc = Document(file, None)
        self.constructor = yaml.SafeLoader("")

    def build(self, node: yaml.Node, path: Path_) -> Any:
        self.doc.spans[path] = _span(self.file, node)
        if isinstance(node, yaml.MappingNode):
            out: dict[Any, Any] = {}
            for knode, vnode in node.value:
                if not isinstance(knode, yaml.ScalarNode):
                    raise ContentError("mapping keys must be plain values", _span(self.file, knode))
                key = self.constructor.construct_object(knode)
                if key in out:
                    first = self.doc.key_spans.get(path + (key,))
                    where = f" (first at line {first.line})" if first else ""
                    raise ContentError(f"duplicate key '{key}'{where}", _span(self.file, knode))
                self.doc.key_spans[path + (key,)] = _span(self.file, knode)
                out[key] = self.build(vnode, path + (key,))
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        value = self.constructor.construct_object(node)
        if isinstance(value, str):
            self.doc.origins[path] = self._origin(node)
        return value

    def _origin(self, node: yaml.ScalarNode) -> TextOrigin:
        sm = node.start_mark
        if node.style in ("|", ">"):
            # Text starts on the next non-blank line, at that line's indentation.
            line = sm.line + 1
            while line < len(self.lines) and not self.lines[line].strip():
                line += 1
            indent = len(self.lines[line]) - len(self.lines[line].lstrip(" ")) if line < len(self.lines) else 0
            return TextOrigin(self.file, line + 1, indent + 1, True)
        quote = 1 if node.style in ("'", '"') else 0
        return TextOrigin(self.file, sm.line + 1, sm.column + 1 + quote, False)


def load_yaml(path: Path | str, display: str | None = None) -> Document:
    """Load one YAML file safely, keeping positions. Raises ContentError."""
    file = display or str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ContentError(f"file is not UTF-8 text ({exc.reason})", Span(file, 1, 1)) from None
    return load_yaml_text(text, file)


def load_yaml_text(text: str, file: str) -> Document:
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        span = Span(file, mark.line + 1, mark.column + 1) if mark else Span(file, 1, 1)
        msg = exc.problem or exc.context or "invalid YAML"
        raise ContentError(f"YAML syntax: {msg}", span) from None
    except yaml.YAMLError as exc:
        raise ContentError(f"YAML syntax: {exc}", Span(file, 1, 1)) from None
    builder = _Builder(file, text)
    if node is None:
        builder.doc.data = None
        return builder.doc
    try:
        builder.doc.data = builder.build(node, ())
    except yaml.constructor.ConstructorError as exc:
        mark = exc.problem_mark
        span = Span(file, mark.line + 1, mark.column + 1) if mark else Span(file, 1, 1)
        raise ContentError(f"YAML: {exc.problem}", span) from None
    return builder.doc
