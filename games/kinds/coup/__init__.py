"""Coup and its variants: ``engine/`` (the rules, pure Python), ``words/`` (names,
decisions, history, replies, rules, tables), ``stats.py``, ``templates/coup/``,
``templatetags/coup.py``, put together in ``kind.py``."""
