"""Files to model: YAML read with positions, checked by the JSON Schemas, and packs assembled with the packs they extend, in that one direction."""
