"""Reading the ways into a game gathering players: its shareable link, the
invitations sent to it, the seats taken so far."""

from games.models import Game, Invitation, OpenGame


def game_by_join_token(token: str) -> Game | None:
    """The game whose shareable link carries ``token``, if any."""
    return Game.objects.filter(join_token=token).first()


def invitation_by_token(token: str) -> Invitation | None:
    """The invitation an email's link names, with its game and who sent it."""
    return Invitation.objects.select_related("game", "invited_by").filter(token=token).first()


def rematch_invitation(game: Game, user) -> Invitation | None:
    """The invitation still waiting for ``user``'s account to ``game`` (a rematch)."""
    return game.invitations.filter(user=user, status=Invitation.Status.PENDING).first()


def seats_taken(game: Game) -> int:
    return game.seats.count()


def invitations_of(game: Game) -> list[Invitation]:
    """Every invitation to ``game``, oldest first, with the invited account's profile."""
    return list(game.invitations.select_related("user__profile").order_by("created_at"))


def open_game_of(game: Game) -> OpenGame | None:
    """``game``'s terms in the lobby, if its host opened it."""
    return OpenGame.objects.filter(game=game).first()
