"""Events: the append-only facts a game is made of.

An event is plain JSON. Its ``data`` is public; its ``secret`` part (a face-down
card drawn, the court order after a shuffle) is shown only to the players named in
``seen_by``. Type names are stable once stored; ``v`` lets an old event be upgraded
on read.
"""

EVENT_VERSION = 1


class Event:
    __slots__ = ("type", "data", "secret", "seen_by")

    def __init__(self, type: str, data: dict, secret: dict | None = None, seen_by: tuple = ()):
        self.type = type
        self.data = data
        self.secret = secret
        self.seen_by = seen_by

    def visible_to(self, player: str | None) -> dict:
        """The event's fields that ``player`` may know (``None``: public only)."""
        if self.secret and player is not None and player in self.seen_by:
            return {**self.data, **self.secret}
        return dict(self.data)

    def to_json(self) -> dict:
        stored = {"v": EVENT_VERSION, "type": self.type, "data": self.data}
        if self.secret is not None:
            stored["secret"] = self.secret
            stored["seen_by"] = list(self.seen_by)
        return stored

    @classmethod
    def from_json(cls, stored: dict) -> "Event":
        return cls(stored["type"], stored["data"], stored.get("secret"), tuple(stored.get("seen_by", ())))

    def __eq__(self, other):
        return isinstance(other, Event) and self.to_json() == other.to_json()

    def __repr__(self):
        return f"Event({self.type!r}, {self.data!r}, secret={self.secret!r})"
