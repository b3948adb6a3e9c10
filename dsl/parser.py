"""Parse DSL text into the located AST of ``meeple.dsl.ast``.

The Lark parser is built once per process (LALR, with an indenter so blocks
read like Python). The transformer only builds nodes; it never raises domain
errors (Lark would wrap them in VisitError). Syntax errors become
``DslSyntaxError`` at the YAML file's line and column, and so do texts past the
limits of ``meeple.dsl.limits`` (too long, nested too deep, a number too large), found
before any pass over the tree could recurse too deep.
"""
from __future__ import annotations

import hashlib
import os
import pkgutil
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter

from .errors import DslSyntaxError, Span
from .limits import MAX_DEPTH, MAX_INT, MAX_TEXT
from .source import TextOrigin, position
from .treecache import TreeCache

from .builder import TooDeep, TooLarge, build


class _BadDedent(Exception):
    """A line indented less than its block but not as far as any outer block."""

    def __init__(self, line: int, indent: int, levels: list[int]):
        super().__init__(line)
        self.line, self.indent, self.levels = line, indent, levels


class _DslIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8

    def handle_NL(self, token: Token):
        # Lark raises a bare DedentError without a position; say where instead.
        levels = list(self.indent_level)
        try:
            yield from super().handle_NL(token)
        except DedentError:
            indent_str = token.rsplit("\n", 1)[1]
            raise _BadDedent(token.end_line, len(indent_str), levels) from None


_LARK_OPTIONS = dict(parser="lalr", start=["start", "expr_start", "binder_start"], propagate_positions=True,
                     maybe_placeholders=True)


@lru_cache(maxsize=1)
def _parser() -> Lark:
    """The LALR parser, loaded from the user's cache when it holds one for this very grammar
    (building the tables takes a few tenths of a second; loading them, a hundredth)."""
    cache = _cache_file()
    # With a cache file, Lark checks the hash of the grammar, the options and its own version
    # written at the head of the file, and builds afresh (and rewrites the file) on any
    # mismatch, or when the file cannot be read whole (another process writing it meanwhile).
    parser = Lark.open_from_package(__package__, "grammar.lark", ("",), postlex=_DslIndenter(),
                                    cache=str(cache) if cache is not None else False, **_LARK_OPTIONS)
    _pass_single_children(parser)
    return parser


def _pass_single_children(parser: Lark) -> None:
    """A '?rule' alternative that is one other rule (``?expr: or_test``) hands that rule's tree
    on unchanged: Lark's callback (filter the children, keep the single one, fill in positions
    it already has) comes to ``children[0]``. The grammar's precedence chain makes these most
    of the reductions; calling nothing for them saves a fifth of the parse. Left as Lark made
    them if Lark's insides are not as expected."""
    from lark.grammar import NonTerminal
    callbacks = getattr(parser, "_callbacks", None)
    inner = getattr(getattr(getattr(parser, "parser", None), "parser", None), "parser", None)
    if not isinstance(callbacks, dict) or getattr(inner, "callbacks", None) is not callbacks:
        return
    for rule in list(callbacks):
        options = getattr(rule, "options", None)
        if (getattr(options, "expand1", False) and len(rule.expansion) == 1 and isinstance(rule.expansion[0], NonTerminal)
                and not any(getattr(options, "empty_indices", None) or ())):
            callbacks[rule] = _first


def _first(children: list) -> Any:
    return children[0]


def _cache_file() -> Optional[Path]:
    """Where this grammar's parser tables are kept between runs, or None not to keep them.

    Lark's own cache (``cache=PATH``): a file that Lark checks against a hash of the grammar
    and options, holding a pickle. As a pickle runs code when loaded, it is only read from a
    folder of the user's own that no one else may write to ($MEEPLE_CACHE_DIR, else
    $XDG_CACHE_HOME/meeple or ~/.cache/meeple; never the shared temporary folder, which is what
    Lark's ``cache=True`` uses). The grammar's hash is in the file name, so two checkouts with
    different grammars do not overwrite each other's file. MEEPLE_CACHE_DIR="" keeps no cache.
    """
    try:
        folder = os.environ.get("MEEPLE_CACHE_DIR")
        if folder == "":
            return None
        if folder is None:
            base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
            if not os.path.isabs(base):
                return None
            folder = os.path.join(base, "meeple")
        root = Path(folder)
        root.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _private(root):
            return None
        grammar = pkgutil.get_data(__package__, "grammar.lark")      # read as Lark reads it
        if grammar is None:
            return None
        import lark
        key = hashlib.sha256(grammar + repr((lark.__version__, sys.version_info[:2], _LARK_OPTIONS)).encode()).hexdigest()
        cache = root / f"dsl-grammar-{key[:20]}.lark"
        if cache.exists() and not _private(cache):
            return None
        return cache
    except (OSError, RuntimeError, ValueError):
        return None


