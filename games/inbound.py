"""Answers written in a reply: "allow", "block duke", "steal ana", "keep duke captain".

A notification's Reply-To is the seat's signed reply address
(``tokens.reply_address``). Mail to it arrives through django-anymail's inbound
webhook (an ESP) or ``manage.py read_mail`` (a Maildir, an mbox or a pipe from
the MTA); both hand the message to ``receive``, which reads the first line the
player wrote and plays it through ``services.decision_submit``, the same call a
click makes.

Who may play: whoever can write to the signed address, and only that. The From
header is not checked: it is trivially forged, so checking it would add no
safety, and players often reply from an alias or a forwarding address that is not
their account's. The HMAC in the address is the secret (it is only ever sent to
the seat's player). Everything we write back goes to the seat's own account
address, never to the From, so a forger learns nothing and cannot use us to mail
anyone else.

Bad input never raises: a forged or unknown address, an auto-reply or a
duplicate is ignored; an unclear, illegal or stale answer for a real seat gets
the ``reply-unclear`` email, saying what we understood and listing the answers
legal now. Each call returns an ``Outcome`` for the caller's log.
"""

import hashlib
import logging
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC
from email import message_from_bytes, policy
from email.message import EmailMessage, Message
from email.utils import getaddresses, parseaddr, parsedate_to_datetime
from functools import cache
from html.parser import HTMLParser

from anymail.signals import inbound as anymail_inbound
from django.conf import settings
from django.core.cache import cache as django_cache
from django.dispatch import receiver
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import profile_of

from . import emails, services
from .engine.coup.cards import CARD_NAMES, Table
from .models import Event, Game, Seat
from .selectors import table_for
from .tokens import read_reply_address

log = logging.getLogger(__name__)

# Where the signed address may appear: a reply names it in To or Cc; a mail
# server that delivers to a catch-all or a Bcc records it in the last two.
ADDRESS_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To", "X-Envelope-To")
# How long a Message-ID is remembered, so a webhook retried by the ESP plays once.
SEEN_FOR = 14 * 24 * 3600
# At most this many explanations per seat per hour: whatever the headers say, a
# pair of robots answering each other stops quickly.
EXPLANATIONS_PER_HOUR = 5


@dataclass(frozen=True)
class Outcome:
    """What became of one message: ``played``, ``explained`` (the reply-unclear
    email went to the player) or ``ignored``, and a short reason."""

    status: str
    reason: str
    game_id: int | None = None
    position: int | None = None
    line: str = ""
    answer: str = ""

    def __str__(self):
        where = f" game {self.game_id} seat {self.position}" if self.game_id is not None else ""
        said = f" {self.line!r}" if self.line else ""
        played = f" -> {self.answer}" if self.answer else ""
        return f"{self.status} ({self.reason}){where}{said}{played}"


def receive(message: Message) -> Outcome:
    """Play the answer written on the first line of ``message``, a reply to a
    seat's signed address; explain to the player when it cannot be played."""
    if not isinstance(message, EmailMessage):  # compat32 messages (mailbox, older parsers)
        message = message_from_bytes(message.as_bytes(), policy=policy.default)
    if _is_automatic(message):
        return Outcome("ignored", "auto-reply")
    if _is_ours(message):
        return Outcome("ignored", "our-own-email")
    found = _reply_seat(message)
    if isinstance(found, Outcome):
        return found
    seat = found
    seen = _seen_key(message)
    if seen and not django_cache.add(seen, True, SEEN_FOR):
        return Outcome("ignored", "duplicate", seat.game_id, seat.position)
    try:
        return _answer(seat, message)
    except Exception:
        if seen:  # let a retry of the webhook, or the next read_mail, try again
            django_cache.delete(seen)
        raise


def _answer(seat: Seat, message: EmailMessage) -> Outcome:
    line = first_line(reply_text(message))
    with translation.override(profile_of(seat.user).language):
        outcome, problem, reading = _play(seat, line, _written_at(message))
        if problem is None:
            return outcome
        if not _may_explain(seat):
            return Outcome("ignored", "too-many-explanations", seat.game_id, seat.position, line)
        emails.send_reply_unclear(seat.pk, line=line, problem=problem, reading=reading)
    return outcome


# ---- whose reply is it -------------------------------------------------------------------


def _is_automatic(message: EmailMessage) -> bool:
    """Vacation notices, bounces and list traffic (RFC 3834): answering them could
    start a loop between two robots."""
    auto = str(message.get("Auto-Submitted", "no")).strip().lower()
    if auto and not auto.startswith("no"):
        return True
    if str(message.get("Precedence", "")).strip().lower() in {"bulk", "junk", "list", "auto_reply"}:
        return True
    if any(name in message for name in ("X-Autoreply", "X-Autorespond", "X-Auto-Response")):
        return True
    return str(message.get("Return-Path", "")).strip() == "<>"  # a bounce: null envelope sender


