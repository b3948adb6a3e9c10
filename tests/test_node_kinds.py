"""Every kind of node of the effect language (dsl/ast.py) is known to each table that
must know it: the phrase table (dsl/phrases.py: rules text), the renderer that reads the
checked records with it (``Renderer``, which names each kind it renders: ``A.Kind``) and
the Python generator (dsl/pygen.py: a method of one of its ``WRITERS`` writing it, 'g_' an
expression, 'w_' a statement of a run, 'i_' a statement that is an instruction of its own,
or ``WRITTEN_ELSEWHERE`` saying what runs it).
A node added to the language and forgotten in one of them fails here, by name."""
import inspect
import re

from meeple.dsl import ast as A
from meeple.dsl.phrases import PHRASES, Renderer
from meeple.dsl.pygen import WRITERS, WRITTEN_ELSEWHERE


def node_kinds(namespace: dict) -> list[str]:
    """The kinds of node defined in ``namespace`` (a module's ``vars``): the subclasses of Node."""
    return sorted(name for name, c in namespace.items()
                  if inspect.isclass(c) and issubclass(c, A.Node) and c is not A.Node)


def unphrased(kinds: list[str]) -> list[str]:
    """The kinds with no phrase in dsl/phrases.py."""
    return [k for k in kinds if k not in PHRASES]


def unrendered(kinds: list[str]) -> list[str]:
    """The kinds the renderer of dsl/phrases.py never names (``A.Kind``: it tells a record's
    node by its kind)."""
    source = inspect.getsource(Renderer)
    return [k for k in kinds if not re.search(rf"\bA\.{k}\b", source)]


def unwritten(kinds: list[str]) -> list[str]:
    """The kinds no writer of dsl/pygen.py writes ('g_', 'w_' or 'i_' method) and WRITTEN_ELSEWHERE does not list."""
    return [k for k in kinds
            if not any(hasattr(w, p + k) for w in WRITERS for p in PREFIXES) and k not in WRITTEN_ELSEWHERE]


PREFIXES = ("g_", "w_", "i_")
KINDS = node_kinds(vars(A))
TABLES = [("phrases", unphrased), ("renderer", unrendered), ("pygen", unwritten)]


def test_the_language_has_its_kinds_of_node():
    assert len(KINDS) > 30 and {"Binary", "Call", "ForEach", "PlayActions"} <= set(KINDS)


def test_every_kind_of_node_has_a_phrase_and_a_way_to_be_generated():
    missing = {table: check(KINDS) for table, check in TABLES}
    assert missing == {"phrases": [], "renderer": [], "pygen": []}, f"kinds of node missing from a table: {missing}"


def test_a_new_kind_of_node_is_named_as_missing_from_each_table():
    """The check can fail: a kind of node added to the language is reported by every table
    that does not know it."""
    class Teleport(A.Node):
        pass
    kinds = node_kinds({**vars(A), "Teleport": Teleport})
    assert "Teleport" in kinds
    assert {table: check(kinds) for table, check in TABLES} == {"phrases": ["Teleport"], "renderer": ["Teleport"],
                                                                 "pygen": ["Teleport"]}


def test_the_generator_names_only_kinds_of_node():
    """Its methods and its table name kinds that exist (none left behind by a renamed node),
    and no kind is both written and said to be written elsewhere."""
    methods = {name[2:] for w in WRITERS for name in vars(w) if name.startswith(PREFIXES)}
    assert sorted(methods - set(KINDS)) == []
    assert sorted(set(WRITTEN_ELSEWHERE) - set(KINDS)) == []
    assert sorted(methods & set(WRITTEN_ELSEWHERE)) == []
