"""A complete, comparable picture of an engine state, for equality checks in tests."""


def snapshot(value):
    if hasattr(value, "__slots__"):
        return {name: snapshot(getattr(value, name)) for name in value.__slots__ if name not in ("by_name", "rulebook")}
    if isinstance(value, dict):
        return {key: snapshot(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [snapshot(item) for item in value]
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    return value
