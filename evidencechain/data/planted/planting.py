"""One planted error of a named class: the classes of `plant` and the value recombination of `values`."""
from __future__ import annotations

from ...text.parse import ParsedText
from .plant import Edit, plant_antonym, plant_modality, plant_polarity, plant_quantity, plant_roles
from .values import plant_recombination


def plant(cls: str, text: str, doc: ParsedText, rng, context: list[str]) -> Edit | None:
    if cls == "recombination":
        return plant_recombination(text, doc, rng, context)
    return {"polarity": plant_polarity, "antonym": plant_antonym, "roles": plant_roles,
            "quantity": plant_quantity, "modality": plant_modality}[cls](text, doc, rng)
