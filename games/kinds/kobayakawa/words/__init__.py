"""Kobayakawa (docs/rules.md §6) in words, for pages, emails and replies, a module
per part of the kind: ``names`` (medals), ``decisions`` (each answer's label, the
prompts), ``history`` (the story of a game), ``replies`` (answers written by email),
``rules`` (the rules and the card reference), ``tables`` (what the templates show)."""
