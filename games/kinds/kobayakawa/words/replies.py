"""Kobayakawa's answers written in a reply: "draw", "discard 7", "apostar"."""

from functools import cache

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from games.kinds.words import Replies, Reply, normalize

# Each act and the words (accents removed, lower case) that may mean it.
ACT_WORDS = {
    "draw": "draw take robar robo tomar tomo comprar compro pegar pego",
    "flip": "flip turn voltear volteo girar giro virar viro",
    "discard": "discard descartar descarto",
    "bet": "bet apostar apuesto aposto",
    "pass": "pass paso pasar passo passar",
}
ACT_OF_WORD = {word: act for act, words in ACT_WORDS.items() for word in words.split()}
# How an email writes each act in a reply, in the reader's language; every
# language's word is understood in any reply (``_acts_of_word``).
REPLY_WORDS = {
    "draw": pgettext_lazy("reply word", "draw"),
    "flip": pgettext_lazy("reply word", "flip"),
    "discard": pgettext_lazy("reply word", "discard"),
    "bet": pgettext_lazy("reply word", "bet"),
    "pass": pgettext_lazy("reply word", "pass"),
}
FILLER = set("i a the my card la el mi carta o a minha um uma un una please por favor".split())


@cache
def _acts_of_word() -> dict[str, str]:
    """``ACT_OF_WORD`` with the reply words of every language of the site."""
    found = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            found.update({normalize(str(word)): act for act, word in REPLY_WORDS.items()})
    return found | ACT_OF_WORD


class KobayakawaReplies(Replies):
    def word(self, option: dict, names: dict) -> str:
        """How to write ``option`` in a reply, in the active language: "draw", "apostar", "discard 7"."""
        word = str(REPLY_WORDS[option["act"]])
        if "card" in option:
            return f"{word} {option['card']}"
        return word

    def read(self, line: str, table) -> Reply:
        words = normalize(line).split()
        acts, numbers, unknown = [], [], []
        acts_of_word = _acts_of_word()
        for word in words:
            if word.isdigit():
                numbers.append(int(word))
            elif word in acts_of_word:
                acts.append(acts_of_word[word])
            elif word not in FILLER:
                unknown.append(word)
        understood = " ".join(acts + [str(n) for n in numbers])
        if unknown:
            quoted = ", ".join(f"“{word}”" for word in unknown)
            return Reply(None, "not-understood", _("We did not understand: %(words)s.") % {"words": quoted}, understood)
        if len(set(acts)) > 1 or len(numbers) > 1:
            return Reply(
                None, "several-answers", _("Your answer names more than one move: write only one."), understood
            )
        if not acts and not numbers:
            return Reply(None, "not-understood", _("We found no answer in your reply."), understood)
        act = acts[0] if acts else "discard"
        fits = [o for o in table.options if o["act"] == act and (not numbers or o.get("card") == numbers[0])]
        if len(fits) > 1:
            answers = " / ".join(self.word(o, table.names) for o in fits)
            problem = _("That could mean more than one answer: %(answers)s.") % {"answers": answers}
            return Reply(None, "ambiguous", problem, understood, fits)
        if not fits:
            return Reply(None, "not-legal", _("That is not one of your answers now."), understood)
        return Reply(fits[0], understood=understood)
