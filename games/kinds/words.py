"""How each game is presented: one module per game kind, found by ``Game.kind``.

The shared code (pages, emails, one-click answers, replies by email, replays,
the dashboard) knows nothing of a game's cards or decisions: it asks the
presenter of the game's kind for the words (history sentences, decision prompts,
button labels, reply words), the table its templates show, the templates
themselves and the rules summary. Adding a game is adding an engine and a
presenter; no shared module branches on the kind.

Every presenter reads only what the engine's ``view(state, viewer)`` and the
viewer's copy of the event log let through, so it cannot show more than the
engine allows.
"""

from dataclasses import dataclass, field


@dataclass
class Reply:
    """What a line written in a reply means: the one legal ``option`` it names, or
    why it cannot be played (``reason`` for the log, ``problem`` for the player, in
    the active language) and what was read (``understood``)."""

    option: dict | None = None
    reason: str = ""
    problem: str = ""
    understood: str = ""
    candidates: list = field(default_factory=list)


def presenter_for(kind):
    """The presenter of a game kind (or of a ``Game``)."""
    from . import coup, kobayakawa

    kind = getattr(kind, "kind", kind)
    return {"coup": coup.PRESENTER, "kobayakawa": kobayakawa.PRESENTER}[kind]


def game_choices() -> list:
    """(kind, name) of every game, for the create-game form."""
    from . import coup, kobayakawa

    return [(p.kind, p.name) for p in (coup.PRESENTER, kobayakawa.PRESENTER)]
