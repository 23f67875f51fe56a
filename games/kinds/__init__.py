"""Game kinds: the one registry of the games the service plays.

Each game lives in its own folder here, ``games/kinds/<kind>/``: ``engine/`` (its
rules, pure Python), its words, its statistics, its templates and template tags,
and ``kind.py``, which puts them together as the ``GameKind`` ``KIND`` (its parts
and their defaults: ``games/kinds/base.py``). The platform (services, pages,
emails, replies, the dashboard) reaches a game only through that object, found
by name in ``KINDS``; the engine's own tools (the scenario runner, random
playouts, the benchmark) reach a game's rules through ``rules_of``.

The registry is this package's ``__init__`` because the kinds are its
subpackages: a third game is a new folder beside the others and one line in
``PACKAGES``. Importing a kind's engine imports this module first, so it stays
pure Python and loads each kind's Django half (``kind.py``) only when the
platform asks for it: the scenario runner and the benchmark never import Django.
Each kind is also a Django app (``APPS``, listed in the settings) because Django
finds templates and template tag libraries only in installed apps.
"""

from collections.abc import Iterator, Mapping
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.engine.common import Rules
    from games.kinds.base import GameKind

# The one registry: each game kind's name (stored in ``Game.kind``) and its package.
PACKAGES = {
    "coup": "games.kinds.coup",
    "kobayakawa": "games.kinds.kobayakawa",
}
KIND_NAMES = tuple(PACKAGES)
# The game a new game is unless the host picks another: the first registered.
DEFAULT_KIND = KIND_NAMES[0]
APPS = tuple(PACKAGES.values())


class _Registry(Mapping):
    """``KINDS[name]``: the ``GameKind`` of that name, loaded on first use."""

    def __getitem__(self, kind: str) -> "GameKind":
        if kind not in PACKAGES:
            raise KeyError(kind)
        return _load(kind)

    def __iter__(self) -> Iterator[str]:
        return iter(PACKAGES)

    def __len__(self) -> int:
        return len(PACKAGES)


@cache
def _load(kind: str) -> "GameKind":
    return import_module(f"{PACKAGES[kind]}.kind").KIND


KINDS = _Registry()


def rules_of(kind: str) -> "Rules":
    """The pure-Python rules of a kind (the engine half of its ``GameKind``)."""
    return import_module(f"{PACKAGES[kind]}.engine").RULES


def kind_choices() -> list[tuple[str, Any]]:
    """``(kind, name)`` of every game, for the create form."""
    return [(game_kind.id, game_kind.name) for game_kind in KINDS.values()]


def variant_choices() -> list[tuple[str, str]]:
    """Every kind's variants, for the create form (ids are unique across kinds)."""
    return [choice for game_kind in KINDS.values() for choice in game_kind.about.variant_choices()]


def variant_name(variant: str) -> str:
    """The name of a variant of whichever kind offers it (the dashboard lists the
    variants of every game together)."""
    for game_kind in KINDS.values():
        if variant in game_kind.rules.variants:
            return game_kind.about.variant_names([variant])[0]
    return variant
