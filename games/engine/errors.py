"""The one error type the engine raises for a command the rules forbid, and the
marks that put the engine's text into the translation catalogues.

Messages are written for players. Each message template, and every other string
of the engine that a player reads (a card's name, an action's words), is marked
with ``gettext_noop`` (or ``pgettext_noop``, when the catalogue keeps it under a
context) so the web layer can extract and translate it; the engine itself imports
nothing from Django.
"""


def gettext_noop(message: str) -> str:
    """Mark a string for translation catalogues without translating it here."""
    return message


def pgettext_noop(context: str, message: str) -> str:
    """Mark a string for translation catalogues under ``context`` without
    translating it here: whoever translates it passes the same context to
    ``pgettext`` (``makemessages`` extracts it as ``pgettext_noop:1c,2``)."""
    return message


class IllegalMove(Exception):
    """A command the rules forbid in the current state; the state is unchanged.

    ``template`` is the untranslated message with ``{name}`` placeholders and
    ``params`` fills them (a list parameter reads as a comma-separated list);
    ``str(error)`` is the English sentence.
    """

    def __init__(self, template: str, **params):
        self.template = template
        self.params = params
        shown = {key: ", ".join(value) if isinstance(value, list) else value for key, value in params.items()}
        super().__init__(template.format(**shown))

    @property
    def message(self) -> str:
        return str(self)
