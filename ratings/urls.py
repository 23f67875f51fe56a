from django.urls import path

from ratings import views

urlpatterns = [
    path("leaderboard/", views.leaderboards, name="leaderboards"),
    path("leaderboard/<str:kind>/", views.leaderboard, name="leaderboard"),
    path("players/<int:pk>/", views.player, name="player"),
]
