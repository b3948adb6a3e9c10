"""`meeple validate` of all five shipped packs at once, in process (nothing about time)."""
import json
import re

from click.testing import CliRunner

from meeple.cli import ExitCode, main

PACKS = ("citadels", "citadels-2016", "citadels-dark-city", "signorie", "troyes")


def test_all_shipped_packs_validate_together():
    r = CliRunner().invoke(main, ["validate", *PACKS], catch_exceptions=False)
    assert r.exit_code == ExitCode.OK, r.output
    # warnings, and the excerpt and caret under a located one (indented)
    summary = [line for line in r.output.splitlines()
               if not line.startswith(" ") and not line.split(": ")[1].startswith("warning")]
    valid = [line for line in summary if ": valid (" in line]
    assert [line.split(":")[0] for line in valid] == list(PACKS)
    assert "citadels-2016: load order citadels 1.0.0 -> citadels-2016 0.1.0" in summary
    assert "citadels-dark-city: load order citadels 1.0.0 -> citadels-dark-city 0.1.0" in summary
    for line in valid:
        assert re.search(r"; \d+ rule texts compiled\) in \d+\.\d\d s; \d+ provisional value\(s\)$", line), line
    assert not [line for line in r.output.splitlines() if ": error: " in line]


def test_the_same_packs_in_json_and_again_in_the_same_process():
    first = CliRunner().invoke(main, ["validate", *PACKS, "--format", "json"], catch_exceptions=False)
    again = CliRunner().invoke(main, ["validate", *PACKS, "--format", "json"], catch_exceptions=False)
    assert first.exit_code == again.exit_code == ExitCode.OK
    a, b = json.loads(first.output), json.loads(again.output)
    assert [x["pack"] for x in a] == list(PACKS) and all(x["valid"] for x in a)
    for x in a + b:
        x.pop("seconds")
    assert a == b
