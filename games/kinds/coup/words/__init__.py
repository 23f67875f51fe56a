"""Coup in words, for pages, emails and replies: ``names`` (characters, actions,
factions), ``decisions`` (each answer's label, the prompts), ``history`` (the
story of a game), ``replies`` (answers written by email), ``rules`` (the rules
and variants), ``tables`` (what the templates show)."""
