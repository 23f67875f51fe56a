from django.urls import path, register_converter

from games.mail import views as email_views
from games.web import lobby, spectators, views


class TokenConverter:
    """A random token (``models.new_token``): URL-safe base64 characters only. Any
    other path is a 404 before it reaches the database, which refuses some
    characters outright (NUL)."""

    regex = "[A-Za-z0-9_-]{1,64}"

    def to_python(self, value):
        return value

    def to_url(self, value):
        return value


register_converter(TokenConverter, "token")

urlpatterns = [
    path("", views.home, name="home"),
    path("games/new/", views.game_create, name="game_create"),
    path("lobby/", lobby.lobby_list, name="lobby"),
    path("lobby/join", lobby.lobby_join, name="lobby_join"),
    path("lobby/play-now", lobby.play_now, name="lobby_play_now"),
    path("games/<int:pk>/fill-with-bots", lobby.fill_with_bots, name="game_fill_with_bots"),
    path("games/practice/", views.practice, name="game_practice"),
    path("games/past/", views.past_games, name="past_games"),
    path("stats/", views.stats, name="stats"),
    path("games/<int:pk>/", views.game, name="game"),
    path("games/<int:pk>/table", views.game_live, name="game_live"),
    path("games/<int:pk>/decide", views.decide, name="game_decide"),
    path("games/<int:pk>/chat", views.chat, name="game_chat"),
    path("games/<int:pk>/resign", views.resign, name="game_resign"),
    path("games/<int:pk>/pause", views.pause, name="game_pause"),
    path("games/<int:pk>/resume", views.resume, name="game_resume"),
    path("games/<int:pk>/more-time", views.extend, name="game_extend"),
    path("games/<int:pk>/invite", views.invite, name="game_invite"),
    path("games/<int:pk>/start", views.start, name="game_start"),
    path("games/<int:pk>/leave", views.leave, name="game_leave"),
    path("games/<int:pk>/bot", views.seat_bot, name="game_seat_bot"),
    path("games/<int:pk>/play-for-me", views.stand_in, name="game_stand_in"),
    path("games/<int:pk>/back", views.back, name="game_back"),
    path("games/<int:pk>/cancel", views.cancel, name="game_cancel"),
    path("games/<int:pk>/replay/", views.replay, name="game_replay"),
    path("games/<int:pk>/replay/opinion/<int:version>", views.second_opinion, name="game_second_opinion"),
    path("games/<int:pk>/history", views.game_history, name="game_history"),
    path("games/<int:pk>/rematch", views.rematch, name="game_rematch"),
    path("games/watch/", spectators.watch_list, name="watch_list"),
    path("games/<int:pk>/watch/", spectators.watch, name="game_watch"),
    path("games/<int:pk>/watch/table", spectators.watch_live, name="game_watch_live"),
    path("games/<int:pk>/watch/chat", spectators.watch_chat, name="game_watch_chat"),
    path("games/<int:pk>/follow", spectators.follow_game, name="game_follow"),
    path("games/<int:pk>/visibility", spectators.visibility, name="game_visibility"),
    path("players/<int:user_id>/follow", spectators.follow_player, name="player_follow"),
    path("players/<int:user_id>/block", spectators.block, name="player_block"),
    path("chat/<int:message_id>/report", spectators.report, name="chat_report"),
    path("join/<token:token>/", views.join, name="join"),
    path("invitations/<token:token>/", views.invitation, name="invitation"),
    path("a/<str:token>/", email_views.answer, name="answer"),
    path("unsubscribe/<str:token>/", email_views.unsubscribe, name="unsubscribe"),
    path("stop/<str:token>/", email_views.stop_mail, name="stop_mail"),
]