def _is_ours(message: EmailMessage) -> bool:
    """One of our own emails come back (a player's mailbox forwarding everything
    to the reply address): answering it would explain our explanation forever."""
    ours = {parseaddr(settings.DEFAULT_FROM_EMAIL)[1].lower(), parseaddr(settings.SERVER_EMAIL)[1].lower()}
    return any(address.lower() in ours for _name, address in getaddresses(message.get_all("From", [])))


def _addresses(message: EmailMessage) -> list[str]:
    values = [str(value) for name in ADDRESS_HEADERS for value in message.get_all(name, [])]
    envelope = getattr(message, "envelope_recipient", None)  # set by some anymail ESPs
    if envelope:
        values.append(str(envelope))
    return [address for _name, address in getaddresses(values) if address]


def _reply_seat(message: EmailMessage) -> Seat | Outcome:
    local = settings.REPLY_ADDRESS.split("@", 1)[0].lower() + "+"
    tagged = [a for a in _addresses(message) if a.lower().startswith(local)]
    for address in tagged:
        named = read_reply_address(address)
        if named is None:
            continue
        game_id, position = named
        seat = Seat.objects.select_related("game", "user__profile").filter(game_id=game_id, position=position).first()
        if seat is None:
            return Outcome("ignored", "no-such-seat", game_id, position)
        return seat
    if tagged:
        log.info("Ignored a reply to a forged reply address: %s", ", ".join(tagged))
        return Outcome("ignored", "forged-address")
    return Outcome("ignored", "no-reply-address")


def _seen_key(message: EmailMessage) -> str | None:
    """The cache key that marks ``message`` as received, so an ESP retrying its
    webhook, or a mailbox read twice, plays it once."""
    message_id = str(message.get("Message-ID", "")).strip()
    if not message_id:
        return None
    return "games.inbound.seen:" + hashlib.sha256(message_id.encode()).hexdigest()


def _may_explain(seat: Seat) -> bool:
    key = f"games.inbound.explained:{seat.game.join_token}:{seat.position}"
    django_cache.add(key, 0, 3600)
    try:
        return django_cache.incr(key) <= EXPLANATIONS_PER_HOUR
    except ValueError:  # expired between add and incr
        return True


def _written_at(message: EmailMessage):
    try:
        written = parsedate_to_datetime(str(message.get("Date", "")))
    except (TypeError, ValueError):
        return None
    if written is None:
        return None
    return written if written.tzinfo else written.replace(tzinfo=UTC)


# ---- what the player wrote ---------------------------------------------------------------


def reply_text(message: EmailMessage) -> str:
    """The plain text of the reply, or its HTML reduced to text (quoted parts dropped)."""
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    try:
        content = part.get_content()
    except (LookupError, ValueError, AssertionError):  # an unknown charset or a broken part
        payload = part.get_payload(decode=True) or b""
        content = payload.decode("utf-8", "replace")
    if not isinstance(content, str):
        return ""
    if part.get_content_subtype() == "html":
        return html_to_text(content)
    return content


class _TextOfHTML(HTMLParser):
    """Text of an HTML reply, one line per block, without quoted replies
    (``<blockquote>``, Gmail's ``gmail_quote``, Thunderbird's cite prefix)."""

    BLOCKS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "pre", "table"}
    SKIPPED = {"blockquote", "style", "script", "head", "title"}
    QUOTE_CLASSES = {"gmail_quote", "moz-cite-prefix", "yahoo_quoted", "gmail_attr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.stack: list[tuple[str, bool]] = []  # open tags, and whether each hides its content

    def _hidden(self) -> bool:
        return any(hides for _tag, hides in self.stack)

    def handle_starttag(self, tag, attrs):
        if tag in self.BLOCKS:
            self.parts.append("\n")
        if tag in ("br", "hr", "img", "meta", "link", "input"):
            return
        classes = set((dict(attrs).get("class") or "").split())
        self.stack.append((tag, tag in self.SKIPPED or bool(classes & self.QUOTE_CLASSES)))

    def handle_endtag(self, tag):
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                break
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data):
        if not self._hidden():
            self.parts.append(data)


def html_to_text(html: str) -> str:
    parser = _TextOfHTML()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)