@lru_cache(maxsize=1)
def _tree_cache() -> TreeCache:
    """The trees kept between runs (``meeple.dsl.treecache``), in a file beside the parser's
    tables whose name holds a hash of the grammar's file name and of the code that builds
    and stores trees; none when there is no private cache folder."""
    tables = _cache_file()
    if tables is None:
        return TreeCache(None)
    try:
        h = hashlib.sha256(tables.name.encode())
        for module in ("ast.py", "builder.py", "parser.py", "treecache.py"):
            h.update(pkgutil.get_data(__package__, module) or b"")
        path = tables.with_name(f"dsl-trees-{h.hexdigest()[:20]}.json")
        if path.exists() and not _private(path):
            return TreeCache(None)
        return TreeCache(path)
    except (OSError, RuntimeError, ValueError):
        return TreeCache(None)


def _private(path: Path) -> bool:
    """Owned by this user, and writable by no one else (where the system has owners)."""
    st = path.stat()
    if not hasattr(os, "getuid"):
        return True
    return st.st_uid == os.getuid() and not st.st_mode & 0o022


_EXPECTED_NAMES = {
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block", "NAME": "a name",
    "INT": "a number", "STRING": "a quoted text", "COMPARE": "a comparison", "$END": "end of text",
    "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '/' or '%'",
}


# Tokens that continue an expression: when many are possible, "an operator" says it.
_OPERATORS = {"COMPARE", "ADD_OP", "MUL_OP", "MINUS", "AND", "OR", "IN", "IS", "NOT", "DOT", "__ANON_0", "OF"}


# Words that start a statement: when most are possible, "a statement" says it.
_STATEMENT_WORDS = {"GAIN", "LOSE", "GIVE", "PAY", "TAKE", "SET", "LET", "MOVE", "DRAW", "SHUFFLE", "SWAP", "CHOOSE",
                    "MAY", "CALL", "DO", "EMIT", "PLAY", "LOG", "REQUIRE", "STOP", "FOR", "REPEAT", "WHILE", "AS", "IF",
                    "ROLL"}


# Tokens that start a value: when most are possible, "a value" says it.
_VALUE_STARTS = {"LPAR", "MINUS", "LSQB", "FALSE", "TRUE", "ME", "NONE", "THIS", "NAME", "INT", "STRING", "IF", "NOT"}


@lru_cache(maxsize=1)
def _literal_names() -> dict[str, str]:
    """Token name -> how it is written, for every fixed word and sign of the grammar ('to', '[', '..')."""
    from lark.lexer import PatternStr
    return {t.name: repr(t.pattern.value) for t in _parser().terminals if isinstance(t.pattern, PatternStr)}


def to_span(origin: TextOrigin, line: int, col: int, length: int = 1) -> Span:
    """Map a (line, col) inside DSL text to the YAML file. In a quoted, plain or '>' scalar
    whose text is not its source (escapes, folded lines) the place is found by reading the
    source again; where that cannot be told, the start of the scalar (never a wrong line)."""
    if origin.raw:
        found = position(origin, line, col)
        if found is None:
            return Span(origin.file, origin.line, origin.col - (1 if origin.style in ('"', "'") else 0), 1)
        last = position(origin, line, col + max(length, 1) - 1)
        width = last[1] - found[1] + 1 if last is not None and last[0] == found[0] and last[1] >= found[1] else 1
        return Span(origin.file, found[0], found[1], width)
    if origin.block:
        return Span(origin.file, origin.line + line - 1, origin.col + col - 1, length)
    if line == 1:
        return Span(origin.file, origin.line, origin.col + col - 1, length)
    return Span(origin.file, origin.line + line - 1, col, length)


def _describe(expected: set[str]) -> str:
    """Lark's expected token names, as words: 'end of line', "':'", 'a name', an operator..."""
    literal = _literal_names()
    expected = set(expected)
    words: list[str] = []
    if len(expected & _STATEMENT_WORDS) >= 10:
        expected -= _STATEMENT_WORDS
        words.append("a statement (gain, set, move, if, for each, ...)")
    if len(expected & _VALUE_STARTS) >= 5:
        expected -= _VALUE_STARTS
        words.append("a value (a number, a name, a quoted text, ...)")
    if len(expected) > 6 and len(expected & _OPERATORS) >= 3:
        expected -= _OPERATORS
        words.append("an operator")
    names = sorted({_EXPECTED_NAMES.get(e) or literal.get(e) or e.lower().strip("_") for e in expected})
    names = words + names
    if len(names) > 8:
        return ", ".join(names[:8]) + ", ..."
    return ", ".join(names) if len(names) < 2 else ", ".join(names[:-1]) + " or " + names[-1]


def _code_end(line: str) -> int:
    """Column just after the end of the code on a line (before a comment and trailing blanks)."""
    code, in_text = [], False
    for ch in line:
        if ch == '"':
            in_text = not in_text
        elif ch == "#" and not in_text:
            break
        code.append(ch)
    return len("".join(code).rstrip()) + 1


