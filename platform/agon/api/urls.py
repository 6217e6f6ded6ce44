"""The REST API, mounted at /api/."""

from django.urls import path

from agon.api import auth, bots, challenges, games, ladders, matches, root

urlpatterns = [
    path("", root.ApiRootView.as_view(), name="api-root"),
    path("auth/register/", auth.RegisterView.as_view(), name="register"),
    path("auth/token/", auth.TokenView.as_view(), name="token"),
    path("games/", games.GameListView.as_view(), name="games"),
    path("bots/", bots.BotListView.as_view(), name="bots"),
    path("bots/<int:bot_id>/", bots.BotDetailView.as_view(), name="bot"),
    path("bots/<int:bot_id>/versions/", bots.VersionListView.as_view(), name="bot-versions"),
    path(
        "bots/<int:bot_id>/versions/<int:number>/download/",
        bots.VersionDownloadView.as_view(),
        name="bot-version-download",
    ),
    path("ladders/", ladders.LadderListView.as_view(), name="ladders"),
    path(
        "ladders/<int:ladder_id>/leaderboard/",
        ladders.LeaderboardView.as_view(),
        name="leaderboard",
    ),
    path("matches/", matches.MatchListView.as_view(), name="matches"),
    path("matches/<int:match_id>/", matches.MatchDetailView.as_view(), name="match"),
    path("matches/<int:match_id>/replay/", matches.ReplayView.as_view(), name="match-replay"),
    path(
        "matches/<int:match_id>/timeline/", matches.TimelineView.as_view(), name="match-timeline"
    ),
    path(
        "matches/<int:match_id>/logs/<int:seat>/",
        matches.SeatLogView.as_view(),
        name="match-seat-log",
    ),
    path("challenges/", challenges.ChallengeView.as_view(), name="challenges"),
]
