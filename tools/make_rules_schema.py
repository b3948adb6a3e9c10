"""Writes schemas/rules.schema.json from schemas/game.schema.json: a rules file's
add: and override: sections are the game file's own (run from the repository
root after changing the game schema; tests/test_expansions.py checks they agree)."""
import json, copy
g = json.load(open('schemas/game.schema.json'))
P = g["properties"]
def partial(s):
    s = copy.deepcopy(s); s.pop("required", None); return s
add_sections = ["constants", "enums", "resources", "variables", "player_variables", "card_kinds", "zones", "events",
                "procedures", "functions", "options", "actions", "provisional", "sources", "view"]
over_sections = ["constants", "resources", "variables", "player_variables", "zones", "procedures", "functions",
                 "options", "actions", "provisional", "sources"]
add = {k: copy.deepcopy(P[k]) for k in add_sections}
# an existing card kind may get new fields, variables and hooks: nothing is required then
add["card_kinds"]["additionalProperties"] = partial(add["card_kinds"]["additionalProperties"])
over = {k: copy.deepcopy(P[k]) for k in over_sections}
over["players"] = partial(P["players"])
over["flow"] = partial(P["flow"])
over["score"] = partial(P["score"])
d = {
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://meeple.dev/schemas/rules.schema.json",
  "title": "meeple rules changes (kind: rules): what a pack that extends another adds to its rules and overrides",
  "type": "object",
  "properties": {
    "kind": {"const": "rules"},
    "add": {"type": "object", "description": "new names (an error if the extended packs have one): the sections of a game file; an existing card kind gets new fields, variables and hooks; an existing enum gets new values",
            "properties": add, "additionalProperties": False},
    "override": {"type": "object", "description": "replacements of existing names (an error if there is none): constants, procedures, functions, options, actions by id, flow steps, players, score",
                 "properties": over, "additionalProperties": False},
    "base_sha": {"type": "object", "description": "a fingerprint of the base text each override replaced (the first 8 hex digits meeple validate shows), by SECTION.NAME (procedures.turn, flow.round, actions.GROUP.ID): meeple validate warns when the base has changed since",
                 "additionalProperties": {"type": "string", "pattern": "^[0-9a-fA-F]{8}$"}},
  },
  "required": ["kind"],
  "additionalProperties": False,
}
json.dump(d, open('schemas/rules.schema.json', 'w'), indent=2, ensure_ascii=False)
open('schemas/rules.schema.json', 'a').write("\n")