# Trees of texts already parsed in this process, by (text, start rule): the same texts come
# again (a base game's texts in every pack that extends it; a function's body wherever it is
# used). A tree holds positions inside its text only, never the file (the origin is only read
# for errors, which are never kept here), and its nodes are frozen, so it is safely shared.
_TREES: dict[tuple[str, str], Any] = {}


_TREES_MAX = 20_000


def parse(text: str, origin: TextOrigin, start: str = "start") -> Any:
    """Parse statements (``start``), one expression or a binder; raise DslSyntaxError.
    A text longer than MAX_TEXT is refused before it is read."""
    if len(text) > MAX_TEXT:
        raise DslSyntaxError(f"this text is {len(text):,} chars long; a text of the effect language has at most {MAX_TEXT:,}",
                             to_span(origin, 1, 1), "split it into procedures or functions")
    key = (text, start)
    tree = _TREES.get(key)
    if tree is None:
        kept = _tree_cache()
        tree = kept.get(text, start)
        if tree is None:
            tree = _parse(text, origin, start)
            kept.put(text, start, tree)
        if len(_TREES) >= _TREES_MAX:
            _TREES.clear()
        _TREES[key] = tree
    return tree


def _parse(text: str, origin: TextOrigin, start: str) -> Any:
    src = text if text.endswith("\n") else text + "\n"
    try:
        tree = _parser().parse(src, start=start)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, src, origin) from None
    except _BadDedent as exc:
        outer = " or ".join(str(n) for n in exc.levels)
        raise DslSyntaxError(f"this line is indented by {exc.indent}, which matches no enclosing block (indented by {outer})",
                             to_span(origin, exc.line, exc.indent + 1)) from None
    try:
        return build(tree)
    except TooDeep as exc:
        meta = exc.meta
        raise DslSyntaxError(f"nested too deeply: more than {MAX_DEPTH} levels (brackets, operators, 'not', 'if', blocks, ...)",
                             to_span(origin, meta.line, meta.column), "name an inner part with 'let', or move it into a procedure") from None
    except TooLarge as exc:
        tok = exc.token
        shown = str(tok) if len(tok) <= 24 else f"{tok[:12]}... ({len(tok):,} digits)"
        raise DslSyntaxError(f"number {shown} is too large: numbers are at most {MAX_INT:,}",
                             to_span(origin, tok.line, tok.column, len(tok))) from None


def _syntax_error(exc: UnexpectedInput, src: str, origin: TextOrigin) -> DslSyntaxError:
    lines = src.splitlines() or [""]
    if isinstance(exc, UnexpectedCharacters):
        ch = src[exc.pos_in_stream] if exc.pos_in_stream < len(src) else ""
        if ch == '"':
            return DslSyntaxError("this quoted text does not end on its line", to_span(origin, exc.line, exc.column),
                                  'close it with "')
        return DslSyntaxError(f"unexpected symbol {ch!r}", to_span(origin, exc.line, exc.column))
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        if tok.type == "$END" or tok.type == "_DEDENT" and not str(tok).strip():
            last = max((i for i, l in enumerate(lines) if l.strip()), default=0)
            return DslSyntaxError(f"text ends too early; expected {_describe(exc.expected)}",
                                  to_span(origin, last + 1, _code_end(lines[last])))
        if tok.type == "_NL":
            line = tok.line
            col = _code_end(lines[line - 1]) if line - 1 < len(lines) else 1
            return DslSyntaxError(f"line ends too early; expected {_describe(exc.expected)}",
                                  to_span(origin, line, col))
        if tok.type == "_INDENT":
            line = tok.end_line
            indent = len(str(tok))
            return DslSyntaxError("unexpected indentation: only the lines after a ':' are indented",
                                  to_span(origin, line, indent + 1))
        before = lines[tok.line - 2].split("#")[0].rstrip() if tok.line >= 2 else ""
        if tok.column == 1 and before.endswith(":"):
            return DslSyntaxError("expected an indented block: indent the lines after ':'",
                                  to_span(origin, tok.line, 1, len(str(tok))))
        starts_line = tok.line <= len(lines) and not lines[tok.line - 1][:tok.column - 1].strip()
        if starts_line and tok.line > 1 and tok.type in _OPERATORS | {"AND", "OR", "THEN", "ELSE"}:
            return DslSyntaxError(f"unexpected {str(tok)!r} at the start of a line", to_span(origin, tok.line, tok.column, len(str(tok))),
                                  "an expression ends with its line; to go on, put it in ( )")
        return DslSyntaxError(f"unexpected {str(tok)!r}; expected {_describe(exc.expected)}",
                              to_span(origin, tok.line, tok.column, len(str(tok))))
    if isinstance(exc, UnexpectedEOF):
        return DslSyntaxError("text ends too early", to_span(origin, len(lines), 1))
    return DslSyntaxError(str(exc), to_span(origin, getattr(exc, "line", 1), getattr(exc, "column", 1)))
