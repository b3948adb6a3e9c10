"""Positions survive YAML loading; duplicate keys and syntax errors are located."""
import pytest

from meeple.core.errors import ContentError, render
from meeple.loading.yamlsrc import load_yaml_text


def test_spans_and_block_origins():
    doc = load_yaml_text("a: 1\nb:\n  - x\n  - effect: |\n      gain 2 gold\n", "f.yaml")
    assert doc.data == {"a": 1, "b": ["x", {"effect": "gain 2 gold\n"}]}
    assert (doc.spans[("b", 0)].line, doc.spans[("b", 0)].col) == (3, 5)
    origin = doc.origins[("b", 1, "effect")]
    assert (origin.line, origin.col, origin.block) == (5, 7, True)


@pytest.mark.parametrize(
    "text, message, line, col",
    [
        ("a: 1\na: 2\n", "duplicate key 'a' (first at line 1)", 2, 1),
        ("a: [1, 2\n", "YAML syntax: expected ',' or ']', but got '<stream end>'", 2, 1),
        ("a: !!python/object:os.system x\n", "YAML: could not determine a constructor for the tag 'tag:yaml.org,2002:python/object:os.system'", 1, 4),
    ],
)
def test_bad_yaml_is_located(text, message, line, col):
    with pytest.raises(ContentError) as info:
        load_yaml_text(text, "f.yaml")
    err = info.value
    assert err.message == message
    assert (err.span.line, err.span.col) == (line, col)
    assert render(err, with_excerpt=False).startswith(f"f.yaml:{line}:{col}: error: ")


def test_folded_text_maps_columns_back_to_their_source_line():
    from meeple.dsl.parser import to_span
    doc = load_yaml_text("w: >-\n  first and\n  second\n", "f.yaml")
    origin = doc.origins[("w",)]
    assert doc.data["w"] == "first and second"
    assert origin.block and origin.style == ">"
    span = to_span(origin, 1, doc.data["w"].index("second") + 1, 6)
    assert (span.line, span.col) == (3, 3)
    span = to_span(origin, 1, 1, 5)
    assert (span.line, span.col) == (2, 3)