# "On Mon, 3 Jan 2026, Coup <play+…> wrote:", in the languages mail clients use.
ATTRIBUTION = re.compile(
    r"^(on|el|em|le|am|op|il)\b.*\b(wrote|escribi[oó]|escreveu|a [ée]crit|schrieb|schreef|ha scritto)\s*:?$",
    re.IGNORECASE,
)
# Where a reply's own text ends: a signature ("-- "), or a forwarded or quoted original.
ENDS = re.compile(r"^(--|_{5,}|-{3,}\s*(original message|mensaje original|mensagem original)\s*-{3,})$", re.IGNORECASE)


def first_line(text: str) -> str:
    """The first line the player wrote: quoted lines (">"), an "On … wrote:"
    attribution (even wrapped over up to three lines) and everything below a
    signature separator are not theirs."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    index = 0
    while index < len(lines):
        line = lines[index].strip()
        if ENDS.match(line):
            return ""
        if not line or line.startswith(">"):
            index += 1
            continue
        attribution = next(
            (size for size in (1, 2, 3) if ATTRIBUTION.match(" ".join(x.strip() for x in lines[index : index + size]))),
            None,
        )
        if attribution:
            index += attribution
            continue
        return line
    return ""


# ---- reading the answer ------------------------------------------------------------------

# Each word (accents removed, lower case) and the acts it may mean. A word that
# means two acts ("keep" is also the draft's keep) is settled by what is legal.
ACT_WORDS = {
    "allow": (
        "allow pass ok okay accept fine permitir permito aceptar acepto paso pasar dejo aceitar aceito passo passar "
        "deixo"
    ),
    "challenge": "challenge doubt desafiar desafio dudar dudo duvidar duvido contestar contesto",
    "block": "block bloquear bloqueo bloqueio bloqueo",
    "income": "income ingreso ingresos renda rendimento",
    "foreign_aid": "foreign_aid aid ayuda ajuda",
    "tax": "tax taxes impuesto impuestos imposto impostos",
    "coup": "coup golpe",
    "assassinate": "assassinate assassination kill asesinar asesinato assassinar assassinato",
    "steal": "steal robar robo roubar roubo extorsion extorquir",
    "exchange": "exchange swap intercambiar intercambio cambiar cambio trocar troca",
    "examine": "examine examinar investigar interrogar",
    "embezzle": "embezzle embezzlement malversar malversacion desviar desvio",
    "convert": "convert conversion convertir converter conversao",
    "patronage": "patronage mecenazgo mecenato patrocinio patrocinar",
    "prove": "prove reveal probar pruebo provar provo revelar revelo",
    "show": "show mostrar muestro mostro ensenar ensenho",
    "concede": "concede admit ceder cedo conceder admitir admito",
    "lose": "lose discard perder pierdo perco descartar descarto",
    "keep": "keep quedar quedo quedarme conservar conservo guardar guardo manter mantenho ficar fico",
    "give_back": "give_back give return devolver devuelvo devolvo",
    "force_exchange": "force_exchange force forzar fuerzo forcar forco",
    "claim_inheritance": "claim_inheritance inherit inheritance heredar herencia herdar heranca reclamar reivindicar",
    "decline": "decline refuse rechazar rechazo recusar recuso declinar declino",
}
# Words that also mean a second act: showing a card proves a claim, keeping is drafting.
ALSO = {"show": {"prove"}, "prove": {"show"}, "keep": {"draft_keep"}}
# Answers of two words, read as one.
PHRASES = {
    ("foreign", "aid"): "foreign_aid",
    ("ayuda", "exterior"): "foreign_aid",
    ("ajuda", "externa"): "foreign_aid",
    ("ajuda", "estrangeira"): "foreign_aid",
    ("give", "back"): "give_back",
    ("force", "exchange"): "force_exchange",
    ("claim", "inheritance"): "claim_inheritance",
    ("draft", "keep"): "draft_keep",
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
NEGATIONS = {"not", "dont", "never", "no", "nao", "nunca", "ni", "nem", "cannot", "cant", "wont"}


def _acts_of_word() -> dict[str, tuple[str, frozenset]]:
    """word → (the act it names first, every act it may mean)."""
    found = {"draft_keep": ("draft_keep", frozenset({"draft_keep"}))}
    for act, words in ACT_WORDS.items():
        for word in words.split():
            found.setdefault(word, (act, frozenset({act, *ALSO.get(act, ())})))
    return found


ACTS_OF_WORD = _acts_of_word()


def normalize(text: str) -> str:
    """Lower case, accents dropped, possessives and punctuation gone: "Ana's Capitán!" → "ana capitan"."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(char for char in text if not unicodedata.combining(char)).casefold()
    text = re.sub(r"['’]s\b", "", text)
    text = re.sub(r"['’]", "", text)
    return " ".join(re.sub(r"[^\w]+", " ", text).split())


