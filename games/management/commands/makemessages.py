"""``python manage.py makemessages``, extracting also the engine's ``pgettext_noop``.

The engine imports nothing from Django, so it marks its translatable text with
its own ``gettext_noop`` and ``pgettext_noop`` (``games/engine/errors.py``).
Django's command already extracts ``gettext_noop``; this one adds the keyword for
``pgettext_noop(context, message)``, so a string the engine keeps under a context
(an action's name, its reply word) lands in the catalogue under that context.
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=pgettext_noop:1c,2"]
