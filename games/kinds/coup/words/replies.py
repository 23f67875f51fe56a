"""Coup's answers written in a reply: "allow", "block duke", "steal ana", "keep duke captain".

``CoupReplies.read`` sorts the words of a line into acts, cards and players, and
finds the one legal option they name (``games/mail/inbound.py`` does the rest: whose
reply it is, the first line, playing it, explaining a refusal); ``CoupReplies.word``
writes an option as a reply would. A turn action's words are on its record
(``engine/actions.py``); the other answers' are here.
"""

from collections import Counter
from dataclasses import dataclass, field
from functools import cache

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from games.kinds.coup.engine.actions import ACTIONS
from games.kinds.coup.engine.cards import rulebook_for
from games.kinds.coup.engine.characters import CHARACTERS
from games.kinds.coup.words.names import card_name
from games.kinds.words import Replies, Reply, normalize

# Each word (accents removed, lower case) and the acts it may mean. A word that
# means two acts ("keep" is also the draft's keep) is settled by what is legal.
ACT_WORDS = {
    "allow": (
        "allow pass ok okay accept fine permitir permito aceptar acepto paso pasar dejar dejo aceitar aceito passo "
        "passar deixar deixo"
    ),
    "challenge": "challenge doubt desafiar desafio dudar dudo duvidar duvido contestar contesto",
    "block": "block bloquear bloqueo bloqueio bloqueo",
    **{act: action.reply_words for act, action in ACTIONS.items()},
    "prove": "prove reveal probar pruebo provar provo revelar revelo",
    "show": "show mostrar muestro mostro ensenar ensenho",
    "concede": "concede admit ceder cedo conceder admitir admito",
    "lose": "lose discard perder pierdo perco descartar descarto",
    "keep": (
        "keep quedar quedo quedarme quedarte conservar conservo guardar guardo escoger escojo manter mantenho ficar "
        "fico escolher escolho"
    ),
    "give_back": "give_back give return devolver devuelvo devolvo",
    "force_exchange": "force_exchange force forzar fuerzo obligar obligo forcar forco obrigar obrigo",
    "claim_inheritance": "claim_inheritance inherit inheritance heredar herencia herdar heranca reclamar reivindicar",
    "decline": "decline refuse rechazar rechazo recusar recuso declinar declino",
}
# Words that also mean a second act: showing a card proves a claim, keeping is
# drafting, losing a card concedes a challenge (the concession offered with its loss).
ALSO = {"show": {"prove"}, "prove": {"show"}, "keep": {"draft_keep"}, "lose": {"concede"}}
# Answers of two words, read as one.
PHRASES = {
    **{tuple(phrase.split()): act for act, action in ACTIONS.items() for phrase in action.reply_phrases},
    ("give", "back"): "give_back",
    ("force", "exchange"): "force_exchange",
    ("claim", "inheritance"): "claim_inheritance",
    ("draft", "keep"): "draft_keep",
}
# How an email writes each act in a reply, in the reader's language: the first
# word of its button ("Show your Duke": "show"), so that a reply may say what the
# button says; every language's word is understood in any reply (``translated_acts``).
REPLY_WORDS = {
    "allow": pgettext_lazy("reply word", "allow"),
    "challenge": pgettext_lazy("reply word", "challenge"),
    "block": pgettext_lazy("reply word", "block"),
    **{act: pgettext_lazy("reply word", action.reply) for act, action in ACTIONS.items()},
    "prove": pgettext_lazy("reply word", "show"),
    "show": pgettext_lazy("reply word", "show"),
    "concede": pgettext_lazy("reply word", "concede"),
    "lose": pgettext_lazy("reply word", "lose"),
    "keep": pgettext_lazy("reply word", "keep"),
    "give_back": pgettext_lazy("reply word", "give back"),
    "force_exchange": pgettext_lazy("reply word", "force exchange"),
    "claim_inheritance": pgettext_lazy("reply word", "claim inheritance"),
    "decline": pgettext_lazy("reply word", "decline"),
    "draft_keep": pgettext_lazy("reply word", "keep"),
}
# Small words a sentence adds around an answer ("block as duke", "steal from Ana").
FILLER = set(
    (
        "i a an the my me as with from to on of and it let please pls thanks thank you thx naming name card cards "
        "his her their them is will ll now "
        "yo el la los las un una mi mis con como de del al y e por favor gracias carta cartas lo le su sus "
        "eu o os um uma meu minha meus minhas com do da dos das obrigado obrigada para seu sua"
    ).split()
)
# The fields of an option that name a card written after its target ("coup ana duke",
# "concede captain"); a block's card ("as") comes before it ("block duke").
NAMED_CARDS = ("name", "card", "lose")
NEGATIONS = {"not", "dont", "never", "no", "nao", "nunca", "ni", "nem", "cannot", "cant", "wont"}