@cache
def card_words() -> dict[str, str]:
    """Every way to write a card: its id, and its name in each language of the site."""
    words = {card: card for card in CARD_NAMES}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            words.update({normalize(_(name)): card for card, name in CARD_NAMES.items()})
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
        """The reading in the words of ``emails.reply_word``: "steal ana", "block duke"."""
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
    reading = Reading()
    index = 0
    while index < len(words):
        word = words[index]
        phrase = PHRASES.get(tuple(words[index : index + 2]))
        if phrase:
            word = phrase
            index += 1
        index += 1
        if word in ACTS_OF_WORD:
            act, acts = ACTS_OF_WORD[word]
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
    return Counter([option[key] for key in ("as", "name", "card") if key in option] + list(option.get("cards", ())))


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
    claim = Table(frozenset(variants)).claims.get(pending.get("action"))
    mentioned_cards = {card for card in (claim, pending.get("block_card"), pending.get("name")) if card}
    mentioned_players = {pending.get(key) for key in ("player", "blocker", "target")} - {None}
    fits = {"exact": [], "partial": []}
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


# ---- playing it --------------------------------------------------------------------------


def _play(seat: Seat, line: str, written_at) -> tuple[Outcome, str | None, str]:
    """Play ``line`` for ``seat``: the outcome, and when it was not played, the
    problem to explain (in the active language) and what we read."""
    game, user = seat.game, seat.user

    def unclear(reason: str, problem: str, reading: str = "") -> tuple[Outcome, str, str]:
        return Outcome("explained", reason, game.pk, seat.position, line), problem, reading

    if not line:
        return unclear(
            "no-answer", _("We found no answer in your reply. Write it on the first line, above any quoted text.")
        )
    table = table_for(game, user)
    options = table["options"]
    names = table["names"]
    if not options:
        return unclear("not-awaited", _("The game is not waiting for an answer from you now."))
    version = options[0]["version"]
    if _written_before(game, version, written_at):
        return unclear(
            "stale", _("You wrote before the game asked the question it is waiting for now, so we did not play it.")
        )
    reading = read_line(line, names)
    understood = reading.describe(names)
    if reading.unknown:
        words = ", ".join(f"“{word}”" for word in reading.unknown)
        return unclear("not-understood", _("We did not understand: %(words)s.") % {"words": words}, understood)
    if reading.negated:
        return unclear("not-understood", _("Your answer says “not”: write only the answer you choose."), understood)
    if len(set(reading.acts)) > 1:
        return unclear("several-answers", _("Your answer names more than one move: write only one."), understood)
    if not reading.acts and not reading.cards and not reading.players:
        return unclear("not-understood", _("We found no answer in your reply."), understood)
    found = match(reading, options, (table["view"] or {}).get("pending"), game.variants)
    if found.option is None and found.candidates:
        answers = " / ".join(emails.reply_word(option, names) for option in found.candidates)
        problem = _("That could mean more than one answer: %(answers)s.") % {"answers": answers}
        return unclear("ambiguous", problem, understood)
    if found.option is None:
        return unclear("not-legal", _("That is not one of your answers now."), understood)
    answer = emails.reply_word(found.option, names)
    command = {key: value for key, value in found.option.items() if key != "version"}
    try:
        services.decision_submit(game=game, user=user, command=command, version=version)
    except services.ServiceError as error:
        reason = "stale" if isinstance(error, services.DecisionPassed) else "refused"
        return unclear(reason, error.message, answer)
    log.info("Played %r for game %s seat %s from a reply", answer, game.pk, seat.position)
    return Outcome("played", "played", game.pk, seat.position, line, answer), None, answer


def _written_before(game: Game, version: int, written_at) -> bool:
    """Whether a reply dated ``written_at`` was written before the decision awaited
    at ``version`` was asked: it answers an earlier question (a late reply, or a
    redelivered one), and must not be played on this one. The Date header is the
    player's own clock; it is a guard against mistakes, not a security check."""
    if written_at is None or version == 0:
        return False
    asked = Event.objects.filter(game=game, seq=version - 1).values_list("created_at", flat=True).first()
    # A Date header counts whole seconds: a reply in the same second is not late.
    return asked is not None and written_at < asked.replace(microsecond=0)


# ---- django-anymail's inbound webhook ----------------------------------------------------


@receiver(anymail_inbound, dispatch_uid="games.inbound.receive")
def _on_inbound(sender, event, esp_name, **kwargs):
    """An ESP posted a message to /anymail/<esp>/inbound/ (authenticated by
    ANYMAIL["WEBHOOK_SECRET"]): play it like any other reply."""
    outcome = receive(event.message)
    log.info("Inbound email from %s: %s", esp_name, outcome)