def _acts_of_word() -> dict[str, tuple[str, frozenset]]:
    """word → (the act it names first, every act it may mean)."""
    found = {"draft_keep": ("draft_keep", frozenset({"draft_keep"}))}
    for act, words in ACT_WORDS.items():
        for word in words.split():
            found.setdefault(word, (act, frozenset({act, *ALSO.get(act, ())})))
    return found


ACTS_OF_WORD = _acts_of_word()


@cache
def translated_acts() -> tuple[dict[str, tuple[str, frozenset]], dict[tuple, str]]:
    """The reply words of every language of the site (``REPLY_WORDS``): single
    words as in ``ACTS_OF_WORD``, and two-word answers as in ``PHRASES``."""
    words: dict[str, tuple[str, frozenset]] = {}
    phrases: dict[tuple, str] = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            for act, word in REPLY_WORDS.items():
                parts = tuple(normalize(str(word)).split())
                if len(parts) == 1:
                    words.setdefault(parts[0], (act, frozenset({act, *ALSO.get(act, ())})))
                else:
                    phrases.setdefault(parts, act)
    return words, phrases


@cache
def card_words() -> dict[str, str]:
    """Every way to write a card: its id, and its name in each language of the site."""
    words = {card: card for card in CHARACTERS}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            words.update({normalize(card_name(card)): card for card in CHARACTERS})
    return words


@dataclass
class Reading:
    """What the words of a line say; ``players`` holds, per name written, the
    engine names it may mean."""

    acts: list[frozenset] = field(default_factory=list)
    act_names: list[str] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    players: list[frozenset] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    negated: bool = False

    def describe(self, names: dict) -> str:
        """The reading in the words of ``reply_word``: "steal ana", "block duke"."""
        words = [act.replace("_", " ") for act in self.act_names]
        words += ["/".join(sorted(_first_name(names, p) for p in players)) for players in self.players]
        return " ".join(words + self.cards)


def _first_name(names: dict, player: str) -> str:
    return (names.get(player, player).split() or [player])[0].lower()


def read_line(line: str, names: dict) -> Reading:
    """Sort the words of ``line`` into acts, cards and players (by display name:
    a whole word of it, or the start of one with three letters or more)."""
    words = normalize(line).split()
    player_words = {player: normalize(name).split() for player, name in names.items()}
    cards = card_words()
    translated_words, translated_phrases = translated_acts()
    acts_of_word = translated_words | ACTS_OF_WORD
    reading = Reading()
    index = 0
    while index < len(words):
        word = words[index]
        pair = tuple(words[index : index + 2])
        phrase = PHRASES.get(pair) or translated_phrases.get(pair)
        if phrase:
            word = phrase
            index += 1
        index += 1
        if word in acts_of_word:
            act, acts = acts_of_word[word]
            reading.act_names.append(act)
            reading.acts.append(acts)
        elif word in cards or (word.endswith("s") and word[:-1] in cards):
            reading.cards.append(cards.get(word) or cards[word[:-1]])
        elif word in NEGATIONS:
            reading.negated = True
        elif word in FILLER:
            continue
        else:
            exact = frozenset(p for p, parts in player_words.items() if word in parts)
            prefix = frozenset(
                p for p, parts in player_words.items() if len(word) >= 3 and any(w.startswith(word) for w in parts)
            )
            if exact or prefix:
                reading.players.append(exact or prefix)
            else:
                reading.unknown.append(word)
    return reading


def _option_cards(option: dict) -> Counter:
    return Counter([option[key] for key in ("as", *NAMED_CARDS) if key in option] + list(option.get("cards", ())))


def _fit(option: dict, reading: Reading, acts, mentioned_cards: set, mentioned_players: set) -> str | None:
    """``"exact"`` when ``reading`` names ``option`` in full, ``"partial"`` when
    it leaves out a card or a player, None when it names something else. Words
    about the claim at stake are allowed too ("challenge ana", "challenge duke")."""
    if acts is not None and option["act"] not in acts:
        return None
    wanted = _option_cards(option)
    written = Counter(reading.cards)
    if any(card not in mentioned_cards for card in (written - wanted).elements()):
        return None
    complete = not (wanted - written)
    mentions = list(reading.players)
    target = option.get("target")
    if target is not None:
        named = next((m for m in mentions if target in m), None)
        if named is None:
            complete = False
        else:
            mentions.remove(named)
    if any(not (players & mentioned_players) for players in mentions):
        return None
    return "exact" if complete else "partial"


@dataclass
class Match:
    option: dict | None = None
    candidates: list[dict] = field(default_factory=list)


def match(reading: Reading, options: list[dict], pending: dict | None = None, variants=()) -> Match:
    """The one legal option that ``reading`` names, or the candidates it might
    mean. A full reading wins over readings that leave something out ("convert"
    is converting yourself, not converting someone unnamed)."""
    pending = pending or {}
    acts = None
    if reading.acts:
        acts = reading.acts[0]
    elif len({option["act"] for option in options}) != 1:
        return Match()  # no act written, and the answers differ by act
    claim = rulebook_for(frozenset(variants)).claims.get(pending["action"]) if pending else None
    mentioned_cards = {card for card in (claim, pending.get("block_card"), pending.get("name")) if card}
    mentioned_players = {pending.get(key) for key in ("player", "blocker", "target")} - {None}
    fits: dict[str, list[dict]] = {"exact": [], "partial": []}
    for option in options:
        fit = _fit(option, reading, acts, mentioned_cards, mentioned_players)
        if fit:
            fits[fit].append(option)
    for kind in ("exact", "partial"):
        if len(fits[kind]) == 1:
            return Match(fits[kind][0])
        if fits[kind]:
            return Match(None, fits[kind])
    return Match()


class CoupReplies(Replies):
    def word(self, option: dict, names: dict) -> str:
        """How to write ``option`` in a reply, in the active language: "steal ana",
        "bloquear capitán", "manter duque capitão"."""
        words = [str(REPLY_WORDS[option["act"]])]
        if "as" in option:
            words.append(card_name(option["as"]).lower())
        if "target" in option:
            words.append(names.get(option["target"], option["target"]).split()[0].lower())
        cards = [option[key] for key in NAMED_CARDS if key in option] + list(option.get("cards", ()))
        words.extend(card_name(card).lower() for card in cards)
        return " ".join(words)

    def read(self, line: str, table) -> Reply:
        """The legal option of ``table.options`` that ``line`` names, or why none."""
        names = table.names
        options = table.options
        reading = read_line(line, names)
        understood = reading.describe(names)
        if reading.unknown:
            words = ", ".join(f"“{word}”" for word in reading.unknown)
            return Reply(None, "not-understood", _("We did not understand: %(words)s.") % {"words": words}, understood)
        if reading.negated:
            return Reply(
                None, "not-understood", _("Your answer says “not”: write only the answer you choose."), understood
            )
        if len(set(reading.acts)) > 1:
            return Reply(
                None, "several-answers", _("Your answer names more than one move: write only one."), understood
            )
        if not reading.acts and not reading.cards and not reading.players:
            return Reply(None, "not-understood", _("We found no answer in your reply."), understood)
        found = match(reading, options, (table.view or {}).get("pending"), table.game.variants)
        if found.option is None and found.candidates:
            answers = " / ".join(self.word(option, names) for option in found.candidates)
            problem = _("That could mean more than one answer: %(answers)s.") % {"answers": answers}
            return Reply(None, "ambiguous", problem, understood, found.candidates)
        if found.option is None:
            return Reply(None, "not-legal", _("That is not one of your answers now."), understood)
        return Reply(found.option, understood=understood)
